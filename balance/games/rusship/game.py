"""Rusship, declared (balance/contract/game.py): a two-player dice race between Humanity and
the Alien Empire. The declaration imports no engine: `balance games`, the report and
`balance compare` read it without compiling anything.

Where things are: the rules' settings and defaults in rules.py and data/rules.toml, the
track's rules (moves, captures, attacks) in engine/moves_nb.py, the turn in
engine/turn_nb.py, the players in heuristics/rusship/, the report in reports/rusship/, the
rulings in the guide's Rusship page (balance/docs/guide/games/rusship.md)."""

from __future__ import annotations

from balance.contract.game import CORE_COLUMNS, Game, Measure, Table
from balance.games.rusship.engine.state import END_NAMES, POWER_NAMES
from balance.games.rusship.experiment import ABLATIONS
from balance.games.rusship.rules import SETTINGS

# Bumped by hand whenever the same seeds would play differently.
VERSION = "3"


GAMES = Table("games", {
    **CORE_COLUMNS,
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
    "decisions": "int32",
}, "one row per game", seat_columns=("winner", "starter", "first_hit"))

GAME = Game(
    name="rusship", title="Rusship", version=VERSION, player_counts=(2,), cooperative=False,
    settings=SETTINGS, tables=(GAMES,),
    measures=(
        Measure("starter", "First player's wins", "rate", "starter_won",
                "the share of decided games the side that played first won"),
        Measure("comeback", "Comebacks", "rate", "comeback",
                "the share of decided games with an attack the side attacked first still "
                "won: the catch-up", of="decided games with an attack"),
        Measure("turns", "Length", "mean", "turns", "turns, both sides' counted"),
        Measure("winner_hits", "Attacks the winner took", "mean", "winner_hits",
                "how close the decided games were: 0 a rout, hits_to_lose - 1 a photo "
                "finish"),
        Measure("captures", "Captures", "mean", "captures", "tokens captured a game"),
        Measure("first_hit_turn", "First attack", "mean", "first_hit_turn",
                "the turn of the first attack"),
    ),
    end_reasons=END_NAMES[1:], undecided_ends=("turn_cap",), default_player="racer",
    experiment_keys=("ablate", "control"),
    kernel_modules=("balance.games.rusship.shard", "heuristics.rusship.registry"),
    variants="balance.games.rusship.experiment:variants",
    prepare="balance.games.rusship.shard:prepare_variant",
    play="balance.games.rusship.shard:play", check="balance.games.rusship.shard:check",
    players="heuristics.rusship.registry:PLAYERS", bench="balance.games.rusship.shard:bench",
    forward="balance.games.rusship.engine.forward:FORWARD",
    commands="balance.games.rusship.commands:register",
    report="reports.rusship.report:REPORT", tuning="balance.games.rusship.tuning:tuning",
    ablations=ABLATIONS, extras={"powers": POWER_NAMES},
    # Its sides, their ships and planets, the powers an attack hands out.
    words=("mothership", "planet", "power", "attack", "alien", "humanity", "token"),
    rule_modules=("engine", "rules", "experiment"),
)
