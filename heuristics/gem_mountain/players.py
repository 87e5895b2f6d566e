"""Gem Mountain's own player, beside the neutral random and scripted ones: a compiled decision
function that the generated dispatch calls with the arguments its roster entry names
(registry.py).

The majority player values a tile by what it does to the standings: the points its seat would
score in the tile's colour if the game ended now, after the grab against before, less `rival`
times the change it makes to the others' points (on average), plus `potential` times the
tile's value (a gem held now can still swing a colour later); an action tile is worth
`action`. Its actions follow from the same values: Double whenever it may (a second grab is
another good tile), Swap when the best tile anywhere beats the top's best by `swap_gain`, Move
the Arrow when another position's top does by `arrow_gain`, Steal when the best theft is worth
`steal_at`, and Arrow Lock when the arrow's turn would hand the next player a tile better by
`lock_at` than the lock leaves it.

Speed (the issue asks 30,000 games a second at 4 players): a decision weighs the same tile
codes many times (each cell of the mountain for Swap, each position's top for Move the Arrow,
a colour's standing for every theft in it), so the deciding seat's value of each code, and its
standing in each colour, are computed once a decision and kept in the player's memory
(`new_values`; `keep` false for another seat's values, the next player's under Arrow Lock).
Measured paired against the uncached player (`balance bench --against`): 3% from the codes'
values, 3% more from the colours' standings. Scoring written out for one seat and the work
handed only the arrays it reads, tried too, read 10% slower (LLVM pastes the rules' scoring
here as it is), and were left out.

With Dark Tunnels (the rules' dark_nb.py) it values a tile as its seat knows it: a face-down
tile it has not seen at the mean of its values over the tiles the seat cannot place (the box
less every tile it knows of: hands, piles, discards, the mountain's it has seen), a Trash at
its points, a Multiplier at what it would add to the seat's best pile now. Its new actions,
each by one rule: it lays a Multiplier on its best pile as soon as that pile scores (the end
may come unseen, and a Multiplier still in hand scores nothing); it lights a line when two or
more tiles of the top are unknown to it (a blind grab made an informed one); it adds the second
arrow when the top the second would show beats its best by `arrow_gain`, as Move the Arrow; it
ransacks when the best tile next to a face-up one beats its best grab by `swap_gain`, as Swap;
it bombs after its grab whenever it may (the next seat loses a turn), the square holding most
of the tiles the next grab will choose among. Its information step looks at the unknown tile
nearest the top its own next turn will face, and turns up the one farthest from the next
seat's top (what it shows all helps the next seat least)."""

import numpy as np

from balance.games.gem_mountain.codes import (
    ALL_CODES,
    ARROW2,
    BLAST,
    BOMB,
    CREDIT,
    DIVIDED0,
    FLASHLIGHT,
    HIDE,
    LAY,
    LIGHT,
    LIGHTBULB,
    LOOK,
    MULTIPLIER,
    OWNER,
    RANSACK,
    REVEAL,
    ROTATE_BOARD,
    ROTATE_CELL_AT,
    ROTATE_GRABBED,
    ROTATE_HELD_AT,
    RUMBLE,
    RUMBLE_FROM,
    SECOND_ARROW,
    SIDES,
    TELEPORT_ARROW,
    TELEPORT_AT,
    TELEPORTS,
    TRASH,
    TRUE_SIDE,
    UNSEEN,
    USE_X,
    WILD,
    WILD_AT,
    WILD_SLOT,
)
from balance.games.gem_mountain.dark_nb import neighbour_nb
from balance.games.gem_mountain.rules_nb import (
    ACT0,
    ARROW,
    ARROW_LOCK,
    DOUBLE,
    EMPTY,
    GRAB,
    GRAB_SIDE,
    GRABBED_NOW,
    MAX_COLOURS,
    MOVE_ARROW,
    PLACE,
    POSITIONS,
    PUT_DOWN,
    STEAL,
    STEAL_FROM,
    SWAP,
    SWAP_FROM,
    SWAP_TO,
    TURN,
    USE,
    VALUES,
    colour_points_nb,
    quarter_nb,
    steal_top_nb,
    top_nb,
)
from balance.games.gem_mountain.shards_nb import FACING
from balance.kernels.jit import njit

