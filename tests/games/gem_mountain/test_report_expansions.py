"""Gem Mountain's report on the expansions (reports/gem_mountain/expansions.py): games tables
whose answer is known by hand (one expansion that lengthens the game and widens the margin,
one that raises the first seat's share, one that changes nothing) and what the section and the
verdict say of them; then a variant that switches an expansion off, or changes more than an
expansion, is no expansion's pair."""

from __future__ import annotations

from reports.compare.compare import compare
from reports.gem_mountain import expansions
from reports.gem_mountain.levers import EXPANSION_KIND, OTHER_KIND, pairs_of
from reports.gem_mountain.report import REPORT
from tests.games.gem_mountain.test_report import game_row, run, variant

SWITCHES = ["none", "dark_tunnels", "gemshards", "golden_actions"]


def expansions_run(n: int = 1000):
    """The base game: 34 or 35 turns, margin 3, seat 1 wins every 4th game. Dark Tunnels:
    a turn longer and 2 points of margin more, the same winners. Gemshards: seat 1 also wins
    the first 200 games it lost. Golden Actions: the base game's games exactly."""
    rows, variants = [], []
    for v, on in enumerate(SWITCHES):
        for g in range(n):
            winner = 1 + g % 4
            turns, margin = 34 + g % 2, 3
            if on == "dark_tunnels":
                turns, margin = turns + 1, margin + 2
            if on == "gemshards" and winner != 1 and g < 267:
                winner = 1
            rows.append(game_row(v, g, winner=winner, turns=turns, margin=margin))
        # as the grid's `expansion` key records it (balance/games/gem_mountain/experiment.py)
        variants.append({**variant(v, {on: True} if on != "none" else {},
                                   label=f"expansion={on}"), "swept": {"expansion": on}})
    return run(rows, variants, {"expansion": SWITCHES})


def pairs(made):
    return pairs_of([("made", compare(made.games, made.manifest))], made.manifest)


def test_each_expansion_is_paired_with_the_base_game_and_named_by_its_box_name():
    ps = pairs(expansions_run())
    assert [p.kind for p in ps] == [EXPANSION_KIND] * 3
    assert [expansions.name_of(p) for p in ps] == ["Dark Tunnels", "Gemshards",
                                                   "Golden Actions"]


def test_the_verdict_says_once_what_each_expansion_moves_with_its_paired_interval():
    made = expansions_run()
    [v] = expansions.verdicts(pairs(made), {})
    assert v.topic == "Expansions"
    s = v.sentence
    assert s.startswith("Against ")
    assert ("Dark Tunnels lengthens a game by 1.00 turns (1.00 to 1.00) and widens the "
            "winner's margin by 2.00 points (2.00 to 2.00), the first seat's share within "
            "chance;") in s
    # 200 of the 750 games seat 1 lost become its wins: 25% -> 45% of 1,000
    assert "Gemshards raises the first seat's share of the wins by 20" in s
    assert "(18 to 23), the length and the margin within chance;" in s
    assert s.endswith("Golden Actions changes none of the length, the first seat's share or "
                      "the margin beyond chance.")
    assert [x.topic for x in REPORT.verdicts(REPORT.analyse(made), [
        ("made", compare(made.games, made.manifest))], {}, {})].count("Expansions") == 1


def test_the_section_has_a_row_per_expansion_against_the_base_game():
    made = expansions_run()
    s = expansions.section(pairs(made))
    assert s.id == "expansions" and not s.missing
    [b] = s.blocks
    [t] = b.tables
    assert [r[0] for r in t.rows] == ["with Dark Tunnels", "with Gemshards",
                                      "with Golden Actions"]
    assert t.headers[2:4] == ["Length", "Change (paired 95%)"]
    dark = t.rows[0]
    assert dark[2] == "35.5" and dark[3].startswith("+1.00")
    assert b.paragraphs[0].startswith("The baseline, the base game: length 34.5")


def test_without_an_expansion_pair_the_section_names_the_file_that_plays_them():
    made = run([game_row(v, g) for v in range(2) for g in range(100)],
               [variant(0), variant(1, {"rows": 5, "cols": 5})])
    s = expansions.section(pairs(made))
    assert not s.blocks and "expansions.toml" in s.missing[0]
    assert expansions.verdicts(pairs(made), {}) == []


def test_a_switch_turned_off_or_a_rule_beside_it_is_no_expansions_pair():
    rows = [game_row(v, g) for v in range(3) for g in range(100)]
    # against Gemshards, the game without it; the base game against Gemshards on a 5x5 map
    made = run(rows[:200], [variant(0, {"gemshards": True}), variant(1)])
    assert [p.kind for p in pairs(made)] == [OTHER_KIND]
    made = run(rows[:200], [variant(0), variant(1, {"gemshards": True, "rows": 5})])
    assert [p.kind for p in pairs(made)] == [OTHER_KIND]
    # an expansion's own count changed with it is still the expansion's pair, named with it
    made = run(rows, [variant(0), variant(1, {"golden_actions": True}),
                      variant(2, {"golden_actions": True, "flashlight": 2})])
    ps = pairs(made)
    assert [p.kind for p in ps] == [EXPANSION_KIND] * 2
    assert expansions.name_of(ps[1]).startswith("Golden Actions, ")
    assert "Flashlight" in expansions.name_of(ps[1])


def test_the_three_together_take_a_plural_verb():
    """The base game, then the three expansions at once, a turn longer on the same games."""
    rows, variants = [], []
    for v, on in enumerate(("none", "all")):
        rows += [game_row(v, g, winner=1 + g % 4, turns=34 + g % 2 + (v == 1))
                 for g in range(400)]
        rules = {k: True for k in SWITCHES[1:]} if on == "all" else {}
        variants.append({**variant(v, rules, label=f"expansion={on}"),
                         "swept": {"expansion": on}})
    made = run(rows, variants, {"expansion": ["none", "all"]})
    [v] = expansions.verdicts(pairs(made), {})
    assert ("Dark Tunnels, Gemshards and Golden Actions together lengthen a game by 1.00 "
            "turns") in v.sentence, v.sentence
