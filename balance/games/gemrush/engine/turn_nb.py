"""One player turn, phase by phase (rulebooks' sequence of play):
check end (in the game loop), discard to the hand limit, move, act, discard at will (where
allowed), burn (Crisis).

Construction and tunnels are in `build_nb`; the moves on offer are listed by `list_steps_nb`.
"""

from balance.games.gemrush.engine.ability_nb import run_ability_nb
from balance.games.gemrush.engine.cards_nb import (
    available_nb,
    burn_card_nb,
    card_has_power_nb,
    hand_take_nb,
    take_top_nb,
    to_discard_nb,
    to_hand_nb,
)
from balance.games.gemrush.engine.decisions import (
    ACT_ABILITY,
    ACT_DRAW,
    D_ACTION,
    D_BURN,
    D_DISCARD_LIMIT,
    D_PAYMENT,
    D_ROTATION,
    D_STEP,
    D_VOL_DISCARD,
    OPT_ABILITY,
    OPT_CART,
    OPT_DOOR,
    OPT_FREE,
    OPT_SKILL,
    OPT_STOP,
    OPT_WARP_BUILD,
    OPT_WARP_MOVE,
)
from balance.games.gemrush.engine.events import (
    EV_BONUS,
    EV_BUILD,
    EV_CART,
    EV_DISCARD,
    EV_DRAW,
    EV_MOVE,
    EV_PAY,
    EV_PLACE,
    EV_STOP_BACK,
    EV_VOL_DISCARD,
    EV_WARP_MOVE,
    emit_nb,
)
from balance.games.gemrush.engine.mine_nb import (
    T_EMPTY,
    T_ROOM,
    door_leads_nb,
    fresh_links_nb,
    legal_rotations_nb,
    link_nb,
    place_nb,
    trace_nb,
)
from balance.games.gemrush.engine.options_nb import offer_nb
from balance.games.gemrush.engine.payment_nb import (
    covers_nb,
    door_covered_nb,
    hand_supply_nb,
    list_payments_nb,
)
from balance.games.gemrush.engine.players import decide_nb
from balance.games.gemrush.engine.skills_nb import (
    ability_again_nb,
    after_ability_nb,
    chaos_nb,
    hand_skill_nb,
    keep_hand_nb,
    list_skill_steps_nb,
    restore_faces_nb,
    skill_turn_start_nb,
    use_skill_step_nb,
)
from balance.games.gemrush.engine.state import (
    END_CANNOT_BURN,
    END_EXHAUSTED,
    END_TARGET,
    PL_POINTS,
    PL_ROT,
    PL_TYPE,
    PL_USES,
    S_CARTS,
    S_CHECK,
    S_END_REASON,
    S_ENDED,
    S_HAND_BONUS,
    S_PLACED,
    S_STEPS_LEFT,
    S_TARGET_TURN,
    S_TEAM_SCORE,
    S_TILES_N,
    S_TURN,
    S_VIOLATION,
    SK_SLOT0,
    V_BAD_PAYMENT,
    V_HAND_LIMIT,
    WK_A,
    WK_B,
    WK_SCRATCH,
)
from balance.games.gemrush.engine.usable_nb import ability_usable_nb
from balance.games.gemrush.tables import BONUS, CRISIS, FREE, MINECART, MOVEMENT, TUNNEL, WARP
from balance.kernels.jit import njit


@njit
def score_nb(st, ru, p, points, bonus):
    st.door_pts[p] += points
    st.bonus_pts[p] += bonus
    st.score[p] += points + bonus
    st.sc[S_TEAM_SCORE] += points + bonus
    if st.sc[S_TARGET_TURN] < 0 and ru.mode == CRISIS and st.sc[S_TEAM_SCORE] >= ru.target:
        st.sc[S_TARGET_TURN] = st.sc[S_TURN] + 1
        if not ru.exhaust:
            # Ruling 1: the team wins the moment the collective score reaches the target.
            st.sc[S_ENDED] = 1
            st.sc[S_END_REASON] = END_TARGET


@njit
def _pays_nb(st, tb, cost, warp, cards, m):
    """The cards cover the door and, in a Warpstone build, hold a Warpstone."""
    if warp:
        has_warp = False
        for i in range(m):
            if card_has_power_nb(st, tb, cards[i], WARP):
                has_warp = True
        if not has_warp:
            return False
    return covers_nb(st, tb, cost, cards, m)