RIVAL, POTENTIAL, ACTION, ARROW_GAIN, SWAP_GAIN, STEAL_AT, LOCK_AT = range(7)
NONE = -1e18
# The memory: the deciding seat's value of each tile code, then its standing in each colour,
# then (Dark Tunnels) a face-down tile's expected value, UNKNOWN until the decision first
# needs it (no value comes near it).
BEFORE = ALL_CODES
EXPECT = BEFORE + MAX_COLOURS
SLOTS = EXPECT + 1
UNKNOWN = 1e300


def new_values(tables, players) -> np.ndarray:
    """The player's memory: one decision's values, shared by its seats (one decides at a
    time)."""
    return np.full(SLOTS, UNKNOWN)


@njit
def forget_nb(mem):
    """A decision (or a game) starts: no value is known."""
    for j in range(SLOTS):
        mem[j] = UNKNOWN


@njit(inline=True)
def standing_nb(cnt, vsum, ru, p, k, w, out):
    """Seat p's points in colour k, less `rival` times the others' on average."""
    colour_points_nb(cnt, vsum, ru, k, out, 1)
    # Summed as integers (exact either way: the same value as a sum of floats), converted once.
    others = 0
    for q in range(ru.players):
        others += out[q]
    others -= out[p]
    return out[p] - w[RIVAL] * float(others) / max(ru.players - 1, 1)


@njit(inline=True)
def before_nb(cnt, vsum, ru, p, k, w, out, mem, keep):
    """Seat p's standing in colour k as it is (kept for the deciding seat)."""
    if keep and mem[BEFORE + k] != UNKNOWN:
        return mem[BEFORE + k]
    b = standing_nb(cnt, vsum, ru, p, k, w, out)
    if keep:
        mem[BEFORE + k] = b
    return b


@njit(inline=True)
def moved_nb(cnt, vsum, q, code, n):
    """n gems of `code` (n may be -1) counted for seat q: the standings' part of gain_nb,
    on the arrays alone (a call passing the whole state is dear)."""
    k = code // VALUES
    cnt[q, k] += n
    vsum[q, k] += n * (code % VALUES + 1)


@njit
def tile_value_nb(cnt, vsum, ru, p, code, w, out, mem, keep):
    """What holding one more tile of `code` is worth to seat p now (kept when `keep`: p is
    the deciding seat)."""
    if code < 0:
        return mem[EXPECT]  # UNSEEN: the deciding seat's expectation (expected_nb)
    if code >= ACT0:
        # Trash and a Multiplier: valued once a decision by expected_nb, so that no call
        # weighs on this, the player's hottest function; every other action tile (Gemshards'
        # and Golden Actions' too, whose codes lie past the memory's slots) is worth `action`.
        return mem[code] if TRASH <= code < ALL_CODES else w[ACTION]
    if keep and mem[code] != UNKNOWN:
        return mem[code]
    k = code // VALUES
    before = before_nb(cnt, vsum, ru, p, k, w, out, mem, keep)
    moved_nb(cnt, vsum, p, code, 1)
    after = standing_nb(cnt, vsum, ru, p, k, w, out)
    moved_nb(cnt, vsum, p, code, -1)
    v = after - before + w[POTENTIAL] * (code % VALUES + 1)
    if keep:
        mem[code] = v
    return v


@njit
def multiplier_value_nb(cnt, vsum, ru, p, out):
    """What a Multiplier adds now: its factor on seat p's best-scoring pile."""
    best = 0.0
    for k in range(ru.colours):
        colour_points_nb(cnt, vsum, ru, k, out, 1)
        if out[p] > best:
            best = out[p]
    return (ru.multiply_by - 1) * best


