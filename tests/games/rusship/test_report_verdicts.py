"""Rusship's report says what a designer decides from, once and in the game's words (issue
50): the first player is whoever the roll-off lets start, never seat 1; a verdict is stated
once over the players that played it, and a run too small to tell gets no verdict; options
that cannot be told apart are named together as a tie."""

from __future__ import annotations

from types import SimpleNamespace

from balance.games.rusship.game import GAME
from reports import headline
from reports.compare.compare import compare
from reports.outcomes import findings
from reports.rusship import findings as rfindings
from reports.rusship import page
from reports.rusship.levers import pairs_of
from reports.rusship.report import REPORT
from tests.games.rusship.test_report import game_row, manifest, table


def even_sides_first_player_ahead(n: int = 200) -> SimpleNamespace:
    """One variant: the starter alternates between the sides and wins 80% of the games, so
    each side wins half (a fair share) while the first player is far above it."""
    rows = []
    for g in range(n):
        starter = 1 + g % 2
        won = g % 10 < 8
        rows.append(game_row(0, g, starter=starter,
                             winner=starter if won else 3 - starter))
    games = table(rows, {"second_tokens": [0]})
    return SimpleNamespace(games=games, manifest=manifest([{"second_tokens": 0}]))


def test_the_terminal_names_the_sides_and_the_first_player_apart():
    made = even_sides_first_player_ahead()
    # words, not lines: the block wraps at 100 columns wherever a label ends
    said = " ".join(" ".join(headline._fairness_block(made.games, made.manifest, GAME)).split())
    assert "every seat within chance" not in said
    assert "the first player wins 80%" in said and "above its fair share" in said
    assert "Humanity and the Alien Empire each within chance" in said


def test_one_variants_headline_gives_the_first_player_beside_the_sides():
    made = even_sides_first_player_ahead()
    lines = headline.seat_lines(made.games, 2, game=GAME)
    assert any(x.strip().startswith("Humanity ") for x in lines)
    assert any(x.strip().startswith("the Alien Empire ") for x in lines)
    first = next(x for x in lines if "the first player" in x)
    assert "80%" in first and "above its fair share" in first


def test_the_summary_calls_seat_1_a_side_and_the_starter_the_first_player():
    made = even_sides_first_player_ahead()
    every = REPORT.sentences(REPORT.analyse(made))
    # the neutral outcome sentence gave seat 1's share as "the first player's"
    seat_one = [s for s in every if "fair share is" in s]
    assert seat_one and all("Humanity wins 50%" in s for s in seat_one)
    assert all("the first player wins 50%" not in s for s in every)
    assert any("the first player wins 80%" in s for s in every)


def test_the_comparison_names_the_sides():
    made = even_sides_first_player_ahead()
    games = made.games.vstack(made.games.with_columns(variant=1))
    m = manifest([{"second_tokens": 0}, {"second_tokens": 1}])
    names = set(compare(games, m).differences["name"].to_list())
    assert {"Humanity win share", "the Alien Empire win share"} <= names
    assert not any(n.startswith("seat ") for n in names)


def compensations_a_hair_apart() -> SimpleNamespace:
    """1,000 games on the same seeds: the first player (seat 1) wins 570 with the unchanged
    rules, 499 with second_tokens=1, second_bonus=2 and 498 with second_tokens=1,
    second_bonus=1: the two compensations a tenth of a point apart."""
    rows = []
    for v, won in enumerate((570, 498, 499)):
        rows += [game_row(v, g, starter=1, winner=1 if g < won else 2) for g in range(1000)]
    games = table(rows, {"second_tokens": [0, 1, 1], "second_bonus": [0, 1, 2]})
    m = manifest([{}, {"second_tokens": 1, "second_bonus": 1},
                  {"second_tokens": 1, "second_bonus": 2}])
    return SimpleNamespace(games=games, manifest=m)


def test_two_compensations_a_hair_apart_are_a_tie_not_a_closest():
    made = compensations_a_hair_apart()
    a = REPORT.analyse(made)
    cmp = compare(made.games, made.manifest)
    pairs = pairs_of([("made", cmp)], made.manifest, a.kinds)
    tied = page.closest(pairs)
    assert [p.label for p, _ in tied] == [
        "second player's head-start ships 1, second player's first-roll bonus 2",
        "second player's head-start ships 1, second player's first-roll bonus 1"]
    said = next(v for v in rfindings.verdicts(a, pairs, [("made", cmp)], {})
                if v.topic == "Compensation").sentence
    assert said.startswith("A tie:") and "closest" not in said.replace("none is the closest", "")
    one, two = (f"second player's head-start ships 1, second player's first-roll bonus {b}"
                for b in (1, 2))
    assert f"{one} (49.8%)" in said
    assert f"A tie: {two} (49.9%) and" in said
    assert "unchanged" not in said  # 57% is told apart from both by the paired difference
    block = page.compensation_block("made", pairs)
    assert block.paragraphs[0] == said


