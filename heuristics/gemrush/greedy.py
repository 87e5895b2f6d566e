"""`greedy`: the baseline player. Documented in README.md ("Players"); in short:

- Movement: build the highest-scoring door it can afford within this turn's steps (or
  anywhere, with a Warpstone), fewest steps first; a door worth no points too, when it is the
  best it can build, because it opens the mine.
- Otherwise walk to the reachable room whose ability is worth most (static value from the
  content, scaled by how much the frontier wants the gems it digs and by how many such cards
  can still be found) and use it.
- Otherwise draw, after walking towards the frontier door best worth building next (its
  points against the gems still missing and the distance).
- Pays with the fewest cards (an Orichalcum point counts as a card saved), then the fewest
  gems wasted, then the least valuable cards.
- Rotates new tiles to open doors it can afford, then doors worth most; in the last two
  rounds of 2nd-edition Crisis a door counts only if a player who still plays can pay it.
- Keeps cards for a goal: the frontier door best worth building next (its points against the
  gems still missing and the distance). Cards showing its gems are worth more when it must
  discard, keep or burn, so that a full hand is not thrown away and dug for again.
- Crisis: plays as one team with open hands; burns from the deck while it can, then, in the
  2nd edition, first the cards of players who have no turn left (the game's length is
  public); in the 1st edition discards just enough to keep the deck able to burn.

Weights (w): knobs below, then one static ability value per room type (`weights`, at the
end of this file).

What greedy reads (the audit issue 10 asked for; tests/games/gemrush/test_forward.py resamples the
hidden information at its decisions and checks no choice changes):
- the options offered, the mine (placed tiles, doors, positions), the room deck's size;
- the hands: in Crisis every hand (the team plays with open hands, RULINGS 10), in Rush only
  its own (the others' sizes, in estimate_avail_nb);
- the discard pile (face up), the cards burnt from hands (seen), the sizes of the deck and of
  the burnt pile; the turn number and the number of gem cards in the box (the clock);
- never the deck's order or contents, the room deck's order, which cards were burnt from the
  deck, or another Rush player's cards. Its memory (`m`, heuristics/gemrush/memory.py: the players'
  own, passed with the seats, never in the game's State) holds only what it computed from
  those.
"""

import numpy as np

from balance.games.gemrush.ability import (
    DIG,
    DISCARD,
    DRAW,
    F_ANY,
    F_GEMS,
    F_NAMED,
    KEEP_ALL,
    KEEP_N,
    MOVE_ANY,
    REVEAL,
)
from balance.games.gemrush.engine.decisions import (
    ACT_ABILITY,
    ACT_DRAW,
    D_ABILITY_DISCARD,
    D_ACTION,
    D_BURN,
    D_DISCARD_LIMIT,
    D_KEEP,
    D_MOVE_ANY,
    D_NAME,
    D_PAYMENT,
    D_ROTATION,
    D_SKILL,
    D_SKILL_PICK,
    D_STEP,
    D_SWAP,
    D_VOL_DISCARD,
    D_X,
    OPT_ABILITY,
    OPT_CART,
    OPT_DOOR,
    OPT_SKILL,
    OPT_STOP,
    OPT_WARP_BUILD,
)
from balance.games.gemrush.engine.mine_nb import T_EMPTY, T_ROOM, fresh_links_nb, step_xy_nb
from balance.games.gemrush.engine.payment_nb import (
    door_covered_nb,
    hand_has_warp_nb,
    hand_supply_nb,
)
from balance.games.gemrush.engine.state import (
    PILE_BURNT_SEEN,
    PILE_DISC,
    PL_ROT,
    PL_TYPE,
    S_BURNT_N,
    S_BURNT_SEEN_N,
    S_CARD_VER,
    S_CARTS,
    S_DECISIONS,
    S_DECK_N,
    S_DISC_N,
    S_MINE_VER,
    S_PLACED,
    S_STEPS_LEFT,
    S_SUP_WILD,
    S_TILES_N,
    S_TURN,
    SK_SLOT0,
)
from balance.games.gemrush.engine.usable_nb import ability_usable_nb
from balance.games.gemrush.skill import SK_AGAIN, SK_MOVE_ANY, SKC_OP
from balance.games.gemrush.tables import (
    ACTION,
    BONUS,
    CRISIS,
    ECHO,
    FREE,
    MINECART,
    MOVEMENT,
    STANDARD,
    TUNNEL,
    WARP,
    WILD,
)
from balance.kernels.jit import njit
from heuristics.gemrush.greedy_skills import (
    best_build_nb,
    pick_skill_nb,
    redraw_nb,
    skill_option_nb,
    skill_step_nb,
    steps_skill_nb,
)
from heuristics.gemrush.memory import (
    B_ARG,
    B_DIST,
    B_HOW,
    B_PREV,
    B_QUEUE,
    E_AVAIL,
    E_CARD,
    E_GOAL,
    E_NEED,
    E_WANT,
    F_POINTS,
    F_SIDE,
    F_TILE,
    M_AVAIL_STAMP,
    M_FRONT_N,
    M_GOAL_STAMP,
    M_NEED_VER,
    M_PLAN_KEY,
    M_PLAN_ROOM,
    M_PLAN_SIDE,
    M_PLAN_TARGET,
    M_REACH_KEY,
    R_COUNTS,
)
from heuristics.knobs import Knob

# Knobs: index into w.
(W_DRAW, W_NEED_BONUS, W_WILD, W_ECHO, W_BONUS, W_WARP, W_JUNK, W_APPROACH_POINTS,
 W_APPROACH_DIST, W_LOOKAHEAD, W_GOAL, W_READY, W_ROT_COVERED, W_ROT_OPEN, W_ROT_POINTS,
 N_KNOBS) = range(16)
