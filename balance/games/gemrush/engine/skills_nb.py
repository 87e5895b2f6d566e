"""Skill cards (2nd edition): the deal of each variant, and every use of a skill.

A skill is an effect from balance/games/gemrush/skill.py with a number of uses per turn. Every use
is a decision: the engine lists where a skill may be used and the player picks, or declines.
- In the movement step, OPT_SKILL rows of D_STEP (slot, a, b):
    extra steps (once the steps are spent): a = b = 0;
    recover: a = b = 0;
    move to any room: a = the placed tile;
    turn 1 card: a = hand position, b = which printed gem `kept` keeps (0 or 1; -1 unused);
    turn 2 cards: a = position of the turned card + 64 * position of the discarded one.
- A hand-limit skill adds the row (-1, slot) to D_DISCARD_LIMIT: keep the rest of the hand.
- After a room ability that draws, reveals or digs, and for a second use of the action's
  room ability: D_SKILL, (slot, skill) rows after the decline row (-1, -1).

A turned card shows its new gems until the end of the turn (st.face), everywhere a card's
gems are read: payments, Warpstone, discards for abilities. A condition (`showing G`) reads
the printed gems, so one skill's gems never meet another's condition (the rulebook's two Magic
Circle examples).
"""

from balance.games.gemrush.ability import DIG, DRAW, REVEAL
from balance.games.gemrush.engine.ability_nb import run_ability_nb
from balance.games.gemrush.engine.cards_nb import (
    hand_take_nb,
    printed_nb,
    take_top_nb,
    to_discard_nb,
    to_hand_nb,
)
from balance.games.gemrush.engine.decisions import D_SKILL, D_SKILL_PICK, OPT_SKILL
from balance.games.gemrush.engine.events import (
    EV_DRAW,
    EV_FACE,
    EV_RECOVER,
    EV_SKILL,
    EV_SKILL_DEAL,
    EV_SKILL_REDRAW,
    emit_nb,
)
from balance.games.gemrush.engine.faces_nb import eligible_nb, kepts_nb, new_face_nb
from balance.games.gemrush.engine.options_nb import offer_nb
from balance.games.gemrush.engine.players import decide_nb
from balance.games.gemrush.engine.state import (
    PILE_DISC,
    PL_TYPE,
    S_CARD_VER,
    S_DECK_N,
    S_DISC_N,
    S_FACES_DIRTY,
    S_HAND_BONUS,
    S_PLACED,
    S_SKDECK_N,
    S_SKILL_USED,
    SK_DEALT0,
    SK_SLOT0,
    SK_USED0,
    SKD_DECK,
    SKD_RNG,
)
from balance.games.gemrush.engine.usable_nb import ability_usable_nb
from balance.games.gemrush.skill import (
    SK_AGAIN,
    SK_DRAW,
    SK_HAND,
    SK_MOVE_ANY,
    SK_RECOVER,
    SK_STEPS,
    SK_TURN,
    SKC_N,
    SKC_OP,
    SKC_USES,
)
from balance.games.gemrush.tables import (
    SKV_CHAOS,
    SKV_CHOICE,
    SKV_CIRCLE,
    SKV_NONE,
    SKV_SHARED,
    TUNNEL,
)
from balance.kernels.jit import njit
from balance.kernels.rng import shuffle_nb

# Words mixed into the game's seed words to seed the skill deal's own stream.
_SKILL_SALT = (0x5BD1E995, 0x1B873593, 0x85EBCA6B, 0xC2B2AE35)


@njit
def reset_skills_nb(st, tb, rng_words):
    """Before the deal: nobody holds a skill, every card shows its printed gems, and the skill
    stream is seeded from the game's seed words."""
    for q in range(st.sk.shape[0]):
        for j in range(st.sk.shape[1]):
            st.sk[q, j] = -1
    for c in range(tb.card_deck.shape[0]):
        for k in range(2):
            st.face[c, k] = tb.card_gems[tb.card_deck[c], k]
            st.face[c, 2 + k] = st.face[c, k]
    for i in range(4):
        st.skdeck[SKD_RNG, i] = (rng_words[i] ^ _SKILL_SALT[i]) | 1


