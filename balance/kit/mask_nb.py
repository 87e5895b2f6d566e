"""The slots of a masked hidden part (KitGame.hidden, Hidden.masked: tiles face down on a
board, each seat having looked at some), for a game's generated redraw of the unseen: apart
from nb.py so that the games without one compile as they did. Kernels never allocate
(balance/kernels/jit.py): the i-th unseen item is found by a walk along the seat's row."""

from balance.kernels.jit import njit


@njit
def unseen_mask_nb(seen, seat):
    """How many items of a masked part `seat` cannot see: its row of `seen` at 0."""
    n = 0
    for j in range(seen.shape[1]):
        if seen[seat, j] == 0:
            n += 1
    return n


@njit
def mask_slot_nb(seen, seat, i):
    """Where the i-th item of a masked part `seat` cannot see lies: (0, j); past them (-1, i
    less their number), for the next part."""
    for j in range(seen.shape[1]):
        if seen[seat, j] == 0:
            if i == 0:
                return 0, j
            i -= 1
    return -1, i
