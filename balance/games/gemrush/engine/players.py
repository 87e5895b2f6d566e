"""The engine's single door to the players: every decision goes through `decide_nb`, with its
options listed in st.opt by options_nb.offer_nb, and is put to the player of the seat whose
decision it is (heuristics/seats.py). The engine reads the chosen option as st.opt[k] for the
k returned.

The engine imports no player: only the dispatch generated from the player registry
(heuristics/gemrush/dispatch_nb.py, `python -m heuristics.generate`). Numba must see each
player's function as a global of compiled source to cache it on disk, so the engine cannot be
handed its players at run time; the generated module is the one static import between them,
and adding a player changes the registry, never the engine."""

from balance.games.gemrush.engine.options_nb import consume_option_nb, stale_option_nb
from balance.games.gemrush.engine.state import (
    S_CHECK,
    S_DECISIONS,
    S_OPTIONS,
    S_VIOLATION,
    V_BAD_CHOICE,
)
from balance.kernels.jit import njit
from balance.kernels.unlinked import unlinked
from heuristics.gemrush.dispatch_nb import POLICY_SLOW, choose_nb, choose_slow_nb


@njit(inline=True)
def _valid_nb(st, k, n):
    if k < 0 or k >= n:
        if st.sc[S_VIOLATION] == 0:
            st.sc[S_VIOLATION] = V_BAD_CHOICE
        return 0
    return k


@njit
def decide_slow_nb(st, tb, ru, pp, kind, n, p):
    """decide_nb for check mode, Python players and a search's replay, in one call kept out of
    the decision sites (any check code pasted there cost a quarter of the engine's speed).
    Check mode refuses a listing with a cell it did not write (the table is poisoned after
    every decision, and in full at the start of a game), then hands the engine the chosen row
    from the table's kept last row and poisons the rest."""
    check = st.sc[S_CHECK]
    if check and stale_option_nb(st.opt, st.sc, n):
        return consume_option_nb(st.opt, st.sc, n, 0)
    k = _valid_nb(st, choose_slow_nb(pp.pol[p], kind, st, tb, ru, pp, n, p), n)
    if check:
        return consume_option_nb(st.opt, st.sc, n, k)
    return k


# Off the fast path, so by its symbol (balance/kernels/unlinked.py): linked, its code (the
# players again, the Python players' hook, a search's replay) was compiled again inside every
# kernel with a decision site.
_decide_slow_nb = unlinked(decide_slow_nb)


@njit(inline=True)
def decide_nb(st, tb, ru, pp, kind, n, p):
    """Ask the player of seat p to pick one of the n options in st.opt."""
    st.sc[S_DECISIONS] += 1
    st.sc[S_OPTIONS] += n
    if st.sc[S_CHECK] or pp.pol[p] >= POLICY_SLOW:
        return _decide_slow_nb(st, tb, ru, pp, kind, n, p)
    return _valid_nb(st, choose_nb(pp.pol[p], kind, st, tb, ru, pp, n, p), n)