def test_nearest_and_largest_name_what_their_intervals_cannot_tell_apart():
    options = [("a", 0.499, 0.48, 0.52), ("b", 0.498, 0.47, 0.52), ("c", 0.57, 0.55, 0.59)]
    assert findings.nearest(options, 0.5) == ["a", "b"]
    assert findings.nearest([("a", 0.40, 0.39, 0.41), ("b", 0.30, 0.29, 0.31)], 0.5) == ["a"]
    assert findings.largest([("x", 6.5, 4.5, 8.4), ("y", 5.0, 3.0, 7.0),
                             ("z", 1.1, 0.2, 1.9)]) == ["x", "y"]
    assert findings.largest([("x", 6.5, 4.5, 8.4), ("z", 1.1, 0.2, 1.9)]) == ["x"]


def test_two_powers_whose_intervals_overlap_tie_for_the_strongest():
    """Without plus_one the side attacked first wins 10 of 40, without reroll 12 of 40,
    against 24 of 40 with the full box: each power clearly matters, neither more than the
    other on these games."""
    rows = []
    for g in range(40):
        rows.append(game_row(0, g, first_hit=1 if g < 24 else 2))
        rows.append(game_row(1, g, first_hit=1 if g < 10 else 2, first_power="reroll"))
        rows.append(game_row(2, g, first_hit=1 if g < 12 else 2))
    games = table(rows, {"ablate": ["none", "plus_one", "reroll"]})
    m = manifest([{}, {"box_plus_one": False}, {"box_reroll": False}], "ablation")
    cmp = compare(games, m)
    a = REPORT.analyse(SimpleNamespace(games=games, manifest=m))
    pairs = pairs_of([("ablation", cmp)], m, a.kinds)
    v = next(x for x in rfindings.verdicts(a, pairs, [("ablation", cmp)], {})
             if x.topic == "Strongest power")
    assert v.sentence.startswith("A tie for the strongest catch-up power: the +1 power")
    assert "reroll" in v.sentence and "is the strongest" not in v.sentence


def two_players_of_unequal_runs() -> SimpleNamespace:
    """The unchanged rules played by racer in 2,000 games and by reference in 200; the side
    attacked first (seat 1, who also starts) wins 56% and 55%: the same finding, on runs of
    very different sizes."""
    rows = [game_row(0, g, winner=1 if g % 100 < 56 else 2, first_hit=1) for g in range(2000)]
    rows += [game_row(1, g, winner=1 if g < 110 else 2, first_hit=1) | {"heuristic": "reference"}
             for g in range(200)]
    m = {"experiment": "made", "game": "rusship", "variants": [
        {"variant": v, "label": f"heuristic={h}", "players": 2, "heuristic": h, "rules": {}}
        for v, h in enumerate(("racer", "reference"))]}
    return SimpleNamespace(games=table(rows, {}), manifest=m)


def test_each_verdict_is_stated_once_and_a_small_run_is_too_small_to_tell():
    made = two_players_of_unequal_runs()
    a = REPORT.analyse(made)
    verdicts = rfindings.verdicts(a, [], [], {})
    topics = [v.topic for v in verdicts]
    for topic in ("First player", "Catch-up", "Power chosen first", "Length"):
        assert topics.count(topic) == 1, topics
    said = next(v for v in verdicts if v.topic == "Catch-up").sentence
    assert said.startswith("The catch-up more than makes up for being attacked first")
    assert "(Racer)" in said and "Too few games to tell with Reference" in said
    assert "evens out" not in said  # Reference's 55% ± 7% is no finding that it evens out
    power = next(v for v in verdicts if v.topic == "Power chosen first").sentence
    assert "across 2 pairings of players" in power


def test_a_rate_verdict_bands_the_players_that_agree():
    says = {findings.ABOVE: "Ahead:", findings.BELOW: "Behind:", findings.EVEN_KIND: "Even:"}
    rows = [("a", {"win_rate": 0.557, "ci_low": 0.548, "ci_high": 0.566, "games": 12200}),
            ("b", {"win_rate": 0.56, "ci_low": 0.53, "ci_high": 0.59, "games": 1000}),
            ("c", {"win_rate": 0.501, "ci_low": 0.49, "ci_high": 0.512, "games": 8000})]
    v = findings.rate_verdict("T", rows, says, "who")
    assert v.sentence == ("Ahead: 55.7%–56.0% of the decided games across 2 pairings of players "
                          "(a and b). Even: 50% ± 1% of the decided games, within 5 points of "
                          "50% (c).")
    assert findings.side_of(0.48, 0.62) is None
    assert findings.side_of(0.46, 0.54) == findings.EVEN_KIND