@njit
def _verify_payment_nb(st, tb, p, cost, mask, warp):
    """Check mode: the chosen cards pay (ruling 4, and a Warpstone for a Warpstone build),
    and none could have been left out. Written from the rule, not from the listing's shortcuts
    in payment_nb, so that it can catch them."""
    m = 0
    for pos in range(st.hand_n[p]):
        if (mask >> pos) & 1:
            st.work[WK_SCRATCH, m] = st.hand[p, pos]
            m += 1
    ok = _pays_nb(st, tb, cost, warp, st.work[WK_SCRATCH], m)
    for drop in range(m):
        card = st.work[WK_SCRATCH, drop]
        st.work[WK_SCRATCH, drop] = st.work[WK_SCRATCH, m - 1]
        if _pays_nb(st, tb, cost, warp, st.work[WK_SCRATCH], m - 1):
            ok = False
        st.work[WK_SCRATCH, drop] = card
    if not ok and st.sc[S_VIOLATION] == 0:
        st.sc[S_VIOLATION] = V_BAD_PAYMENT


@njit(inline=True)
def pay_nb(st, tb, ru, pp, p, cost, warp):
    """Ask for a payment, discard it and return the Orichalcum points it earns."""
    n = list_payments_nb(st, tb, p, cost, warp, st.work[WK_A], st.work[WK_B])
    if n == 0:
        return -1
    k = decide_nb(st, tb, ru, pp, D_PAYMENT, n, p) if n > 1 else 0
    mask = st.opt[k, 0]
    if st.sc[S_CHECK]:
        _verify_payment_nb(st, tb, p, cost, mask, warp)
    bonus = 0
    for pos in range(st.hand_n[p] - 1, -1, -1):  # high positions first keep the rest in place
        if (mask >> pos) & 1:
            c = hand_take_nb(st, p, pos)
            for s in range(2):
                g = st.face[c, s]
                if g >= 0 and tb.gem_power[g] == BONUS and ru.special_gems:
                    bonus += 1
            to_discard_nb(st, c)
            emit_nb(st, EV_PAY, c, 0, 0, 0, 0)
    return bonus


@njit(inline=True)
def ask_rotation_nb(st, tb, ru, pp, p, rtype, entry, x, y):
    """Ask seat p how to turn a new tile laid at (x, y), entered through side `entry`:
    any rotation with a door on that side (ruling 5)."""
    m = legal_rotations_nb(tb, rtype, entry, st.work[WK_A])
    for j in range(m):
        offer_nb(st, j, st.work[WK_A, j], rtype, entry, y * st.grid.shape[0] + x)
    k = decide_nb(st, tb, ru, pp, D_ROTATION, m, p) if m > 1 else 0
    return st.opt[k, 0]


@njit
def build_nb(st, tb, ru, pp, p, room, side, warp):
    """Construct through door `side` of placed tile `room` (rulebooks' Construction)."""
    rt = st.pl[PL_TYPE, room]
    rot = st.pl[PL_ROT, room]
    cost = tb.door_cost[rt, rot, side]
    points = tb.door_points[rt, rot, side]
    bonus = pay_nb(st, tb, ru, pp, p, cost, warp)
    if bonus < 0:
        return
    emit_nb(st, EV_BUILD, room, side, points, bonus, warp)
    st.pl[PL_POINTS, room] += points
    if bonus > 0:
        emit_nb(st, EV_BONUS, bonus, 0, 0, 0, 0)
    kind, x, y, entry, _passed = door_leads_nb(st, tb, room, side)
    # A tunnel drawn here is laid and crossed at once; emerging into an empty cell builds
    # again for no gems and no points; emerging at a built room stops there (ruling 6).
    while kind == T_EMPTY:
        if st.sc[S_TILES_N] == 0:
            # The room deck ran out inside a tunnel chain: back to the room built from, or,
            # for a Warpstone build at a tunnel's door, where the builder stood.
            if tb.room_kind[rt] != TUNNEL:
                st.pos[p] = room
            emit_nb(st, EV_STOP_BACK, st.pos[p], 0, 0, 0, 0)
            break
        st.sc[S_TILES_N] -= 1
        nt = st.tiles[st.sc[S_TILES_N]]
        r = ask_rotation_nb(st, tb, ru, pp, p, nt, entry, x, y)
        i = place_nb(st, tb, nt, r, x, y, p, st.sc[S_TURN])
        emit_nb(st, EV_PLACE, i, nt, r, x, y)
        if tb.room_kind[nt] != TUNNEL:
            st.pos[p] = i
            break
        ex = tb.tunnel_exit[nt, r, entry]
        kind, a, b, c, _passed = trace_nb(st, tb, x, y, ex)
        if kind == T_EMPTY:
            x, y, entry = a, b, c
        elif kind == T_ROOM:
            st.pos[p] = a
        elif tb.room_kind[rt] != TUNNEL:
            st.pos[p] = room  # blocked: back as when the room deck runs out
    score_nb(st, ru, p, points, bonus)


