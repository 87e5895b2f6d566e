"""One place to configure Numba: every kernel is cached on disk and compiled without Python
objects. Setting NUMBA_DISABLE_JIT=1 runs the same code as plain Python for debugging."""

from numba import njit as _njit


def njit(fn):
    return _njit(cache=True, nogil=True)(fn)
