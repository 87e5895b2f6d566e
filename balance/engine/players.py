"""The engine's single door to the players: every decision goes through `decide_nb`, with its
options listed in st.opt by options_nb.offer_nb."""

from balance.engine.jit import njit
from balance.engine.options_nb import check_options_nb
from balance.engine.state import S_CHECK, S_DECISIONS, S_VIOLATION, V_BAD_CHOICE
from heuristics.dispatch import choose_nb


@njit(inline=True)
def decide_nb(st, tb, ru, pol, w, kind, n, p):
    """Ask player policy `pol` (seat p) to pick one of the n options in st.opt."""
    st.sc[S_DECISIONS] += 1
    if st.sc[S_CHECK]:
        check_options_nb(st, n)
    k = choose_nb(pol, kind, st, tb, ru, w, n, p)
    if k < 0 or k >= n:
        if st.sc[S_VIOLATION] == 0:
            st.sc[S_VIOLATION] = V_BAD_CHOICE
        k = 0
    return k
