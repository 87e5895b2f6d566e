"""The compiled part of `learned` (heuristics/gemrush/learned.py): the features of a tile
rotation's options and of a movement step's, and the decisions that score them with the
learned weights.

A rotation decides which doors a new tile opens, and so which hands can pay them before
its builder plays again: greedy weighs only its own hand and the doors' points
(greedy.pick_rotation_nb). The rotation features describe what each option leaves the team;
the step features, what kind of move each is and what greedy thinks of where it ends. Every
one reads what a seat at the table knows (the audit in learned.py): the mine, its own hand,
in Crisis the open hands of the team, the turn clock; never the deck, the room tiles to
come or, in Rush, another player's hand.
"""

from balance.games.gemrush.engine.decisions import (
    D_ROTATION,
    D_STEP,
    OPT_ABILITY,
    OPT_CART,
    OPT_DOOR,
    OPT_FREE,
    OPT_STOP,
    OPT_WARP_BUILD,
    OPT_WARP_MOVE,
)
from balance.games.gemrush.engine.mine_nb import step_xy_nb
from balance.games.gemrush.engine.payment_nb import door_covered_nb, hand_supply_nb
from balance.games.gemrush.engine.state import PL_ROT, PL_TYPE, PL_X, PL_Y, S_STEPS_LEFT
from balance.games.gemrush.engine.usable_nb import ability_usable_nb
from balance.games.gemrush.tables import ACTION, CRISIS, FREE, MOVEMENT, TUNNEL
from balance.kernels.jit import njit
from heuristics.gemrush.greedy import (
    W_DRAW,
    choose_goal_nb,
    frontier_doors_at_nb,
    greedy_choose_nb,
    pick_rotation_nb,
    plays_again_nb,
    refresh_frontier_nb,
    room_value_nb,
    turns_after_nb,
)
from heuristics.gemrush.memory import copy_memory_nb

# One column per feature, in the order of FEATURES (and of the weights).
(F_OPEN, F_POINTS, F_MAX_POINTS, F_MINE, F_MINE_POINTS, F_NOW, F_NEXT, F_NEXT_POINTS,
 F_LATER, F_NOBODY, F_JOINS, F_CONNECTS, F_WALLS, F_WALLED_POINTS, F_ROOM, F_TUNNEL_OPEN,
 F_LATE_PAID, F_NEXT_NEAR, F_GREEDY, N_FEATURES) = range(20)
FEATURES = (
    ("open", "new doors facing an empty cell"),
    ("points", "their points"),
    ("max_points", "the most points on one of them"),
    ("mine", "those the builder's hand can pay now"),
    ("mine_points", "their points"),
    ("now", "those the builder can pay now and still has a step to reach"),
    ("next", "those the next player's hand can pay now (Crisis: open hands; Rush: 0)"),
    ("next_points", "their points"),
    ("later", "those another player who plays again can pay now (Crisis; Rush: 0)"),
    ("nobody", "those no player who plays again can pay now (Rush: the builder's hand)"),
    ("joins", "new doors facing a built room"),
    ("connects", "doors of built rooms facing the new cell that meet a door of the tile"),
    ("walls", "doors of built rooms facing the new cell that meet a wall: closed for good"),
    ("walled_points", "their points"),
    ("room", "empty cells around the cells the open doors lead to: room to grow"),
    ("tunnel_open", "a tunnel whose far end faces an empty cell"),
    ("late_paid", "in the last two rounds of a public clock, points a player who plays "
     "again can pay"),
    ("next_near", "doors the next player can pay, less its distance to the tile / 4"),
    ("greedy", "greedy's choice (1) or not (0)"),
)
assert len(FEATURES) == N_FEATURES

# The features of a movement step's options (D_STEP), in the order of STEP_FEATURES.
(G_STOP, G_BUILD, G_MOVE, G_WARP_BUILD, G_ABILITY, G_SKILL, G_BUILD_POINTS, G_LATE_BUILD,
 G_DEST_VALUE, G_LATE_VALUE, G_LAST_VALUE, G_DEST_FRONT, G_STOP_STEPS, G_GREEDY,
 N_STEP_FEATURES) = range(15)
STEP_FEATURES = (
    ("stop", "ends the movement"),
    ("build", "builds a door of the room it stands in"),
    ("move", "moves to another room (a door, a mine cart, a Warpstone)"),
    ("warp_build", "builds with a Warpstone, for no step"),
    ("ability", "uses a movement or free room's ability"),
    ("skill", "uses a skill"),
    ("build_points", "the built door's points"),
    ("late_build", "those points, in the last two rounds of a public clock"),
    ("dest_value", "the worth of the ability where it ends (stopping: this room's), over a draw"),
    ("late_value", "that worth, in the last two rounds of a public clock"),
    ("last_value", "that worth, on the mover's last turn"),
    ("dest_front", "frontier doors of the room it ends in"),
    ("stop_steps", "steps left unused when it stops"),
    ("greedy", "greedy's choice (1) or not (0)"),
)
assert len(STEP_FEATURES) == N_STEP_FEATURES


