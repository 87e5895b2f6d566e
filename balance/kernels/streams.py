"""A game's seed words with the players' own stream drawn anew and the game's kept: the same
deal (dice, shuffles) played again with other random choices by the players, as the seed
analysis of a strength ladder replays each seed (balance/ladder/luck.py)."""

from __future__ import annotations

import numpy as np

from balance.kernels.rng import seed_states


def seed_states_with(seeds, streams: int = 0) -> np.ndarray:
    """seed_states(seeds), its words 4-7 (the players' stream) those of another seed made
    from each seed and `streams` when `streams` is not 0; 0 is the seed's own, so every run
    that never asks plays exactly as before."""
    seeds = np.asarray(seeds, dtype=np.int64)
    words = seed_states(seeds)
    if streams:
        salt = seed_states([int(streams)])[0]
        # Two 32-bit words make a non-negative 63-bit salt: the mixed seeds stay valid seeds.
        mixed = seeds ^ np.int64((int(salt[0]) << 31) | int(salt[1]))
        words[:, 4:8] = seed_states(mixed)[:, 4:8]
    return words