@njit
def expected_nb(st, tb, ru, p, w, out, mem):
    """A face-down tile seat p has not seen, valued at the mean of its values over the tiles
    it cannot place: the box less the hands, the piles' Multipliers, the tiles out of the game
    and the mountain's tiles it knows (the kit's redraw keeps that multiset: a world the seat
    cannot tell apart gives the same mean). Trash and a Multiplier valued first."""
    mem[TRASH] = ru.trash_points
    mem[MULTIPLIER] = multiplier_value_nb(st.cnt, st.vsum, ru, p, out)
    total, n = 0.0, 0
    for code in range(ALL_CODES):
        left = tb.census[code] - st.gone[code]
        for q in range(ru.players):
            left -= st.hand[q, code]
        if code == MULTIPLIER:
            for q in range(ru.players):
                for k in range(MAX_COLOURS):
                    left -= st.mult[q, k]
        for i in range(st.grid.shape[0]):
            if st.grid[i] == code and st.seen[p, i]:
                left -= 1
        if left > 0:
            total += left * tile_value_nb(st.cnt, st.vsum, ru, p, code, w, out, mem, True)
            n += left
    mem[EXPECT] = total / n if n > 0 else 0.0


@njit
def theft_value_nb(cnt, vsum, ru, p, q, code, w, out, mem):
    """What taking a tile of `code` from seat q is worth to seat p."""
    if code >= ACT0:
        return w[ACTION]
    k = code // VALUES
    before = before_nb(cnt, vsum, ru, p, k, w, out, mem, True)
    moved_nb(cnt, vsum, q, code, -1)
    moved_nb(cnt, vsum, p, code, 1)
    after = standing_nb(cnt, vsum, ru, p, k, w, out)
    moved_nb(cnt, vsum, p, code, -1)
    moved_nb(cnt, vsum, q, code, 1)
    return after - before + w[POTENTIAL] * (code % VALUES + 1)


@njit
def top_value_nb(grid, layer, order, cnt, vsum, ru, p, w, out, mem, keep):
    """The best tile for seat p at the top seen along `layer` (one arrow position's row of
    Tables.layer, its cells nearest first in `order`): its value. The cells are read from the
    nearest to the first past the top, not the whole mountain twice (the player's dearest
    loop: up to seven positions a decision). The arrays alone: a call passing the whole state
    is dear."""
    top = -1
    best = NONE
    for j in range(order.shape[0]):
        i = order[j]
        if grid[i] == EMPTY:
            continue
        if top < 0:
            top = layer[i]
        elif layer[i] != top:
            break
        v = tile_value_nb(cnt, vsum, ru, p, grid[i], w, out, mem, keep)
        if v > best:
            best = v
    return best


@njit(inline=True)
def best_at_nb(st, tb, ru, me, p, pos, w, out, mem, keep):
    """The best tile's value for seat p at the top seen from arrow position pos, as the
    deciding seat `me` knows the tiles."""
    if ru.dark_tunnels:
        return dark_top_value_nb(st.grid, st.seen, me, tb.layer[pos], st.cnt, st.vsum, ru, p,
                                  w, out, mem, keep)
    return top_value_nb(st.grid, tb.layer[pos], tb.order[pos], st.cnt, st.vsum, ru, p, w, out,
                        mem, keep)


@njit
def best_theft_nb(st, ru, p, w, out, mem):
    """The best theft for seat p: (value, victim, code); value NONE when there is none."""
    top = steal_top_nb(st, ru)
    best, bq, bc = NONE, -1, -1
    for q in range(ru.players):
        if q == p:
            continue
        for code in range(top):
            if st.hand[q, code] > 0:
                v = theft_value_nb(st.cnt, st.vsum, ru, p, q, code, w, out, mem)
                if v > best:
                    best, bq, bc = v, q, code
    return best, bq, bc


@njit
def best_anywhere_nb(st, tb, ru, p, w, out, mem):
    """The best tile for seat p anywhere on the mountain: (value, cell)."""
    best, at = NONE, -1
    for i in range(st.grid.shape[0]):
        if st.grid[i] != EMPTY:
            code = st.grid[i] if st.seen[p, i] else UNSEEN
            v = tile_value_nb(st.cnt, st.vsum, ru, p, code, w, out, mem, True)
            if v > best:
                best, at = v, i
    return best, at


