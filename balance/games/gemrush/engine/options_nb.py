"""The option table, st.opt: one row per legal option of the decision being asked, written by
`offer_nb` one whole row at a time. Its last row is kept for check mode (players.py), which
poisons the table after every decision, so that a cell left over from an earlier decision can
never pass for an option of the next one."""

from balance.games.gemrush.engine.state import OPT_POISON, S_OPT_HWM, S_VIOLATION, V_STALE_OPTION
from balance.kernels.jit import njit


@njit(inline=True)
def offer_nb(st, i, a, b, c, d):
    """Write option row i in full and return the next row. Options past the table's end (less
    the row check mode keeps) are dropped: a listing is capped, never overrun."""
    if i >= st.opt.shape[0] - 1:
        return i
    row = st.opt[i]
    row[0] = a
    row[1] = b
    row[2] = c
    row[3] = d
    return i + 1


# Check mode is kept out of the listings and the decision sites they are pasted into: any
# check code there, even code that never runs, cost a quarter of the engine's speed (LLVM
# inlined the rest differently). It runs in players.decide_checked_nb, called once per decision.
@njit
def poison_options_nb(opt, sc, rows):
    for i in range(min(rows, opt.shape[0])):
        for j in range(opt.shape[1]):
            opt[i, j] = OPT_POISON


@njit
def stale_option_nb(opt, sc, n):
    """Whether an offered cell still holds the poison: the listing did not write it."""
    for i in range(n):
        for j in range(opt.shape[1]):
            if opt[i, j] == OPT_POISON:
                if sc[S_VIOLATION] == 0:
                    sc[S_VIOLATION] = V_STALE_OPTION
                return True
    return False


@njit
def consume_option_nb(opt, sc, n, k):
    """After the choice: move the chosen row to the kept last row, where the engine reads it,
    and poison every row a listing of this game has used. Returns the kept row's index."""
    last = opt.shape[0] - 1
    for j in range(opt.shape[1]):
        opt[last, j] = opt[k, j]
    if n > sc[S_OPT_HWM]:
        sc[S_OPT_HWM] = n
    poison_options_nb(opt, sc, sc[S_OPT_HWM])
    return last
