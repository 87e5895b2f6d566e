"""Integer policy id -> player. A jitted function passed as an argument would miss Numba's disk
cache in every new worker process, so players are chosen here by if/elif.
To add a player: write its `*_choose_nb`, give it the next id here and in registry.py."""

from balance.kernels.jit import njit
from heuristics.gemrush.greedy import greedy_choose_nb
from heuristics.random_player import random_choose_nb
from heuristics.scripted import scripted_choose_nb

POLICY_GREEDY = 0
POLICY_RANDOM = 1
POLICY_SCRIPTED = 2
# Not dispatched here: a player written in Python (heuristics/external.py), and a search's
# rollout, which replays its script then plays greedy (balance/games/gemrush/engine/forward.py).
# Both go
# through players.decide_slow_nb.
POLICY_EXTERNAL = 3
POLICY_ROLLOUT = 4


@njit(inline=True)
def choose_nb(pol, kind, st, tb, ru, pp, n, p):
    # Pasted into every decision site: keep it, and each player's entry, small. A player's
    # decisions that need no thought can then be answered without a call (greedy_choose_nb).
    if pol == POLICY_GREEDY:
        return greedy_choose_nb(kind, st, tb, ru, pp, n, p)
    if pol == POLICY_SCRIPTED:
        return scripted_choose_nb(kind, st, tb, ru, pp, n, p)
    return random_choose_nb(kind, st, tb, ru, pp, n, p)