@njit(inline=True)
def find_nb(opt, n, kind, a):
    for i in range(n):
        if opt[i, 0] == kind and opt[i, 1] == a:
            return i
    return -1


# Pasted into its one caller: a call passing the state pushed some 300 words, 6% of a game.
@njit(inline=True)
def turn_choice_nb(st, tb, ru, w, n, p, out, mem):
    opt = st.kit.opt
    if ru.dark_tunnels:
        i = lay_nb(st, ru, n, p, out)
        if i >= 0:
            return i
    best, pick, grabs = NONE, 0, 0
    for i in range(n):
        if opt[i, 0] == GRAB:
            grabs += 1
            v = tile_value_nb(st.cnt, st.vsum, ru, p, opt[i, 2], w, out, mem, True)
            if v > best:
                best, pick = v, i
    if grabs > 0 and st.ph[GRABBED_NOW] == 0:
        i = find_nb(opt, n, USE, DOUBLE)
        if i >= 0:
            return i
        i = find_nb(opt, n, USE, SWAP)
        if i >= 0 and best_anywhere_nb(st, tb, ru, p, w, out, mem)[0] - best >= w[SWAP_GAIN]:
            return i
        i = find_nb(opt, n, USE, MOVE_ARROW)
        if i >= 0:
            for pos in range(POSITIONS):
                if pos != st.arrow[0] and best_at_nb(st, tb, ru, p, p, pos, w, out, mem,
                                                     True) - best >= w[ARROW_GAIN]:
                    return i
        if ru.dark_tunnels:
            i = dark_before_grab_nb(st, tb, ru, w, n, p, out, mem, best)
            if i >= 0:
                return i
    i = find_nb(opt, n, USE, STEAL)
    if i >= 0 and best_theft_nb(st, ru, p, w, out, mem)[0] >= w[STEAL_AT]:
        return i
    if grabs == 0:
        i = find_nb(opt, n, USE, ARROW_LOCK)
        if i >= 0:
            nq = (p + 1) % ru.players
            here, turned = st.arrow[0], (st.arrow[0] + 2) % POSITIONS
            keep = turned if st.arrow[1] else here  # where the lock would leave it
            move = here if st.arrow[1] else turned  # where it goes without
            if best_at_nb(st, tb, ru, p, nq, move, w, out, mem, False) - \
                    best_at_nb(st, tb, ru, p, nq, keep, w, out, mem, False) >= w[LOCK_AT]:
                return i
        if ru.dark_tunnels:
            i = find_nb(opt, n, USE, BOMB)
            if i >= 0:
                return i
        for j in range(n):
            if opt[j, 0] != USE and opt[j, 0] != LAY:
                return j
    return pick


@njit
def majority_choose_nb(kind, st, tb, ru, w, n, p, mem):
    """The majority player's pick (module doc)."""
    out = st.pts  # the rules' scratch: compiled code allocates nothing
    opt = st.kit.opt
    forget_nb(mem)
    if ru.dark_tunnels:
        expected_nb(st, tb, ru, p, w, out, mem)
        if LOOK <= kind < ROTATE_HELD_AT:  # Gemshards' decisions follow Dark's
            return dark_choice_nb(kind, st, tb, ru, w, n, p, out, mem)
    if (ru.gemshards or ru.golden_actions) and (kind == TURN or kind >= ROTATE_HELD_AT):
        return x_choice_nb(kind, st, tb, ru, w, n, p, out, mem)
    if kind == TURN:
        return turn_choice_nb(st, tb, ru, w, n, p, out, mem)
    if kind == ARROW or kind == PLACE:
        best, pick = NONE, 0
        for i in range(n):
            v = best_at_nb(st, tb, ru, p, p, opt[i, 1], w, out, mem, True)
            if v > best:
                best, pick = v, i
        return pick
    if kind == SWAP_FROM:
        top = top_nb(st, tb, st.arrow[0])
        best, pick = NONE, 0
        for i in range(n):
            cell = opt[i, 1]
            if tb.layer[st.arrow[0], cell] != top:
                v = tile_value_nb(st.cnt, st.vsum, ru, p, opt[i, 2], w, out, mem, True)
                if v > best:
                    best, pick = v, i
        return pick
    if kind == SWAP_TO:
        top = top_nb(st, tb, st.arrow[0])
        worst, pick = -NONE, 0
        for i in range(n):
            cell = opt[i, 1]
            if opt[i, 0] == PUT_DOWN and st.grid[cell] != EMPTY and \
                    tb.layer[st.arrow[0], cell] == top:
                v = tile_value_nb(st.cnt, st.vsum, ru, p, opt[i, 2], w, out, mem, True)
                if v < worst:
                    worst, pick = v, i
        return pick
    if kind == STEAL_FROM:
        best, pick = NONE, 0
        for i in range(n):
            v = theft_value_nb(st.cnt, st.vsum, ru, p, opt[i, 1], opt[i, 2], w, out, mem)
            if v > best:
                best, pick = v, i
        return pick
    return 0


