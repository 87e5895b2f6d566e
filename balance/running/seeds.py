"""Game seeds of an experiment: one per game index, vectorised.

Game i of an experiment is seeded from (experiment seed, i) alone, the same in every variant:
comparisons between variants use common random numbers (the same shuffles in both arms), and
`balance.simulate(seed=S, ...)` plays exactly the games of any variant of an experiment with
seed S. Nothing depends on how games are split into shards or which worker plays them.
"""

from __future__ import annotations

import numpy as np

MAX_SEED = 2**63 - 1
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _splitmix64(x: np.ndarray) -> np.ndarray:
    # The finaliser of splitmix64 (the same as balance/kernels/rng.py); uint64 arrays wrap
    # silently, as it intends. Kept here so that seeding needs no Numba import.
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def game_seeds(seed: int, start: int, stop: int) -> np.ndarray:
    """Seeds (int64, non-negative) of games start..stop-1 of an experiment seeded `seed`."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"experiment seed must be between 0 and {MAX_SEED}, got {seed}")
    base = _splitmix64(np.array([seed], dtype=np.uint64))[0]
    idx = np.arange(start, stop, dtype=np.uint64)
    with np.errstate(over="ignore"):
        mixed = _splitmix64(idx * _GOLDEN ^ base)
    return (mixed >> np.uint64(1)).astype(np.int64)


# Mixed into a game's seed to draw its first player, so that the draw has a stream of its own:
# the shuffles of a game (balance/kernels/rng.py) are the same whoever plays first.
_FIRST_SALT = np.uint64(0xD1B54A32D192ED03)


def first_players(seeds, players: int) -> np.ndarray:
    """For each game seed, a player drawn uniformly from 0..players-1 to play first (the
    rules' first_player = random)."""
    s = np.asarray(seeds, dtype=np.int64).astype(np.uint64)
    with np.errstate(over="ignore"):
        x = _splitmix64(s ^ _FIRST_SALT)
    # The top 32 bits scaled to the range (Lemire), as the engine's below_nb does.
    return (((x >> np.uint64(32)) * np.uint64(players)) >> np.uint64(32)).astype(np.int64)
