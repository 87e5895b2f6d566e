"""The trace of a game, for `balance rusship play`, the rule goldens and the tests: one row
per event, (turn, side, code, a, b, c, d), written only when the state's trace is on."""

from balance.games.rusship.engine.state import S_CUR, S_EV_N, S_TRACE, S_TURN
from balance.kernels.jit import njit


@njit
def emit_nb(st, code, a, b, c, d):
    if st.sc[S_TRACE] == 0:
        return
    n = st.sc[S_EV_N]
    if n >= st.ev.shape[0]:
        return
    row = st.ev[n]
    row[0] = st.sc[S_TURN]
    row[1] = st.sc[S_CUR]
    row[2] = code
    row[3] = a
    row[4] = b
    row[5] = c
    row[6] = d
    st.sc[S_EV_N] = n + 1