# In the order of the W_ indices above. Values are in "cards" (a card the frontier wants most
# is worth about 1). The defaults are tuned: `balance tune-player greedy --players 4 --games
# 800 --evaluations 240 --seed 3` on 2nd-edition Crisis, rounded (+2.3 to +2.7 points a game
# over the hand-set values at 1, 4 and 7 players; README, "Players"). rotate_points was then
# lowered from 4.6 to 2.0 with skills played: the reference, overruling a rotation, mostly
# picked the one whose new doors cost less (README, "Rotate").
KNOBS = (
    Knob("draw_value", 0.73, 0.0, 5.0, "worth of the Draw 1 action; an ability must beat it"),
    Knob("need_bonus", 0.12, 0.0, 5.0, "extra worth of an ability that digs or keeps the gems "
         "the frontier needs"),
    Knob("wild_value", 4.5, 0.0, 10.0, "worth of a Diamond Dust symbol when keeping or "
         "discarding"),
    Knob("echo_value", 0.1, 0.0, 5.0, "worth of an Echoglass symbol"),
    Knob("bonus_value", 3.5, 0.0, 10.0, "worth of an Orichalcum symbol"),
    Knob("warp_value", 2.3, 0.0, 5.0, "worth of a Warpstone symbol"),
    Knob("junk_below", 1.2, 0.0, 3.0, "cards worth less than this are fed to 'discard X' "
         "abilities"),
    Knob("approach_points", 1.7, 0.0, 5.0, "heading for the frontier: worth of a point on the "
         "door..."),
    Knob("approach_dist", 2.2, 0.0, 5.0, "...against each step away (each missing gem counts "
         "1)"),
    Knob("lookahead_steps", 14, 0, 20, "how far past this turn's steps the planner looks for "
         "the frontier", integer=True),
    Knob("goal_value", 1.7, 0.0, 5.0, "extra worth of a card or a dig for a gem of the door it "
         "saves for"),
    Knob("ready_bonus", 5.4, 0.0, 10.0, "that door is chosen first among those it can build "
         "this turn"),
    Knob("rotate_covered", 2.5, 0.0, 10.0, "turning a new tile: worth of each new door the hand "
         "can pay now, plus its points"),
    Knob("rotate_open", 1.0, 0.0, 10.0, "...of each other new door facing an empty cell..."),
    Knob("rotate_points", 2.0, 0.0, 10.0, "...plus this much per point on it"),
)
KNOB_NAMES = tuple(k.name for k in KNOBS)
BIG = 1 << 30


@njit(inline=True)
def refresh_frontier_nb(st, m, tb, w):
    """Frontier doors (doors of built rooms that lead, through any tunnels, to an empty cell)
    and how much each gem is wanted by them; cached until the mine changes. (Cache checks
    like this one sit in a small wrapper that inlines: a call costs ~160 ns, see jit.py.)"""
    if m.sc[M_NEED_VER] != st.sc[S_MINE_VER]:
        _frontier_nb(st, m, tb, w)


@njit
def _frontier_nb(st, m, tb, w):
    g_n = tb.gem_power.shape[0]
    need = m.est[E_NEED]
    for g in range(g_n):
        need[g] = 0.0
    n = 0
    fresh_links_nb(st, tb)
    for j in range(st.sc[S_PLACED]):
        jt = st.pl[PL_TYPE, j]
        if tb.room_kind[jt] == TUNNEL:
            continue
        jr = st.pl[PL_ROT, j]
        for side in range(4):
            if not tb.door[jt, jr, side] or st.link[j, side, 0] != T_EMPTY:
                continue
            pts = tb.door_points[jt, jr, side]
            m.rows[F_TILE, n] = j
            m.rows[F_SIDE, n] = side
            m.rows[F_POINTS, n] = pts
            n += 1
            for g in range(g_n):
                need[g] += tb.door_cost[jt, jr, side, g] * (1.0 + pts)
    most = 0.0
    for g in range(g_n):
        most = max(most, need[g])
    if most > 0:
        for g in range(g_n):
            need[g] /= most  # 1.0 for the most wanted gem
    m.sc[M_FRONT_N] = n
    m.sc[M_NEED_VER] = st.sc[S_MINE_VER]


@njit
def card_value_nb(m, tb, w, card):
    """A card's worth in hand: what its gems are to the frontier, plus its share of the goal
    door (choose_goal_nb must have run for this decision)."""
    need = m.est[E_NEED]
    goal = m.est[E_GOAL]
    ct = tb.card_deck[card]
    v = 0.0
    for k in range(2):
        g = tb.card_gems[ct, k]
        if g < 0:
            continue
        pw = tb.gem_power[g]
        if pw == STANDARD:
            v += need[g] + goal[g]
        elif pw == WILD:
            v += w[W_WILD] + goal[g]
        elif pw == ECHO:
            v += w[W_ECHO]
        elif pw == BONUS:
            v += w[W_BONUS]
        elif pw == WARP:
            v += w[W_WARP]
    return v


