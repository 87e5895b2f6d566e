"""Pig's own player, beside the neutral random and scripted ones."""

from balance.kernels.jit import njit
from tests.games.pig.rules_nb import HOLD, ROLL


@njit
def hold_at_choose_nb(state, w):
    """Holds once the points at stake reach hold_at (w[0])."""
    return ROLL if state.at_stake[0] < w[0] else HOLD
