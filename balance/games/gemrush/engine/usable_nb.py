"""Whether a room's ability can be used right now (shared by the engine and the players)."""

from balance.games.gemrush.ability import DISCARD, F_NAMED, MOVE_ANY, MOVE_ROOM, SWAP
from balance.games.gemrush.engine.cards_nb import discard_matches_nb
from balance.games.gemrush.engine.mine_nb import room_move_spots_nb
from balance.games.gemrush.engine.state import PL_TYPE, S_PLACED
from balance.games.gemrush.tables import ACTION, FREE, MOVEMENT, TUNNEL
from balance.kernels.jit import njit


@njit
def count_discardable_nb(st, tb, p, fkind, mask):
    c = 0
    for i in range(st.hand_n[p]):
        if fkind == F_NAMED or discard_matches_nb(st, tb, st.hand[p, i], fkind, mask):
            c += 1
    return c


@njit
def other_rooms_nb(st, tb, here):
    n = 0
    for j in range(st.sc[S_PLACED]):
        if j != here and tb.room_kind[st.pl[PL_TYPE, j]] != TUNNEL:
            n += 1
    return n


@njit
def ability_usable_nb(st, tb, ru, p, room):
    """An ability may be used only if it can be carried out in full (a 'discard 1 Soulstone'
    needs a card to discard; a special move needs somewhere to go)."""
    rt = st.pl[PL_TYPE, room]
    k = tb.room_kind[rt]
    if k != ACTION and k != MOVEMENT and k != FREE:
        return False
    fixed_discards = 0
    for i in range(tb.prog_len[rt]):
        op = tb.prog[rt, i, 0]
        n = tb.prog[rt, i, 1]
        if op == DISCARD and n > 0:
            fixed_discards += n
            if count_discardable_nb(st, tb, p, tb.prog[rt, i, 2], tb.prog[rt, i, 3]) < n:
                return False
        elif op == MOVE_ANY:
            if other_rooms_nb(st, tb, room) == 0:
                return False
        elif op == SWAP:
            if ru.players < 2:
                return False
        elif op == MOVE_ROOM:
            if room_move_spots_nb(st, room, st.spots) == 0:
                return False
    return fixed_discards <= st.hand_n[p]