@njit
def _pays(st, tb, q, rt, rot, side):
    hand_supply_nb(st, tb, q)
    return door_covered_nb(st, tb, rt, rot, side)


@njit
def rotation_features_nb(st, tb, ru, w, n, p, out):
    """out[i, :N_FEATURES] = the features of rotation option i of seat p (w: its greedy
    weights, for greedy's choice). Leaves the hand tally (st.gtmp) as greedy expects it:
    seat p's."""
    g = pick_rotation_nb(st, tb, ru, w, n, p)
    after = turns_after_nb(st, tb, ru)
    late = 0 <= after < 2 * ru.players
    crisis = ru.mode == CRISIS
    players = ru.players
    nxt = (p + 1) % players
    steps = st.sc[S_STEPS_LEFT]
    width = st.grid.shape[1]
    height = st.grid.shape[0]
    for i in range(n):
        for f in range(N_FEATURES):
            out[i, f] = 0.0
        rot, rt, entry, cell = st.opt[i, 0], st.opt[i, 1], st.opt[i, 2], st.opt[i, 3]
        x, y = cell % width, cell // width
        out[i, F_GREEDY] = 1.0 if i == g else 0.0
        for side in range(4):
            # A neighbour's door into this cell: met by an opening of the tile, or walled off.
            nx, ny = step_xy_nb(x, y, side)
            if side == entry or not (0 <= nx < width and 0 <= ny < height):
                continue
            j = st.grid[ny, nx]
            if j < 0:
                continue
            jt, jr, back = st.pl[PL_TYPE, j], st.pl[PL_ROT, j], (side + 2) % 4
            if tb.door[jt, jr, back]:
                if tb.door[rt, rot, side] or tb.tunnel_exit[rt, rot, side] >= 0:
                    out[i, F_CONNECTS] += 1.0
                else:
                    out[i, F_WALLS] += 1.0
                    out[i, F_WALLED_POINTS] += float(tb.door_points[jt, jr, back])
        if tb.room_kind[rt] == TUNNEL:
            ex = tb.tunnel_exit[rt, rot, entry]
            nx, ny = step_xy_nb(x, y, ex)
            if 0 <= nx < width and 0 <= ny < height and st.grid[ny, nx] < 0:
                out[i, F_TUNNEL_OPEN] = 1.0
            continue
        dist_next = 0.0
        if nxt != p:
            j = st.pos[nxt]
            dist_next = abs(st.pl[PL_X, j] - x) + abs(st.pl[PL_Y, j] - y)
        for side in range(4):
            if side == entry:
                continue
            nx, ny = step_xy_nb(x, y, side)
            if not (0 <= nx < width and 0 <= ny < height):
                continue
            if not tb.door[rt, rot, side]:
                continue
            if st.grid[ny, nx] >= 0:
                out[i, F_JOINS] += 1.0
                continue
            pts = float(tb.door_points[rt, rot, side])
            out[i, F_OPEN] += 1.0
            out[i, F_POINTS] += pts
            out[i, F_MAX_POINTS] = max(out[i, F_MAX_POINTS], pts)
            for s2 in range(4):
                ax, ay = step_xy_nb(nx, ny, s2)
                if 0 <= ax < width and 0 <= ay < height and st.grid[ay, ax] < 0 \
                        and not (ax == x and ay == y):
                    out[i, F_ROOM] += 0.25
            paid = False
            if _pays(st, tb, p, rt, rot, side):
                out[i, F_MINE] += 1.0
                out[i, F_MINE_POINTS] += pts
                if steps > 0:
                    out[i, F_NOW] += 1.0
                    paid = True
                elif plays_again_nb(ru, p, p, after) or after < 0:
                    paid = True
            if crisis:
                if nxt != p and _pays(st, tb, nxt, rt, rot, side):
                    out[i, F_NEXT] += 1.0
                    out[i, F_NEXT_POINTS] += pts
                    out[i, F_NEXT_NEAR] += 1.0 - dist_next / 4.0
                    if after < 0 or plays_again_nb(ru, p, nxt, after):
                        paid = True
                for q in range(players):
                    if q == p or q == nxt:
                        continue
                    if (after < 0 or plays_again_nb(ru, p, q, after)) \
                            and _pays(st, tb, q, rt, rot, side):
                        out[i, F_LATER] += 1.0
                        paid = True
                        break
            if paid and late:
                out[i, F_LATE_PAID] += pts
            if not paid:
                out[i, F_NOBODY] += 1.0
    hand_supply_nb(st, tb, p)
    return g


@njit
def _worth_nb(st, m, tb, ru, w, p, room):
    """What using this room's ability is worth to greedy now, over a draw (0: none to use)."""
    k = tb.room_kind[st.pl[PL_TYPE, room]]
    if k != ACTION and k != MOVEMENT and k != FREE:
        return 0.0
    if not ability_usable_nb(st, tb, ru, p, room):
        return 0.0
    return room_value_nb(st, m, tb, ru, w, p, room) - w[W_DRAW]


