"""The engine's one door to the players: every decision goes through `decide_nb`, with its
options in st.opt, to the player of the seat whose decision it is (heuristics/seats.py).

The engine imports no player, only the dispatch generated from Rusship's roster
(heuristics/rusship/dispatch_nb.py, `python -m heuristics.generate`).

A seat decides in the other seat's turn when it chooses its power at the attack
(power_choice = "immediate"), so a Python seat (the search) hears of every turn's start
(turn_nb.py) and of each choice the compiled seat makes: its replay of a turn holds them all."""

from balance.games.rusship.engine.events import emit_nb
from balance.games.rusship.engine.state import (
    EV_OPTION,
    EV_PICK,
    O_DIE,
    O_FROM,
    O_KIND,
    O_TO,
    S_DECISIONS,
    S_TRACE,
    S_VIOLATION,
    V_BAD_CHOICE,
)
from balance.kernels.jit import njit
from heuristics.rusship.dispatch_nb import (
    POLICY_SLOW,
    choose_nb,
    choose_slow_nb,
    seen_nb,
)


@njit
def _slow_nb(st, tb, ru, pp, kind, n, p):
    """Python players, a search's replay and the trace, kept out of the decision site."""
    if st.sc[S_TRACE]:
        for j in range(n):
            r = st.opt[j]
            emit_nb(st, EV_OPTION, r[O_DIE], r[O_KIND], r[O_FROM], r[O_TO])
    k = choose_slow_nb(pp.pol[p], kind, st, tb, ru, pp, n, p)
    if k < 0 or k >= n:
        if st.sc[S_VIOLATION] == 0:
            st.sc[S_VIOLATION] = V_BAD_CHOICE
        k = 0
    emit_nb(st, EV_PICK, kind, k, n, 0)
    return k


@njit(inline=True)
def decide_nb(st, tb, ru, pp, kind, n, p):
    """Ask the player of seat p to pick one of the n options in st.opt."""
    st.sc[S_DECISIONS] += 1
    if st.sc[S_TRACE] or pp.pol[p] >= POLICY_SLOW:
        k = _slow_nb(st, tb, ru, pp, kind, n, p)
    else:
        k = choose_nb(pp.pol[p], kind, st, tb, ru, pp, n, p)
        if k < 0 or k >= n:
            if st.sc[S_VIOLATION] == 0:
                st.sc[S_VIOLATION] = V_BAD_CHOICE
            k = 0
    seen_nb(pp, kind, k, p)
    return k
