"""Gem Mountain's report (reports/gem_mountain/): each section's verdict follows its data. Each
test builds a games table whose answer is known by hand (the first seat ahead at one player
count and fair at another, one action that moves the first seat and others that do not, a seat
whose steals change the winner between two others) and checks what the page says of it; then
the two faults of the neutral report on Gem Mountain (the 6th colour's tally, the margin
twice) on a tiny real run."""

from __future__ import annotations

from types import SimpleNamespace

import polars as pl
import pytest

from balance.games.gem_mountain.game import GAME
from balance.games.gem_mountain.rules import DEFAULTS
from reports.compare.compare import compare
from reports.gem_mountain import findings, kingmaker, page
from reports.gem_mountain.levers import ACTIONS_KIND, MAP_KIND, PLAYERS_KIND, pairs_of
from reports.gem_mountain.report import REPORT

_TYPES = {"string": pl.Utf8, "bool": pl.Boolean, "int8": pl.Int8, "int16": pl.Int16,
          "int32": pl.Int32, "int64": pl.Int64, "float32": pl.Float32,
          "list<int16>": pl.List(pl.Int16), "list<int8>": pl.List(pl.Int8)}


def game_row(variant: int, game: int, *, players: int = 4, winner: int | None = 1,
             heuristic: str = "majority", least: bool = False, tied: int = 0,
             steals: int = 1, turns: int = 34, margin: int = 3) -> dict:
    """One game as Gem Mountain's records write it; winner None is a tie."""
    scores = [10] * players
    if winner is not None:
        scores[winner - 1] = 10 + margin
    return {"experiment": "made", "variant": variant, "game": game, "seed": game,
            "players": players, "heuristic": heuristic, "went_first": 1, "won": None,
            "winner": winner, "score": max(scores), "scores": scores, "turns": turns,
            "end_reason": "gems", "engine_version": "1", "source_hash": "x",
            "decisions": 40, "branching": 3.0, "lead_turns": [turns], "leaders": [winner or 1],
            "first_won": winner == 1, "margin": margin if winner else 0,
            "least_decides": least, "tied_colours": tied, "actions_used": 6,
            "steals": steals, "splits": 0}


def table(rows: list[dict], swept: dict[str, list] | None = None) -> pl.DataFrame:
    schema = {c: _TYPES[t] for c, t in GAME.games_table.columns.items()}
    df = pl.DataFrame(rows, schema=schema)
    for key, per_variant in (swept or {}).items():
        df = df.with_columns(pl.col("variant").replace_strict(
            dict(enumerate(per_variant)), default=None).alias(key))
    return df


def variant(i: int, rules: dict | None = None, players: int = 4, seats=None,
            label: str = "") -> dict:
    v = {"variant": i, "label": label or f"variant {i}", "players": players,
         "heuristic": ",".join(seats) if seats else "majority",
         "rules": {**DEFAULTS, **(rules or {})}, "swept": rules or {}}
    if seats:
        v["seats"] = list(seats)
    return v


def manifest(variants: list[dict], name: str = "made") -> dict:
    return {"experiment": name, "game": "gem_mountain", "variants": variants}


def run(rows, variants, swept=None) -> SimpleNamespace:
    return SimpleNamespace(games=table(rows, swept), manifest=manifest(variants))


# -- First seat -----------------------------------------------------------------------------

def first_seat_run() -> SimpleNamespace:
    """At 2 players the first seat wins 700 of 1,000 (fair 50%); at 4 players 250 of 1,000,
    the others 250 each (fair 25%)."""
    rows = [game_row(0, g, players=2, winner=1 if g < 700 else 2) for g in range(1000)]
    rows += [game_row(1, g, players=4, winner=1 + g % 4) for g in range(1000)]
    return run(rows, [variant(0, players=2, label="players=2"),
                      variant(1, players=4, label="players=4")], {"players": [2, 4]})


def test_the_first_seat_verdict_names_the_count_it_leads_at_and_the_fair_one():
    a = REPORT.analyse(first_seat_run())
    [v] = findings.first_seat(a)
    assert v.sentence.startswith("The first seat has an advantage at 2 players")
    assert "it wins 70.0% (fair 50.0%)" in v.sentence
    assert "No first-seat advantage shows at 4 players" in v.sentence
    assert "the first seat wins 25.0% (fair 25.0%)" in v.sentence
    # stated once, not once per player count or per player
    assert [x.topic for x in REPORT.verdicts(a, [], {}, {})].count("First seat") == 1


