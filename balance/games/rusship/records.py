"""Rusship's own columns of the games table (game.py's COLUMNS), from what each finished game
records (the kit's record and state.R_*), as the report, `balance compare`, `--precision` and
`balance tune --goal` read them."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from balance.games.rusship.engine.state import (
    POWER_NAMES,
    R_CAPT0,
    R_CAPT1,
    R_FIRST_HIT,
    R_FIRST_HIT_TURN,
    R_LOST0,
    R_LOST1,
    R_MS0,
    R_MS1,
    R_POWER,
    R_POWER_ORDER,
    R_STARTER,
)
from balance.kit.state import SEAT_WON


def _seat(x: np.ndarray) -> np.ndarray:
    """A side (0, 1; -1 none) as a seat (1, 2; 0 none)."""
    return np.where(x >= 0, x + 1, 0).astype(np.int8)


def values(records, setup) -> dict:
    """KitGame.values: each side's score is the attacks it made, so the attacks a side's
    planet suffered are the other's score."""
    rec = records.rec
    n = len(records)
    decided = records.outcome == SEAT_WON
    won = np.where(decided, records.winner, -1)
    hits = records.scores[:, ::-1]  # attacks each side's planet suffered
    first = rec[:, R_FIRST_HIT]
    winner_hits = np.where(decided, hits[np.arange(n), np.maximum(won, 0)], 0)
    order = rec[:, R_POWER_ORDER: R_POWER_ORDER + 5]
    holders = rec[:, R_POWER: R_POWER + 5]
    # The power chosen first: the one whose place among the game's choices is 0.
    first_pick = np.where((order == 0) & (holders >= 0), 1, 0)
    names = np.array(POWER_NAMES, object)
    firsts = np.where(first_pick.any(axis=1), names[first_pick.argmax(axis=1)], None)
    return {
        # No winner, no winner's score: an undecided game scores 0 (the kit's would be the
        # best side's).
        "score": np.where(decided, records.scores[np.arange(n), np.maximum(won, 0)], 0
                          ).astype(np.int16),
        "starter": _seat(rec[:, R_STARTER]),
        "starter_won": pa.array(won == rec[:, R_STARTER], pa.bool_(), mask=~decided),
        "hits_1": hits[:, 0].astype(np.int8), "hits_2": hits[:, 1].astype(np.int8),
        # No winner, no winner's attacks: an undecided game is no rout.
        "winner_hits": pa.array(winner_hits.astype(np.int8), pa.int8(), mask=~decided),
        "first_hit": _seat(first),
        "first_hit_turn": pa.array((rec[:, R_FIRST_HIT_TURN] + 1).astype(np.int16),
                                   pa.int16(), mask=first < 0),
        "comeback": pa.array(won == first, pa.bool_(), mask=~decided | (first < 0)),
        "captures_1": rec[:, R_CAPT0].astype(np.int16),
        "captures_2": rec[:, R_CAPT1].astype(np.int16),
        "captures": (rec[:, R_CAPT0] + rec[:, R_CAPT1]).astype(np.int16),
        "mothership_moves": (rec[:, R_MS0] + rec[:, R_MS1]).astype(np.int16),
        "lost_dice": (rec[:, R_LOST0] + rec[:, R_LOST1]).astype(np.int16),
        "first_power": pa.array(list(firsts), pa.string()),
        **{f"power_{name}": _seat(holders[:, k]) for k, name in enumerate(POWER_NAMES)},
    }
