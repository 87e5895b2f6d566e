"""Who plays each seat: the engine passes this tuple, untouched, to every decision. It is the
players' side of the table, kept apart from the game's State: a player's knobs, its own
random stream (a player never draws from the stream that shuffles the deck, so that variants
that differ only in their players still share every shuffle) and its memory of the game
(heuristics/gemrush/memory.py: the engine only resets it when a game starts)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from heuristics.gemrush.memory import Memory, new_memory


class Seats(NamedTuple):
    pol: np.ndarray  # (P,) int64 policy id of each seat (heuristics/gemrush/dispatch.py)
    w: np.ndarray  # (P, K) float64 each seat's knobs, then its per-room values
    rng: np.ndarray  # (4,) int64 the players' random stream, seeded per game
    mem: Memory  # what the players remember during a game


def new_seats(policies, weights, tables) -> Seats:
    """Seats from one policy id and one weights vector per seat (shorter vectors are padded),
    with a memory sized for the content's tables."""
    width = max([1, *(len(w) for w in weights)])
    w = np.zeros((len(policies), width), np.float64)
    for i, row in enumerate(weights):
        w[i, : len(row)] = row
    return Seats(pol=np.asarray(policies, np.int64), w=w, rng=np.zeros(4, np.int64),
                 mem=new_memory(tables))