def test_the_first_seat_section_sets_each_count_against_its_fair_share():
    a = REPORT.analyse(first_seat_run())
    s = page.first_seat_section(a, [])
    [t] = s.blocks[0].tables
    by = {r[1]: r for r in t.rows}
    assert by["2"][6].startswith("above") and by["2"][9] == "50.0%"
    assert by["4"][6] == "within chance" and by["4"][9] == "25.0%"
    assert by["2"][2] == "6×6, 5 colours" and by["2"][3] == "none"


def test_a_compensation_that_evens_the_first_seat_is_named():
    """The unchanged rules: seat 1 wins 40% of 1,000 games at 4 players; an action tile each:
    25%; the placed arrow: 45%."""
    rows = []
    for v, won in enumerate((400, 250, 450)):
        rows += [game_row(v, g, winner=1 if g < won else 2 + g % 3) for g in range(1000)]
    made = run(rows, [variant(0), variant(1, {"start_tiles": "action"}),
                      variant(2, {"start_arrow": "chosen"})],
               {"start_tiles": ["none", "action", "none"],
                "start_arrow": ["corner", "corner", "chosen"]})
    a = REPORT.analyse(made)
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    [v] = findings.compensation(pairs, {})
    assert v.sentence.startswith("An action tile each to start brings the first seat closest")
    assert "25.0% against 40.0%" in v.sentence
    assert a.levers["start_tiles"].to_list() == ["none", "action", "none"]


def test_compensations_that_cannot_be_told_apart_are_named_together():
    """The unchanged rules: seat 1 wins 260 of 1,000 games at 4 players; an action tile
    each: 250; the placed arrow: 255 -- all as near the fair 25% within chance."""
    rows = []
    for v, won in enumerate((260, 250, 255)):
        rows += [game_row(v, g, winner=1 if g < won else 2 + g % 3) for g in range(1000)]
    made = run(rows, [variant(0), variant(1, {"start_tiles": "action"}),
                      variant(2, {"start_arrow": "chosen"})],
               {"start_tiles": ["none", "action", "none"],
                "start_arrow": ["corner", "corner", "chosen"]})
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    [v] = findings.compensation(pairs, {})
    assert v.sentence.startswith("No one compensation stands out at 4 players: the first "
                                 "seat's share is as near its fair 25.0%, within chance, "
                                 "with "), v.sentence
    assert " or " in v.sentence and "the unchanged rules" in v.sentence


def test_a_seat_s_share_in_the_comparison_is_of_the_games_one_player_won():
    """The same 1,000 games both ways; the unchanged rules: seat 1 wins 250 and the others
    750, no tie; the variant: 200 of the games shared, seat 1 wins 200 of the 800 one player
    won (25%, fair) -- over every game it would read 20%, below the fair share."""
    rows = [game_row(0, g, winner=1 if g < 250 else 2 + g % 3) for g in range(1000)]
    rows += [game_row(1, g, winner=None if g >= 800 else (1 if g < 200 else 2 + g % 3))
             for g in range(1000)]
    made = run(rows, [variant(0), variant(1, {"start_tiles": "action"})],
               {"start_tiles": ["none", "action"]})
    cmp = compare(made.games, made.manifest)
    seat = {r["quantity"]: r for r in cmp.differences.iter_rows(named=True)
            if r["quantity"].startswith("seat:")}
    assert seat["seat:1"]["pairs"] == 800 and seat["seat:1"]["of"] == "games one player won"
    assert seat["seat:1"]["value"] == pytest.approx(0.25)
    assert sum(r["value"] for r in seat.values()) == pytest.approx(1.0)


