"""Gemshards, Gem Mountain's expansion of divided tiles (rules_nb.py calls it through small hooks
when `Rules.gemshards` is on; the guide's games/gem-mountain.md states every reading).

A divided tile d lies on the mountain as the code DIVIDED0 + d; State.sh[d] holds its four
sections by edge, clockwise from the grid's up (up, right, down, left), as it lies now: a tile
in halves is cut along a diagonal (its edges A, B, B, A turned), one in quarters along both.
The grid turned to a diamond, its edges face the sides of the diamond (up NE, right SE, down SW,
left NW) and its corners the diamond's corners: an arrow at a side faces one section, one at a
corner the line between two (`FACING`), and the grabber chooses. The grabbed tile keeps the
section that faced the arrow (its true side, sh[d, TRUE_SIDE]); the hand counts it as that
section's code (sh[d, CREDIT]), so scoring, Steal and the players read hands as in the base
game. A Wildcard (code WILD, as a tile or a section) waits in the hand (hand[seat, WILD]) until
its grabber picks one of its piles for it; it is then a gem of that colour worth `wild_value`.

Teleport Arrow reaches sixteen positions: the eight, and the eight between them (8 + j between
j and j + 1), each facing the section of its nearer side; a quarter turn from one goes to
the one two further on (rules_nb.quarter_nb).

rules_nb.py imports this module: this one imports nothing of it (the layer contracts forbid a
cycle), so the hand's bookkeeping both need (gain_nb) lives here and rules_nb imports it."""

import numpy as np

from balance.games.gem_mountain.codes import (
    ACT0,
    BAD_GRAB,
    CONNECTED_SLOT,
    CREDIT,
    DISCARDED,
    DIVIDED0,
    EMPTY,
    GEMS_LEFT,
    GRAB_SIDE,
    GRABBED,
    GRABBED_NOW,
    GRABLESS,
    GRABS_DUE,
    HALVED_SLOT,
    JOIN,
    JOINED,
    LANDED,
    LIFTED,
    LIT_TURN,
    MAX_COLOURS,
    MULTIPLIER,
    OWNER,
    PENDING,
    PHASE,
    POINT,
    POSITIONS,
    ROTATE_BOARD,
    ROTATE_CELL,
    ROTATE_GRABBED,
    ROTATE_HELD,
    ROTATED,
    SH_COLS,
    SIDES,
    TELEPORT_ARROW,
    TELEPORTS,
    TILES_LEFT,
    TRASH,
    TRUE_SIDE,
    TURN,
    TURNED_TILE,
    VALUES,
    WILD,
    WILD_AT,
    WILD_END_SLOT,
    WILD_SLOT,
    expansions,
)
from balance.kernels.jit import njit
from balance.kit.nb import draw_nb, emit_nb, offer_nb

# The sections facing each arrow position (-1: none): a corner faces the line between two.
FACING = np.array([[0, 3], [0, -1], [0, 1], [1, -1], [1, 2], [2, -1], [2, 3], [3, -1],
                   [0, -1], [0, -1], [1, -1], [1, -1], [2, -1], [2, -1], [3, -1], [3, -1]],
                  np.int64)
NO_PENDING = -2  # sh[x, PENDING]: no Wildcard waits; -1: a Wildcard tile waits, d: tile d's
# The direction each position looks into the grid from (row, column): a layer is the sum of a
# cell's row and column weighed so, counted from the nearest cell.
DIRECTIONS = ((1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1))


# -- the box and the tables (Python) ----------------------------------------------------------

def divided(rules) -> int:
    x = expansions(rules)
    return x["halved"] + x["quartered"] if x["gemshards"] else 0


def extra_box(rules) -> list[int]:
    """Gemshards' tiles of the box: its actions, the Wildcards, then the divided tiles (last,
    so that their sections are drawn from the tiles before them)."""
    x = expansions(rules)
    box: list[int] = []
    for a, n in ((ROTATE_GRABBED, x["rotate_grabbed"]), (ROTATE_BOARD, x["rotate_board"]),
                 (TELEPORT_ARROW, x["teleport_arrow"])):
        box += [ACT0 + a] * n
    box += [WILD] * x["wildcard"]
    return box


