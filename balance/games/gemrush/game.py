"""Gem Rush as the toolkit sees it (balance/contract/game.py): its settings, tables, measures
and where its engine, players, experiment keys, report sections and commands live."""

from __future__ import annotations

from balance.contract.game import CORE_COLUMNS, Game, Measure, Setting, Table
from balance.games.gemrush.engine.state import END_NAMES
from balance.games.gemrush.play import ENGINE_VERSION
from balance.games.gemrush.rules import SCHEMA

_KIND = {int: int, bool: bool, str: str}

SETTINGS = tuple(
    Setting(name, _KIND[f.kind], f.doc,
            lo=f.lo if f.kind is int else None, hi=f.hi if f.kind is int else None,
            choices=f.choices)
    for name, f in SCHEMA.items())

GAMES = Table("games", {
    **CORE_COLUMNS,
    "edition": "string",
    "mode": "string",
    "target": "int32",
    "exhaust": "bool",
    "score_by_turn": "list<int16>",
    "target_turn": "int16",
    "deck_out_turn": "int16",
    "reshuffles": "int16",
    "cards_burned": "int16",
    "rooms_built": "int16",
    "skills": "list<string>",
}, help="one row per game", seat_columns=("winner",))

ROOMS = Table("rooms", {
    "experiment": "string",
    "variant": "int32",
    "game": "int64",
    "room": "string",
    "turn": "int16",
    "builder": "int8",
    "points": "int16",
    "uses": "int32",
    "gained": "int32",
}, help="one row per placed tile, in placement order", widened=("uses", "gained"),
    seat_columns=("builder",))

MEASURES = (
    Measure("win", "Win rate", "rate", "won",
            "Crisis: the share of games the team reached its target"),
    Measure("score", "Score", "mean", "score", "the team's score (Crisis) or the winner's (Rush)"),
    Measure("turns", "Length", "mean", "turns", "turns played (Crisis) or rounds (Rush)"),
    Measure("rooms_built", "Rooms built", "mean", "rooms_built", "tiles placed in a game"),
    Measure("cards_burned", "Cards burnt", "mean", "cards_burned", "Crisis: gem cards burnt"),
)

GAME = Game(
    name="gemrush",
    title="Gem Rush",
    version=ENGINE_VERSION,
    player_counts=tuple(range(1, 8)),
    cooperative=None,  # Crisis Mode is cooperative, Rush Mode a race
    settings=SETTINGS,
    tables=(GAMES, ROOMS),
    measures=MEASURES,
    end_reasons=END_NAMES,
    experiment_keys=("edition", "content", "mode", "target", "exhaust", "difficulties",
                     "ablate", "each_skill", "control", "patches"),
    kernel_modules=("balance.games.gemrush.engine.game_nb",
                    "balance.games.gemrush.engine.rollout_nb"),
    report="reports.gemrush.report:REPORT",
    quantities="balance.games.gemrush.measures:quantities",
)
