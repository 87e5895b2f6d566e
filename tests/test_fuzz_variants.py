"""Issue 47, classes 3 and 7: variants that could not be played were refused only once their
first shard played (after the run folder was written), seat lists of the wrong length played,
and the newer parsers (the game's name, Rusship's keys and `--set`, a run's manifest, a tuning
seed, `balance.simulate`) let a wrong type through as a traceback. Every game's variants are
now built and checked by the experiment parser, before anything is written. The harness is
tests/fuzz.py."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from balance.contract import registry
from balance.errors import InputError, Problem
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from balance.running.seeds import MAX_SEED
from tests.fuzz import Case, assert_refused_cleanly, exp
from tests.games.dice.game import GAME as DICE_GAME

RUSSHIP = """\
[experiment]
name = "fz"
description = "fuzz base"
game = "rusship"
games = 10
seed = 3
shard_size = 5
players = 2
"""

DICE = RUSSHIP.replace('"rusship"', '"dice"')


def game_exp(base: str, old: str = "", new: str = "", append: str = ""):
    """An experiment of `base` (RUSSHIP, DICE) with `old` replaced by `new` and `append`
    added, run into tmp/runs."""
    def make(tmp):
        assert old in base
        path = tmp / "fz.toml"
        path.write_text(base.replace(old, new, 1) + append, encoding="utf-8")
        return ["run", str(path), "--out", str(tmp / "runs"), "--jobs", "1"]
    return make


def rusship(old: str = "", new: str = "", append: str = ""):
    return game_exp(RUSSHIP, old, new, append)


def dice(old: str = "", new: str = "", append: str = ""):
    return game_exp(DICE, old, new, append)


def command(*args: str, file: str | None = None):
    """`balance *args`, FILE in them the path of an experiment `file` written under tmp."""
    def make(tmp):
        path = tmp / "fz.toml"
        if file is not None:
            path.write_text(file, encoding="utf-8")
        return [a.replace("FILE", str(path)) for a in args]
    return make


def dice_manifest(game, command: str = "report"):
    """`balance report` (or `compare`) of a dice run of two variants whose manifest names its
    game as `game`."""
    def make(tmp):
        path = tmp / "fz.toml"
        path.write_text(DICE + '[grid]\ntarget = [20, 30]\n', encoding="utf-8")
        run = run_experiment(load_experiment(path), tmp / "runs", jobs=1).run_dir
        (run / ".lock").unlink(missing_ok=True)
        m = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
        m["game"] = game
        (run / "manifest.json").write_text(json.dumps(m), encoding="utf-8")
        if command == "compare":
            return ["compare", str(run)]
        return ["report", str(run), "--out", str(tmp / "report")]
    return make


SEATS = ("fz.toml", "'seats'", "players for 2 seats")

CASES: dict[str, Case] = {
    # -- class 3: a seat list shorter (or longer) than the seats ------------------------
    # The examples: seat 2 read past the end of the seats; three names played two.
    "rusship-one-seat-for-two": Case("experiment", rusship(append='seats = ["racer"]\n'),
                                     ("names 1", *SEATS)),
    "rusship-three-seats-for-two": Case(
        "experiment", rusship(append='seats = ["racer", "random", "racer"]\n'),
        ("names 3", *SEATS)),
    "rusship-grid-seats-one-short": Case(
        "experiment", rusship(append='[grid]\nseats = [["racer", "random"], ["random"]]\n'),
        ("[grid]", "names 1", *SEATS)),
    "dice-one-seat-for-three": Case(
        "experiment", dice("players = 2", "players = 3", 'seats = ["stopper"]\n'),
        ("fz.toml", "'seats'", "names 1 players for 3 seats")),
    "dice-grid-players-beside-fixed-seats": Case(
        "experiment", dice("players = 2\n", "", 'seats = ["stopper", "random"]\n'
                           "[grid]\nplayers = [2, 4]\n"),
        ("fz.toml", "[experiment]", "'seats'", "names 2 players for 4 seats",
         "players = 4 in [grid]")),
    "gemrush-grid-players-beside-fixed-seats": Case(
        "experiment", exp("players = 2\n", 'seats = ["greedy", "greedy"]\n',
                          "[grid]\nplayers = [2, 3]\n"),
        ("fz.toml", "'seats'", "names 2 players for 3 seats")),
    # -- class 3: knob values refused only when the first shard played -------------------
    "rusship-knob-out-of-range": Case("experiment", rusship(append="[knobs]\nrisk = 99\n"),
                                      ("fz.toml", "[knobs]", "'risk'", "between 0 and 5")),
    "rusship-knob-nan": Case("experiment", rusship(append="[knobs]\nrisk = nan\n"),
                             ("fz.toml", "'risk'", "must be a number")),
    "rusship-knob-inf": Case("experiment", rusship(append="[knobs]\nattack = inf\n"),
                             ("fz.toml", "'attack'", "between 0 and 40")),
    "rusship-grid-knob-out-of-range": Case(
        "experiment", rusship(append='[grid]\n"knob.risk" = [0.5, 99]\n'),
        ("fz.toml", "[grid]", "'knob.risk'", "between 0 and 5, got 99")),
    "rusship-grid-knob-minus-inf": Case(
        "experiment", rusship(append='[grid]\n"knob.one_die_margin" = [0.5, -inf]\n'),
        ("fz.toml", "[grid]", "'knob.one_die_margin'", "between -5 and 5")),
    "rusship-grid-whole-knob-a-fraction": Case(
        "experiment", rusship(append='heuristic = "reference"\n[grid]\n"knob.budget" = [8, 2.5]\n'),
        ("fz.toml", "[grid]", "'knob.budget'", "whole number")),
    "rusship-knob-of-one-seat-out-of-range": Case(
        "experiment", rusship(append='seats = ["reference", "racer"]\n[knobs]\nbudget = 1\n'),
        ("fz.toml", "[knobs]", "'budget'", "between 2 and 4096")),
    "dice-knob-out-of-range": Case(
        "experiment", dice(append='heuristic = "stopper"\n[knobs]\nstop_at = 1000\n'),
        ("fz.toml", "[knobs]", "'stop_at'", "between 2 and 100")),
    "dice-grid-knob-nan": Case(
        "experiment", dice(append='heuristic = "stopper"\n[grid]\n"knob.stop_at" = [10, nan]\n'),
        ("fz.toml", "[grid]", "'knob.stop_at'", "must be a number")),
    "gemrush-knob-out-of-range": Case("experiment", exp(append="[knobs]\ndraw_value = 1e9\n"),
                                      ("fz.toml", "'draw_value'", "between")),
    # -- class 7: the game's name of a wrong type -----------------------------------------
    "game-a-list": Case("experiment", rusship('game = "rusship"', 'game = ["rusship"]'),
                        ("fz.toml", "[experiment]", "'game'", "in quotes", "['rusship']")),
    "game-a-table": Case("experiment", rusship('game = "rusship"\n', "",
                                               '[experiment.game]\nname = "rusship"\n'),
                         ("fz.toml", "[experiment]", "'game'", "in quotes")),
    "game-a-number": Case("experiment", dice('game = "dice"', "game = 2"),
                          ("fz.toml", "'game'", "in quotes", "got 2")),
    "manifest-game-a-list": Case("run folder", dice_manifest(["dice"]),
                                 ("manifest.json", "'game'", "in quotes", "['dice']")),
    "manifest-game-a-table": Case("run folder", dice_manifest({"name": "dice"}),
                                  ("manifest.json", "'game'", "in quotes")),
    "manifest-game-a-list-compare": Case("run folder", dice_manifest(["dice"], "compare"),
                                         ("manifest.json", "'game'", "in quotes")),
    # -- class 7: the games' own keys of a wrong type ------------------------------------
    "rusship-ablate-a-list": Case("experiment", rusship(append='ablate = ["powers"]\n'),
                                  ("fz.toml", "'ablate'", "powers", "['powers']")),
    "rusship-ablate-a-table": Case("experiment", rusship(append="[experiment.ablate]\nx = 1\n"),
                                   ("fz.toml", "'ablate'", "powers")),
    "dice-ablate-a-list": Case("experiment", dice(append='ablate = ["random"]\n'),
                               ("fz.toml", "'ablate'", "random", "['random']")),
    # -- class 7: Rusship's --set -----------------------------------------------------------
    **{f"rusship-{cmd}-set-two-minus": Case(
        "cli", command("rusship", cmd, "--set", "length=--5"),
        ("--set", "'length'", "whole number", "'--5'")) for cmd in ("rules", "play", "check",
                                                                      "strength")},
    "rusship-set-minus-plus": Case("cli", command("rusship", "rules", "--set", "tokens=-+2"),
                                   ("--set", "'tokens'", "whole number")),
    "rusship-set-switch-a-number": Case("cli", command("rusship", "play", "--set",
                                                       "must_move=1"),
                                        ("--set", "'must_move'", "true or false")),
    # -- class 7: Gem Rush's `content` on another game's experiment -----------------------
    "content-of-a-rusship-experiment": Case(
        "cli", command("content", "FILE", file=RUSSHIP),
        ("fz.toml", "'game'", "Rusship", "balance content", "Gem Rush")),
    "content-of-a-dice-experiment": Case(
        "cli", command("content", "FILE", file=DICE),
        ("fz.toml", "'game'", "Dice race", "Gem Rush")),
    # -- class 7: a tuning seed the seeds cannot take --------------------------------------
    "tune-player-rusship-largest-seed": Case(
        "cli", command("tune-player", "--game", "rusship", "--games", "20", "--evaluations",
                       "4", "--seed", str(MAX_SEED)),
        ("--seed", str(MAX_SEED - 1))),
    "tune-player-dice-largest-seed": Case(
        "cli", command("tune-player", "--game", "dice", "--games", "20", "--evaluations", "4",
                       "--seed", str(MAX_SEED)),
        ("--seed", str(MAX_SEED - 1))),
}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_input_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)


# -- the Python entry points ------------------------------------------------------------

@pytest.mark.parametrize("rules", [{1: 2}, {("a",): 2}, {None: 5}])
def test_simulate_refuses_a_rule_name_that_is_no_text(rules):
    import balance

    with pytest.raises(InputError) as e:
        balance.simulate(rules=rules, games=2)
    assert "balance.simulate" in str(e.value) and "rules" in str(e.value)
    assert "name" in str(e.value)


@pytest.mark.parametrize("table", ["rules", "knobs", "grid"])
def test_parser_refuses_keys_that_are_no_text(table):
    from balance.running.experiment import parse_experiment

    data = {"experiment": {"name": "x", "description": "d", "game": "rusship", "games": 10,
                           "seed": 1, "players": 2}, table: {7: [1]}}
    with pytest.raises(InputError) as e:
        parse_experiment(data, "", "f.toml")
    assert f"[{table}]" in str(e.value) and "7" in str(e.value)


@pytest.mark.parametrize("overrides, field", [
    ({"bogus": 1}, "bogus"),
    ({"length": -5}, "length"),
    ({"length": "12"}, "length"),
    ({"must_move": 1}, "must_move"),
    ({"tokens": 1, "second_tokens": 3}, "second_tokens"),
    ({1: 2}, "1"),
])
def test_rusship_prepare_refuses_overrides_it_cannot_play(overrides, field):
    from balance.games.rusship.play import prepare

    with pytest.raises(InputError) as e:
        prepare(overrides)
    assert f"'{field}'" in str(e.value)


@pytest.mark.parametrize("seats", [("racer",), ("racer", "racer", "racer"), ("racer", "nobody")])
def test_rusship_prepare_refuses_seats_it_cannot_seat(seats):
    from balance.games.rusship.play import prepare

    with pytest.raises(InputError) as e:
        prepare(None, seats)
    assert "seats" in str(e.value) or "heuristic" in str(e.value)


@pytest.mark.parametrize("value", [math.nan, math.inf, 99.0])
def test_rusship_prepare_refuses_knobs_out_of_range(value):
    from balance.games.rusship.play import prepare

    with pytest.raises(InputError) as e:
        prepare(None, ("racer", "racer"), {"risk": value})
    assert "'risk'" in str(e.value)


def test_tune_player_refuses_a_seed_before_tuning():
    """The library call too: the validation seeds follow the tuning seed, so the largest
    seed is refused before any candidate is scored."""
    from balance.running.tune_player import tune_player
    from heuristics.knobs import Knob

    scored = []

    def objective(n, values, seeds):
        scored.append(len(seeds))
        raise AssertionError("scored a candidate")

    with pytest.raises(InputError) as e:
        tune_player("p", (Knob("k", 1, 0, 2, "a knob"),), objective, "objective", 2, 20, 4,
                    seed=MAX_SEED)
    assert "seed" in str(e.value) and not scored


def _refuse_long_races(variant) -> None:
    """A prepare hook that refuses what no neutral check sees: a race to 400 points."""
    if variant.settings["race"]["target"] > 300:
        raise InputError([Problem("race", "", "target", "is longer than this game plays")])


def test_a_variant_the_game_cannot_build_is_refused_before_a_run(tmp_path, cli):
    """The parser asks the game to build every variant: the second variant's refusal names
    it, and no run folder is written for the first."""
    registry.register(replace(DICE_GAME, name="dicebuilt",
                              prepare="tests.test_fuzz_variants:_refuse_long_races"))
    try:
        case = Case("experiment", game_exp(DICE.replace('"dice"', '"dicebuilt"'),
                                           append="[grid]\ntarget = [30, 400]\n"),
                    ("fz.toml", "variant 1 (target=400)", "'target'", "longer than"))
        assert_refused_cleanly(case, tmp_path, cli)
    finally:
        registry.unregister("dicebuilt")


def test_a_swept_knob_value_that_is_no_number_is_one_problem(tmp_path):
    """The seating check reads numbers only: a word among a knob's values is the grid's one
    problem, not a second message in other words."""
    path = tmp_path / "fz.toml"
    path.write_text(RUSSHIP + '[grid]\n"knob.risk" = [0.5, "high"]\n', encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_experiment(path)
    assert len(e.value.problems) == 1, str(e.value)
    assert "'high'" in str(e.value)