@njit
def estimate_avail_nb(st, m, tb, ru, p):
    """Cards showing each gem that the deck and discards could still yield, from what this
    player may know: the face-up discards, plus the unseen cards (neither in its hand, seen
    burnt nor discarded) in the share the deck holds of them against the other hands and the
    cards burnt unseen from the deck. Reads only what a player at the table knows: its own
    hand, the discard pile, the cards burnt from hands and the sizes of the piles."""
    g_n = tb.gem_power.shape[0]
    avail = m.est[E_AVAIL]
    unseen = m.rows[R_COUNTS]
    for g in range(g_n):
        avail[g] = 0.0
        unseen[g] = tb.gem_cards[g]
    for i in range(st.hand_n[p]):
        _count_card(tb, unseen, st.hand[p, i], -1)
    for i in range(st.sc[S_BURNT_SEEN_N]):
        _count_card(tb, unseen, st.piles[PILE_BURNT_SEEN, i], -1)
    for i in range(st.sc[S_DISC_N]):
        _count_card(tb, unseen, st.piles[PILE_DISC, i], -1)
        ct = tb.card_deck[st.piles[PILE_DISC, i]]
        for k in range(2):
            g = tb.card_gems[ct, k]
            if g >= 0 and (k == 0 or g != tb.card_gems[ct, 0]):
                avail[g] += 1.0
    others = 0
    for q in range(ru.players):
        if q != p:
            others += st.hand_n[q]
    others += st.sc[S_BURNT_N] - st.sc[S_BURNT_SEEN_N]
    deck = st.sc[S_DECK_N]
    share = deck / (deck + others) if deck + others > 0 else 0.0
    for g in range(g_n):
        avail[g] += unseen[g] * share


@njit(inline=True)
def choose_goal_nb(st, m, tb, ru, w, p):
    """The door player p saves its cards for (see _goal_from_reach_nb). It is chosen once per
    turn of each player and mine (a new tile may open a better door): a goal that shifted
    with every card discarded or drawn would not be one."""
    if m.sc[M_GOAL_STAMP] != goal_key_nb(st, p):
        _choose_goal_nb(st, m, tb, ru, w, p)


@njit
def _choose_goal_nb(st, m, tb, ru, w, p):
    # The frontier needs no refresh here: _greedy_think_nb refreshes it before every decision.
    reach_nb(st, m, tb, ru, p, ru.steps + int(w[W_LOOKAHEAD]))
    hand_supply_nb(st, tb, p)
    _goal_from_reach_nb(st, m, tb, w, p, ru.steps)


@njit
def goal_key_nb(st, p):
    return ((st.sc[S_TURN] * 64 + p) << 24) + st.sc[S_MINE_VER]


@njit
def _goal_from_reach_nb(st, m, tb, w, p, steps):
    """From a fresh reach_nb and hand supply: the frontier door best worth building next, as
    when heading for one, and far better when it can be built within `steps` now. Fills
    m.est[E_GOAL] with each gem's share of that door (1 for a gem it needs once and one
    card in hand shows; less when several cards show it; the missing units for wild gems) and
    m.est[E_WANT] with the units it still lacks."""
    g_n = tb.gem_power.shape[0]
    goal = m.est[E_GOAL]
    want = m.est[E_WANT]
    dist = m.rows[B_DIST]
    m.sc[M_GOAL_STAMP] = goal_key_nb(st, p)
    for g in range(g_n):
        goal[g] = 0.0
        want[g] = 0.0
    if st.sc[S_TILES_N] == 0 or w[W_GOAL] == 0.0:
        return
    best = -1
    best_score = -1e18
    missing = 0
    for f in range(m.sc[M_FRONT_N]):
        j = m.rows[F_TILE, f]
        if dist[j] >= BIG:
            continue
        score, short = approach_score_nb(st, m, tb, w, f)
        if short == 0 and dist[j] + 1 <= steps:
            score += w[W_READY]
        if score > best_score:
            best, best_score, missing = f, score, short
    if best < 0:
        return
    j = m.rows[F_TILE, best]
    cost = tb.door_cost[st.pl[PL_TYPE, j], st.pl[PL_ROT, j], m.rows[F_SIDE, best]]
    nat = st.gtmp[0]  # the hand's supply, from hand_supply_nb
    showing = m.rows[R_COUNTS]
    for g in range(g_n):
        showing[g] = 0
    for i in range(st.hand_n[p]):
        _count_card(tb, showing, st.hand[p, i], 1)
    for g in range(g_n):
        if tb.gem_power[g] == WILD:
            goal[g] = w[W_GOAL] * min(1.0, missing / max(1, showing[g]))
        elif cost[g] > 0:
            goal[g] = w[W_GOAL] * min(1.0, cost[g] / max(1, showing[g]))
            want[g] = max(0, cost[g] - nat[g])


@njit
def _count_card(tb, counts, c, sign):
    ct = tb.card_deck[c]
    g0 = tb.card_gems[ct, 0]
    g1 = tb.card_gems[ct, 1]
    if g0 >= 0:
        counts[g0] += sign
    if g1 >= 0 and g1 != g0:
        counts[g1] += sign