@njit
def _pop_nb(st):
    n = st.sc[S_SKDECK_N] - 1
    st.sc[S_SKDECK_N] = n
    return st.skdeck[SKD_DECK, n]


@njit
def deal_skills_nb(st, tb, ru, pp):
    """The variant's deal (rules.skills), from the shuffled skill cards."""
    if ru.skills == SKV_NONE:
        return
    n = tb.skill_deck.shape[0]
    for i in range(n):
        st.skdeck[SKD_DECK, i] = tb.skill_deck[i]
    st.sc[S_SKDECK_N] = n
    shuffle_nb(st.skdeck[SKD_RNG], st.skdeck[SKD_DECK], n)
    players = ru.players
    if ru.skills == SKV_SHARED:
        shared = tb.shared_skill if tb.shared_skill >= 0 else _pop_nb(st)
        for q in range(players):
            st.sk[q, SK_SLOT0] = shared
    elif ru.skills == SKV_CHOICE:
        for q in range(players):
            for j in range(ru.skill_choice):
                offer_nb(st, j, _pop_nb(st), 0, 0, 0)
            k = decide_nb(st, tb, ru, pp, D_SKILL_PICK, ru.skill_choice, q)
            st.sk[q, SK_SLOT0] = st.opt[k, 0]
    elif ru.skills == SKV_CIRCLE:
        # Card q lies between seat q and the seat to its left, q + 1: seat q uses card q and
        # card q - 1. Alone, a player has the one card.
        for q in range(players):
            st.sk[q, SK_SLOT0] = _pop_nb(st)
        for q in range(players):
            if players > 1:
                st.sk[q, SK_SLOT0 + 1] = st.sk[(q - 1) % players, SK_SLOT0]
    else:  # normal, chaos
        for q in range(players):
            st.sk[q, SK_SLOT0] = _pop_nb(st)
    for q in range(players):
        for j in range(2):
            st.sk[q, SK_DEALT0 + j] = st.sk[q, SK_SLOT0 + j]
            if st.sk[q, SK_SLOT0 + j] >= 0:
                emit_nb(st, EV_SKILL_DEAL, q, j, st.sk[q, SK_SLOT0 + j], 0, 0)


@njit
def skill_turn_start_nb(st, p):
    st.sk[p, SK_USED0] = 0
    st.sk[p, SK_USED0 + 1] = 0
    st.sc[S_SKILL_USED] = 0
    st.sc[S_HAND_BONUS] = 0


@njit
def _left_nb(st, tb, p, slot):
    """Uses left this turn of the skill in seat p's slot (0 when the slot is empty)."""
    s = st.sk[p, SK_SLOT0 + slot]
    if s < 0:
        return 0
    return tb.skill_op[s, SKC_USES] - st.sk[p, SK_USED0 + slot]


@njit
def _spend_nb(st, tb, p, slot, a, b):
    s = st.sk[p, SK_SLOT0 + slot]
    st.sk[p, SK_USED0 + slot] += 1
    st.sc[S_SKILL_USED] = 1
    emit_nb(st, EV_SKILL, s, tb.skill_op[s, SKC_OP], a, b, slot)


