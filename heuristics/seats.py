"""Who plays each seat: the engine passes this tuple, untouched, to every decision. It is the
players' side of the table, kept apart from the game's state: a player's knobs, its own
random stream (a player never draws from the game's stream, so that variants that differ only
in their players still share every shuffle) and every player's memory of the game (the
engine only resets it when a game starts). Any game's engine carries it the same way."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Seats(NamedTuple):
    pol: np.ndarray  # (P,) int64 policy id of each seat (heuristics/player.py, Roster)
    w: np.ndarray  # (P, K) float64 each seat's weights (its player's knobs and values)
    rng: np.ndarray  # (4,) int64 the players' random stream, seeded per game
    mem: tuple  # each player's memory, by player name (the game's generated Memories)


def new_seats(policies, weights, memories) -> Seats:
    """Seats from one policy id and one weights vector per seat (shorter vectors are padded
    with zeros) and the players' memories."""
    width = max([1, *(len(w) for w in weights)])
    w = np.zeros((len(policies), width), np.float64)
    for i, row in enumerate(weights):
        w[i, : len(row)] = row
    return Seats(pol=np.asarray(policies, np.int64), w=w, rng=np.zeros(4, np.int64),
                 mem=memories)
