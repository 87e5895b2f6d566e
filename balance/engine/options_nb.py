"""The option table, st.opt: one row per legal option of the decision being asked. Listings
write it with `offer_nb`, one whole row at a time; check mode poisons it before each listing
and decide_nb (players.py) refuses a poisoned cell, so a cell left over from an earlier
decision can never pass for an option."""

from balance.engine.jit import njit
from balance.engine.state import (
    OPT_POISON,
    S_CHECK,
    S_OPT_HWM,
    S_VIOLATION,
    V_STALE_OPTION,
)


@njit
def poison_options_nb(st):
    """Fill every row an earlier listing of this game wrote (S_OPT_HWM is their high-water
    mark; reset_nb sets it to the whole table) with OPT_POISON."""
    for i in range(min(st.sc[S_OPT_HWM], st.opt.shape[0])):
        for j in range(st.opt.shape[1]):
            st.opt[i, j] = OPT_POISON


@njit(inline=True)
def offer_nb(st, i, a, b, c, d):
    """Write option row i in full and return the next row. Every listing starts at row 0,
    which is when check mode poisons the table. Options past the table's end are dropped: a
    listing is capped, never overrun."""
    if st.sc[S_CHECK]:
        if i == 0:
            poison_options_nb(st)
        if i + 1 > st.sc[S_OPT_HWM]:
            st.sc[S_OPT_HWM] = i + 1
    if i >= st.opt.shape[0]:
        return i
    row = st.opt[i]
    row[0] = a
    row[1] = b
    row[2] = c
    row[3] = d
    return i + 1


@njit
def check_options_nb(st, n):
    """Check mode, before a decision: no offered cell may still hold the poison."""
    for i in range(n):
        for j in range(st.opt.shape[1]):
            if st.opt[i, j] == OPT_POISON and st.sc[S_VIOLATION] == 0:
                st.sc[S_VIOLATION] = V_STALE_OPTION
