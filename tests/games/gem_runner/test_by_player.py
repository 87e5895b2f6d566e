"""Gem Runner's Verdicts by player where the player is a setting beside another lever
(reports/gem_runner/by_player.py): `balance compare` pairs each variant with its own player's
baseline, so the runner and the search player are never paired there; the report pairs them on
the same shuffles for each answer (the first player's share, the seats' wins against the
Computer, a deck's share) and says whether it holds for both players or moves, and by how much.
Each games table's answer is known by hand."""

from __future__ import annotations

from reports.compare.compare import compare
from reports.gem_runner import findings, page
from reports.gem_runner.levers import PLAYERS_KIND, pairs_of
from reports.gem_runner.report import REPORT
from tests.games.gem_runner.test_report import H2H, game_row, run, variant


def by_player(made):
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    a = REPORT.analyse(made)
    return a, pairs


def first_run():
    """Runner and search, with and without seat 1's Gem, on the same 1,000 shuffles: seat 1
    wins 430 of them either way without the Gem; with it the runner's 500, the search's 700."""
    wins = {(0, "runner"): 430, (1, "runner"): 500, (0, "search"): 430, (1, "search"): 700}
    variants, rows = [], []
    for i, (h, gems) in enumerate((h, g) for h in ("runner", "search") for g in (0, 1)):
        variants.append(variant(i, {**H2H, "first_gems": gems}, heuristic=h,
                                swept={"heuristic": h, "first_gems": gems}))
        rows += [game_row(i, g, heuristic=h, winner=1 if g < wins[gems, h] else 2)
                 for g in range(1000)]
    return run(rows, variants, {"heuristic": ["runner", "runner", "search", "search"],
                                "first_gems": [0, 1, 0, 1]})


def test_the_compare_pairs_no_player_with_another_where_the_player_is_a_setting():
    _, pairs = by_player(first_run())
    assert pairs and all(p.kind != PLAYERS_KIND for p in pairs)
    assert all(p.seats == p.base_seats for p in pairs)


def test_the_first_player_s_share_is_paired_between_the_players_on_the_same_shuffles():
    a, pairs = by_player(first_run())
    rows = {r["setting"]: r for r in a.by_player.to_dicts()}
    assert set(rows) == {"no Gem for seat 1", "a Gem for seat 1 at the start"}
    same, moved = rows["no Gem for seat 1"], rows["a Gem for seat 1 at the start"]
    assert (same["a"], same["b"], same["question"]) == ("runner", "search", "first")
    assert same["pairs"] == 1000 and same["difference"] == 0 and not same["found"]
    assert (moved["value_a"], moved["value_b"]) == (0.5, 0.7)
    assert abs(moved["difference"] - 0.2) < 1e-12 and moved["found"]
    assert moved["ci_low"] < 0.2 < moved["ci_high"]
    [v] = [v for v in findings.verdicts(a, pairs, {}) if v.topic == "Verdicts by player"]
    assert v.sentence.startswith("With Search rather than Runner on the same shuffles, 1 of 2 "
                                 "answers hold; the first player's share at 2 players (a Gem "
                                 "for seat 1 at the start) moves by +20 pp"), v.sentence
    s = page.players_section(a, pairs)
    [table] = s.blocks[0].tables
    verdicts = {row[0]: row[-1] for row in table.rows}
    assert verdicts == {
        "The first player's share at 2 players (no Gem for seat 1)": "holds for both players",
        "The first player's share at 2 players (a Gem for seat 1 at the start)":
            "moves by +20.0 pp"}
    assert table.headers[2:4] == ["Runner", "Search"]


def test_every_answer_that_holds_is_said_to_hold_for_both_players():
    rows = [game_row(i, g, players=1, heuristic=h, winner=1 if g < 500 else None)
            for i, h in enumerate(("runner", "search")) for g in range(400)]
    rows += [game_row(i + 2, g, players=1, heuristic=h, winner=1 if g < 150 else None)
             for i, h in enumerate(("runner", "search")) for g in range(400)]
    made = run(rows, [variant(i, {"decks": d}, 1, heuristic=h,
                              swept={"decks": d, "heuristic": h})
                      for i, (d, h) in enumerate(((1, "runner"), (1, "search"),
                                                  (2, "runner"), (2, "search")))],
               {"decks": [1, 1, 2, 2], "heuristic": ["runner", "search"] * 2})
    a, pairs = by_player(made)
    got = a.by_player.sort("decks").to_dicts()
    assert [(r["question"], r["decks"], r["value_a"], r["value_b"]) for r in got] == [
        ("computer", 1, 1.0, 1.0), ("computer", 2, 0.375, 0.375)]
    [v] = [v for v in findings.verdicts(a, pairs, {}) if v.topic == "Verdicts by player"]
    assert "every answer holds for both players (2 of 2" in v.sentence
    assert any("the seats' wins against the Computer, alone, two decks" in d for d in v.details)


