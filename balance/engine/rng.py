"""xoshiro128** on 32-bit words held in int64, so that compiled and pure-Python runs give the
same numbers (no value ever exceeds 2**40, so nothing wraps in either mode)."""

import numpy as np

from balance.engine.jit import njit

M32 = 0xFFFFFFFF


def seed_state(seed: int) -> np.ndarray:
    """The four-word generator state for one game seed (front side: exact Python ints)."""
    words = np.random.SeedSequence(int(seed)).generate_state(4, dtype=np.uint32)
    if not words.any():
        words[0] = 1
    return words.astype(np.int64)


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