@njit
def list_skill_steps_nb(st, tb, ru, p, steps, n):
    """Add the movement step's skill uses to the options (rows in the module docstring)."""
    for slot in range(2):
        if _left_nb(st, tb, p, slot) <= 0:
            continue
        s = st.sk[p, SK_SLOT0 + slot]
        op = tb.skill_op[s, SKC_OP]
        if op == SK_STEPS:
            if steps == 0:
                n = offer_nb(st, n, OPT_SKILL, slot, 0, 0)
        elif op == SK_RECOVER:
            if st.sc[S_DISC_N] > 0:
                n = offer_nb(st, n, OPT_SKILL, slot, 0, 0)
        elif op == SK_MOVE_ANY:
            cur = st.pos[p]
            for j in range(st.sc[S_PLACED]):
                if j != cur and tb.room_kind[st.pl[PL_TYPE, j]] != TUNNEL:
                    n = offer_nb(st, n, OPT_SKILL, slot, j, 0)
        elif op == SK_TURN:
            hn = min(st.hand_n[p], 62)
            for i in range(hn):
                c = st.hand[p, i]
                if not eligible_nb(st, tb, p, s, c):
                    continue
                ka, kb = kepts_nb(st, tb, s, c)
                for kept in (ka, kb):
                    if kept == -2:
                        continue
                    g0, g1 = new_face_nb(st, tb, p, s, c, kept)
                    if tb.skill_op[s, SKC_N] == 1:
                        if g0 != st.face[c, 0] or g1 != st.face[c, 1]:
                            n = offer_nb(st, n, OPT_SKILL, slot, i, kept)
                    else:
                        for j in range(hn):
                            if j != i and eligible_nb(st, tb, p, s, st.hand[p, j]):
                                n = offer_nb(st, n, OPT_SKILL, slot, i + 64 * j, kept)
    return n


