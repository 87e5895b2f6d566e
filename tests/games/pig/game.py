"""Pig, written on the engine kit (balance/kit/) as the guide's example of a small game: its
rules (rules_nb.py), its hold-at-N player (players.py) and this declaration. tests/conftest.py
registers it for the whole suite."""

from __future__ import annotations

from balance.contract.game import Measure, Setting
from balance.kit.declare import Event, Golden, KitGame, OptionKind
from heuristics.knobs import Knob
from heuristics.player import Memory, Player, Roster
from tests.games.pig.rules_nb import BEST, END_REASONS

PLAYERS = Roster((
    Player("random", "rolls or holds on a coin flip",
           choose="heuristics.random_player:random_choose_nb", args=("rng", "n"),
           title="Random"),
    Player("hold_at", "holds once the points at stake reach hold_at",
           choose="tests.games.pig.players:hold_at_choose_nb", args=("st", "w"),
           knobs=(Knob("hold_at", 20, 1, 100, "the points it holds at", integer=True,
                        label="holds at"),),
           title="Hold at a total"),
    Player("scripted", "replays a list of choices, then takes the first option (tests)",
           choose="heuristics.scripted:scripted_choose_nb", args=("mem",),
           memory=Memory("heuristics.scripted:new_script", "heuristics.scripted:reset_script_nb"),
           remembers="the list and its place in it", title="Scripted"),
), "tests.games.pig.dispatch_nb")


def values(records, setup) -> dict:
    return {"first_won": records.winner == 0, "best_turn": records.rec[:, BEST]}


KIT = KitGame(
    name="pig", ref="tests.games.pig.game:KIT", rules="tests.games.pig.rules_nb",
    loop="tests.games.pig.loop_nb", players="tests.games.pig.game:PLAYERS",
    settings=(Setting("goal", int, "points that win", 10, 1000, label="play to"),
              Setting("max_turns", int, "turns after which the game stops undecided", 1,
                      10_000, label="turn cap")),
    defaults={"goal": 50, "max_turns": 300},
    decisions=("roll or hold",), options=(OptionKind("hold", "hold {a}"), OptionKind("roll")),
    events=(Event("rolled", ("roll",), part="{roll}"),
            Event("pigged", ("lost", "score"), line="turn {turn}, seat {seat}: rolls {parts}: "
                  "loses {lost}, score {score}"),
            Event("held", ("held", "score"), line="turn {turn}, seat {seat}: rolls {parts}: "
                  "holds {held}, score {score}")),
    end_reasons=END_REASONS, undecided_ends=("cap",), tallies=("pigs", "holds"),
    record=("best_turn",),
    invariants=("a seat holds the goal while the game goes on, or a winner does not",
                "more points held than the holds could bring"),
    columns={"first_won": "bool", "best_turn": "int16"}, values="tests.games.pig.game:values",
    header="pig, seed {seed}: {players}; first to {goal}",
    closing="end: {reason} after {turns} turns; {outcome}; scores {scores}, pigs {pigs}",
    goldens=(Golden("2p-random-seed1", ("random", "random"), 1, {"goal": 20}),
             Golden("3p-hold-seed4", ("hold_at", "random", "hold_at"), 4)),
    bench_title="2 hold-at-20 players to 50", bench_experiment={"players": 2,
                                                                "heuristic": "hold_at"},
    describe="first to {goal}")

GAME = KIT.declare(
    title="Pig", version="1", player_counts=(2, 3, 4), cooperative=False,
    end_words=(("goal", "goal reached"), ("cap", "turn cap reached")),
    measures=(Measure("first", "Seat 1's wins", "rate", "first_won"),
              Measure("turns", "Length", "mean", "turns"),
              Measure("best_turn", "Best turn", "mean", "best_turn")),
    default_player="hold_at")