def divided_box(rules) -> list[int]:
    return [DIVIDED0 + d for d in range(divided(rules))]


def teleport_layers(rules, layer: np.ndarray) -> np.ndarray:
    """The eight positions' layers, then the eight between them: a position between two looks
    along the sum of their directions, so its layers are the cells' weighed sums, counted from
    the nearest cell."""
    rows, cols = rules.rows, rules.cols
    out = np.zeros((TELEPORTS, rows * cols), np.int64)
    out[:POSITIONS] = layer
    r = np.repeat(np.arange(rows), cols)
    c = np.tile(np.arange(cols), rows)
    for j in range(POSITIONS):
        dr = DIRECTIONS[j][0] + DIRECTIONS[(j + 1) % POSITIONS][0]
        dc = DIRECTIONS[j][1] + DIRECTIONS[(j + 1) % POSITIONS][1]
        key = dr * r + dc * c
        out[POSITIONS + j] = key - key.min()
    return out


def new_sh(rules) -> np.ndarray:
    """State.sh, the rules' slots of its last row set (deal_nb resets the game's)."""
    x = expansions(rules)
    sh = np.zeros((divided(rules) + 1, SH_COLS), np.int64)
    sh[-1, HALVED_SLOT] = x["halved"]
    sh[-1, WILD_SLOT] = x["wild_value"] - 1
    sh[-1, CONNECTED_SLOT] = x["rumble_connected"]
    sh[-1, WILD_END_SLOT] = x["wild_joins"]
    return sh


# -- the hand ---------------------------------------------------------------------------------

@njit(inline=True)
def gain_nb(state, seat, code, n):
    """n tiles of `code` (n may be -1) into seat's hand. It lives here, not in rules_nb, which
    imports it: rules_nb imports this module, so this one cannot import rules_nb."""
    state.hand[seat, code] += n
    if code < ACT0:
        k = code // VALUES
        state.cnt[seat, k] += n
        state.vsum[seat, k] += n * (code % VALUES + 1)


@njit(inline=True)
def has_gem_nb(state, rules, seat, spare):
    """The seat holds a gem in a pile a Wildcard may join (none a Multiplier was laid on: Dark
    Tunnels), `spare` of them set aside."""
    n = 0
    for k in range(rules.colours):
        if state.mult[seat, k] == 0:
            n += state.cnt[seat, k]
    return n > spare


@njit(inline=True)
def xrow(state):
    return state.sh.shape[0] - 1


@njit(inline=True)
def going_nb(state, seat, code, spare):
    """The divided tile that leaves seat's hand with a tile of `code` when the hand keeps
    `spare` of that code's tiles and its divided tiles count for more: the last of them, or
    -1 (a plain tile leaves)."""
    held = 0
    last = -1
    for d in range(xrow(state)):
        if state.sh[d, OWNER] == seat and state.sh[d, CREDIT] == code:
            held += 1
            last = d
    return last if held > spare else -1


@njit(cold=True)
def let_go_nb(state, seat, code, to):
    """A tile of `code` left seat's hand (discarded, or stolen by `to`): when the hand now
    holds fewer than its divided tiles count as `code`, one of those is the tile that left."""
    d = going_nb(state, seat, code, state.hand[seat, code])
    if d >= 0:
        state.sh[d, OWNER] = to
        if to < 0:
            state.sh[d, CREDIT] = -1


# -- set-up and the mountain ------------------------------------------------------------------

@njit(cold=True)
def deal_nb(state, tables, rules):
    """Each divided tile's sections, drawn from the box's other tiles (every one but the
    divided ones, in their proportions), turned at random; nothing waits."""
    sh = state.sh
    nd = xrow(state)
    for d in range(nd):
        sections_nb(state, tables, d)
        sh[d, OWNER] = -1
        sh[d, TRUE_SIDE] = -1
        sh[d, CREDIT] = -1
    x = xrow(state)
    sh[x, :HALVED_SLOT] = 0
    sh[x, LIFTED] = -1
    sh[x, LANDED] = -1
    sh[x, LIT_TURN] = -1
    sh[x, PENDING] = NO_PENDING