@njit(inline=True)
def list_steps_nb(st, tb, ru, p, steps, free_uses):
    n = offer_nb(st, 0, OPT_STOP, 0, 0, 0)
    cur = st.pos[p]
    rt = st.pl[PL_TYPE, cur]
    rot = st.pl[PL_ROT, cur]
    kind_here = tb.room_kind[rt]
    tiles_left = st.sc[S_TILES_N] > 0
    hand_supply_nb(st, tb, p)
    if steps >= 1:
        for side in range(4):
            if not tb.door[rt, rot, side]:
                continue
            kind, a, _b, _c, passed = link_nb(st, tb, cur, side)
            if kind == T_ROOM:
                n = offer_nb(st, n, OPT_DOOR, side, a, passed)
            elif (kind == T_EMPTY and tiles_left
                  and door_covered_nb(st, tb, rt, rot, side)):
                n = offer_nb(st, n, OPT_DOOR, side, -1, passed)
    if kind_here == MINECART and st.sc[S_CARTS] >= 2 and free_uses < ru.free_use_cap:
        for j in range(st.sc[S_PLACED]):
            if j != cur and tb.room_kind[st.pl[PL_TYPE, j]] == MINECART:
                n = offer_nb(st, n, OPT_CART, j, 0, 0)
    if ru.special_gems:
        has_warp = False
        for i in range(st.hand_n[p]):
            if card_has_power_nb(st, tb, st.hand[p, i], WARP):
                has_warp = True
                for j in range(st.sc[S_PLACED]):
                    if j != cur and tb.room_kind[st.pl[PL_TYPE, j]] != TUNNEL:
                        n = offer_nb(st, n, OPT_WARP_MOVE, i, j, 0)
        if has_warp and tiles_left:
            # A room's doors from st.link, brought up to date once (its walls read L_NONE); a
            # tunnel's own doors, which st.link does not keep, traced.
            fresh_links_nb(st, tb)
            for j in range(st.sc[S_PLACED]):
                jt = st.pl[PL_TYPE, j]
                tunnel = tb.room_kind[jt] == TUNNEL
                # A tunnel's own open door counts where the profile says so (README,
                # "Rulings the engine adds").
                if tunnel and not ru.warp_build_at_tunnels:
                    continue
                for side in range(4):
                    if tunnel:
                        if not tb.door[jt, st.pl[PL_ROT, j], side]:
                            continue
                        kind, _a, _b, _c, _passed = door_leads_nb(st, tb, j, side)
                    else:
                        kind = st.link[j, side, 0]
                    if (kind == T_EMPTY
                            and door_covered_nb(st, tb, jt, st.pl[PL_ROT, j], side)):
                        n = offer_nb(st, n, OPT_WARP_BUILD, j, side, 0)
    if kind_here == MOVEMENT and steps >= 1 and ability_usable_nb(st, tb, ru, p, cur):
        n = offer_nb(st, n, OPT_ABILITY, 0, 0, 0)
    if kind_here == FREE and free_uses < ru.free_use_cap and ability_usable_nb(st, tb, ru, p, cur):
        n = offer_nb(st, n, OPT_FREE, 0, 0, 0)
    if st.sk[p, SK_SLOT0] >= 0:
        n = list_skill_steps_nb(st, tb, ru, p, steps, n)
    return n


