"""Room abilities (ruling 8): a program of steps run left to right, every choice asked of the
player. Also whether an ability can be used at all right now."""

from balance.games.gemrush.ability import (
    DIG,
    DISCARD,
    DRAW,
    F_ANY,
    F_NAMED,
    KEEP_ALL,
    KEEP_N,
    MOVE_ANY,
    MOVE_ROOM,
    NAME,
    REVEAL,
    SWAP,
)
from balance.games.gemrush.engine.cards_nb import (
    card_has_nb,
    discard_matches_nb,
    flush_pool_nb,
    flush_rejects_nb,
    hand_take_nb,
    pool_take_nb,
    take_top_nb,
    to_discard_nb,
    to_hand_nb,
    to_pool_nb,
)
from balance.games.gemrush.engine.decisions import (
    D_ABILITY_DISCARD,
    D_KEEP,
    D_MOVE_ANY,
    D_MOVE_ROOM,
    D_NAME,
    D_SWAP,
    D_X,
)
from balance.games.gemrush.engine.events import (
    EV_ABILITY,
    EV_CHOOSE_X,
    EV_DISCARD,
    EV_DRAW,
    EV_KEEP,
    EV_MOVE_ROOM,
    EV_NAME,
    EV_PASS_OVER,
    EV_REVEAL,
    EV_SWAP,
    EV_TELEPORT,
    emit_nb,
)
from balance.games.gemrush.engine.mine_nb import move_room_nb, room_move_spots_nb
from balance.games.gemrush.engine.options_nb import offer_nb
from balance.games.gemrush.engine.players import decide_nb
from balance.games.gemrush.engine.state import (
    PILE_POOL,
    PILE_REJ,
    PL_GAINED,
    PL_TYPE,
    PL_USES,
    PL_X,
    PL_Y,
    S_PLACED,
    S_POOL_N,
    S_REJ_N,
)
from balance.games.gemrush.engine.usable_nb import count_discardable_nb
from balance.games.gemrush.tables import TUNNEL
from balance.kernels.jit import njit


@njit
def _eff_mask(fkind, mask, named):
    if fkind == F_ANY:
        return -1  # every bit: matches any card
    if fkind == F_NAMED:
        return named
    return mask


