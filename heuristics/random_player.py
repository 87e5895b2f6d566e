"""`random`: picks uniformly among the legal options of every decision. It is no strategy; it
reaches every rule path, which is what the invariant checks need. Any game may register it:
it needs only the number of options and the players' random stream."""

from balance.kernels.jit import njit
from balance.kernels.rng import below_nb


@njit
def random_choose_nb(rng, n):
    return below_nb(rng, n)  # the players' own stream (Seats.rng): never the game's