def test_a_run_recorded_before_a_measure_s_column_is_compared_without_it():
    """A run played before the games table held the course (issue 53) still compares: the
    measures that read it are left out, and a note says so."""
    rows = [game_row(v, g, winner=1 + g % 4) for v in (0, 1) for g in range(40)]
    made = run(rows, [variant(0), variant(1, {"start_tiles": "action"})],
               {"start_tiles": ["none", "action"]})
    old = made.games.drop("course", "lead_changes")
    cmp = compare(old, made.manifest, run_dir="old-run")
    assert "seat:1" in cmp.differences["quantity"].to_list()
    assert "lead_changes" not in cmp.differences["quantity"].to_list()
    [note] = [n for n in cmp.notes if "recorded before" in n]
    assert note.startswith("old-run was recorded before") and "lead changes" in note


# -- Actions --------------------------------------------------------------------------------

def ablation_run() -> SimpleNamespace:
    """The full box: seat 1 wins 400 of 1,000; without Double 250; without Swap 390 (the same
    games but ten); without Steal 400."""
    rows = []
    for v, won in enumerate((400, 250, 390, 400)):
        rows += [game_row(v, g, winner=1 if g < won else 2 + g % 3) for g in range(1000)]
    return run(rows, [variant(0), variant(1, {"double": 0}), variant(2, {"swap": 0}),
                      variant(3, {"steal": 0})],
               {"ablate": ["none", "double", "swap", "steal"]})


def test_the_strongest_action_is_the_one_whose_absence_moves_the_first_seat_most():
    made = ablation_run()
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    assert {p.kind for p in pairs} == {ACTIONS_KIND}
    [v] = findings.strongest(pairs, {})
    assert v.sentence.startswith("Double is the strongest action")
    assert "+15 pp" in v.sentence
    effects = findings.action_effects(pairs)
    assert [e["words"] for e in effects] == ["Double", "Swap", "Steal"]


def test_no_action_is_strongest_when_none_moves_the_first_seat_beyond_chance():
    """Each action's absence swaps the first seat's win for a loss in a few games and a loss
    for a win in as many others: no change beyond chance."""
    rows = [game_row(0, g, winner=1 if g < 400 else 2) for g in range(1000)]
    for v, n in ((1, 6), (2, 4), (3, 2)):
        rows += [game_row(v, g, winner=1 if (g < 400) != (g < n or 400 <= g < 400 + n) else 2)
                 for g in range(1000)]
    made = run(rows, [variant(0), variant(1, {"double": 0}), variant(2, {"swap": 0}),
                      variant(3, {"steal": 0})],
               {"ablate": ["none", "double", "swap", "steal"]})
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    [v] = findings.strongest(pairs, {})
    assert v.sentence.startswith("No action clearly moves the first seat's share")


def steal_run(others: int, own: int) -> SimpleNamespace:
    """Majority on every seat, then seat 2 honest, 400 games on the same seeds: in the first
    `others` games the winner moves from seat 1 to seat 3; in the next `own`, from seat 1 to
    seat 2 (the honest seat itself); the rest end alike."""
    seats = ["majority", "honest", "majority", "majority"]
    rows = [game_row(0, g, winner=1) for g in range(400)]
    rows += [game_row(1, g, heuristic=",".join(seats),
                      winner=3 if g < others else 2 if g < others + own else 1)
             for g in range(400)]
    return run(rows, [variant(0, seats=["majority"] * 4), variant(1, seats=seats)],
               {"seats": ["majority,majority,majority,majority", ",".join(seats)]})


def test_steals_that_move_the_win_between_two_others_are_kingmaking():
    made = steal_run(others=40, own=20)
    a = REPORT.analyse(made)
    [r] = a.kingmaker.rows(named=True)
    assert (r["seat"], r["games"], r["changed"], r["others"], r["own"]) == (2, 400, 60, 40, 20)
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    assert [p.kind for p in pairs] == [PLAYERS_KIND]
    [v] = findings.steal(a, pairs)
    assert v.sentence.startswith("Yes: one player's steals decide the game between two other "
                                 "players in 10% ± 3%")
    assert "Stealing is worth −5 pp" in v.sentence  # the honest seat won 20 games more
    assert findings.DEFINITION in v.details
    # the honest seat is an instrument of the Steal question, not a player to rank
    assert findings.players(pairs, {}) == []


def test_steals_that_never_move_the_win_between_others_are_not_kingmaking():
    made = steal_run(others=0, own=20)
    a = REPORT.analyse(made)
    [v] = findings.steal(a, [])
    assert v.sentence.startswith("No: one player's steals never changed the winner")


