"""A dice race, the toy game that proves the contract (balance/contract/game.py) without any
real game, written on the engine kit (balance/kit/): its rules (rules_nb.py), its stopper
(players.py) and this declaration. tests/conftest.py registers it for the whole suite."""

from __future__ import annotations

import numpy as np

from balance.contract.game import Measure, Setting
from balance.kit.declare import Event, Golden, KitGame, OptionKind
from heuristics.knobs import Knob
from heuristics.player import Memory, Player, Roster
from tests.games.dice.rules_nb import END_REASONS

PLAYERS = Roster((
    Player("random", "rolls again on a coin flip", choose="heuristics.random_player:"
           "random_choose_nb", args=("rng", "n"), remembers="nothing", title="Random"),
    Player("stopper", "banks once the turn's total reaches stop_at",
           choose="tests.games.dice.players:stopper_choose_nb", args=("st", "w"),
           knobs=(Knob("stop_at", 15, 2, 100, "the total it banks at", integer=True,
                        label="banks at"),),
           title="Stopper"),
    Player("scripted", "replays a list of choices, then takes the first option (tests)",
           choose="heuristics.scripted:scripted_choose_nb", args=("mem",),
           memory=Memory("heuristics.scripted:new_script", "heuristics.scripted:reset_script_nb"),
           remembers="the list and its place in it", title="Scripted"),
), "tests.games.dice.dispatch_nb")


def values(records, setup) -> dict:
    return {"first_won": (records.winner == 0),
            "busts": records.tallies[:, :, 0].sum(axis=1).astype(np.int16)}


KIT = KitGame(
    name="dice", ref="tests.games.dice.game:KIT", rules="tests.games.dice.rules_nb",
    loop="tests.games.dice.loop_nb", players="tests.games.dice.game:PLAYERS",
    settings=(Setting("target", int, "points that win the race", 2, 500,
                      label="race to"),
              Setting("faces", int, "faces of the die", 2, 20, label="die faces"),
              Setting("max_turns", int, "turns after which the game stops undecided", 1,
                      10_000, label="turn cap")),
    defaults={"target": 30, "faces": 6, "max_turns": 200},
    decisions=("roll again",), options=(OptionKind("bank"), OptionKind("roll")),
    events=(Event("rolled", ("roll",), part="{roll}"),
            Event("bust", ("score",), line="turn {turn}, seat {seat}: rolls {parts}: bust, "
                  "score {score}"),
            Event("banked", ("total", "score"), line="turn {turn}, seat {seat}: rolls "
                  "{parts}: banks {total}, score {score}")),
    # The cap stops a race without a winner: undecided, not a loss for every seat.
    end_reasons=END_REASONS, undecided_ends=("cap",), tallies=("busts",),
    invariants=("a seat reached the target while the game went on, or a winner did not",
                "no winner before the turn cap", "a seat banked more than a turn can roll"),
    columns={"first_won": "bool", "busts": "int16"}, values="tests.games.dice.game:values",
    header="dice race, seed {seed}: {players}; to {target} points with a {faces}-faced die",
    closing="end: {reason} after {turns} turns; {outcome}; scores {scores}, busts {busts}",
    show_decisions=False,
    goldens=(Golden("rules-2p-random-seed3", ("random", "random"), 3),
             Golden("rules-3p-stoppers-seed7", ("stopper", "random", "stopper"), 7,
                    {"target": 25, "faces": 4})),
    bench_title="2 stoppers to 30 points",
    bench_experiment={"players": 2, "heuristic": "stopper"},
    describe="to {target} points on a {faces}-faced die", settings_key="race")

GAME = KIT.declare(
    title="Dice race", version="1", player_counts=tuple(range(1, 7)), cooperative=False,
    measures=(Measure("first", "Seat 1's wins", "rate", "first_won"),
              Measure("score", "Winning score", "mean", "score"),
              Measure("turns", "Length", "mean", "turns")),
    default_player="stopper", games_help="one row per race",
    # What `balance ablate --how` takes out of a race (`[experiment] ablate = "random"`).
    ablations=(("random", "each seat's player swapped for the random player, one seat at a "
                "time"),))
