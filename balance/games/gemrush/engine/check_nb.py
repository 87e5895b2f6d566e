"""Invariant checks, run after every turn in check mode (`check=True`), on any content:
every card is somewhere exactly once, scores equal the points scored, the mine is connected
and matches the grid, nobody stands in a tunnel, hands respect the limit after discarding (a
hand-limit skill's places included), no skill is used beyond its uses per turn, and every card
shows its printed gems again once a turn ends."""

from balance.games.gemrush.engine.mine_nb import connected_nb
from balance.games.gemrush.engine.skills_nb import skills_ok_nb
from balance.games.gemrush.engine.state import (
    PILE_BURNT,
    PILE_DECK,
    PILE_DISC,
    PILE_POOL,
    PILE_REJ,
    PL_POINTS,
    PL_TYPE,
    PL_X,
    PL_Y,
    S_BURNT_N,
    S_DECK_N,
    S_DISC_N,
    S_PLACED,
    S_POOL_N,
    S_REJ_N,
    S_TEAM_SCORE,
    S_VIOLATION,
    V_CARDS,
    V_DISCONNECTED,
    V_GRID,
    V_IN_TUNNEL,
    V_SCORE,
    V_SKILL,
    WK_B,
)
from balance.games.gemrush.tables import SEAT_VP, TUNNEL
from balance.kernels.jit import njit


@njit
def _flag(st, code):
    if st.sc[S_VIOLATION] == 0:
        st.sc[S_VIOLATION] = code


@njit
def _mark(seen, arr, n):
    ok = True
    for i in range(n):
        c = arr[i]
        if c < 0 or c >= seen.shape[0] or seen[c] != 0:
            ok = False
        else:
            seen[c] = 1
    return ok


@njit
def check_invariants_nb(st, tb, ru):
    n_cards = tb.card_deck.shape[0]
    seen = st.work[WK_B]
    for i in range(n_cards):
        seen[i] = 0
    ok = _mark(seen, st.piles[PILE_DECK], st.sc[S_DECK_N])
    ok &= _mark(seen, st.piles[PILE_DISC], st.sc[S_DISC_N])
    ok &= _mark(seen, st.piles[PILE_POOL], st.sc[S_POOL_N])
    ok &= _mark(seen, st.piles[PILE_REJ], st.sc[S_REJ_N])
    ok &= _mark(seen, st.piles[PILE_BURNT], st.sc[S_BURNT_N])
    for q in range(ru.players):
        ok &= _mark(seen, st.hand[q], st.hand_n[q])
    for i in range(n_cards):
        if seen[i] == 0:
            ok = False
    if not ok:
        _flag(st, V_CARDS)
    team = 0
    door_total = 0
    for q in range(ru.players):
        if st.score[q] != ru.seat[SEAT_VP, q] + st.door_pts[q] + st.bonus_pts[q]:
            _flag(st, V_SCORE)
        team += st.score[q]
        door_total += st.door_pts[q]
    placed_points = 0
    for j in range(st.sc[S_PLACED]):
        placed_points += st.pl[PL_POINTS, j]
        if st.grid[st.pl[PL_Y, j], st.pl[PL_X, j]] != j:
            _flag(st, V_GRID)
    if team != st.sc[S_TEAM_SCORE] or placed_points != door_total:
        _flag(st, V_SCORE)
    if not connected_nb(st, -1):
        _flag(st, V_DISCONNECTED)
    for q in range(ru.players):
        if tb.room_kind[st.pl[PL_TYPE, st.pos[q]]] == TUNNEL:
            _flag(st, V_IN_TUNNEL)
    if not skills_ok_nb(st, tb, ru):
        _flag(st, V_SKILL)