@njit
def sections_nb(state, tables, d):
    """Divided tile d's sections drawn from the box's tiles before the divided ones (with
    Dark Tunnels, before its Trash and Multipliers too, which the box then puts last:
    mix_nb.sections_last), turned at random."""
    kit = state.kit
    sh = state.sh
    nd = xrow(state)
    plain = tables.box.shape[0] - nd - tables.census[TRASH] - tables.census[MULTIPLIER]
    a = tables.box[draw_nb(kit, plain)]
    b = tables.box[draw_nb(kit, plain)]
    if d < sh[nd, HALVED_SLOT]:
        sec = (a, b, b, a)
    else:
        sec = (a, b, tables.box[draw_nb(kit, plain)], tables.box[draw_nb(kit, plain)])
    t = draw_nb(kit, SIDES)
    for e in range(SIDES):
        sh[d, (e + t) % SIDES] = sec[e]


@njit(inline=True)
def holds_gem_nb(state, code):
    """A Gemshards tile (the Wildcard, a divided tile) counts as a gem on the mountain: the
    Wildcard, or a divided tile with a gem or Wildcard section."""
    if code == WILD:
        return True
    if code < DIVIDED0:
        return False
    d = code - DIVIDED0
    for e in range(SIDES):
        s = state.sh[d, e]
        if s < ACT0 or s == WILD:
            return True
    return False


@njit(inline=True)
def on_board_nb(state):
    """A divided tile whose sections differ (that a turn changes) lies face up on the
    mountain (Rotate Board turns no face-down tile: Dark Tunnels)."""
    for i in range(state.grid.shape[0]):
        if state.grid[i] >= DIVIDED0 and not state.dark[i]:
            d = state.grid[i] - DIVIDED0
            for e in range(1, SIDES):
                if state.sh[d, e] != state.sh[d, 0]:
                    return True
    return False


# -- grabs ------------------------------------------------------------------------------------

@njit(cold=True)
def offer_grabs_nb(state, tables, rules, kit, seat, top, deep, grab):
    """The grabs from layers top to top + deep (the Flashlight's): a plain tile of the top as
    the base game offers it (option `grab`), every other as GRAB_SIDE: a divided tile's
    section facing the arrow, each of two when the arrow faces the line between them, and a
    Wildcard only to a seat with a pile for it. How many were offered."""
    pos = state.arrow[0]
    layer = tables.layer[pos]
    gem = has_gem_nb(state, rules, seat, 0)
    n = 0
    for i in range(state.grid.shape[0]):
        code = state.grid[i]
        if code == EMPTY or layer[i] < top or layer[i] > top + deep:
            continue
        if code < WILD:
            offer_nb(kit, grab if layer[i] == top else GRAB_SIDE, i, code, layer[i])
            n += 1
        elif code == WILD:
            if gem:
                offer_nb(kit, GRAB_SIDE, i, code, layer[i])
                n += 1
        else:
            d = code - DIVIDED0
            first = -1
            for j in range(2):
                e = FACING[pos, j]
                if e < 0:
                    continue
                s = state.sh[d, e]
                if s == first or (s == WILD and not gem):
                    continue
                offer_nb(kit, GRAB_SIDE, i, s, layer[i])
                first = s
                n += 1
    return n


