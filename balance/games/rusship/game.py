"""Rusship, declared (balance/contract/game.py): a two-player dice race between Humanity and
the Alien Empire. The declaration imports no engine: `balance games`, the report and
`balance compare` read it without compiling anything.

Where things are: the rules' settings and defaults in rules.py and data/rules.toml, the
track's rules (moves, captures, attacks) in engine/moves_nb.py, the turn in
engine/turn_nb.py, the players in heuristics/rusship/, the report in reports/rusship/, the
rulings in the guide's Rusship page (balance/docs/guide/games/rusship.md)."""

from __future__ import annotations

from balance.contract.game import Measure
from balance.games.rusship.engine.state import (
    DECISION_NAMES,
    END_NAMES,
    EVENT_NAMES,
    INVARIANTS,
    MAX_EVENTS,
    MAX_OPTS,
    MOVE_NAMES,
    POWER_NAMES,
    RECORD,
)
from balance.games.rusship.experiment import ABLATE_WORDS, ABLATIONS
from balance.games.rusship.rules import DEFAULTS, SETTINGS
from balance.kit.declare import Event, Golden, KitGame, OptionKind

# Bumped by hand whenever the same seeds would play differently.
VERSION = "3"

# The games table's columns of Rusship's own (the core's and the kit's come first).
COLUMNS = {
    "starter": "int8",  # the seat that played first (the roll-off), from 1
    "starter_won": "bool",  # null: the game stopped undecided
    "hits_1": "int8",  # attacks seat 1's planet (Earth) suffered
    "hits_2": "int8",  # attacks seat 2's planet (the Alien planet) suffered
    "winner_hits": "int8",  # attacks the winner's planet suffered; null: undecided
    "first_hit": "int8",  # the seat whose planet was attacked first; 0: none was
    "first_hit_turn": "int16",  # the turn of the first attack, from 1; null: none
    "comeback": "bool",  # the seat attacked first won; null: no attack, or undecided
    "captures_1": "int16",
    "captures_2": "int16",
    "captures": "int16",
    "mothership_moves": "int16",
    "lost_dice": "int16",  # dice no move could use
    "first_power": "string",  # the first power chosen; null: none was
    **{f"power_{name}": "int8" for name in POWER_NAMES},  # the seat holding it; 0: nobody
}

# Every switch but the entry away from its default, on a short track with five attacks to
# lose (a counted entry leaves dice with no move, which then step the mothership).
SWITCHED = {"length": 8, "hits_to_lose": 5, "power_choice": "next_turn", "must_move": False,
            "both_dice": False, "blocked_die": "mothership", "mothership_moves": "forward",
            "mothership_space": "blocked", "plus_one_use": "always", "back_captures": False,
            "jump_protected": False, "second_tokens": 2, "second_bonus": 1}
RANDOM = ("random", "random")

KIT = KitGame(
    name="rusship", ref="balance.games.rusship.game:KIT",
    rules="balance.games.rusship.engine.rules_nb", loop="balance.games.rusship.loop_nb",
    players="heuristics.rusship.registry:PLAYERS", settings=SETTINGS, defaults=DEFAULTS,
    compile="balance.games.rusship.rules:kit_rules",
    decisions=DECISION_NAMES,
    # The moves (state.M_*), a power each, then the dice's choices (state.K_*).
    options=(*(OptionKind(m, rules={"must_move": False} if m == "pass" else {})
               for m in MOVE_NAMES),
             *(OptionKind(f"power {p}") for p in POWER_NAMES),
             OptionKind("two dice"), OptionKind("one die"), OptionKind("keep"),
             OptionKind("reroll die 1"), OptionKind("reroll die 2"),
             OptionKind("+1"), OptionKind("no +1")),
    events=tuple(Event(name, ("a", "b", "c", "d")) for name in EVENT_NAMES),
    end_reasons=END_NAMES, undecided_ends=("turn_cap",), record=RECORD,
    invariants=INVARIANTS, columns=COLUMNS, values="balance.games.rusship.records:values",
    view="balance.games.rusship.trace:RusshipView",
    goldens=(
        # The rulebook's rules; the roll-off ties once, the Alien Empire plays first.
        Golden("rules-default-seed9", RANDOM, 9),
        # Six attacks to lose on a track of 10: all five powers are taken and used.
        Golden("rules-powers-seed14", RANDOM, 14, {"hits_to_lose": 6, "length": 10}),
        Golden("rules-switches-seed10", RANDOM, 10, SWITCHED)),
    goldens_at="tests.games.rusship",
    bench_title="two racers, the default rules",
    bench_experiment={"players": 2, "heuristic": "racer"},
    max_options=MAX_OPTS, max_events=MAX_EVENTS)

GAME = KIT.declare(
    title="Rusship", version=VERSION, player_counts=(2,), cooperative=False,
    measures=(
        Measure("starter", "First player's wins", "rate", "starter_won",
                "the share of decided games the side that played first won"),
        Measure("comeback", "Comebacks", "rate", "comeback",
                "the share of decided games with an attack the side attacked first still "
                "won: the catch-up", of="decided games with an attack"),
        Measure("turns", "Length", "mean", "turns", "turns, both sides' counted"),
        Measure("winner_hits", "Attacks the winner took", "mean", "winner_hits",
                "how close the decided games were: 0 a rout, hits_to_lose - 1 a photo "
                "finish", unit="attacks"),
        Measure("captures", "Captures", "mean", "captures", "tokens captured a game",
                unit="captures"),
        Measure("first_hit_turn", "First attack", "mean", "first_hit_turn",
                "the turn of the first attack", unit="turns"),
    ),
    default_player="racer", games_help="one row per game",
    experiment_keys=("ablate", "control"),
    variants="balance.games.rusship.experiment:variants",
    forward="balance.games.rusship.engine.forward:FORWARD",
    commands="balance.games.rusship.commands:register",
    report="reports.rusship.report:REPORT", tuning="balance.games.rusship.tuning:tuning",
    ablations=ABLATIONS, extras={"powers": POWER_NAMES},
    # A turn is one side's: a round of both sides is two turns. A side's score is the
    # attacks it made.
    length_unit="turns", length_note="each side's turn counted", score_unit="attacks",
    seat_names=("Humanity", "the Alien Empire"), labels=(ABLATE_WORDS,),
    end_words=(("planet_destroyed", "a planet destroyed"), ("turn_cap", "turn cap reached")),
    # The roll-off chooses who plays first: seat 1 is a side, not the first player.
    starter="starter",
    # Its sides, their ships and planets, the powers an attack hands out.
    words=("mothership", "planet", "power", "attack", "alien", "humanity", "token"),
    rule_modules=("engine", "rules", "experiment"),
)
GAMES = GAME.games_table
