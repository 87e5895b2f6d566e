"""Rusship's games table (its columns are declared in game.py): what each finished game
records (turn_nb.R_*), as the report, `balance compare`, `--precision` and `balance tune
--goal` read it."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from balance.games.rusship.engine.state import END_NAMES, POWER_NAMES
from balance.games.rusship.engine.turn_nb import (
    R_CAPT0,
    R_CAPT1,
    R_DECISIONS,
    R_END,
    R_FIRST_HIT,
    R_FIRST_HIT_TURN,
    R_HITS0,
    R_HITS1,
    R_LOST0,
    R_LOST1,
    R_MS0,
    R_MS1,
    R_POWER,
    R_POWER_ORDER,
    R_STARTER,
    R_TURNS,
    R_WINNER,
)
from balance.games.rusship.game import GAMES


def _seat(x: np.ndarray) -> np.ndarray:
    """A side (0, 1; -1 none) as a seat (1, 2; 0 none)."""
    return np.where(x >= 0, x + 1, 0).astype(np.int8)


def games_table(experiment: str, variant, start: int, seeds: np.ndarray, out: np.ndarray,
                version: str, source_hash: str) -> pa.Table:
    n = len(seeds)
    won = out[:, R_WINNER]
    decided = won >= 0
    first = out[:, R_FIRST_HIT]
    hits = out[:, [R_HITS0, R_HITS1]]
    winner_hits = np.where(decided, hits[np.arange(n), np.maximum(won, 0)], 0)
    order = out[:, R_POWER_ORDER: R_POWER_ORDER + 5]
    holders = out[:, R_POWER: R_POWER + 5]
    # The power chosen first: the one whose place among the game's choices is 0.
    first_pick = np.where((order == 0) & (holders >= 0), 1, 0)
    names = np.array(POWER_NAMES, object)
    firsts = np.where(first_pick.any(axis=1), names[first_pick.argmax(axis=1)], None)
    cols = {
        "experiment": [experiment] * n, "variant": np.full(n, variant.index, np.int32),
        "game": np.arange(start, start + n, dtype=np.int64), "seed": seeds.astype(np.int64),
        "players": np.full(n, 2, np.int16), "heuristic": [variant.heuristic] * n,
        "went_first": np.ones(n, np.int8), "won": pa.nulls(n, pa.bool_()),
        "winner": pa.array(_seat(won), pa.int8(), mask=~decided),
        "score": np.where(decided, hits[np.arange(n), 1 - np.maximum(won, 0)], 0
                          ).astype(np.int16),
        "scores": pa.array(list(hits[:, ::-1].astype(np.int16)), pa.list_(pa.int16())),
        "turns": out[:, R_TURNS].astype(np.int16),
        "end_reason": [END_NAMES[e] for e in out[:, R_END]],
        "engine_version": [version] * n, "source_hash": [source_hash] * n,
        "starter": _seat(out[:, R_STARTER]),
        "starter_won": pa.array(won == out[:, R_STARTER], pa.bool_(), mask=~decided),
        "hits_1": hits[:, 0].astype(np.int8), "hits_2": hits[:, 1].astype(np.int8),
        # No winner, no winner's attacks: an undecided game is no rout.
        "winner_hits": pa.array(winner_hits.astype(np.int8), pa.int8(), mask=~decided),
        "first_hit": _seat(first),
        "first_hit_turn": pa.array((out[:, R_FIRST_HIT_TURN] + 1).astype(np.int16),
                                   pa.int16(), mask=first < 0),
        "comeback": pa.array(won == first, pa.bool_(), mask=~decided | (first < 0)),
        "captures_1": out[:, R_CAPT0].astype(np.int16),
        "captures_2": out[:, R_CAPT1].astype(np.int16),
        "captures": (out[:, R_CAPT0] + out[:, R_CAPT1]).astype(np.int16),
        "mothership_moves": (out[:, R_MS0] + out[:, R_MS1]).astype(np.int16),
        "lost_dice": (out[:, R_LOST0] + out[:, R_LOST1]).astype(np.int16),
        "first_power": pa.array(list(firsts), pa.string()),
        **{f"power_{name}": _seat(holders[:, k]) for k, name in enumerate(POWER_NAMES)},
        "decisions": out[:, R_DECISIONS].astype(np.int32),
    }
    schema = GAMES.arrow_schema()
    table = pa.table({c: cols[c] if isinstance(cols[c], pa.Array)
                      else pa.array(cols[c], schema.field(c).type) for c in GAMES.columns})
    for key, value in variant.swept.items():  # a swept rule, knob or seats list: its column
        if key not in GAMES.columns:
            # A control has no grid value: a null, of the type the grid's values have.
            kind = _swept_type(variant.swept_like.get(key) if value is None else value)
            table = table.append_column(key, pa.nulls(n, kind) if value is None
                                        else pa.array([value] * n, kind))
    return table


def _swept_type(value) -> pa.DataType:
    # One type per key in every shard: a key's values are all of one kind (knobs are
    # numbers, seats and ablated powers text, rules whole numbers, words or switches).
    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, str):
        return pa.string()
    if isinstance(value, float):
        return pa.float64()
    return pa.int32()
