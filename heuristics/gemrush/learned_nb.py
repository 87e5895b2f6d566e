"""The compiled part of `learned` (heuristics/gemrush/learned.py): the features of a tile
rotation's options, and the decision that scores them with the learned weights.

A rotation decides which doors a new tile opens, and so which hands can pay them before
its builder plays again: greedy weighs only its own hand and the doors' points
(greedy.pick_rotation_nb). These features describe what each option leaves the team. Every
one reads what a seat at the table knows (the audit in learned.py): the mine, its own hand,
in Crisis the open hands of the team, the turn clock; never the deck, the room tiles to
come or, in Rush, another player's hand.
"""

from balance.games.gemrush.engine.decisions import D_ROTATION
from balance.games.gemrush.engine.mine_nb import step_xy_nb
from balance.games.gemrush.engine.payment_nb import door_covered_nb, hand_supply_nb
from balance.games.gemrush.engine.state import PL_ROT, PL_TYPE, PL_X, PL_Y, S_STEPS_LEFT
from balance.games.gemrush.tables import CRISIS, TUNNEL
from balance.kernels.jit import njit
from heuristics.gemrush.greedy import (
    greedy_choose_nb,
    pick_rotation_nb,
    plays_again_nb,
    turns_after_nb,
)
from heuristics.gemrush.memory import copy_memory_nb, reset_memory_nb

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
def learned_rotation_nb(st, tb, ru, w, n, p, feats):
    """The option whose features score most by the learned weights (the last N_FEATURES of
    w); greedy's choice wins ties."""
    g = rotation_features_nb(st, tb, ru, w, n, p, feats)
    off = w.shape[0] - N_FEATURES
    best = g
    best_v = -1e300
    for i in range(n):
        v = 0.0
        for f in range(N_FEATURES):
            v += w[off + f] * feats[i, f]
        if v > best_v + 1e-9 or (abs(v - best_v) <= 1e-9 and i == g):
            best, best_v = i, v
    return best


@njit
def learned_choose_nb(kind, st, tb, ru, pp, mem, n, p):
    """Greedy's choice, except at a tile rotation: the learned scorer's."""
    if kind == D_ROTATION:
        return learned_rotation_nb(st, tb, ru, pp.w[p], n, p, mem.feats)
    return greedy_choose_nb(kind, st, tb, ru, pp, mem.greedy, n, p)


@njit
def reset_learned_nb(m):
    reset_memory_nb(m.greedy)


@njit
def copy_learned_nb(dst, src):
    """For a search's replay: greedy's caches and plan; the features are scratch."""
    copy_memory_nb(dst.greedy, src.greedy)