@njit(inline=True)
def movement_nb(st, tb, ru, pp, p):
    """Up to `steps` steps; free moves (mine carts, free rooms, Warpstone) cost none. The
    free_use_cap rule bounds free moves so that no player can loop forever."""
    steps = ru.steps
    free_uses = 0
    while st.sc[S_ENDED] == 0:
        st.sc[S_STEPS_LEFT] = steps
        n = list_steps_nb(st, tb, ru, p, steps, free_uses)
        if n == 1:
            return
        k = decide_nb(st, tb, ru, pp, D_STEP, n, p)
        kind = st.opt[k, 0]
        a = st.opt[k, 1]
        b = st.opt[k, 2]
        c = st.opt[k, 3]
        if kind == OPT_STOP:
            return
        if kind == OPT_DOOR:
            steps -= 1
            if b >= 0:
                emit_nb(st, EV_MOVE, st.pos[p], b, a, c, 0)
                st.pos[p] = b
            else:
                build_nb(st, tb, ru, pp, p, st.pos[p], a, False)
        elif kind == OPT_CART:
            free_uses += 1
            st.pl[PL_USES, st.pos[p]] += 1  # a ride is a use of the cart it leaves from
            emit_nb(st, EV_CART, st.pos[p], a, 0, 0, 0)
            st.pos[p] = a
        elif kind == OPT_WARP_MOVE:
            card = hand_take_nb(st, p, a)
            to_discard_nb(st, card)
            emit_nb(st, EV_WARP_MOVE, st.pos[p], b, card, 0, 0)
            st.pos[p] = b
        elif kind == OPT_WARP_BUILD:
            build_nb(st, tb, ru, pp, p, a, b, True)
        elif kind == OPT_ABILITY:
            steps -= 1
            run_ability_nb(st, tb, ru, pp, p, st.pos[p])
            if st.sk[p, SK_SLOT0] >= 0:
                after_ability_nb(st, tb, ru, pp, p, st.pos[p])
        elif kind == OPT_FREE:
            free_uses += 1
            run_ability_nb(st, tb, ru, pp, p, st.pos[p])
            if st.sk[p, SK_SLOT0] >= 0:
                after_ability_nb(st, tb, ru, pp, p, st.pos[p])
        elif kind == OPT_SKILL:
            steps += use_skill_step_nb(st, tb, ru, p, a, b, c)


@njit(inline=True)
def action_nb(st, tb, ru, pp, p):
    room = st.pos[p]
    act = ACT_DRAW
    if ability_usable_nb(st, tb, ru, p, room):
        offer_nb(st, 0, ACT_DRAW, 0, 0, 0)
        offer_nb(st, 1, ACT_ABILITY, 0, 0, 0)
        act = st.opt[decide_nb(st, tb, ru, pp, D_ACTION, 2, p), 0]
    if act == ACT_ABILITY:
        run_ability_nb(st, tb, ru, pp, p, room)
        if st.sk[p, SK_SLOT0] >= 0:
            after_ability_nb(st, tb, ru, pp, p, room)
            ability_again_nb(st, tb, ru, pp, p, room)
    else:
        c = take_top_nb(st)
        if c >= 0:
            to_hand_nb(st, p, c)
            emit_nb(st, EV_DRAW, c, 0, 0, 0, 0)


@njit(inline=True)
def discard_to_limit_nb(st, tb, ru, pp, p):
    slot, extra = -1, 0
    if st.sk[p, SK_SLOT0] >= 0:
        slot, extra = hand_skill_nb(st, tb, p)
    while st.hand_n[p] > ru.hand_limit:
        n = 0
        for i in range(st.hand_n[p]):
            n = offer_nb(st, n, i, st.hand[p, i], 0, 0)
        if slot >= 0 and st.hand_n[p] <= ru.hand_limit + extra:
            n = offer_nb(st, n, -1, slot, 0, 0)  # keep the rest, with the hand-limit skill
        k = decide_nb(st, tb, ru, pp, D_DISCARD_LIMIT, n, p)
        if st.opt[k, 0] < 0:
            keep_hand_nb(st, tb, p, slot, st.hand_n[p])
            return
        c = hand_take_nb(st, p, st.opt[k, 0])
        to_discard_nb(st, c)
        emit_nb(st, EV_DISCARD, c, 0, 0, 0, 0)


@njit
def _list_hand_cards(st, lo, hi, n):
    """Offer every card in the hands of seats lo..hi-1 as (seat, hand position, card)."""
    for q in range(lo, hi):
        for i in range(st.hand_n[q]):
            n = offer_nb(st, n, q, i, st.hand[q, i], 0)
    return n