@njit(inline=True)
def room_value_nb(st, m, tb, ru, w, p, room):
    """How much using this room's ability is worth to the greedy player now."""
    g_n = tb.gem_power.shape[0]
    need = m.est[E_NEED]
    avail = m.est[E_AVAIL]
    want = m.est[E_WANT]
    rt = st.pl[PL_TYPE, room]
    v = w[N_KNOBS + rt]
    total = 1e-9
    n_std = 0
    for g in range(g_n):
        total += need[g]
        if tb.gem_power[g] == STANDARD:
            n_std += 1
    mean = total / max(n_std, 1)
    for i in range(tb.prog_len[rt]):
        if (tb.prog[rt, i, 0] == DIG and tb.prog[rt, i, 2] == F_GEMS
                and m.sc[M_AVAIL_STAMP] != st.sc[S_DECISIONS]):
            # What a dig can still find is estimated once per decision, and only if needed.
            estimate_avail_nb(st, m, tb, ru, p)
            m.sc[M_AVAIL_STAMP] = st.sc[S_DECISIONS]
    for i in range(tb.prog_len[rt]):
        op = tb.prog[rt, i, 0]
        if (op == DIG or op == KEEP_ALL or op == KEEP_N) and tb.prog[rt, i, 2] == F_GEMS:
            mask = tb.prog[rt, i, 3]
            wanted = 0.0
            best = -1.0  # most wanted standard gem of the filter; -1 when it names none
            left = 0.0
            for g in range(g_n):
                if (mask >> g) & 1:
                    wanted += need[g]
                    left += avail[g]
                    if tb.gem_power[g] == STANDARD:
                        best = max(best, need[g])
            v += w[W_NEED_BONUS] * wanted / total
            lacking = 0.0
            for g in range(g_n):
                if (mask >> g) & 1:
                    lacking += want[g]
            v += w[W_GOAL] * min(1.0, lacking)
            if op == DIG:
                n = tb.prog[rt, i, 1]
                # Dug cards are worth what their gem is worth to the frontier (0 to 2 cards
                # each against an average card), less for every card in hand that already
                # shows it, and a dig finds only what is left to find.
                held = 0
                for k in range(st.hand_n[p]):
                    ct = tb.card_deck[st.hand[p, k]]
                    for s in range(2):
                        g = tb.card_gems[ct, s]
                        if g >= 0 and (mask >> g) & 1 and tb.gem_power[g] == STANDARD:
                            held += 1
                            break
                rel = min(2.0, best / mean) if best >= 0.0 else 1.0
                rel /= 1.0 + held
                v += n * (rel - 1.0)
                v -= max(0.0, n - left) * rel
    return v


@njit(inline=True)
def reach_nb(st, m, tb, ru, p, steps):
    """Steps needed to reach each built room this turn (m.rows[B_DIST]), with the first move
    of a shortest way there (B_HOW and B_ARG, on the room after the start).

    Breadth-first by layers held in m.rows[B_QUEUE]; each layer is expanded in placement
    order, so that ties between equally short ways are broken the same way every time."""
    cur = st.pos[p]
    # The answer depends only on the mine, the start and the depth, unless the start is a
    # room whose ability moves its user (then it depends on the player's cards too).
    key = (st.sc[S_MINE_VER] * (st.sc[S_PLACED] + 1) + cur) * 1024 + steps
    cacheable = tb.room_kind[st.pl[PL_TYPE, cur]] != MOVEMENT
    if not cacheable or m.sc[M_REACH_KEY] != key:
        m.sc[M_REACH_KEY] = key if cacheable else -1
        _reach_nb(st, m, tb, ru, p, steps)


@njit
def _reach_nb(st, m, tb, ru, p, steps):
    dist = m.rows[B_DIST]
    prev = m.rows[B_PREV]
    q = m.rows[B_QUEUE]
    rtype = st.pl[PL_TYPE]
    cur = st.pos[p]
    n = st.sc[S_PLACED]
    carts = st.sc[S_CARTS] >= 2
    fresh_links_nb(st, tb)  # then st.link directly: link_nb checks at each of a hundred doors
    link = st.link
    for j in range(n):
        dist[j] = BIG
        prev[j] = -1
    dist[cur] = 0
    q[0] = cur
    lo = 0
    hi = 1
    for d in range(steps + 1):
        if carts:
            via = BIG  # mine carts link every cart at no step: through the first one reached
            for k in range(lo, hi):
                if tb.room_kind[rtype[q[k]]] == MINECART and q[k] < via:
                    via = q[k]
            if via < BIG:
                for j in range(n):
                    if dist[j] > d and tb.room_kind[rtype[j]] == MINECART:
                        hi = _arrive_nb(m.rows, j, d, via, OPT_CART, j, hi)
        if d == steps or lo == hi:
            break
        _sort_nb(q, lo, hi)
        nxt = hi
        for k in range(lo, hi):
            j = q[k]
            jt = rtype[j]
            for side in range(4):
                if link[j, side, 0] == T_ROOM:
                    a = link[j, side, 1]
                    if dist[a] > d + 1:
                        nxt = _arrive_nb(m.rows, a, d + 1, j, OPT_DOOR, side, nxt)
            if (j == cur and tb.room_kind[jt] == MOVEMENT and tb.prog[jt, 0, 0] == MOVE_ANY
                    and ability_usable_nb(st, tb, ru, p, j)):
                for a in range(n):
                    if dist[a] > d + 1 and tb.room_kind[rtype[a]] != TUNNEL:
                        nxt = _arrive_nb(m.rows, a, d + 1, j, OPT_ABILITY, a, nxt)
        lo = hi
        hi = nxt


@njit
def _arrive_nb(bfs, room, d, frm, how, arg, end):
    """Record the first way found into `room` (d steps; from room `frm` by option kind `how`
    with argument `arg`) and queue it at position `end` of the queue; returns the new end."""
    bfs[B_DIST, room] = d
    bfs[B_PREV, room] = frm
    bfs[B_HOW, room] = how
    bfs[B_ARG, room] = arg
    bfs[B_QUEUE, end] = room
    return end + 1


@njit
def _sort_nb(a, lo, hi):
    """Insertion sort of a[lo:hi]: layers are a handful of rooms."""
    for i in range(lo + 1, hi):
        v = a[i]
        k = i - 1
        while k >= lo and a[k] > v:
            a[k + 1] = a[k]
            k -= 1
        a[k + 1] = v


@njit
def first_hop_nb(m, cur, target):
    """The room right after `cur` on the way to `target`."""
    prev = m.rows[B_PREV]
    j = target
    for _ in range(prev.shape[0]):
        if prev[j] == cur or prev[j] < 0:
            return j
        j = prev[j]
    return j


@njit
def find_option_nb(st, n, kind, a):
    for i in range(n):
        if st.opt[i, 0] == kind and (kind == OPT_ABILITY or st.opt[i, 1] == a):
            return i
    return 0