# -- Dark Tunnels (module doc) ----------------------------------------------------------------

@njit
def lay_nb(st, ru, n, p, out):
    """The option laying a Multiplier on seat p's best-scoring pile, when one scores; -1."""
    opt = st.kit.opt
    best, pick = 0, -1
    for i in range(n):
        if opt[i, 0] == LAY:
            colour_points_nb(st.cnt, st.vsum, ru, opt[i, 1], out, 1)
            if out[p] > best:
                best, pick = out[p], i
    return pick


@njit
def raid_value_nb(st, ru, p, w, out, mem, up):
    """The best tile next to face-up cell `up` for seat p, as it knows them; none it may
    not take."""
    best = NONE
    for d in range(4):
        j = neighbour_nb(ru, up, d)
        if j >= 0 and st.grid[j] != EMPTY:
            code = st.grid[j] if st.seen[p, j] else UNSEEN
            if not (0 <= code < ACT0 and st.mult[p, code // VALUES] > 0):
                v = tile_value_nb(st.cnt, st.vsum, ru, p, code, w, out, mem, True)
                if v > best:
                    best = v
    return best


@njit
def dark_before_grab_nb(st, tb, ru, w, n, p, out, mem, best):
    """The expansion's action to use before the grab, by its rule (module doc), or -1."""
    opt = st.kit.opt
    i = find_nb(opt, n, USE, RANSACK)
    if i >= 0:
        for up in range(st.grid.shape[0]):
            if st.grid[up] != EMPTY and not st.dark[up] and \
                    raid_value_nb(st, ru, p, w, out, mem, up) - best >= w[SWAP_GAIN]:
                return i
    i = find_nb(opt, n, USE, LIGHTBULB)
    if i >= 0:
        blind = 0
        for j in range(n):
            if (opt[j, 0] == GRAB or opt[j, 0] == GRAB_SIDE) and opt[j, 2] == UNSEEN:
                blind += 1
        if blind >= 2:
            return i
    i = find_nb(opt, n, USE, SECOND_ARROW)
    if i >= 0 and st.dk[ARROW2] < 0:
        there = (st.arrow[0] + POSITIONS // 2) % POSITIONS
        if best_at_nb(st, tb, ru, p, p, there, w, out, mem, True) - best >= w[ARROW_GAIN]:
            return i
    return -1


@njit
def dark_choice_nb(kind, st, tb, ru, w, n, p, out, mem):
    """The targets of the expansion's decisions, by the rules of the module doc."""
    opt = st.kit.opt
    here = st.arrow[0]
    turned = here if st.arrow[1] else (here + 2) % POSITIONS
    if kind == LOOK or kind == REVEAL:
        # Its own next turn faces the arrow after every seat's turn; the next seat's, after
        # this one's.
        mine = here if st.arrow[1] else (here + 2 * ru.players) % POSITIONS
        at = tb.layer[mine] if kind == LOOK else tb.layer[turned]
        pick, score = 0, 1 << 30
        for i in range(n):
            s = at[opt[i, 1]] if kind == LOOK else -at[opt[i, 1]]
            if s < score:
                pick, score = i, s
        return pick
    if kind == LIGHT:
        top = top_nb(st, tb, here)
        pick, score = 0, -1
        for i in range(n):
            blind = 0
            for y in range(ru.cols if opt[i, 2] == 0 else ru.rows):
                c = opt[i, 1] * ru.cols + y if opt[i, 2] == 0 else y * ru.cols + opt[i, 1]
                if st.grid[c] != EMPTY and not st.seen[p, c] and tb.layer[here, c] == top:
                    blind += 1
            s = 100 * blind + opt[i, 3]
            if s > score:
                pick, score = i, s
        return pick
    if kind == BLAST:
        top = top_nb(st, tb, turned)
        pick, score = 0, -1
        for i in range(n):
            at = 0
            for d in range(4):
                c = opt[i, 1] + (d // 2) * ru.cols + d % 2
                if st.grid[c] != EMPTY and tb.layer[turned, c] == top:
                    at += 1
            s = 10 * at + opt[i, 2]
            if s > score:
                pick, score = i, s
        return pick
    best, pick = NONE, 0
    for i in range(n):
        if kind == HIDE:
            v = raid_value_nb(st, ru, p, w, out, mem, opt[i, 1])
        else:  # RAID
            v = tile_value_nb(st.cnt, st.vsum, ru, p, opt[i, 2], w, out, mem, True)
        if v > best:
            best, pick = v, i
    return pick


@njit
def dark_top_value_nb(grid, seen, me, layer, cnt, vsum, ru, p, w, out, mem, keep):
    """top_value_nb with each tile as the deciding seat `me` knows it."""
    top = 1 << 30
    for i in range(grid.shape[0]):
        if grid[i] != EMPTY and layer[i] < top:
            top = layer[i]
    best = NONE
    for i in range(grid.shape[0]):
        if grid[i] != EMPTY and layer[i] == top:
            code = grid[i] if seen[me, i] else UNSEEN
            v = tile_value_nb(cnt, vsum, ru, p, code, w, out, mem, keep)
            if v > best:
                best = v
    return best


# -- Gemshards and Golden Actions -------------------------------------------------------------
# The same values, and the base game's thresholds: Teleport Arrow as Move the Arrow (a top
# better by `arrow_gain`), Rotate Board, Rumble and the Flashlight as Swap (a tile better by
# `swap_gain` brought within reach), Rotate Grabbed when the better section is worth more than
# the action tile it spends (`action`); a Wildcard joins the pile it is worth most in.

@njit(inline=True)
def wild_nb(st):
    """A Wildcard's value less one (State.sh keeps the rules' there)."""
    return st.sh[st.sh.shape[0] - 1, WILD_SLOT]


@njit(cold=True)
def grab_value_nb(cnt, vsum, ru, p, code, w, out, mem, keep, wild):
    """tile_value_nb's, for any code a grab may take: a Wildcard (worth wild + 1) is worth
    its best pile."""
    if code != WILD:
        return tile_value_nb(cnt, vsum, ru, p, code, w, out, mem, keep)
    best = NONE
    for k in range(ru.colours):
        if cnt[p, k] > 0:
            v = tile_value_nb(cnt, vsum, ru, p, k * VALUES + wild, w, out, mem, keep)
            if v > best:
                best = v
    return best


@njit
def cell_value_nb(st, ru, p, cell, pos, w, out, mem):
    """What grabbing the tile at `cell` with the arrow at pos is worth: a divided tile's
    best section facing it."""
    code = st.grid[cell]
    if ru.dark_tunnels and not st.seen[p, cell]:
        return mem[EXPECT]  # a face-down tile it has not seen (expected_nb)
    if code < DIVIDED0:
        return grab_value_nb(st.cnt, st.vsum, ru, p, code, w, out, mem, True, wild_nb(st))
    d = code - DIVIDED0
    best = NONE
    for j in range(2):
        e = FACING[pos, j]
        if e >= 0:
            v = grab_value_nb(st.cnt, st.vsum, ru, p, st.sh[d, e], w, out, mem, True,
                              wild_nb(st))
            if v > best:
                best = v
    return best


@njit
def reach_value_nb(st, tb, ru, p, pos, deep, w, out, mem):
    """The best grab from arrow position pos, `deep` layers below the top included."""
    layer = tb.layer[pos]
    top = 1 << 30
    for i in range(st.grid.shape[0]):
        if st.grid[i] != EMPTY and layer[i] < top:
            top = layer[i]
    best = NONE
    for i in range(st.grid.shape[0]):
        if st.grid[i] != EMPTY and top <= layer[i] <= top + deep:
            v = cell_value_nb(st, ru, p, i, pos, w, out, mem)
            if v > best:
                best = v
    return best


@njit
def turned_value_nb(st, ru, p, cell, t, w, out, mem):
    """The best section facing the arrow of the divided tile at `cell` turned t quarters."""
    d = st.grid[cell] - DIVIDED0
    best = NONE
    for j in range(2):
        e = FACING[st.arrow[0], j]
        if e >= 0:
            v = grab_value_nb(st.cnt, st.vsum, ru, p, st.sh[d, (e - t) % SIDES], w, out, mem,
                              True, wild_nb(st))
            if v > best:
                best = v
    return best


@njit
def rotation_gain_nb(st, ru, p, d, code, w, out, mem):
    """What turning held tile d to count as `code` gains: the two compared with neither
    held (the values computed afresh: the hand is not the decision's)."""
    old = st.sh[d, CREDIT]
    cnt, vsum = st.cnt, st.vsum
    if 0 <= old < ACT0:
        moved_nb(cnt, vsum, p, old, -1)
    was = grab_value_nb(cnt, vsum, ru, p, old, w, out, mem, False, wild_nb(st)) \
        if old >= 0 else 0.0
    now = grab_value_nb(cnt, vsum, ru, p, code, w, out, mem, False, wild_nb(st))
    if 0 <= old < ACT0:
        moved_nb(cnt, vsum, p, old, 1)
    return now - was


@njit
def best_rotation_nb(st, ru, p, w, out, mem):
    """The best gain of turning one of p's divided tiles to another section."""
    best = NONE
    for d in range(st.sh.shape[0] - 1):
        if st.sh[d, OWNER] != p:
            continue
        for e in range(SIDES):
            if e != st.sh[d, TRUE_SIDE]:
                v = rotation_gain_nb(st, ru, p, d, st.sh[d, e], w, out, mem)
                if v > best:
                    best = v
    return best


@njit(cold=True)
def x_turn_nb(st, tb, ru, w, n, p, out, mem, grabs, best):
    """The expansions' actions in a turn (section comment): the option, or -1."""
    opt = st.kit.opt
    pos = st.arrow[0]
    if grabs > 0:
        i = find_nb(opt, n, USE_X, FLASHLIGHT)
        if i >= 0 and reach_value_nb(st, tb, ru, p, pos, 1, w, out, mem) - best >= w[SWAP_GAIN]:
            return i
        i = find_nb(opt, n, USE_X, TELEPORT_ARROW)
        if i >= 0:
            for q in range(TELEPORTS):
                if q != pos and reach_value_nb(st, tb, ru, p, q, 0, w, out, mem) - best >= \
                        w[ARROW_GAIN]:
                    return i
        i = find_nb(opt, n, USE_X, ROTATE_BOARD)
        if i >= 0:
            top = top_nb(st, tb, pos)
            for c in range(st.grid.shape[0]):
                if st.grid[c] >= DIVIDED0 and not st.dark[c] and tb.layer[pos, c] == top:
                    for t in range(1, SIDES):
                        if turned_value_nb(st, ru, p, c, t, w, out, mem) - best >= w[SWAP_GAIN]:
                            return i
        i = find_nb(opt, n, USE_X, RUMBLE)
        if i >= 0 and best_anywhere_nb(st, tb, ru, p, w, out, mem)[0] - best >= w[SWAP_GAIN]:
            return i
    i = find_nb(opt, n, USE_X, ROTATE_GRABBED)
    if i >= 0 and best_rotation_nb(st, ru, p, w, out, mem) >= w[ACTION]:
        return i
    return -1


@njit(cold=True)
def x_turn_choice_nb(st, tb, ru, w, n, p, out, mem):
    """turn_choice_nb's, with the expansions on: a divided tile's side and a Wildcard among
    the grabs, and their actions (a copy, not a branch in it: the base game's decisions stay
    as LLVM compiled them before, and as fast)."""
    opt = st.kit.opt
    if ru.dark_tunnels:
        i = lay_nb(st, ru, n, p, out)
        if i >= 0:
            return i
    best, pick, grabs = NONE, 0, 0
    for i in range(n):
        if opt[i, 0] == GRAB or opt[i, 0] == GRAB_SIDE:
            grabs += 1
            v = grab_value_nb(st.cnt, st.vsum, ru, p, opt[i, 2], w, out, mem, True, wild_nb(st))
            if v > best:
                best, pick = v, i
    if grabs > 0 and st.ph[GRABBED_NOW] == 0:
        i = find_nb(opt, n, USE, DOUBLE)
        if i >= 0:
            return i
        i = find_nb(opt, n, USE, SWAP)
        if i >= 0 and best_anywhere_nb(st, tb, ru, p, w, out, mem)[0] - best >= w[SWAP_GAIN]:
            return i
        i = find_nb(opt, n, USE, MOVE_ARROW)
        if i >= 0:
            for pos in range(POSITIONS):
                if pos != st.arrow[0] and best_at_nb(st, tb, ru, p, p, pos, w, out, mem,
                                                     True) - best >= w[ARROW_GAIN]:
                    return i
        if ru.dark_tunnels:
            i = dark_before_grab_nb(st, tb, ru, w, n, p, out, mem, best)
            if i >= 0:
                return i
    i = find_nb(opt, n, USE, STEAL)
    if i >= 0 and best_theft_nb(st, ru, p, w, out, mem)[0] >= w[STEAL_AT]:
        return i
    i = x_turn_nb(st, tb, ru, w, n, p, out, mem, grabs, best)
    if i >= 0:
        return i
    if grabs == 0:
        i = find_nb(opt, n, USE, ARROW_LOCK)
        if i >= 0:
            nq = (p + 1) % ru.players
            here, turned = st.arrow[0], quarter_nb(st.arrow[0])
            keep = turned if st.arrow[1] else here  # where the lock would leave it
            move = here if st.arrow[1] else turned  # where it goes without
            if best_at_nb(st, tb, ru, p, nq, move, w, out, mem, False) - \
                    best_at_nb(st, tb, ru, p, nq, keep, w, out, mem, False) >= w[LOCK_AT]:
                return i
        if ru.dark_tunnels:
            i = find_nb(opt, n, USE, BOMB)
            if i >= 0:
                return i
        for j in range(n):
            if opt[j, 0] != USE and opt[j, 0] != USE_X and opt[j, 0] != LAY:
                return j
    return pick


@njit(cold=True)
def x_choice_nb(kind, st, tb, ru, w, n, p, out, mem):
    """The expansions' decisions (section comment), a turn's among them."""
    if kind == TURN:
        return x_turn_choice_nb(st, tb, ru, w, n, p, out, mem)
    opt = st.kit.opt
    best, pick = NONE, 0
    for i in range(n):
        if kind == TELEPORT_AT:
            v = reach_value_nb(st, tb, ru, p, opt[i, 1], 0, w, out, mem)
        elif kind == WILD_AT:
            v = tile_value_nb(st.cnt, st.vsum, ru, p, opt[i, 2], w, out, mem, True)
        elif kind == ROTATE_HELD_AT:
            v = rotation_gain_nb(st, ru, p, opt[i, 1], opt[i, 2], w, out, mem)
        elif kind == ROTATE_CELL_AT:
            c = opt[i, 1]
            v = NONE
            if tb.layer[st.arrow[0], c] == top_nb(st, tb, st.arrow[0]):
                v = turned_value_nb(st, ru, p, c, opt[i, 2], w, out, mem)
        elif kind == RUMBLE_FROM:
            v = cell_value_nb(st, ru, p, opt[i, 1], st.arrow[0], w, out, mem)
        else:
            v = -tb.layer[st.arrow[0], opt[i, 1]]  # the drop nearest the arrow
        if v > best:
            best, pick = v, i
    return pick