@njit
def grab_nb(state, tables, rules, seat, cell, code, top, deep):
    """GRAB_SIDE: the tile at `cell` taken, counting as `code` (a section facing the arrow);
    a Wildcard then waits for its pile. A grab off the layers allowed, or of a section not
    facing the arrow, is marked for the invariants (BAD_GRAB)."""
    ph = state.ph
    pos = state.arrow[0]
    layer = tables.layer[pos, cell]
    if layer < top or layer > top + deep:
        ph[BAD_GRAB] = 1
    tile = state.grid[cell]
    state.grid[cell] = EMPTY
    ph[TILES_LEFT] -= 1
    if tile < ACT0 or holds_gem_nb(state, tile):
        ph[GEMS_LEFT] -= 1
    d = -1
    if tile >= DIVIDED0:
        d = tile - DIVIDED0
        side = -1
        for j in range(2):
            e = FACING[pos, j]
            if e >= 0 and side < 0 and state.sh[d, e] == code:
                side = e
        if side < 0:
            ph[BAD_GRAB] = 1
            side = FACING[pos, 0]
        state.sh[d, OWNER] = seat
        state.sh[d, TRUE_SIDE] = side
        state.sh[d, CREDIT] = code
    elif tile != code:
        ph[BAD_GRAB] = 1
    ph[GRABS_DUE] -= 1
    ph[GRABBED_NOW] += 1
    emit_nb(state.kit, GRABBED, cell, code, layer, 0)
    hold_nb(state, seat, code, d)


@njit(inline=True)
def hold_nb(state, seat, code, d):
    """`code` into seat's hand from tile d (-1: a tile of its own): a Wildcard waits there
    for its pile (the WILD_AT decision), or, `wild_joins = "end"`, for the end (its tile's
    credit the Wildcard's code till then)."""
    gain_nb(state, seat, code, 1)
    if code == WILD and not state.sh[xrow(state), WILD_END_SLOT]:
        state.sh[xrow(state), PENDING] = d
        if d >= 0:
            state.sh[d, CREDIT] = -1
        state.ph[PHASE] = WILD_AT


@njit(cold=True)
def collect_nb(state, seat, code):
    """A Gemshards tile collected from a split (rules_nb.take_cell_nb): no decision there, so
    a divided tile counts its first section facing the arrow, and a Wildcard joins the
    collector's largest pile (the first of equal ones), or is discarded by one without any."""
    ph = state.ph
    if holds_gem_nb(state, code):
        ph[GEMS_LEFT] -= 1
    d = -1
    s = code
    if code >= DIVIDED0:
        d = code - DIVIDED0
        e = FACING[state.arrow[0], 0]
        s = state.sh[d, e]
        state.sh[d, TRUE_SIDE] = e
    if s == WILD:
        k = -1
        for j in range(MAX_COLOURS):
            if state.cnt[seat, j] > 0 and state.mult[seat, j] == 0 and (
                    k < 0 or state.cnt[seat, j] > state.cnt[seat, k]):
                k = j
        if k < 0:
            ph[DISCARDED] += 1
            return
        if not state.sh[xrow(state), WILD_END_SLOT]:
            s = k * VALUES + state.sh[xrow(state), WILD_SLOT]
    if d >= 0:
        state.sh[d, OWNER] = seat
        state.sh[d, CREDIT] = s
    gain_nb(state, seat, s, 1)


# -- the Wildcard's pile ----------------------------------------------------------------------

@njit(inline=True)
def offer_piles_nb(state, rules, kit, seat):
    """WILD_AT: each colour the seat holds, as the gem the Wildcard becomes."""
    for k in range(rules.colours):
        if state.cnt[seat, k] > 0 and state.mult[seat, k] == 0:
            offer_nb(kit, JOIN, k, k * VALUES + state.sh[xrow(state), WILD_SLOT], 0)


@njit
def join_nb(state, seat, k, code):
    """The waiting Wildcard joins pile k as `code`."""
    x = xrow(state)
    gain_nb(state, seat, WILD, -1)
    gain_nb(state, seat, code, 1)
    d = state.sh[x, PENDING]
    if d >= 0:
        state.sh[d, CREDIT] = code
    state.sh[x, PENDING] = NO_PENDING
    state.ph[PHASE] = TURN
    emit_nb(state.kit, JOINED, k, code, 0, 0)


# -- Rotate Grabbed, Rotate Board, Teleport Arrow ---------------------------------------------