def test_a_run_without_an_honest_seat_names_the_experiment_that_measures_steals():
    a = REPORT.analyse(ablation_run())
    assert a.kingmaker.height == 0 and findings.steal(a, []) == []
    b = page.steal_block(a)
    assert "steal-kingmaker.toml" in b.paragraphs[0]


def test_only_a_seat_with_every_other_seat_alike_is_paired_for_steals():
    m = manifest([variant(0, seats=["majority", "random", "majority", "majority"]),
                  variant(1, seats=["honest", "random", "majority", "majority"])])
    assert kingmaker.honest_pairs(m) == []


# -- Majority scoring and the map -----------------------------------------------------------

def test_the_least_and_the_shared_majorities_follow_their_columns():
    rows = [game_row(0, g, least=g < 150, tied=2 if g < 500 else 0) for g in range(1000)]
    a = REPORT.analyse(run(rows, [variant(0)]))
    said = {v.topic: v.sentence for v in findings.scoring(a)}
    assert said["The least's penalty"].startswith(
        "The least's penalty decides the winner in 15.0% of games at 4 players")
    assert said["Shared majorities"].startswith("50% of games end with a colour")
    assert "1 colours a game" in said["Shared majorities"]


def test_the_map_verdict_reads_length_and_margin_from_the_smallest_to_the_largest_map():
    rows = []
    for v, (turns, margin) in enumerate(((24, 2), (34, 3), (47, 4))):
        rows += [game_row(v, g, turns=turns + g % 2, margin=margin, winner=1 + g % 4)
                 for g in range(200)]
    made = run(rows, [variant(0, {"rows": 5, "cols": 5}), variant(1), variant(2, {
        "rows": 7, "cols": 7, "ones": 7})], {"rows": [5, 6, 7], "cols": [5, 6, 7]})
    a = REPORT.analyse(made)
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    assert {p.kind for p in pairs} == {MAP_KIND}
    [v] = findings.map_size(a, pairs, {})
    assert v.sentence.startswith("Length follows the map: from 24.5 turns on the 5×5 map to "
                                 "47.5 on the 7×7 map, and the margin from 2 to 4 points.")
    assert "No map moves the first seat's share beyond chance" in v.sentence


def test_the_players_verdict_says_whether_the_answers_move():
    rows = []
    for v, h in enumerate(("majority", "search")):
        rows += [game_row(v, g, heuristic=h, winner=1 + g % 4, least=g < 100 * (v + 1))
                 for g in range(1000)]
    made = run(rows, [variant(0, seats=["majority"] * 4), variant(1, seats=["search"] * 4)],
               {"heuristic": ["majority", "search"]})
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    [v] = findings.players(pairs, {})
    assert v.topic == "Verdicts by player"
    assert "the games the least's penalty decides by +10" in v.sentence
    assert v.sentence.endswith("1 of them beyond chance.")


# -- The page's faults ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from balance.running.experiment import load_experiment
    from balance.running.runner import run_experiment
    from balance.running.store import read_run

    d = tmp_path_factory.mktemp("gm")
    f = d / "tiny.toml"
    f.write_text('[experiment]\nname = "tiny"\ndescription = "x"\ngame = "gem_mountain"\n'
                 'heuristic = "majority"\nplayers = 3\ngames = 60\nseed = 3\n[grid]\n'
                 'steal = [2, 0]\n', encoding="utf-8")
    run_experiment(load_experiment(f), d / "runs", jobs=1)
    return read_run(d / "runs" / "tiny", lazy_tables=False)


def test_the_tallies_leave_out_a_colour_the_box_does_not_hold(tiny):
    a = REPORT.analyse(tiny)
    [s] = REPORT.tally_sections(a)
    shown = {r[3] for b in s.blocks for t in b.tables for r in t.rows}
    assert "onyx" not in shown and {"ruby", "amethyst", "actions"} <= shown
    assert "onyx" not in s.intro[0]


def test_the_comparison_gives_the_winners_margin_once(tiny):
    cmp = compare(tiny.games, tiny.manifest)
    names = cmp.differences["name"].to_list()
    assert sum("margin" in n.lower() for n in names) == 1, names
