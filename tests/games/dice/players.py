"""The dice race's own player, beside the neutral random and scripted ones."""

from balance.kernels.jit import njit
from tests.games.dice.rules_nb import BANK, ROLL


@njit
def stopper_choose_nb(state, w):
    """Banks once the turn's total reaches stop_at (w[0])."""
    return ROLL if state.total[0] < w[0] else BANK