@njit
def burnable_nb(st, ru):
    n = available_nb(st)
    if ru.burn_from_hands:
        for q in range(ru.players):
            n += st.hand_n[q]
    return n


@njit(inline=True)
def voluntary_discard_nb(st, tb, ru, pp, p):
    """Discarding at will, when the profile allows it (README, "Rulings the engine adds"):
    card after card until the player says "no more" (the row (-1, -1, -1)). Crisis teams
    play with open hands, so any hand may discard, just before the burn; in Rush a player
    discards from their own hand at the end of their turn."""
    lo, hi = (0, ru.players) if ru.mode == CRISIS else (p, p + 1)
    while True:
        n = _list_hand_cards(st, lo, hi, offer_nb(st, 0, -1, -1, -1, 0))
        if n == 1:
            return
        k = decide_nb(st, tb, ru, pp, D_VOL_DISCARD, n, p)
        q = st.opt[k, 0]
        if q < 0:
            return
        c = hand_take_nb(st, q, st.opt[k, 1])
        to_discard_nb(st, c)
        emit_nb(st, EV_VOL_DISCARD, c, q, 0, 0, 0)


@njit(inline=True)
def burn_phase_nb(st, tb, ru, pp, p):
    """Crisis clock. 1st edition: burn from the deck; unable to burn in full, the team loses.
    2nd edition: burn from the deck or any hand; the last card burnt ends the game."""
    if ru.cannot_burn_loses and burnable_nb(st, ru) < ru.burn_per_turn:
        st.sc[S_ENDED] = 1
        st.sc[S_END_REASON] = END_CANNOT_BURN
        return
    for _ in range(ru.burn_per_turn):
        n = 0
        if available_nb(st) > 0:
            n = offer_nb(st, 0, -1, -1, -1, 0)
        if ru.burn_from_hands:
            n = _list_hand_cards(st, 0, ru.players, n)
        if n == 0:
            break
        k = decide_nb(st, tb, ru, pp, D_BURN, n, p) if n > 1 else 0
        q = st.opt[k, 0]
        if q < 0:
            burn_card_nb(st, take_top_nb(st), -1)
        else:
            burn_card_nb(st, hand_take_nb(st, q, st.opt[k, 1]), q)
    # With cannot_burn_loses the clock ends only at a burn that fails: until then the next
    # player still plays (and may pay cards back into the discard pile).
    if not ru.cannot_burn_loses and burnable_nb(st, ru) == 0 and st.sc[S_ENDED] == 0:
        st.sc[S_ENDED] = 1
        st.sc[S_END_REASON] = END_EXHAUSTED


@njit(inline=True)
def end_turn_nb(st, tb, ru, pp, p):
    """After the action: discards at will (where the profile allows them), then the Crisis
    burn."""
    if ru.voluntary_discard:
        voluntary_discard_nb(st, tb, ru, pp, p)
    if ru.mode == CRISIS:
        burn_phase_nb(st, tb, ru, pp, p)


@njit(inline=True)
def play_turn_nb(st, tb, ru, pp, p):
    st.sc[S_HAND_BONUS] = 0
    if st.sk[p, SK_SLOT0] >= 0:
        skill_turn_start_nb(st, p)
    discard_to_limit_nb(st, tb, ru, pp, p)
    if st.hand_n[p] > ru.hand_limit + st.sc[S_HAND_BONUS] and st.sc[S_VIOLATION] == 0:
        st.sc[S_VIOLATION] = V_HAND_LIMIT
    movement_nb(st, tb, ru, pp, p)
    if st.sc[S_ENDED] == 0:
        action_nb(st, tb, ru, pp, p)
    # Seats without a skill skip the two calls: one path for all cost 4% of the engine's
    # speed with skills off (measured, interleaved).
    if st.sk[p, SK_SLOT0] < 0:
        if st.sc[S_ENDED] == 0:
            end_turn_nb(st, tb, ru, pp, p)
        return
    restore_faces_nb(st, tb)  # a skill's face lasts until the turn ends
    if st.sc[S_ENDED] == 0:
        end_turn_nb(st, tb, ru, pp, p)
        chaos_nb(st, tb, ru, pp, p)