@njit(inline=True)
def rotations_nb(state, rules, kit, seat, offer, skip):
    """Rotate Grabbed's choices: each of the seat's divided tiles but `skip` (the one its
    use would discard) turned to another section (each distinct section once; a Wildcard's
    only with another pile for it). Offered when `offer`; how many."""
    n = 0
    for d in range(xrow(state)):
        if state.sh[d, OWNER] != seat or d == skip:
            continue
        now = state.sh[d, state.sh[d, TRUE_SIDE]]
        old = state.sh[d, CREDIT]
        spare = 1 if 0 <= old < ACT0 and state.mult[seat, old // VALUES] == 0 else 0
        for e in range(SIDES):
            s = state.sh[d, e]
            if s == now or (s == WILD and not has_gem_nb(state, rules, seat, spare)):
                continue
            seen = False
            for f in range(e):
                if state.sh[d, f] == s:
                    seen = True
            if seen:
                continue
            if offer:
                offer_nb(kit, ROTATE_HELD, d, s, e)
            n += 1
    return n


@njit
def rotate_held_nb(state, seat, d, e):
    """Tile d of seat's turned so that section e counts."""
    old = state.sh[d, CREDIT]
    if old >= 0:
        gain_nb(state, seat, old, -1)
    state.sh[d, TRUE_SIDE] = e
    s = state.sh[d, e]
    state.sh[d, CREDIT] = s
    state.ph[PHASE] = TURN
    emit_nb(state.kit, ROTATED, d, s, 0, 0)
    hold_nb(state, seat, s, d)


@njit(inline=True)
def offer_board_turns_nb(state, kit):
    """Rotate Board's choices: each divided tile on the mountain turned one, two or three
    quarters clockwise, where that changes a section's edge; face up only (on_board_nb)."""
    for i in range(state.grid.shape[0]):
        if state.grid[i] >= DIVIDED0 and not state.dark[i]:
            d = state.grid[i] - DIVIDED0
            for t in range(1, SIDES):
                for e in range(SIDES):
                    if state.sh[d, e] != state.sh[d, (e - t) % SIDES]:
                        offer_nb(kit, ROTATE_CELL, i, t, 0)
                        break


@njit
def turn_tile_nb(state, cell, t):
    """The divided tile at `cell` turned t quarters clockwise."""
    d = state.grid[cell] - DIVIDED0
    a, b, c, e = state.sh[d, 0], state.sh[d, 1], state.sh[d, 2], state.sh[d, 3]
    for j, s in enumerate((a, b, c, e)):
        state.sh[d, (j + t) % SIDES] = s
    state.ph[PHASE] = TURN
    emit_nb(state.kit, TURNED_TILE, cell, t, 0, 0)


@njit(inline=True)
def offer_teleports_nb(state, kit):
    for p in range(TELEPORTS):
        if p != state.arrow[0]:
            offer_nb(kit, POINT, p, 0, 0)


# -- the end ----------------------------------------------------------------------------------

@njit(inline=True)
def stuck_nb(state, rules):
    """A turn ends: a round of turns without a grab (the four corners seen, at least) means
    no player may take what is left (Wildcards, and no pile for them): the game ends."""
    x = xrow(state)
    if state.ph[GRABBED_NOW] > 0:
        state.sh[x, GRABLESS] = 0
        return False
    state.sh[x, GRABLESS] += 1
    return state.sh[x, GRABLESS] >= max(rules.players, 4)


@njit(cold=True)
def broken_shards_nb(state, rules):
    """Every divided tile a seat holds counts as its true side's section (or waits as a
    Wildcard) and is counted in that seat's hand: 0, or 1 when one is not."""
    for d in range(xrow(state)):
        q = state.sh[d, OWNER]
        if q < 0:
            continue
        s = state.sh[d, state.sh[d, TRUE_SIDE]]
        c = state.sh[d, CREDIT]
        if c < 0:
            if s != WILD or state.sh[xrow(state), PENDING] != d:
                return 1
        elif state.hand[q, c] <= 0 or (s != WILD and c != s):
            return 1
    return 0
