"""xoshiro128** on 32-bit words held in int64, so that compiled and pure-Python runs give the
same numbers (no value ever exceeds 2**40, so nothing wraps either way)."""

import numpy as np

from balance.kernels.jit import njit

M32 = 0xFFFFFFFF


def _splitmix64(x: np.ndarray) -> np.ndarray:
    # uint64 array arithmetic wraps silently, as splitmix64 intends.
    x = x + np.uint64(0x9E3779B97F4A7C15)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def seed_states(seeds) -> np.ndarray:
    """Generator states (n, 8) for game seeds: words 0-3 seed the game's stream (shuffles),
    words 4-7 the players' own stream (heuristics/seats.py). Both come from the splitmix64
    sequence of the seed, in 32-bit words. Vectorised, so seeding a million games costs
    milliseconds."""
    s = np.asarray(seeds, dtype=np.int64).astype(np.uint64)
    parts = []
    x = s
    for _ in range(4):
        x = _splitmix64(x)
        parts += [x & np.uint64(M32), x >> np.uint64(32)]
    words = np.stack(parts, axis=1).astype(np.int64)
    for lo in (0, 4):
        zero = ~words[:, lo:lo + 4].any(axis=1)
        words[zero, lo] = 1  # xoshiro's one forbidden state
    return words


def seed_state(seed: int) -> np.ndarray:
    return seed_states([seed])[0]


@njit
def rotl_nb(x, k):
    return ((x << k) | (x >> (32 - k))) & M32


@njit
def next32_nb(s):
    result = (rotl_nb((s[1] * 5) & M32, 7) * 9) & M32
    t = (s[1] << 9) & M32
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl_nb(s[3], 11)
    return result


@njit
def below_nb(s, n):
    """Uniform integer in [0, n) for 0 < n < 2**31 (Lemire's multiply-shift)."""
    return (next32_nb(s) * n) >> 32


@njit
def shuffle_nb(s, arr, n):
    """Fisher-Yates on arr[:n]."""
    for i in range(n - 1, 0, -1):
        j = below_nb(s, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