@njit
def approach_score_nb(st, m, tb, w, f):
    """How much frontier door f is worth heading for: its points against the gems the hand
    still lacks for it and the steps to it (m.rows[B_DIST]). Returns (score, gems lacking)."""
    j = m.rows[F_TILE, f]
    short = deficit_nb(st, tb, st.pl[PL_TYPE, j], st.pl[PL_ROT, j], m.rows[F_SIDE, f])
    score = (m.rows[F_POINTS, f] * w[W_APPROACH_POINTS] - short
             - m.rows[B_DIST, j] * w[W_APPROACH_DIST])
    return score, short


@njit
def deficit_nb(st, tb, rt, rot, side):
    """Gem units the last tallied hand supply is short of a door's cost (wild gems count)."""
    cost = tb.door_cost[rt, rot, side]
    nat = st.gtmp[0]
    short = 0
    for k in range(tb.door_gems.shape[3]):
        g = tb.door_gems[rt, rot, side, k]
        if g < 0:
            break
        if tb.gem_power[g] != WILD:
            short += max(0, cost[g] - nat[g])
    return max(0, short - st.sc[S_SUP_WILD])


@njit
def plan_key_nb(st, p):
    """What a plan made at one step of a turn depends on: the turn, the mine and the cards."""
    return (((st.sc[S_TURN] * 64 + p) << 20) + st.sc[S_MINE_VER]) * 100_003 + st.sc[S_CARD_VER]


@njit
def follow_plan_nb(st, m, n, p):
    """The next move of the plan made at an earlier step of this turn, or -1 to plan anew.
    The plan holds while nothing but the player's position changed, and the player is where
    the last move was meant to take it: the rest of a shortest way is still shortest."""
    cur = st.pos[p]
    if m.sc[M_PLAN_KEY] != plan_key_nb(st, p) or m.sc[M_PLAN_ROOM] != cur:
        return -1
    target = m.sc[M_PLAN_TARGET]
    if cur == target:
        side = m.sc[M_PLAN_SIDE]
        for i in range(n):
            if side < 0 and st.opt[i, 0] == OPT_STOP:
                return i
            if side >= 0 and st.opt[i, 0] == OPT_DOOR and st.opt[i, 1] == side \
                    and st.opt[i, 2] < 0:
                return i
        return -1
    hop = first_hop_nb(m, cur, target)
    how = m.rows[B_HOW, hop]
    m.sc[M_PLAN_ROOM] = hop
    for i in range(n):
        kind = st.opt[i, 0]
        if ((how == OPT_DOOR and kind == OPT_DOOR and st.opt[i, 1] == m.rows[B_ARG, hop])
                or (how == OPT_CART and kind == OPT_CART and st.opt[i, 1] == hop)
                or (how == OPT_ABILITY and kind == OPT_ABILITY)):
            return i
    return -1


@njit
def _plan_nb(st, m, n, p, cur, target, side):
    """Head for `target` (and there, build through `side`, or stop when side < 0); the plan
    is kept for the next steps of this turn (follow_plan_nb)."""
    m.sc[M_PLAN_KEY] = plan_key_nb(st, p)
    m.sc[M_PLAN_TARGET] = target
    m.sc[M_PLAN_SIDE] = side
    return _go_toward_nb(st, m, n, cur, target)


@njit(inline=True)
def plan_step_nb(st, m, tb, ru, w, n, p):
    # _greedy_think_nb has refreshed the frontier, and greedy_quick_nb found no plan to follow.
    m.sc[M_PLAN_KEY] = -1
    steps = st.sc[S_STEPS_LEFT]
    cur = st.pos[p]
    # Look past this turn's steps too, to head for the frontier when nothing is in reach.
    reach_nb(st, m, tb, ru, p, ru.steps + int(w[W_LOOKAHEAD]))
    m.sc[M_PLAN_ROOM] = -1
    warp = hand_has_warp_nb(st, tb, p) and ru.special_gems
    hand_supply_nb(st, tb, p)
    best = -1
    best_pts = -1
    best_steps = BIG
    if st.sc[S_TILES_N] > 0:
        for f in range(m.sc[M_FRONT_N]):
            j = m.rows[F_TILE, f]
            side = m.rows[F_SIDE, f]
            pts = m.rows[F_POINTS, f]
            need_steps = m.rows[B_DIST, j] + 1
            if need_steps > steps:
                if not warp:
                    continue
                need_steps = BIG - 1  # reachable by a Warpstone build only
            if pts < best_pts or (pts == best_pts and need_steps >= best_steps):
                continue
            if door_covered_nb(st, tb, st.pl[PL_TYPE, j], st.pl[PL_ROT, j], side):
                best, best_pts, best_steps = f, pts, need_steps
    # A door worth less than min_points is built only when no better one can be: it spends
    # cards for no points, but opens the mine to new rooms and doors.
    if best >= 0:
        j = m.rows[F_TILE, best]
        side = m.rows[F_SIDE, best]
        if best_steps == BIG - 1:
            for i in range(n):
                if (st.opt[i, 0] == OPT_WARP_BUILD and st.opt[i, 1] == j
                        and st.opt[i, 2] == side):
                    return i
            return 0
        if j == cur:
            for i in range(n):
                if st.opt[i, 0] == OPT_DOOR and st.opt[i, 1] == side and st.opt[i, 2] < 0:
                    return i
            return 0
        return _plan_nb(st, m, n, p, cur, j, side)
    # No build: the most valuable reachable ability, if it beats drawing a card.
    if m.sc[M_GOAL_STAMP] != goal_key_nb(st, p):  # room_value_nb weighs digs by it
        _goal_from_reach_nb(st, m, tb, w, p, steps)
    target = -1
    value = w[W_DRAW]
    for j in range(st.sc[S_PLACED]):
        if m.rows[B_DIST, j] > steps:
            continue
        k = tb.room_kind[st.pl[PL_TYPE, j]]
        if k != ACTION and k != MOVEMENT and k != FREE:
            continue
        v = room_value_nb(st, m, tb, ru, w, p, j)
        if v > value and ability_usable_nb(st, tb, ru, p, j):
            target, value = j, v
    if target >= 0:
        if target == cur:
            return find_option_nb(st, n, OPT_STOP, 0)
        return _plan_nb(st, m, n, p, cur, target, -1)
    # Nothing better than a draw here: draw nearer the door most worth building next.
    goal = -1
    goal_score = -1e18
    for f in range(m.sc[M_FRONT_N]):
        j = m.rows[F_TILE, f]
        if m.rows[B_DIST, j] >= BIG:
            continue
        score, _short = approach_score_nb(st, m, tb, w, f)
        if score > goal_score:
            goal, goal_score = j, score
    if goal < 0 or goal == cur:
        return find_option_nb(st, n, OPT_STOP, 0)
    return _plan_nb(st, m, n, p, cur, goal, -1)