@njit
def run_ability_nb(st, tb, ru, pp, p, room):
    """Carry out the ability of `room` for seat p. Returns the net cards it put in hand."""
    rt = st.pl[PL_TYPE, room]
    st.pl[PL_USES, room] += 1
    emit_nb(st, EV_ABILITY, room, rt, 0, 0, 0)
    has_keep = tb.prog_has_keep[rt]
    gained = 0
    x = 0
    x_max = -1
    for i in range(tb.prog_len[rt]):
        if tb.prog[rt, i, 0] == DISCARD and tb.prog[rt, i, 1] == -1:
            c = count_discardable_nb(st, tb, p, tb.prog[rt, i, 2], tb.prog[rt, i, 3])
            x_max = c if x_max < 0 else min(x_max, c)
    if x_max >= 0:
        m = 0
        for v in range(x_max + 1):
            m = offer_nb(st, m, v, 0, 0, 0)
        x = st.opt[decide_nb(st, tb, ru, pp, D_X, m, p), 0] if m > 1 else 0
        emit_nb(st, EV_CHOOSE_X, x, 0, 0, 0, 0)
    named = 0
    for i in range(tb.prog_len[rt]):
        op = tb.prog[rt, i, 0]
        n = tb.prog[rt, i, 1]
        if n == -1:
            n = x
        fk = tb.prog[rt, i, 2]
        mask = _eff_mask(fk, tb.prog[rt, i, 3], named)
        if op == DRAW:
            for _ in range(n):
                c = take_top_nb(st)
                if c < 0:
                    break
                to_hand_nb(st, p, c)
                gained += 1
                emit_nb(st, EV_DRAW, c, 0, 0, 0, 0)
        elif op == REVEAL:
            for _ in range(n):
                c = take_top_nb(st)
                if c < 0:
                    break
                to_pool_nb(st, c)
                emit_nb(st, EV_REVEAL, c, 0, 0, 0, 0)
        elif op == DIG:
            found = 0
            while found < n:
                c = take_top_nb(st)
                if c < 0:
                    break
                if card_has_nb(st, c, mask):
                    found += 1
                    if has_keep:
                        to_pool_nb(st, c)
                        emit_nb(st, EV_REVEAL, c, 0, 0, 0, 0)
                    else:
                        to_hand_nb(st, p, c)
                        gained += 1
                        emit_nb(st, EV_KEEP, c, 1, 0, 0, 0)
                else:
                    st.piles[PILE_REJ, st.sc[S_REJ_N]] = c
                    st.sc[S_REJ_N] += 1
                    emit_nb(st, EV_PASS_OVER, c, 0, 0, 0, 0)
            flush_rejects_nb(st)
        elif op == KEEP_ALL:
            j = 0
            while j < st.sc[S_POOL_N]:
                c = st.piles[PILE_POOL, j]
                if card_has_nb(st, c, mask):
                    pool_take_nb(st, j)
                    to_hand_nb(st, p, c)
                    gained += 1
                    emit_nb(st, EV_KEEP, c, 0, 0, 0, 0)
                else:
                    j += 1
        elif op == KEEP_N:
            for _ in range(n):
                m = 0
                for j in range(st.sc[S_POOL_N]):
                    if card_has_nb(st, st.piles[PILE_POOL, j], mask):
                        m = offer_nb(st, m, j, st.piles[PILE_POOL, j], 0, 0)
                if m == 0:
                    break
                k = decide_nb(st, tb, ru, pp, D_KEEP, m, p) if m > 1 else 0
                c = pool_take_nb(st, st.opt[k, 0])
                to_hand_nb(st, p, c)
                gained += 1
                emit_nb(st, EV_KEEP, c, 0, 0, 0, 0)
        elif op == DISCARD:
            for _ in range(n):
                m = 0
                for j in range(st.hand_n[p]):
                    c = st.hand[p, j]
                    if fk == F_NAMED:
                        ok = card_has_nb(st, c, named)
                    else:
                        ok = discard_matches_nb(st, tb, c, fk, mask)
                    if ok:
                        m = offer_nb(st, m, j, c, 0, 0)
                if m == 0:
                    break
                k = decide_nb(st, tb, ru, pp, D_ABILITY_DISCARD, m, p) if m > 1 else 0
                c = hand_take_nb(st, p, st.opt[k, 0])
                to_discard_nb(st, c)
                gained -= 1
                emit_nb(st, EV_DISCARD, c, 1, 0, 0, 0)
        elif op == NAME:
            for _ in range(n):
                m = 0
                for g in range(tb.gem_power.shape[0]):
                    if not (named >> g) & 1:
                        m = offer_nb(st, m, g, 0, 0, 0)
                if m == 0:
                    break
                g = st.opt[decide_nb(st, tb, ru, pp, D_NAME, m, p), 0]
                named |= 1 << g
                emit_nb(st, EV_NAME, g, 0, 0, 0, 0)
        elif op == MOVE_ANY:
            m = 0
            for j in range(st.sc[S_PLACED]):
                if j != st.pos[p] and tb.room_kind[st.pl[PL_TYPE, j]] != TUNNEL:
                    m = offer_nb(st, m, j, 0, 0, 0)
            if m > 0:
                k = decide_nb(st, tb, ru, pp, D_MOVE_ANY, m, p) if m > 1 else 0
                emit_nb(st, EV_TELEPORT, st.pos[p], st.opt[k, 0], 0, 0, 0)
                st.pos[p] = st.opt[k, 0]
        elif op == SWAP:
            m = 0
            for q in range(ru.players):
                if q != p:
                    m = offer_nb(st, m, q, 0, 0, 0)
            if m > 0:
                k = decide_nb(st, tb, ru, pp, D_SWAP, m, p) if m > 1 else 0
                q = st.opt[k, 0]
                here = st.pos[p]
                st.pos[p] = st.pos[q]
                st.pos[q] = here
                emit_nb(st, EV_SWAP, q, st.pos[p], st.pos[q], 0, 0)
        elif op == MOVE_ROOM:
            spots = room_move_spots_nb(st, room, st.spots)
            m = 0
            for j in range(spots):
                m = offer_nb(st, m, st.spots[j], 0, 0, 0)
            if m > 0:
                k = decide_nb(st, tb, ru, pp, D_MOVE_ROOM, m, p) if m > 1 else 0
                move_room_nb(st, room, st.opt[k, 0])
                emit_nb(st, EV_MOVE_ROOM, room, st.pl[PL_X, room], st.pl[PL_Y, room], 0, 0)
    flush_pool_nb(st)
    st.pl[PL_GAINED, room] += gained
    return gained
