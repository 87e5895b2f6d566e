"""How greedy uses skills (balance/games/gemrush/engine/skills_nb.py lists the uses).

Its rule: use a skill where it clearly pays this turn, measured the way greedy measures
everything, by the best door it can build.
- In the movement step (before its plan): a skill that makes a better door buildable
  within its steps than any it can build now. A turned card (`turn 1 card ...`) is tried card
  by card; extra steps are worth taking when a paid door lies within them, or when its plan
  for the turn still walks on (toward a door, a room's ability or the frontier); a free move
  (`move to any room`) to a room with a better paid door than any within its steps, or, when
  it can build nothing within them, to a room out of reach whose ability beats any it can
  walk to (greedy._move_to_ability_nb). Recovering
  the top discard is a free card: always.
- A hand-limit skill: always keep the cards. Drawing after an ability: always.
- Using a room's ability again: when it would choose that ability over a draw (its action
  rule).
- Choosing a skill (Choice of Skills), and whether to redraw one it did not use (Chaos
  Magic), by skill_worth_nb: cards are the game's currency, so a skill that gives cards every
  turn comes first (recovering discards), then one that gives cards after an ability, a
  second use of an ability, a free move, a turned card (any card before only a card that
  shows a given gem),
  a larger hand limit, and extra steps last; within a kind, more uses and larger numbers
  first. It keeps the first of equals. In Chaos Magic it redraws a skill worth less than the
  middle of the box's skills.
"""

from balance.games.gemrush.engine.decisions import OPT_SKILL
from balance.games.gemrush.engine.faces_nb import new_face_nb  # the engine's own rule, not a copy
from balance.games.gemrush.engine.payment_nb import (
    door_covered_nb,
    hand_has_warp_nb,
    hand_supply_nb,
)
from balance.games.gemrush.engine.state import (
    PL_ROT,
    PL_TYPE,
    S_PLACED,
    S_STEPS_LEFT,
    S_SUP_KEY,
    S_TILES_N,
    SK_SLOT0,
)
from balance.games.gemrush.skill import (
    G_NONE,
    SK_AGAIN,
    SK_DRAW,
    SK_HAND,
    SK_MOVE_ANY,
    SK_RECOVER,
    SK_STEPS,
    SK_TURN,
    SKC_COND,
    SKC_N,
    SKC_OP,
    SKC_USES,
)
from balance.kernels.jit import njit
from heuristics.gemrush.memory import B_DIST, F_POINTS, F_SIDE, F_TILE, M_FRONT_N, R_BUILD_AT

NONE = -1  # no door
# skill_worth_nb's order of the effects, best first (see the module docstring).
_KIND_RANK = (SK_RECOVER, SK_DRAW, SK_AGAIN, SK_MOVE_ANY, SK_TURN, SK_HAND, SK_STEPS)


@njit
def skill_worth_nb(tb, s):
    """Greedy's worth of skill s before the game: its kind's place in _KIND_RANK, then uses
    times its number; turning any card rates above turning only a card that shows a gem."""
    op = tb.skill_op[s, SKC_OP]
    rank = 0
    for i in range(len(_KIND_RANK)):
        if _KIND_RANK[i] == op:
            rank = i
    within = tb.skill_op[s, SKC_USES] * max(1, tb.skill_op[s, SKC_N])
    if op == SK_TURN and tb.skill_op[s, SKC_COND] == G_NONE:
        within += 10
    return (len(_KIND_RANK) - rank) * 100.0 + min(within, 99)


@njit
def pick_skill_nb(st, tb, n):
    """Choice of Skills: the dealt skill (D_SKILL_PICK rows) greedy rates highest."""
    best = 0
    for i in range(1, n):
        if skill_worth_nb(tb, st.opt[i, 0]) > skill_worth_nb(tb, st.opt[best, 0]):
            best = i
    return best


@njit
def redraw_nb(tb, s):
    """Chaos Magic, a skill not used this turn: redraw it when it is worth less than the
    middle of the box's skills."""
    n = tb.skill_deck.shape[0]
    below = 0
    for i in range(n):
        if skill_worth_nb(tb, tb.skill_deck[i]) < skill_worth_nb(tb, s):
            below += 1
    return below < n // 2


