"""Players written in Python, such as the search player (heuristics/search.py): the compiled
engine reaches them through two callbacks (Numba's `objmode` blocks), one at the start of
each of their turns and one for each of their decisions. Only seats whose policy is the
generated dispatch's POLICY_PYTHON take this path (a game's slow decision path), so the
engine's speed for the compiled players is untouched.

A game in which a seat decides during another seat's turn (a choice the rules give the seat
that another's move struck, made at once) also starts every turn for its Python seats, and
tells them each choice a compiled seat makes (`external_seen_nb`, reaching .seen(kind, k,
p)): a search that replays a turn from its start must replay every decision in it.

The game's Python front registers the object the callbacks reach with `playing(game)` around
the engine call. A worker process plays one game at a time, so one slot is enough; a stack
lets a search nest another engine call inside a decision.
"""

from __future__ import annotations

import warnings
from contextlib import contextmanager

from numba import objmode
from numba.core.errors import NumbaWarning

from balance.kernels.jit import njit

# `objmode` blocks make Numba warn that a nogil function holds the GIL there: it must. The
# warning may begin with terminal colour codes (Numba colours it where colorama is installed).
warnings.filterwarnings("ignore", message=".*Code running in object mode", category=NumbaWarning)

_GAMES: list = []


@contextmanager
def playing(game):
    """Make `game` (with .turn_start(p), .choose(kind, n, p) and, for a game that calls
    external_seen_nb, .seen(kind, k, p)) the one the callbacks reach."""
    _GAMES.append(game)
    try:
        yield game
    finally:
        _GAMES.pop()


def _turn_start(p) -> None:
    _GAMES[-1].turn_start(int(p))


def _choose(kind, n, p) -> int:
    return int(_GAMES[-1].choose(int(kind), int(n), int(p)))


def _seen(kind, k, p) -> None:
    _GAMES[-1].seen(int(kind), int(k), int(p))


@njit
def external_turn_start_nb(p):
    with objmode():
        _turn_start(p)


@njit
def external_choose_nb(kind, n, p):
    with objmode(k="int64"):
        k = _choose(kind, n, p)
    return k


@njit
def external_seen_nb(kind, k, p):
    """Seat p, a compiled player, took option k of a decision of `kind`."""
    with objmode():
        _seen(kind, k, p)