@njit
def use_skill_step_nb(st, tb, ru, p, slot, a, b):
    """Apply a movement-step skill use; return the steps it adds."""
    s = st.sk[p, SK_SLOT0 + slot]
    op = tb.skill_op[s, SKC_OP]
    if op == SK_TURN:
        c = st.hand[p, a % 64]
        two = tb.skill_op[s, SKC_N] == 2
        _spend_nb(st, tb, p, slot, c, st.hand[p, a // 64] if two else -1)
        g0, g1 = new_face_nb(st, tb, p, s, c, b)
        st.face[c, 0] = g0
        st.face[c, 1] = g1
        emit_nb(st, EV_FACE, c, g0, g1, 0, 0)
        st.sc[S_FACES_DIRTY] = 1
        st.sc[S_CARD_VER] += 1  # players' plans depend on what the hands can pay
        if two:
            to_discard_nb(st, hand_take_nb(st, p, a // 64))
        return 0
    _spend_nb(st, tb, p, slot, a, b)
    if op == SK_STEPS:
        return tb.skill_op[s, SKC_N]
    if op == SK_RECOVER:
        for _ in range(tb.skill_op[s, SKC_N]):
            if st.sc[S_DISC_N] == 0:
                break
            st.sc[S_DISC_N] -= 1
            c = st.piles[PILE_DISC, st.sc[S_DISC_N]]
            to_hand_nb(st, p, c)
            emit_nb(st, EV_RECOVER, c, 0, 0, 0, 0)
    elif op == SK_MOVE_ANY:
        st.pos[p] = a
    return 0


@njit
def restore_faces_nb(st, tb):
    """The end of the turn: every card shows its printed gems again."""
    if st.sc[S_FACES_DIRTY] == 0:
        return
    for c in range(tb.card_deck.shape[0]):
        printed_nb(st, c)
    st.sc[S_FACES_DIRTY] = 0
    st.sc[S_CARD_VER] += 1


@njit
def hand_skill_nb(st, tb, p):
    """(slot, extra places) of seat p's best hand-limit skill with a use left; (-1, 0)."""
    best = -1
    extra = 0
    for slot in range(2):
        if _left_nb(st, tb, p, slot) > 0:
            s = st.sk[p, SK_SLOT0 + slot]
            if tb.skill_op[s, SKC_OP] == SK_HAND and tb.skill_op[s, SKC_N] > extra:
                best = slot
                extra = tb.skill_op[s, SKC_N]
    return best, extra


@njit
def keep_hand_nb(st, tb, p, slot, a):
    """A hand-limit skill keeps the rest of the hand this turn."""
    _spend_nb(st, tb, p, slot, a, 0)
    st.sc[S_HAND_BONUS] = tb.skill_op[st.sk[p, SK_SLOT0 + slot], SKC_N]


@njit
def _ask_skill_nb(st, tb, ru, pp, p, op):
    """Offer the decline row, then a row per slot holding a skill with this op and a use
    left, and ask (D_SKILL); the slot chosen, or -1 when declined or none is on offer."""
    n = offer_nb(st, 0, -1, -1, 0, 0)
    for slot in range(2):
        if _left_nb(st, tb, p, slot) > 0:
            s = st.sk[p, SK_SLOT0 + slot]
            if tb.skill_op[s, SKC_OP] == op:
                n = offer_nb(st, n, slot, s, 0, 0)
    if n == 1:
        return -1
    return st.opt[decide_nb(st, tb, ru, pp, D_SKILL, n, p), 0]


@njit
def after_ability_nb(st, tb, ru, pp, p, room):
    """After a room ability that draws, reveals or digs: draw-after-ability skills."""
    rt = st.pl[PL_TYPE, room]
    finds = False
    for i in range(tb.prog_len[rt]):
        op = tb.prog[rt, i, 0]
        if op == DRAW or op == REVEAL or op == DIG:
            finds = True
    if not finds:
        return
    while st.sc[S_DECK_N] + st.sc[S_DISC_N] > 0:  # something left to draw
        slot = _ask_skill_nb(st, tb, ru, pp, p, SK_DRAW)
        if slot < 0:
            return
        s = st.sk[p, SK_SLOT0 + slot]
        _spend_nb(st, tb, p, slot, 0, 0)
        for _ in range(tb.skill_op[s, SKC_N]):
            c = take_top_nb(st)
            if c >= 0:
                to_hand_nb(st, p, c)
                emit_nb(st, EV_DRAW, c, 0, 0, 0, 0)


@njit
def ability_again_nb(st, tb, ru, pp, p, room):
    """After the action's room ability: use it again, with an ability-again skill, while the
    player still stands in the room (a special move may have taken it away)."""
    while st.pos[p] == room and ability_usable_nb(st, tb, ru, p, room):
        slot = _ask_skill_nb(st, tb, ru, pp, p, SK_AGAIN)
        if slot < 0:
            return
        _spend_nb(st, tb, p, slot, room, 0)
        run_ability_nb(st, tb, ru, pp, p, room)
        after_ability_nb(st, tb, ru, pp, p, room)


@njit
def chaos_nb(st, tb, ru, pp, p):
    """Chaos Magic, at the end of a turn: a player who used their skill draws a new one and
    shuffles the old one back; one who did not may."""
    if ru.skills != SKV_CHAOS or st.sk[p, SK_SLOT0] < 0:
        return
    if st.sc[S_SKILL_USED] == 0:
        offer_nb(st, 0, -1, -1, 0, 0)
        offer_nb(st, 1, 0, st.sk[p, SK_SLOT0], 1, 0)  # column 2 = 1: a redraw
        if st.opt[decide_nb(st, tb, ru, pp, D_SKILL, 2, p), 0] < 0:
            return
    old = st.sk[p, SK_SLOT0]
    n = st.sc[S_SKDECK_N]
    if n == 0:
        return  # every other skill is held: the old one would come straight back
    new = _pop_nb(st)
    n -= 1
    st.skdeck[SKD_DECK, n] = old
    st.sc[S_SKDECK_N] = n + 1
    shuffle_nb(st.skdeck[SKD_RNG], st.skdeck[SKD_DECK], n + 1)
    st.sk[p, SK_SLOT0] = new
    st.sk[p, SK_USED0] = 0  # the new card has not been used
    emit_nb(st, EV_SKILL_REDRAW, old, new, 0, 0, 0)


@njit
def skills_ok_nb(st, tb, ru):
    """Check mode: no skill was used beyond its uses, and no card kept a face."""
    for q in range(ru.players):
        for slot in range(2):
            s = st.sk[q, SK_SLOT0 + slot]
            if s >= 0 and st.sk[q, SK_USED0 + slot] > tb.skill_op[s, SKC_USES]:
                return False
    if st.sc[S_FACES_DIRTY]:
        return False
    for c in range(tb.card_deck.shape[0]):
        for k in range(2):
            if (st.face[c, k] != st.face[c, 2 + k]
                    or st.face[c, 2 + k] != tb.card_gems[tb.card_deck[c], k]):
                return False
    return True