@njit
def step_features_nb(st, tb, ru, w, m, n, p, g, out):
    """out[i, :N_STEP_FEATURES] = the features of movement-step option i of seat p, whose
    greedy weights are w and greedy's choice g. m is a copy of greedy's memory as greedy left
    it at this decision: the features refresh its caches (the goal door, the reach) at
    moments greedy would not, and greedy's own memory must not see them."""
    refresh_frontier_nb(st, m, tb, w)
    choose_goal_nb(st, m, tb, ru, w, p)
    after = turns_after_nb(st, tb, ru)
    late = 0 <= after < 2 * ru.players
    last = after >= 0 and not plays_again_nb(ru, p, p, after)
    steps = st.sc[S_STEPS_LEFT]
    cur = st.pos[p]
    for i in range(n):
        for f in range(N_STEP_FEATURES):
            out[i, f] = 0.0
        out[i, G_GREEDY] = 1.0 if i == g else 0.0
        kind, a, b = st.opt[i, 0], st.opt[i, 1], st.opt[i, 2]
        dest = -1
        pts = -1.0
        if kind == OPT_STOP:
            out[i, G_STOP] = 1.0
            out[i, G_STOP_STEPS] = float(steps)
            dest = cur
        elif kind == OPT_DOOR and b < 0:
            out[i, G_BUILD] = 1.0
            pts = float(tb.door_points[st.pl[PL_TYPE, cur], st.pl[PL_ROT, cur], a])
        elif kind == OPT_DOOR or kind == OPT_CART or kind == OPT_WARP_MOVE:
            out[i, G_MOVE] = 1.0
            dest = b if kind != OPT_CART else a
        elif kind == OPT_WARP_BUILD:
            out[i, G_WARP_BUILD] = 1.0
            pts = float(tb.door_points[st.pl[PL_TYPE, a], st.pl[PL_ROT, a], b])
        elif kind == OPT_ABILITY or kind == OPT_FREE:
            out[i, G_ABILITY] = 1.0
        else:
            out[i, G_SKILL] = 1.0
        if pts >= 0:
            out[i, G_BUILD_POINTS] = pts
            out[i, G_LATE_BUILD] = pts if late else 0.0
        if dest >= 0:
            v = _worth_nb(st, m, tb, ru, w, p, dest)
            out[i, G_DEST_VALUE] = v
            out[i, G_LATE_VALUE] = v if late else 0.0
            out[i, G_LAST_VALUE] = v if last else 0.0
            out[i, G_DEST_FRONT] = float(frontier_doors_at_nb(m, dest))
    hand_supply_nb(st, tb, p)


@njit
def _best_nb(w, off, feats, n, nf, g):
    """The option whose features score most by w[off: off + nf]; greedy's choice g wins
    ties."""
    best = g
    best_v = -1e300
    for i in range(n):
        v = 0.0
        for f in range(nf):
            v += w[off + f] * feats[i, f]
        if v > best_v + 1e-9 or (abs(v - best_v) <= 1e-9 and i == g):
            best, best_v = i, v
    return best


@njit
def learned_step_nb(st, tb, ru, pp, mem, n, p):
    """The movement step whose features score most by the step weights (the last
    N_STEP_FEATURES of w). Greedy decides first, with its own memory, so that its plan goes
    on as greedy's; the features read a copy."""
    g = greedy_choose_nb(D_STEP, st, tb, ru, pp, pp.mem.greedy, n, p)
    w = pp.w[p]
    off = w.shape[0] - N_STEP_FEATURES
    weighted = False
    for f in range(N_STEP_FEATURES):
        weighted = weighted or w[off + f] != 0.0
    if not weighted:
        return g  # no step weights: greedy's step, without the features' cost
    copy_memory_nb(mem.scratch, pp.mem.greedy)
    step_features_nb(st, tb, ru, w, mem.scratch, n, p, g, mem.feats)
    return _best_nb(w, off, mem.feats, n, N_STEP_FEATURES, g)


@njit
def learned_rotation_nb(st, tb, ru, w, n, p, feats):
    """The rotation whose features score most by the rotation weights (before the step
    weights, at the end of w); greedy's choice wins ties."""
    g = rotation_features_nb(st, tb, ru, w, n, p, feats)
    return _best_nb(w, w.shape[0] - N_STEP_FEATURES - N_FEATURES, feats, n, N_FEATURES, g)


@njit
def learned_choose_nb(kind, st, tb, ru, pp, mem, n, p):
    """Greedy's choice, except at a tile rotation and a movement step: the learned
    scorers'."""
    if kind == D_ROTATION:
        return learned_rotation_nb(st, tb, ru, pp.w[p], n, p, mem.feats)
    if kind == D_STEP and n >= 2:
        return learned_step_nb(st, tb, ru, pp, mem, n, p)
    return greedy_choose_nb(kind, st, tb, ru, pp, pp.mem.greedy, n, p)


@njit
def reset_learned_nb(m):
    """Nothing to forget: both arrays are written before they are read, at each decision."""


@njit
def greedy_step_nb(st, tb, ru, pp, m, n, p):
    """Greedy's choice at a movement step with the memory m (train.py: a copy)."""
    return greedy_choose_nb(D_STEP, st, tb, ru, pp, m, n, p)