@njit
def _go_toward_nb(st, m, n, cur, target):
    hop = first_hop_nb(m, cur, target)
    how = m.rows[B_HOW, hop]
    m.sc[M_PLAN_ROOM] = hop
    if how == OPT_DOOR:
        return find_option_nb(st, n, OPT_DOOR, m.rows[B_ARG, hop])
    if how == OPT_CART:
        return find_option_nb(st, n, OPT_CART, hop)
    return find_option_nb(st, n, OPT_ABILITY, 0)


@njit
def pick_payment_nb(st, m, tb, w, n, p):
    vals = m.est[E_CARD]  # each hand card's worth, valued once for all the options
    for pos in range(st.hand_n[p]):
        vals[pos] = card_value_nb(m, tb, w, st.hand[p, pos])
    best = 0
    key0 = BIG
    key1 = BIG
    key2 = 1e18
    for i in range(n):
        mask = st.opt[i, 0]
        val = 0.0
        bonus = 0
        for pos in range(st.hand_n[p]):
            if (mask >> pos) & 1:
                val += vals[pos]
                card = st.hand[p, pos]
                for s in range(2):
                    g = st.face[card, s]
                    if g >= 0 and tb.gem_power[g] == BONUS:
                        bonus += 1
        c, wst = st.opt[i, 2] - bonus, st.opt[i, 3]
        if c < key0 or (c == key0 and (wst < key1 or (wst == key1 and val < key2))):
            best, key0, key1, key2 = i, c, wst, val
    return best


@njit
def pick_rotation_nb(st, tb, ru, w, n, p):
    """The rotation whose new doors facing empty cells are worth most, by the rotate_* knobs
    (whether the hand can pay a door now, its points). In the last two rounds of a game whose
    length is public, a door is worth its points only if a player who still plays can pay it
    now, and doors nobody can pay break ties. (Its rounds were measured: the last round alone
    gained +0.10 points a game at 4 players, two +0.16, three +0.08.)"""
    # Not pasted into _greedy_think_nb: rotations are rare, and pasted, the last-rounds rule
    # made every game 6% slower (4% as a call).
    after = turns_after_nb(st, tb, ru)
    late = 0 <= after < 2 * ru.players
    best = 0
    best_score = -1.0
    width = st.grid.shape[0]
    hand_supply_nb(st, tb, p)
    for i in range(n):
        rot, rt, entry, cell = st.opt[i, 0], st.opt[i, 1], st.opt[i, 2], st.opt[i, 3]
        x, y = cell % width, cell // width
        score = 0.0
        if tb.room_kind[rt] == TUNNEL:
            ex = tb.tunnel_exit[rt, rot, entry]
            nx, ny = step_xy_nb(x, y, ex)
            score = 5.0 if st.grid[ny, nx] < 0 else 1.0
            if late:
                score /= 10.0
        else:
            for side in range(4):
                if side == entry or not tb.door[rt, rot, side]:
                    continue
                nx, ny = step_xy_nb(x, y, side)
                if st.grid[ny, nx] >= 0:
                    continue
                pts = tb.door_points[rt, rot, side]
                if late:
                    score += 1.0 + pts if payer_left_nb(st, tb, ru, p, after, rt, rot, side) \
                        else 0.01
                elif door_covered_nb(st, tb, rt, rot, side):
                    score += w[W_ROT_COVERED] + pts
                else:
                    score += w[W_ROT_OPEN] + w[W_ROT_POINTS] * pts
        if score > best_score:
            best, best_score = i, score
    if late:
        hand_supply_nb(st, tb, p)  # leave the hand's tally as the plan expects it
    return best


@njit
def payer_left_nb(st, tb, ru, p, after, rt, rot, side):
    """Whether a player who still plays can pay this door now: p, with a step left this turn
    or a turn to come, or one whose turn is still to come (`after` turns after this one)."""
    for q in range(ru.players):
        if not plays_again_nb(ru, p, q, after) and not (q == p and st.sc[S_STEPS_LEFT] > 0):
            continue
        hand_supply_nb(st, tb, q)
        if door_covered_nb(st, tb, rt, rot, side):
            return True
    return False


@njit
def extreme_card_nb(st, m, tb, w, n, col, lowest):
    best = 0
    best_v = 1e18 if lowest else -1e18
    for i in range(n):
        c = st.opt[i, col]
        if c < 0:
            continue
        v = card_value_nb(m, tb, w, c)
        if (lowest and v < best_v) or (not lowest and v > best_v):
            best, best_v = i, v
    return best


