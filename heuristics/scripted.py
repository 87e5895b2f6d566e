"""`scripted`: replays a list of option indices (st.script), then takes the first option.
For hand-built scenarios, tests and replaying a game a person has written down."""

from balance.games.gemrush.engine.state import S_SCRIPT_N, S_SCRIPT_POS
from balance.kernels.jit import njit


@njit
def scripted_choose_nb(kind, st, tb, ru, pp, n, p):
    i = st.sc[S_SCRIPT_POS]
    if i < st.sc[S_SCRIPT_N]:
        st.sc[S_SCRIPT_POS] = i + 1
        return st.script[i]
    return 0