def test_a_deck_s_share_is_paired_between_the_players_shuffle_by_shuffle():
    # Bit Boy against Giga Girl both ways round: the runner's Bit Boy wins 50% of its games,
    # the search's 70% (seat 1 with Bit Boy wins 350 of 500, seat 2 with it 350).
    heroes = [("bit_boy", "giga_girl"), ("giga_girl", "bit_boy")]
    first = {("runner", 0): 250, ("runner", 1): 250, ("search", 0): 350, ("search", 1): 150}
    variants, rows = [], []
    for h in ("runner", "search"):
        for k, (x, y) in enumerate(heroes):
            i = len(variants)
            variants.append(variant(i, {**H2H, "decks": 2, "hero1": x, "hero2": y},
                                    heuristic=h, swept={"heuristic": h, "hero1": x,
                                                        "hero2": y}))
            rows += [game_row(i, g, heuristic=h, winner=1 if g < first[h, k] else 2)
                     for g in range(500)]
    made = run(rows, variants, {"heuristic": ["runner"] * 2 + ["search"] * 2,
                                "hero1": [x for x, _ in heroes] * 2,
                                "hero2": [y for _, y in heroes] * 2})
    a, pairs = by_player(made)
    [deck] = a.by_player.filter(a.by_player["question"] == "deck").to_dicts()
    assert (deck["hero"], deck["against"], deck["pairs"]) == ("bit_boy", "giga_girl", 500)
    assert (deck["value_a"], deck["value_b"]) == (0.5, 0.7) and deck["found"]
    s = page.players_section(a, pairs)
    rows = {row[0]: row for row in s.blocks[0].tables[0].rows}
    assert rows["Bit Boy's deck against Giga Girl's"][1] == "500 shuffles"


def test_a_run_of_the_players_alone_is_read_once_by_its_comparison():
    rows = [game_row(0, g, winner=1 if g < 500 else 2, heuristic="runner")
            for g in range(1000)]
    rows += [game_row(1, g, winner=1 if g < 800 else 2, heuristic="search")
             for g in range(1000)]
    made = run(rows, [variant(0, H2H, heuristic="runner", swept={"heuristic": "runner"}),
                      variant(1, H2H, heuristic="search", swept={"heuristic": "search"})])
    a, pairs = by_player(made)
    assert a.by_player["lever"].to_list() == [True]
    verdicts = [v for v in findings.verdicts(a, pairs, {}) if v.topic == "Verdicts by player"]
    assert len(verdicts) == 1 and "the first player's wins by +30" in verdicts[0].sentence


def test_the_pool_s_part_is_paired_between_the_players():
    """Head to head on the same 1,000 shuffles: the runner's Pool decides no game, the
    search's 150; seat 1 wins 430 of them with either player."""
    variants, rows = [], []
    for i, h in enumerate(("runner", "search")):
        variants.append(variant(i, {**H2H, "first_gems": 0}, heuristic=h,
                                swept={"heuristic": h, "first_gems": 0}))
        rows += [game_row(i, g, heuristic=h, winner=1 if g < 430 else 2,
                          pool=(int(h == "search" and g % 1000 < 150), 0, 0, 0))
                 for g in range(1000)]
    rows += [game_row(2, g, heuristic="runner", winner=1 if g < 500 else 2)
             for g in range(1000)]
    variants.append(variant(2, {**H2H, "first_gems": 1}, heuristic="runner",
                            swept={"heuristic": "runner", "first_gems": 1}))
    made = run(rows, variants, {"heuristic": ["runner", "search", "runner"],
                                "first_gems": [0, 0, 1]})
    a, pairs = by_player(made)
    [pool] = [r for r in a.by_player.to_dicts() if r["question"] == "pool"]
    assert (pool["value_a"], pool["value_b"], pool["pairs"]) == (0.0, 0.15, 1000)
    assert pool["found"] and abs(pool["difference"] - 0.15) < 1e-12
    [v] = [v for v in findings.verdicts(a, pairs, {}) if v.topic == "Verdicts by player"]
    assert "the games the Pool decides at 2 players" in v.sentence, v.sentence
