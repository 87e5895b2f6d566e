"""The engine's single door to the players: every decision goes through `decide_nb`, with its
options listed in st.opt by options_nb.offer_nb, and is put to the player of the seat whose
decision it is (seats.py). The engine reads the chosen option as st.opt[k] for the k
returned."""

from balance.engine.jit import njit
from balance.engine.options_nb import consume_option_nb, stale_option_nb
from balance.engine.state import S_CHECK, S_DECISIONS, S_VIOLATION, V_BAD_CHOICE
from heuristics.dispatch import choose_nb


@njit(inline=True)
def _valid_nb(st, k, n):
    if k < 0 or k >= n:
        if st.sc[S_VIOLATION] == 0:
            st.sc[S_VIOLATION] = V_BAD_CHOICE
        return 0
    return k


@njit
def decide_checked_nb(st, tb, ru, pp, kind, n, p):
    """decide_nb in check mode: refuse a listing with a cell it did not write (the table is
    poisoned after every decision, and in full at the start of a game), then hand the engine
    the chosen row from the table's kept last row and poison the rest."""
    if stale_option_nb(st.opt, st.sc, n):
        return consume_option_nb(st.opt, st.sc, n, 0)
    k = _valid_nb(st, choose_nb(pp.pol[p], kind, st, tb, ru, pp, n, p), n)
    return consume_option_nb(st.opt, st.sc, n, k)


@njit(inline=True)
def decide_nb(st, tb, ru, pp, kind, n, p):
    """Ask the player of seat p to pick one of the n options in st.opt."""
    st.sc[S_DECISIONS] += 1
    if st.sc[S_CHECK]:
        return decide_checked_nb(st, tb, ru, pp, kind, n, p)
    return _valid_nb(st, choose_nb(pp.pol[p], kind, st, tb, ru, pp, n, p), n)
