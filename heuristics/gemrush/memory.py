"""What the players remember during a game: greedy's caches and plans. It belongs to the
players' side of the table (Seats.mem.greedy, heuristics/seats.py), never to the game's
State, so that the engine neither keeps nor copies it, and a search that replays the game
from a saved State brings the memory of the moment it searches from (heuristics/search.py,
copy_memory_nb).

Everything here is computed from what a player at the table may know (greedy.py's audit):
the frontier doors of the mine, estimates per gem, a breadth-first search from the player's
room, and the plan of the current turn. Each cache carries a stamp of what it was computed
from (the engine's version counters), so a stale one is recomputed rather than trusted. One
memory serves every greedy seat of a game: what it holds is public (the frontier) or stamped
with the seat it was computed for (goal, plan, estimates), so in Rush no seat reads what
another seat's hand taught it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from balance.games.gemrush.tables import Tables
from balance.kernels.copy_nb import copy_array_nb
from balance.kernels.jit import njit

# Scalars (Memory.sc): cache stamps and the plan of this turn.
(M_NEED_VER, M_FRONT_N, M_AVAIL_STAMP, M_GOAL_STAMP, M_REACH_KEY, M_PLAN_KEY, M_PLAN_ROOM,
 M_PLAN_TARGET, M_PLAN_SIDE, M_N) = range(10)
# Rows of Memory.rows (int): the breadth-first search over the mine (distance, parent, how and
# with what argument each room was first reached, the queue), the frontier doors (placed
# tile, side, points; M_FRONT_N of them), cards per gem (work space), and per room the most
# points of a door there the hand pays for (work space of greedy's skill step).
(B_DIST, B_PREV, B_HOW, B_ARG, B_QUEUE, F_TILE, F_SIDE, F_POINTS, R_COUNTS, R_BUILD_AT,
 R_ROWS) = range(11)
# Rows of Memory.est (float): per gem, how much the frontier wants it, its cards a dig could
# still find, the worth of holding it for the goal door, and the units that door still lacks;
# per hand position, the worth of the card there (for one decision).
E_NEED, E_AVAIL, E_GOAL, E_WANT, E_CARD, E_ROWS = range(6)


class Memory(NamedTuple):
    # Three arrays, not one per concept: every call between kernels passes each array by
    # value (engine/jit.py), and greedy's kernels pass the memory along at every call.
    sc: np.ndarray  # (M_N,) stamps and plan
    rows: np.ndarray  # (R_ROWS, width) int rows above; width fits the longest
    est: np.ndarray  # (E_ROWS, width) float rows above


def new_memory(tables: Tables, players: int) -> Memory:
    """One memory for every greedy seat of the table (see above: what it holds is public or
    stamped with its seat)."""
    n_cards = len(tables.card_deck)
    n_tiles = len(tables.room_deck)
    g = len(tables.gem_power)
    return Memory(sc=np.zeros(M_N, np.int64),
                  rows=np.zeros((R_ROWS, max(4 * n_tiles + 4, g)), np.int64),
                  est=np.zeros((E_ROWS, max(g, n_cards, 1)), np.float64))


@njit
def reset_memory_nb(m):
    """Forget the last game. Stamps restart at 0 with the engine's counters; the setup's start
    tile moves the mine's counter on before the first decision, so no cache of the last game
    is trusted."""
    for i in range(M_N):
        m.sc[i] = 0


@njit
def copy_memory_nb(dst, src):
    """dst <- src, for a search that replays the game up to its decision: a replay of scripted
    choices does not rebuild the caches and plans the player had at that decision."""
    copy_array_nb(dst.sc, src.sc)
    copy_array_nb(dst.rows, src.rows)
    copy_array_nb(dst.est, src.est)
