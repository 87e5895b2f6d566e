"""Gem runner's own players, beside the neutral random and scripted ones: each a compiled
decision function that the generated dispatch calls with the arguments its roster entry
names (registry.py)."""

from balance.games.gem_runner.rules_nb import LEFT, MOVE, REROLL, ROLL
from balance.kernels.jit import njit


@njit
def threshold_choose_nb(state, w):
    """Moves with a roll of at_least (w[0]) or more; rerolls a lower one while it may."""
    if state.turn[ROLL] < w[0] and state.turn[LEFT] > 0:
        return REROLL
    return MOVE
