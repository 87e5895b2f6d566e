"""The First player section's verdict on the seats' compensations (reports/gem_runner/
findings.py, compensation): beyond two players it names the seat furthest from its fair share
with the compensation nearest, so that Gems at the start that even seat 1 by lifting another
seat far above its share are read as such; tied compensations are set apart one from another."""

from __future__ import annotations

from reports.compare.compare import compare
from reports.gem_runner import findings, page
from reports.gem_runner.levers import FIRST_KIND, pairs_of
from reports.gem_runner.report import REPORT
from tests.games.gem_runner.test_report import H2H, game_row, run, said, variant


def winners(shares: tuple[int, ...]) -> list[int]:
    """Seat k+1 wins shares[k] games, in seat order."""
    return [k + 1 for k, n in enumerate(shares) for _ in range(n)]


def test_the_seat_furthest_from_its_share_is_named_with_the_compensation():
    base, given = winners((240, 400, 360)), winners((330, 200, 470))
    rows = [game_row(0, g, players=3, winner=w) for g, w in enumerate(base)]
    rows += [game_row(1, g, players=3, winner=w) for g, w in enumerate(given)]
    made = run(rows, [variant(0, {**H2H, "start_gems": ""}, 3, swept={"start_gems": ""}),
                      variant(1, {**H2H, "start_gems": "2,0,1"}, 3,
                              swept={"start_gems": "2,0,1"})], {"start_gems": ["", "2,0,1"]})
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    assert [p.kind for p in pairs] == [FIRST_KIND]
    say = said(REPORT.analyse(made), "What evens the first player", pairs)
    assert say.startswith("At 3 players, Gems at the start by seat 2,0,1 evens the first "
                          "player best: 33.0%"), say
    assert say.endswith("the seat furthest from its share is then seat 3, with 47.0% (36.0% "
                        "with the unchanged rules)."), say


def test_tied_compensations_are_set_apart_one_from_another():
    rows = [game_row(0, g, winner=1 if g < 430 else 2) for g in range(1000)]
    rows += [game_row(1, g, winner=1 if g < 495 else 2) for g in range(1000)]
    rows += [game_row(2, g, winner=1 if g < 505 else 2) for g in range(1000)]
    levers = [(0, 0), (1, 1), (1, 2)]
    made = run(rows, [variant(i, {**H2H, "first_gems": g, "first_cards": c},
                              swept={"first_gems": g, "first_cards": c})
                      for i, (g, c) in enumerate(levers)],
               {"first_gems": [g for g, _ in levers], "first_cards": [c for _, c in levers]})
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    say = said(REPORT.analyse(made), "What evens the first player", pairs)
    assert say.startswith("At 2 players, 2 settings bring the first player as near its fair "
                          "50.0% as each other on these games: "), say
    assert say.count(";") == 1, say


def test_a_run_of_two_players_is_read_player_by_player_against_its_own_rules():
    first = {("runner", 0): 430, ("runner", 1): 500, ("search", 0): 300, ("search", 1): 480}
    variants, rows = [], []
    for i, (h, gems) in enumerate((h, g) for h in ("runner", "search") for g in (0, 1)):
        variants.append(variant(i, {**H2H, "first_gems": gems}, heuristic=h,
                                swept={"heuristic": h, "first_gems": gems}))
        rows += [game_row(i, g, heuristic=h, winner=1 if g < first[h, gems] else 2)
                 for g in range(1000)]
    made = run(rows, variants, {"heuristic": ["runner", "runner", "search", "search"],
                                "first_gems": [0, 1, 0, 1]})
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    says = [v.sentence for v in findings.verdicts(REPORT.analyse(made), pairs, {})
            if v.topic == "What evens the first player"]
    assert says == [
        "At 2 players with Runner, a Gem for seat 1 at the start evens the first player best: "
        "50.0% of the games a player won against 43.0% with the unchanged rules (fair 50.0%), "
        "a paired change of +7 pp (6 to 9).",
        "At 2 players with Search, a Gem for seat 1 at the start evens the first player best: "
        "48.0% of the games a player won against 30.0% with the unchanged rules (fair 50.0%), "
        "a paired change of +18 pp (16 to 21)."], says


def test_the_section_gives_each_player_its_own_compensation_table():
    variants, rows = [], []
    for i, (h, gems) in enumerate((h, g) for h in ("runner", "search") for g in (0, 1)):
        variants.append(variant(i, {**H2H, "first_gems": gems}, heuristic=h,
                                swept={"heuristic": h, "first_gems": gems}))
        rows += [game_row(i, g, heuristic=h, winner=1 if g < 400 + 100 * gems else 2)
                 for g in range(200)]
    made = run(rows, variants, {"heuristic": ["runner", "runner", "search", "search"],
                                "first_gems": [0, 1, 0, 1]})
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    s = page.first_section(REPORT.analyse(made), pairs)
    titles = [b.heading for b in s.blocks if b.heading.startswith("Compensation")]
    assert titles == ["Compensation in made, 2 players, Runner (fair share 50.0%)",
                      "Compensation in made, 2 players, Search (fair share 50.0%)"]