@njit
def turns_after_nb(st, tb, ru):
    """The turns left after this one, when the clock is public, else -1. In 2nd-edition
    Crisis every turn burns its full count until the last card: the game has
    ceil(cards / burn) turns."""
    if ru.mode != CRISIS or not ru.burn_from_hands or ru.cannot_burn_loses:
        return -1
    total = (tb.card_deck.shape[0] + ru.burn_per_turn - 1) // ru.burn_per_turn
    return total - 1 - st.sc[S_TURN]


@njit
def dead_hand_nb(st, tb, ru, n, p):
    """A burn option from the hand of a player who has no turn left, or -1 (the clock is
    public, turns_after_nb). Such a hand's cards can never be paid; burnt first, they spare
    the hands that still play."""
    after = turns_after_nb(st, tb, ru)
    if after < 0:
        return -1
    for i in range(n):
        q = st.opt[i, 0]
        if q >= 0 and not plays_again_nb(ru, p, q, after):
            return i
    return -1


@njit
def plays_again_nb(ru, p, q, after):
    """Whether player q has a turn among the `after` turns after player p's."""
    return (q - p - 1) % ru.players < after


@njit
def frontier_doors_at_nb(m, room):
    c = 0
    for f in range(m.sc[M_FRONT_N]):
        if m.rows[F_TILE, f] == room:
            c += 1
    return c


@njit(inline=True)
def greedy_quick_nb(kind, st, m, ru, n, p):
    """The decisions greedy takes without a fresh look at the mine or the cards, or -1:
    burning from the deck while it can, not discarding while the deck and discards can feed
    the burn, and the next step of a plan that still holds. Pasted into every decision site
    (greedy_choose_nb): they are half of all decisions, and a call costs more than the
    decision."""
    # The cards of players who have no turn left (dead_hand_nb) are burnt first only once
    # the deck and discards are empty: checked here, before the deck, it kept 1% more of
    # the gain but made every decision site compile differently, 2-3% slower.
    if kind == D_BURN and st.opt[0, 0] < 0:
        return 0
    # A discard at will only ever helps to feed a burn that must come from the deck. (In
    # the 2nd edition, discarding the cards of a hand that will not play again gained
    # nothing over burning them first: -0.01 points a game at 4 players.)
    if kind == D_VOL_DISCARD and (ru.mode != CRISIS or ru.burn_from_hands or st.sc[S_DECK_N]
                                  + st.sc[S_DISC_N] >= ru.burn_per_turn):
        return 0
    if kind == D_STEP:
        return follow_plan_nb(st, m, n, p)
    return -1


@njit(inline=True)
def greedy_choose_nb(kind, st, tb, ru, pp, mem, n, p):
    """Greedy's choice, with the knobs of seat p and its memory `mem`. Pasted into every
    decision site (through the generated dispatch_nb.py): the quick decisions cost no call,
    the rest are thought over in _greedy_think_nb."""
    k = greedy_quick_nb(kind, st, mem, ru, n, p)
    if k >= 0:
        return k
    return _greedy_think_nb(kind, st, mem, tb, ru, pp.w[p], n, p)


@njit(inline=True)
def offers_skill_nb(st, n):
    """Whether any of the n options uses a skill."""
    for i in range(n):
        if st.opt[i, 0] == OPT_SKILL:
            return True
    return False


@njit
def _skill_step_nb(st, m, tb, ru, w, n, p):
    """A movement-step skill use worth making now (greedy_skills.py), or -1. Kept out of
    _greedy_think_nb: code there changes how LLVM compiles every decision."""
    reach_nb(st, m, tb, ru, p, ru.steps + int(w[W_LOOKAHEAD]))
    k = skill_step_nb(st, m, tb, ru, n, p)
    if k < 0 and st.sc[S_STEPS_LEFT] == 0 and m.sc[M_PLAN_KEY] == plan_key_nb(st, p) \
            and m.sc[M_PLAN_TARGET] != st.pos[p]:
        k = steps_skill_nb(st, tb, n, p)  # its plan walks on: take the free steps
    if k < 0:
        k = _move_to_ability_nb(st, m, tb, ru, w, n, p)
    return k


@njit
def _move_to_ability_nb(st, m, tb, ru, w, n, p):
    """A free move (`move to any room`) to the room whose ability is worth most, when no
    door can be built within its steps and that ability beats every one it can walk to (and
    a draw); or -1. (skill_step_nb has taken the move for a better door.)"""
    steps = st.sc[S_STEPS_LEFT]
    i_move = skill_option_nb(st, tb, n, p, SK_MOVE_ANY)
    if i_move < 0:
        return -1
    if best_build_nb(st, m, tb, ru, p, steps) >= 0:
        return -1
    choose_goal_nb(st, m, tb, ru, w, p)
    near = w[W_DRAW]
    far = w[W_DRAW]
    pick = -1
    for i in range(n):
        if st.opt[i, 0] != OPT_SKILL or st.opt[i, 1] != st.opt[i_move, 1]:
            continue
        j = st.opt[i, 2]
        k = tb.room_kind[st.pl[PL_TYPE, j]]
        if k != ACTION and k != MOVEMENT and k != FREE:
            continue
        if not ability_usable_nb(st, tb, ru, p, j):
            continue
        v = room_value_nb(st, m, tb, ru, w, p, j)
        if m.rows[B_DIST, j] <= steps:
            near = max(near, v)
        elif v > far:
            pick, far = i, v
    hand_supply_nb(st, tb, p)  # leave the hand's tally as the plan expects it
    return pick if far > near else -1


