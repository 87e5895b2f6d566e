"""`random`: picks uniformly among the legal options of every decision. It is no strategy; it
reaches every rule path, which is what the invariant checks need."""

from balance.kernels.jit import njit
from balance.kernels.rng import below_nb


@njit
def random_choose_nb(kind, st, tb, ru, pp, n, p):
    return below_nb(pp.rng, n)  # the players' own stream: never the deck's
