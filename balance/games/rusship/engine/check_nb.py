"""Rusship's invariants, checked after every turn in check mode (Game.check, the contract
tests, `balance rusship check`): the first one broken is recorded in S_VIOLATION."""

from balance.games.rusship.engine.state import (
    IN_BOX,
    OUT_OF_GAME,
    P_SHARE,
    S_ENDED,
    S_VIOLATION,
    V_ATTACKS,
    V_BOARD,
    V_POWERS,
    V_SHARED,
    V_TOKENS,
)
from balance.kernels.jit import njit


@njit
def _broken_nb(st, ru):
    L = ru.length
    for s in range(2):
        if st.ms[s] < 1 or st.ms[s] > L:
            return V_BOARD
        on = 0
        for j in range(st.pos.shape[1]):
            a = st.pos[s, j]
            if a == 0 or a > L or a < -1:
                return V_BOARD
            if a > 0:
                on += 1
        counted = 0
        for t in range(st.occ.shape[1]):
            counted += st.occ[s, t]
            if st.occ[s, t] > 0 and (t < 1 or t > L):
                return V_BOARD
        if counted != on or st.pos.shape[1] != ru.tokens:
            return V_TOKENS
        for j in range(st.pos.shape[1]):
            a = st.pos[s, j]
            if a > 0:
                m = 0
                for k in range(st.pos.shape[1]):
                    if st.pos[s, k] == a:
                        m += 1
                if m != st.occ[s, a]:
                    return V_TOKENS
        cap = 2 if st.power[P_SHARE] == s else 1
        for t in range(1, L + 1):
            if st.occ[s, t] > cap or (st.occ[s, t] > 0 and st.occ[1 - s, t] > 0):
                return V_SHARED
        held = 0
        for k in range(st.power.shape[0]):
            if st.power[k] == s:
                held += 1
        # A side holds a power for each attack it suffered while the box had one, and owes
        # the rest: never more than its attacks.
        if held + st.owed[s] > st.hits[s]:
            return V_POWERS
        if st.hits[s] >= ru.hits_to_lose and not st.sc[S_ENDED]:
            return V_ATTACKS
        if st.hits[s] > ru.hits_to_lose:
            return V_ATTACKS
    for k in range(st.power.shape[0]):
        p = st.power[k]
        if p != IN_BOX and p != OUT_OF_GAME and p != 0 and p != 1:
            return V_POWERS
        if ((ru.box >> k) & 1) == 0 and p != OUT_OF_GAME:
            return V_POWERS
    return 0


@njit
def check_nb(st, ru):
    if st.sc[S_VIOLATION] == 0:
        st.sc[S_VIOLATION] = _broken_nb(st, ru)