@njit
def best_build_nb(st, m, tb, ru, p, steps):
    """The most points of a door the hand pays for: within `steps` of the player (by the
    reach in m.rows[B_DIST]), or anywhere with a Warpstone in hand."""
    if st.sc[S_TILES_N] == 0:
        return NONE
    hand_supply_nb(st, tb, p)
    warp = ru.special_gems and hand_has_warp_nb(st, tb, p)
    best = NONE
    for f in range(m.sc[M_FRONT_N]):
        j = m.rows[F_TILE, f]
        if m.rows[B_DIST, j] + 1 > steps and not warp:
            continue
        pts = m.rows[F_POINTS, f]
        if pts > best and door_covered_nb(st, tb, st.pl[PL_TYPE, j], st.pl[PL_ROT, j],
                                          m.rows[F_SIDE, f]):
            best = pts
    return best


@njit
def builds_at_nb(st, m, tb, p, steps):
    """The most points of a door the hand pays for at each room j, with a step to spare (a
    free move's options), into m.rows[R_BUILD_AT]: one pass over the frontier for them all."""
    best = m.rows[R_BUILD_AT]
    for j in range(st.sc[S_PLACED]):
        best[j] = NONE
    if st.sc[S_TILES_N] == 0 or steps < 1:
        return
    hand_supply_nb(st, tb, p)
    for f in range(m.sc[M_FRONT_N]):
        j = m.rows[F_TILE, f]
        pts = m.rows[F_POINTS, f]
        if pts > best[j] and door_covered_nb(st, tb, st.pl[PL_TYPE, j], st.pl[PL_ROT, j],
                                             m.rows[F_SIDE, f]):
            best[j] = pts


@njit
def _turned_best_nb(st, m, tb, ru, p, steps, s, a, b):
    """best_build_nb as if the turn-a-card use (a, b) of skill s were made; undone after."""
    i = a % 64
    c = st.hand[p, i]
    f0, f1 = st.face[c, 0], st.face[c, 1]
    g0, g1 = new_face_nb(st, tb, p, s, c, b)
    st.face[c, 0] = g0
    st.face[c, 1] = g1
    n = st.hand_n[p]
    j = a // 64
    if tb.skill_op[s, SKC_N] == 2:  # the second card leaves the hand: move it past the end
        other = st.hand[p, j]
        st.hand[p, j] = st.hand[p, n - 1]
        st.hand[p, n - 1] = other
        st.hand_n[p] = n - 1
    st.sc[S_SUP_KEY] = 0  # the hand changed with no new S_CARD_VER: no kept tally holds
    v = best_build_nb(st, m, tb, ru, p, steps)
    if tb.skill_op[s, SKC_N] == 2:
        st.hand_n[p] = n
        other = st.hand[p, n - 1]
        st.hand[p, n - 1] = st.hand[p, j]
        st.hand[p, j] = other
    st.face[c, 0] = f0
    st.face[c, 1] = f1
    st.sc[S_SUP_KEY] = 0  # the tally is of the hand as tried
    return v


@njit
def skill_option_nb(st, tb, n, p, op):
    """The first option that uses a skill of effect `op`, or -1."""
    for i in range(n):
        if st.opt[i, 0] == OPT_SKILL and \
                tb.skill_op[st.sk[p, SK_SLOT0 + st.opt[i, 1]], SKC_OP] == op:
            return i
    return -1


@njit
def steps_skill_nb(st, tb, n, p):
    """The option of an extra-steps skill, or -1."""
    return skill_option_nb(st, tb, n, p, SK_STEPS)


@njit
def skill_step_nb(st, m, tb, ru, n, p):
    """The movement-step skill use that pays best, or -1. greedy's reach (m.rows[B_DIST])
    must be fresh for this position."""
    steps = st.sc[S_STEPS_LEFT]
    base = -2  # not yet measured
    at_ready = False  # builds_at_nb not yet run
    pick = -1
    pick_v = -1
    for i in range(n):
        if st.opt[i, 0] != OPT_SKILL:
            continue
        s = st.sk[p, SK_SLOT0 + st.opt[i, 1]]
        op = tb.skill_op[s, SKC_OP]
        if op == SK_RECOVER:
            return i
        if base == -2:
            base = best_build_nb(st, m, tb, ru, p, steps)
        v = NONE
        if op == SK_STEPS:
            v = best_build_nb(st, m, tb, ru, p, tb.skill_op[s, SKC_N])
        elif op == SK_MOVE_ANY:
            if not at_ready:
                builds_at_nb(st, m, tb, p, steps)
                at_ready = True
            v = m.rows[R_BUILD_AT, st.opt[i, 2]]
        elif op == SK_TURN:
            v = _turned_best_nb(st, m, tb, ru, p, steps, s, st.opt[i, 2], st.opt[i, 3])
        if v > base and v > pick_v:
            pick, pick_v = i, v
    if base != -2:
        hand_supply_nb(st, tb, p)  # leave the hand's tally as the plan expects it
    return pick