@njit
def _greedy_think_nb(kind, st, m, tb, ru, w, n, p):
    refresh_frontier_nb(st, m, tb, w)
    if kind == D_STEP:
        # One call site of plan_step_nb (it is inlined): with two, every game ran 20-25% slower.
        # Two steps in three that a skill holder thinks over offer no skill use: asking
        # _skill_step_nb then was a call that passes the state (about 135 ns) for nothing.
        if st.sk[p, SK_SLOT0] >= 0 and offers_skill_nb(st, n):
            k = _skill_step_nb(st, m, tb, ru, w, n, p)
            if k >= 0:
                return k
        return plan_step_nb(st, m, tb, ru, w, n, p)
    if kind == D_DISCARD_LIMIT and st.opt[n - 1, 0] < 0:
        return n - 1  # a hand-limit skill keeps every card
    if kind == D_SKILL:
        if st.opt[1, 2] == 1:  # Chaos Magic, a skill not used: redraw a weak one
            return 1 if redraw_nb(tb, st.opt[1, 1]) else 0
        if tb.skill_op[st.opt[1, 1], SKC_OP] == SK_AGAIN:
            choose_goal_nb(st, m, tb, ru, w, p)
            return 1 if room_value_nb(st, m, tb, ru, w, p, st.pos[p]) > w[W_DRAW] else 0
        return 1  # drawing more after an ability
    if kind == D_SKILL_PICK:
        return pick_skill_nb(st, tb, n)
    # Decisions that weigh cards by card_value_nb choose the goal door first.
    if kind == D_PAYMENT:
        choose_goal_nb(st, m, tb, ru, w, p)
        return pick_payment_nb(st, m, tb, w, n, p)
    if kind == D_ROTATION:
        return pick_rotation_nb(st, tb, ru, w, n, p)
    if kind == D_ACTION:
        choose_goal_nb(st, m, tb, ru, w, p)
        v = room_value_nb(st, m, tb, ru, w, p, st.pos[p])
        target = ACT_ABILITY if v > w[W_DRAW] else ACT_DRAW
        for i in range(n):
            if st.opt[i, 0] == target:
                return i
        return 0
    if kind == D_DISCARD_LIMIT or kind == D_ABILITY_DISCARD:
        choose_goal_nb(st, m, tb, ru, w, p)
        return extreme_card_nb(st, m, tb, w, n, 1, True)
    if kind == D_KEEP:
        choose_goal_nb(st, m, tb, ru, w, p)
        return extreme_card_nb(st, m, tb, w, n, 1, False)
    if kind == D_X:
        choose_goal_nb(st, m, tb, ru, w, p)
        junk = 0
        for i in range(st.hand_n[p]):
            if card_value_nb(m, tb, w, st.hand[p, i]) < w[W_JUNK]:
                junk += 1
        return min(junk, n - 1)
    if kind == D_NAME:
        best = 0
        best_v = -1.0
        for i in range(n):
            g = st.opt[i, 0]
            if tb.gem_power[g] == STANDARD and m.est[E_NEED, g] > best_v:
                best, best_v = i, m.est[E_NEED, g]
        return best
    if kind == D_SWAP or kind == D_MOVE_ANY:
        if kind == D_MOVE_ANY and m.sc[M_PLAN_ROOM] >= 0:
            for i in range(n):
                if st.opt[i, 0] == m.sc[M_PLAN_ROOM]:
                    return i
        best = 0
        best_v = -1
        for i in range(n):
            room = st.pos[st.opt[i, 0]] if kind == D_SWAP else st.opt[i, 0]
            v = frontier_doors_at_nb(m, room)
            if v > best_v:
                best, best_v = i, v
        return best
    if kind == D_BURN:
        k = dead_hand_nb(st, tb, ru, n, p)
        if k >= 0:
            return k
    if kind == D_VOL_DISCARD or kind == D_BURN:  # past greedy_quick_nb: from a hand
        choose_goal_nb(st, m, tb, ru, w, p)
        return extreme_card_nb(st, m, tb, w, n, 2, True)
    return 0


def ability_values(tables) -> np.ndarray:
    """Expected net cards an ability puts in hand, from its program and the deck's make-up."""
    n_cards = len(tables.card_deck)
    counts = tables.card_count[tables.card_deck]  # (n_cards, G)
    freq = (counts > 0).mean(axis=0) if n_cards else np.zeros(counts.shape[1])
    best_gem = float(freq.max()) if len(freq) else 0.0
    values = np.zeros(len(tables.room_kind))
    for rt in range(len(tables.room_kind)):
        pool = 0.0
        gain = 0.0
        for i in range(int(tables.prog_len[rt])):
            op, n, fk, mask = (int(v) for v in tables.prog[rt, i])
            n = 1 if n < 0 else n  # X: valued per unit
            if fk == F_GEMS:
                p = float(sum(freq[g] for g in range(len(freq)) if (mask >> g) & 1))
            elif fk == F_NAMED:
                p = best_gem
            else:
                p = 1.0
            p = min(p, 1.0)
            if op == DRAW:
                gain += n
            elif op == REVEAL:
                pool += n
            elif op == DIG:
                if tables.prog_has_keep[rt]:
                    pool += n
                else:
                    gain += n
            elif op == KEEP_ALL:
                kept = pool * (p if fk != F_ANY else 1.0)
                gain += kept
                pool -= kept
            elif op == KEEP_N:
                kept = min(float(n), pool)
                gain += kept
                pool -= kept
            elif op == DISCARD:
                gain -= n * 0.9  # a discard also sharpens the hand
        values[rt] = gain
    return values


def weights(tables, values) -> np.ndarray:
    """A greedy seat's weights (w): its knob values in the W_ order, then the static value of
    each room type's ability for this content."""
    return np.concatenate([np.array(values, np.float64), ability_values(tables)])
