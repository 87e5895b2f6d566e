"""Gem Mountain's rules, compiled, on the engine kit (balance/kit/; the guide's developers/kit.md
and games/gem-mountain.md for every reading taken here).

The mountain is a grid of `rows` x `cols` cells (the rulebook's 6x6, turned to a diamond),
cell r * cols + c. The diamond's corners: N is cell (0, 0), E (0, cols-1), S (rows-1, cols-1),
W (rows-1, 0); its sides between them are the grid's edges (NE row 0, SE the last column, SW
the last row, NW column 0). The arrow stands at one of eight positions, clockwise from N
(0 N, 1 NE, 2 E, ..., 7 NW): from a corner the mountain's layers are the diagonals counted from
it, from a side the rows parallel to it (Tables.layer). The top is the nearest layer that still
holds a tile.

A turn: any actions the rules allow (`actions`), a grab from the top, more actions, then the
arrow turns a quarter (two positions) unless locked. The game ends as soon as no gem is left on
the mountain. A tile is a code: a gem of colour k and value v (1 to 3) is k * VALUES + v - 1; an
action is ACT0 + its kind; an empty cell is EMPTY."""


import numpy as np

from balance.games.gem_mountain.codes import (
    ACT0,
    ACTED,
    ACTED_AFTER,
    ACTED_BEFORE,
    ACTIONS,
    ACTIONS_USED,
    ALL_CODES,
    ANY_NUMBER,
    ANY_START_TILE,
    ARROW,
    ARROW2,
    ARROW_LOCK,
    BAD_GRAB,
    CHOSEN_CORNER,
    CODES,
    COLLECTED,
    CREDIT,
    DISCARDED,
    DK_SLOTS,
    DOUBLE,
    EMPTY,
    END,
    EXPECT_ARROW,
    EXPECT_ARROW2,
    FLASHLIGHT,
    GEMS_GONE,
    GEMS_LEFT,
    GRAB,
    GRAB_SIDE,
    GRABBED,
    GRABBED_NOW,
    GRABS_DUE,
    HOLES,
    IDLE,
    JOIN,
    JOINED,
    LANDED,
    LEAST_DECIDES,
    LIFT,
    LIFTED,
    LOCKED,
    LOOK,
    LOOK_AT,
    MARGIN,
    MAX_COLOURS,
    MOVE_ARROW,
    MOVED,
    NO_START_TILE,
    ONE_A_TURN,
    OVER,
    OWNER,
    PH_SLOTS,
    PHASE,
    PICK_UP,
    PLACE,
    POINT,
    POSITIONS,
    PUT_DOWN,
    ROTATE_BOARD,
    ROTATE_CELL,
    ROTATE_CELL_AT,
    ROTATE_GRABBED,
    ROTATE_HELD,
    ROTATE_HELD_AT,
    RUMBLE,
    RUMBLE_FROM,
    SCORED,
    SPLITS,
    START_AT,
    STEAL,
    STEAL_FROM,
    STEALS,
    STOLE,
    STUCK,
    SWAP,
    SWAP_CELL,
    SWAP_FROM,
    SWAP_TO,
    SWAPPED,
    TAKE,
    TALLY_ACTIONS,
    TELEPORT_ARROW,
    TELEPORT_AT,
    TIE_BOTH,
    TIE_NEITHER,
    TIED_COLOURS,
    TILES_LEFT,
    TRASH,
    TURN,
    TURNED,
    USE,
    USE_X,
    USED,
    VALUES,
    WILD,
    WILD_AT,
    WILD_END_SLOT,
    WILD_SLOT,
    X_ACTIONS,
    X_CODES,
    State,
    Tables,
)
from balance.games.gem_mountain.dark_nb import (
    dark_apply_nb,
    dark_box,
    dark_broken_nb,
    dark_can_act_nb,
    dark_grabs_nb,
    dark_options_nb,
    dark_start_nb,
    dark_turn_options_nb,
    dark_use_nb,
    end_reason_nb,
    info_step_nb,
    laid_nb,
    new_turn_nb,
    on_top_nb,
    recount_nb,
    refill_nb,
    shown_nb,
    stalled_nb,
    turn_second_nb,
)

# Gemshards and Golden Actions (shards_nb.py, golden_nb.py), called through the hooks below,
# each behind its switch; and where Dark Tunnels meets them (mix_nb.py).
from balance.games.gem_mountain.golden_nb import (
    depth_nb,
    drop_nb,
    drops_nb,
    golden_box,
    lift_nb,
    lifts_nb,
    light_nb,
    may_light_nb,
    may_rumble_nb,
    rumble_nb,
)
from balance.games.gem_mountain.mix_nb import (
    mix_grab_nb,
    mix_grabs_nb,
    offer_x_thefts_nb,
    redeal_unseen_nb,
    sections_last,
    x_thefts_nb,
)
from balance.games.gem_mountain.shards_nb import (
    broken_shards_nb,
    collect_nb,
    deal_nb,
    divided_box,
    extra_box,
    gain_nb,
    going_nb,
    grab_nb,
    holds_gem_nb,
    join_nb,
    let_go_nb,
    new_sh,
    offer_board_turns_nb,
    offer_grabs_nb,
    offer_piles_nb,
    offer_teleports_nb,
    on_board_nb,
    rotate_held_nb,
    rotations_nb,
    stuck_nb,
    teleport_layers,
    turn_tile_nb,
)
from balance.kernels.jit import njit
from balance.kit.nb import (
    ask_nb,
    draw_nb,
    emit_nb,
    ended_nb,
    offer_nb,
    seat_nb,
    shuffled_nb,
    tie_nb,
    turn_nb,
    win_nb,
)


def box_size(rules) -> int:
    return (rules.colours * (rules.ones + rules.twos + rules.threes) + rules.move_arrow
            + rules.arrow_lock + rules.swap + rules.double + rules.steal
            + len(dark_box(rules)) + len(expansion_box(rules)))


def expansion_box(rules) -> list[int]:
    """The tiles of the expansions switched on, the divided tiles last (their sections are
    drawn from the tiles before them)."""
    box = extra_box(rules) if rules.gemshards else []
    if rules.golden_actions:
        box += golden_box(rules)
    return box + divided_box(rules)


def expanded(rules) -> bool:
    return bool(rules.gemshards or rules.golden_actions)


@njit(inline=True)
def expanded_nb(rules):
    """An expansion is on: the hooks below have something to do."""
    return rules.gemshards != 0 or rules.golden_actions != 0


@njit(inline=True)
def shards_nb(rules):
    """Gemshards is on."""
    return rules.gemshards != 0


def new_tables(rules) -> Tables:
    rows, cols = rules.rows, rules.cols
    layer = np.zeros((POSITIONS, rows * cols), np.int64)
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            far_r, far_c = rows - 1 - r, cols - 1 - c
            layer[:, i] = (r + c, r, r + far_c, far_c, far_r + far_c, far_r, far_r + c, c)
    box = []
    for k in range(rules.colours):
        for v, n in ((1, rules.ones), (2, rules.twos), (3, rules.threes)):
            box += [k * VALUES + v - 1] * n
    for a, n in enumerate((rules.move_arrow, rules.arrow_lock, rules.swap, rules.double,
                           rules.steal)):
        box += [ACT0 + a] * n
    box += dark_box(rules)
    box += expansion_box(rules)
    if rules.dark_tunnels and expanded(rules):
        box = sections_last(box)
    if rules.gemshards:
        layer = teleport_layers(rules, layer)
    box = np.array(box, np.int64)
    order = np.argsort(layer, axis=1, kind="stable").astype(np.int64)
    return Tables(layer, box, np.bincount(box, minlength=ALL_CODES).astype(np.int64), order)


def new_state(rules, kit):
    cells, seats, tiles = rules.rows * rules.cols, rules.players, box_size(rules)
    # The expansions' tiles in the hand too: Dark Tunnels' always (ALL_CODES, the base game's
    # goldens kept), Gemshards' and Golden Actions' only with one of them on.
    codes = X_CODES if expanded(rules) else ALL_CODES
    return State(kit, np.full(cells, EMPTY, np.int64), np.zeros((seats, codes), np.int64),
                 np.zeros((seats, codes - ACT0), np.int64),
                 np.zeros((seats, MAX_COLOURS), np.int64),
                 np.zeros((seats, MAX_COLOURS), np.int64), np.zeros(2, np.int64),
                 np.zeros(PH_SLOTS, np.int64), np.zeros(tiles, np.int64),
                 np.zeros(1, np.int64), np.zeros(cells, np.int64),
                 np.zeros(cells, np.int64), np.zeros(seats, np.int64),
                 np.zeros(seats, np.int64),
                 np.zeros(cells, np.int64), np.ones((seats, cells), np.int64),
                 np.zeros(DK_SLOTS, np.int64), np.zeros(cells, np.int64),
                 np.zeros((seats, MAX_COLOURS), np.int64), np.zeros(codes, np.int64),
                 np.zeros(seats, np.int64), new_sh(rules))


# -- tiles ------------------------------------------------------------------------------------

@njit(inline=True)
def is_gem_nb(code):
    return 0 <= code < ACT0


@njit(inline=True)
def top_nb(state, tables, pos):
    """The layer nearest arrow position `pos` that holds a tile, or a layer past every one."""
    order = tables.order[pos]
    for j in range(order.shape[0]):
        if state.grid[order[j]] != EMPTY:
            return tables.layer[pos, order[j]]
    return 1 << 30


# -- scoring ----------------------------------------------------------------------------------

@njit
def colour_points_nb(cnt, vsum, rules, k, out, penalty):
    """Each seat's points for colour k into out: its tiles' values added for the most,
    subtracted for the least (Rules.majority_by, none_is_least, all_tie; not without
    `penalty`). 1 when two or more seats share the most."""
    n = rules.players
    hi, lo, holders = -1, 1 << 30, 0
    for q in range(n):
        m = cnt[q, k] if rules.majority_by == 0 else vsum[q, k]
        if m > 0:
            holders += 1
        if m > hi:
            hi = m
        if (m > 0 or rules.none_is_least) and m < lo:
            lo = m
    shared = 0
    for q in range(n):
        out[q] = 0
    if holders == 0:
        return 0
    for q in range(n):
        m = cnt[q, k] if rules.majority_by == 0 else vsum[q, k]
        most = m == hi
        least = (m > 0 or rules.none_is_least) and m == lo
        if hi == lo:
            most = most and rules.all_tie != TIE_NEITHER
            least = least and rules.all_tie == TIE_BOTH
        if most:
            shared += 1
            out[q] += vsum[q, k]
        if least and penalty:
            out[q] -= vsum[q, k]
    return 1 if shared > 1 else 0


@njit
def scores_nb(state, rules, scores, least):
    """Every seat's score into `scores` (the least's penalty left out when not `least`); the
    colours whose most is shared."""
    tied = 0
    pts = state.pts
    for q in range(rules.players):
        scores[q] = 0
    for k in range(rules.colours):
        tied += colour_points_nb(state.cnt, state.vsum, rules, k, pts, least)
        for q in range(rules.players):
            scores[q] += pts[q]
    if rules.dark_tunnels:
        dark_scores_nb(state, rules, scores, least)
    return tied


@njit
def dark_scores_nb(state, rules, scores, least):
    """Dark Tunnels' part of every seat's score, added to the base game's: each Multiplier
    laid on a pile multiplies that colour's points by Rules.multiply_by, each Trash held
    costs Rules.trash_points. Apart from the colours' loop, which the base game runs as it did."""
    pts = state.pts
    for k in range(rules.colours):
        laid = 0
        for q in range(rules.players):
            laid += state.mult[q, k]
        if laid == 0:
            continue
        colour_points_nb(state.cnt, state.vsum, rules, k, pts, least)
        for q in range(rules.players):
            times = 1
            for _ in range(state.mult[q, k]):
                times *= rules.multiply_by
            scores[q] += (times - 1) * pts[q]
    for q in range(rules.players):
        scores[q] += rules.trash_points * state.hand[q, TRASH]


# -- the mountain's groups --------------------------------------------------------------------

@njit
def groups_nb(state, rules):
    """The mountain's groups of orthogonally adjacent tiles, labelled in state.label (-1 for
    an empty cell): their number."""
    grid, label, stack = state.grid, state.label, state.work
    cols, cells = rules.cols, state.grid.shape[0]
    for i in range(cells):
        label[i] = -1
    g = 0
    for s in range(cells):
        if grid[s] == EMPTY or label[s] >= 0:
            continue
        label[s] = g
        top = 0
        stack[0] = s
        top = 1
        while top > 0:
            top -= 1
            i = stack[top]
            r, c = i // cols, i % cols
            for d in range(4):
                j = -1
                if d == 0 and r > 0:
                    j = i - cols
                elif d == 1 and r < rules.rows - 1:
                    j = i + cols
                elif d == 2 and c > 0:
                    j = i - 1
                elif d == 3 and c < cols - 1:
                    j = i + 1
                if j >= 0 and grid[j] != EMPTY and label[j] < 0:
                    label[j] = g
                    stack[top] = j
                    top += 1
        g += 1
    return g


@njit(inline=True)
def joined_nb(state, rules, b):
    """The groups (as state.label holds them) a tile put on the empty cell b would join: the
    distinct labels of its neighbours."""
    label, cols = state.label, rules.cols
    r, c = b // cols, b % cols
    n, seen0, seen1, seen2 = 0, -1, -1, -1
    for d in range(4):
        j = -1
        if d == 0 and r > 0:
            j = b - cols
        elif d == 1 and r < rules.rows - 1:
            j = b + cols
        elif d == 2 and c > 0:
            j = b - 1
        elif d == 3 and c < cols - 1:
            j = b + 1
        if j >= 0 and label[j] >= 0:
            g = label[j]
            if g != seen0 and g != seen1 and g != seen2:
                if n == 0:
                    seen0 = g
                elif n == 1:
                    seen1 = g
                else:
                    seen2 = g
                n += 1
    return n


@njit
def collect_split_nb(state, rules, seat):
    """The split reading (Rules.split): every group but the largest (the first found of the
    largest) goes to the seat that split the mountain. The tiles collected."""
    g = groups_nb(state, rules)
    if g < 2:
        return 0
    sizes = state.work  # the groups' stack is done with: their sizes
    sizes[:g] = 0
    for i in range(state.grid.shape[0]):
        if state.label[i] >= 0:
            sizes[state.label[i]] += 1
    keep = 0
    for j in range(g):
        if sizes[j] > sizes[keep]:
            keep = j
    n = 0
    for i in range(state.grid.shape[0]):
        if state.label[i] >= 0 and state.label[i] != keep:
            take_cell_nb(state, i, seat)
            n += 1
    state.kit.rec[SPLITS] += 1
    emit_nb(state.kit, COLLECTED, n, 0, 0, 0)
    return n


@njit(inline=True)
def take_cell_nb(state, cell, seat):
    code = state.grid[cell]
    state.grid[cell] = EMPTY
    state.ph[TILES_LEFT] -= 1
    if state.dark[cell]:  # Dark Tunnels: the tile is face up in its hand, for all to see
        state.dark[cell] = 0
        for q in range(state.seen.shape[0]):
            state.seen[q, cell] = 1
    state.dk[IDLE] = 0
    if code >= WILD:
        collect_nb(state, seat, code)
        return
    if code < ACT0:
        state.ph[GEMS_LEFT] -= 1
    gain_nb(state, seat, code, 1)
    if code == TRASH:
        state.trash[seat] += 1


@njit(inline=True)
def gem_tile_nb(state, rules, code):
    """The tile counts as a gem on the mountain (the game ends when none is left)."""
    return code < ACT0 or (shards_nb(rules) and holds_gem_nb(state, code))


# -- set-up -----------------------------------------------------------------------------------

@njit
def start_nb(state, tables, rules):
    kit = state.kit
    n = tables.box.shape[0]
    for i in range(n):
        state.deck[i] = tables.box[i]
    shuffled_nb(kit, state.deck, n)
    if expanded_nb(rules):
        deal_nb(state, tables, rules)
    state.hand[:] = 0
    state.fresh[:] = 0
    state.cnt[:] = 0
    state.vsum[:] = 0
    state.ph[:] = 0
    state.gone[:] = 0
    kit.rec[:] = 0
    # The quicker start: a tile each, from the end of the shuffled box (an action tile when
    # restricted to them); the start player gets none when it places the arrow.
    top = n
    if rules.start_tiles != NO_START_TILE:
        first = 1 if rules.start_arrow == CHOSEN_CORNER else 0
        for q in range(first, rules.players):
            for j in range(top - 1, -1, -1):
                if (rules.start_tiles == ANY_START_TILE or state.deck[j] >= ACT0) and \
                        state.deck[j] < WILD:  # never a Wildcard or a divided tile
                    code = state.deck[j]
                    state.deck[j] = state.deck[top - 1]
                    state.deck[top - 1] = code
                    top -= 1
                    gain_nb(state, q, code, 1)
                    break
    cells = state.grid.shape[0]
    gems = 0
    for i in range(cells):
        state.grid[i] = state.deck[top - 1 - i]
        if gem_tile_nb(state, rules, state.grid[i]):
            gems += 1
    state.deck_n[0] = top - cells
    state.ph[GEMS_LEFT] = gems
    state.ph[TILES_LEFT] = cells
    state.arrow[0] = 2 * draw_nb(kit, 4)
    state.arrow[1] = 0
    turn_nb(kit, 0)
    begin_turn_nb(state)
    if rules.start_arrow == CHOSEN_CORNER:
        state.ph[PHASE] = PLACE
    state.ph[EXPECT_ARROW] = -1
    if rules.dark_tunnels:
        dark_start_nb(state, rules)
    if gems == 0:
        finish_nb(state, rules, GEMS_GONE)
    else:
        settle_nb(state, tables, rules)


@njit(inline=True)
def begin_turn_nb(state):
    new_turn_nb(state)
    ph = state.ph
    ph[PHASE] = TURN
    ph[GRABS_DUE] = 1
    ph[GRABBED_NOW] = 0
    ph[ACTED_BEFORE] = 0
    ph[ACTED_AFTER] = 0
    ph[ACTED] = 0


# -- the decision at hand ---------------------------------------------------------------------

@njit(inline=True)
def may_act_nb(state, rules):
    """The rules allow an action now (Rules.actions)."""
    ph = state.ph
    if rules.actions == ANY_NUMBER:
        return True
    if rules.actions == ONE_A_TURN:
        return ph[ACTED] == 0
    return ph[ACTED_AFTER] == 0 if ph[GRABBED_NOW] > 0 else ph[ACTED_BEFORE] == 0


@njit(inline=True)
def usable_nb(state, rules, seat, a):
    """Action tiles of kind a the seat may use now, 0 where the action has nothing to do."""
    held = state.hand[seat, ACT0 + a] - state.fresh[seat, a]
    if held <= 0:
        return 0
    if a == STEAL and not any_steal_nb(state, rules, seat):
        return 0
    if a == SWAP and state.ph[TILES_LEFT] < 1:
        return 0
    return held


@njit(inline=True)
def steal_top_nb(state, rules):
    """The codes Steal may take are those below this: gems, then (under steal_actions) the
    actions, Dark Tunnels' too but never Trash nor a Multiplier; with Gemshards or Golden
    Actions on, their actions too (with Dark Tunnels, mix_nb.x_thefts_nb's), never a
    Wildcard waiting in a hand."""
    if not rules.steal_actions:
        return ACT0
    if rules.dark_tunnels:
        return TRASH
    return WILD if expanded_nb(rules) else CODES


@njit(inline=True)
def any_steal_nb(state, rules, seat):
    top = steal_top_nb(state, rules)
    for q in range(rules.players):
        if q != seat:
            for code in range(top):
                if state.hand[q, code] > 0:
                    return True
    return (rules.dark_tunnels and expanded_nb(rules) and rules.steal_actions
            and x_thefts_nb(state.hand, rules.players, seat) > 0)


@njit(inline=True)
def can_act_nb(state, rules, seat):
    if rules.dark_tunnels and dark_can_act_nb(state, rules, seat, may_act_nb(state, rules)):
        return True
    if not may_act_nb(state, rules):
        return False
    for a in range(len(ACTIONS)):
        if usable_nb(state, rules, seat, a) > 0:
            return True
    return expanded_nb(rules) and x_can_act_nb(state, rules, seat)


@njit(cold=True)
def x_can_act_nb(state, rules, seat):
    """can_act_nb's, for the expansions' actions (apart: the base game's loop stays small)."""
    for a in range(ROTATE_GRABBED, ROTATE_GRABBED + len(X_ACTIONS)):
        if x_usable_nb(state, rules, seat, a) > 0:
            return True
    return False


@njit(cold=True)
def offer_x_uses_nb(state, rules, kit, seat):
    """The expansions' actions the seat may use now, offered."""
    for a in range(ROTATE_GRABBED, ROTATE_GRABBED + len(X_ACTIONS)):
        held = x_usable_nb(state, rules, seat, a)
        if held > 0:
            offer_nb(kit, USE_X, a, held, 0)


@njit(inline=True)
def x_usable_nb(state, rules, seat, a):
    """An expansion's action tiles of kind a the seat may use now, 0 where it has nothing
    to do (usable_nb's, for Gemshards' and Golden Actions' actions)."""
    held = state.hand[seat, ACT0 + a] - state.fresh[seat, a]
    if held <= 0:
        return 0
    if a == ROTATE_GRABBED and rotations_nb(
            state, rules, state.kit, seat, False,
            going_nb(state, seat, ACT0 + a, state.hand[seat, ACT0 + a] - 1)) == 0:
        return 0
    if a == ROTATE_BOARD and not on_board_nb(state):
        return 0
    if a == RUMBLE and not may_rumble_nb(state, rules):
        return 0
    if a == FLASHLIGHT and not may_light_nb(state):
        return 0
    return held


@njit(inline=True)
def options_nb(state, tables, rules):
    kit = state.kit
    seat = seat_nb(kit)
    ph = state.ph
    phase = ph[PHASE]
    ask_nb(kit, phase, seat)
    if phase == TURN:
        if ph[GRABS_DUE] > 0 and ph[TILES_LEFT] > 0 and rules.dark_tunnels:
            if expanded_nb(rules):
                mix_grabs_nb(state, tables, rules, seat)
            else:
                dark_grabs_nb(state, tables, rules, seat)
        elif ph[GRABS_DUE] > 0 and ph[TILES_LEFT] > 0:
            pos = state.arrow[0]
            if expanded_nb(rules):
                # "If possible, grab": a seat that may take nothing there ends its turn.
                if offer_grabs_nb(state, tables, rules, kit, seat, top_nb(state, tables, pos),
                                  depth_nb(state), GRAB) == 0:
                    offer_nb(kit, END, 0, 0, 0)
            else:
                offer_top_nb(state, tables, kit, pos)
        else:
            offer_nb(kit, END, 0, 0, 0)
        if may_act_nb(state, rules):
            for a in range(len(ACTIONS)):
                held = usable_nb(state, rules, seat, a)
                if held > 0:
                    offer_nb(kit, USE, a, held, 0)
            if expanded_nb(rules):
                offer_x_uses_nb(state, rules, kit, seat)
        if rules.dark_tunnels:
            dark_turn_options_nb(state, rules, seat, may_act_nb(state, rules))
    elif phase == ARROW:
        for p in range(POSITIONS):
            if p != state.arrow[0]:
                offer_nb(kit, POINT, p, 0, 0)
    elif phase == PLACE:
        for p in range(0, POSITIONS, 2):
            offer_nb(kit, START_AT, p, 0, 0)
    elif phase == SWAP_FROM:
        for i in range(state.grid.shape[0]):
            if state.grid[i] != EMPTY:
                offer_nb(kit, PICK_UP, i, shown_nb(state, seat, i), 0)
    elif phase == SWAP_TO:
        # A tile moved from cell a to an empty cell b leaves the groups of the mountain
        # without it, less those b's neighbours join, plus one: one labelling for every b
        # (a labelling per b made the swap the dearest decision of the game).
        a = ph[SWAP_CELL]
        before = groups_nb(state, rules)
        code = state.grid[a]
        state.grid[a] = EMPTY
        without = groups_nb(state, rules)
        state.grid[a] = code
        for i in range(state.grid.shape[0]):
            if i == a:
                continue
            if state.grid[i] != EMPTY or without + 1 - joined_nb(state, rules, i) <= before:
                offer_nb(kit, PUT_DOWN, i, shown_nb(state, seat, i), 0)
    elif phase >= ROTATE_HELD_AT:  # Gemshards' and Golden Actions' decisions, after Dark's
        x_options_nb(state, tables, rules, kit, seat, phase)
    elif phase >= LOOK:
        dark_options_nb(state, tables, rules, seat, phase)
    else:
        top = steal_top_nb(state, rules)
        for q in range(rules.players):
            if q != seat:
                for code in range(top):
                    if state.hand[q, code] > 0:
                        offer_nb(kit, TAKE, q, code, state.hand[q, code])
        if rules.dark_tunnels and expanded_nb(rules) and rules.steal_actions:
            offer_x_thefts_nb(state.hand, kit, rules.players, seat)


@njit(inline=True)
def offer_top_nb(state, tables, kit, pos):
    """A grab of each tile at the top seen from arrow position pos, in grid order: the cells
    read nearest first (Tables.order, a layer's in grid order) up to the first past the top."""
    order, layer = tables.order[pos], tables.layer[pos]
    top = -1
    for j in range(order.shape[0]):
        i = order[j]
        if state.grid[i] == EMPTY:
            continue
        if top < 0:
            top = layer[i]
        elif layer[i] != top:
            return
        offer_nb(kit, GRAB, i, state.grid[i], top)


@njit(inline=True)
def apply_nb(state, tables, rules, pick):
    kit = state.kit
    seat = seat_nb(kit)
    ph = state.ph
    kind, a, b = kit.opt[pick, 0], kit.opt[pick, 1], kit.opt[pick, 2]
    if kind == GRAB:
        if tables.layer[state.arrow[0], a] != top_nb(state, tables, state.arrow[0]) and \
                not (rules.dark_tunnels and on_top_nb(state, tables, a)):
            ph[BAD_GRAB] = 1
        emit_nb(kit, GRABBED, a, state.grid[a], kit.opt[pick, 3], 0)
        take_cell_nb(state, a, seat)
        ph[GRABS_DUE] -= 1
        ph[GRABBED_NOW] += 1
        if rules.split and ph[GEMS_LEFT] > 0:
            collect_split_nb(state, rules, seat)
        if ph[GEMS_LEFT] == 0 and state.dk[HOLES] == 0:
            finish_nb(state, rules, GEMS_GONE)
            return
    elif kind == END:
        turn_ends_nb(state, rules)
    elif kind == USE:
        used_nb(state, rules, seat, a)
        if a == MOVE_ARROW:
            ph[PHASE] = ARROW
        elif a == ARROW_LOCK:
            state.arrow[1] = 1 - state.arrow[1]
            emit_nb(kit, LOCKED, state.arrow[1], 0, 0, 0)
        elif a == SWAP:
            ph[PHASE] = SWAP_FROM
        elif a == DOUBLE:
            ph[GRABS_DUE] += 1
        elif a == STEAL:
            ph[PHASE] = STEAL_FROM
        else:
            dark_use_nb(state, rules, a)
    elif kind == POINT or kind == START_AT:
        state.arrow[0] = a
        ph[PHASE] = TURN
        emit_nb(kit, MOVED, a, 0, 0, 0)
    elif kind == PICK_UP:
        ph[SWAP_CELL] = a
        ph[PHASE] = SWAP_TO
    elif kind == PUT_DOWN:
        c = ph[SWAP_CELL]
        state.grid[a], state.grid[c] = state.grid[c], state.grid[a]
        if rules.dark_tunnels:  # a face-down tile stays so, and who knew it knows it still
            state.dark[a], state.dark[c] = state.dark[c], state.dark[a]
            for q in range(rules.players):
                state.seen[q, a], state.seen[q, c] = state.seen[q, c], state.seen[q, a]
        ph[PHASE] = TURN
        emit_nb(kit, SWAPPED, c, a, 0, 0)
    elif kind >= GRAB_SIDE:  # Gemshards' and Golden Actions' options, after Dark's
        if x_apply_nb(state, tables, rules, seat, kind, a, b, kit.opt[pick, 3]):
            return
    elif kind >= LOOK_AT:
        then = dark_apply_nb(state, tables, rules, seat, kind, a, b)
        if then == 2:
            turn_ends_nb(state, rules)
        elif then == 1:
            # Ransack collected a tile: settled as a grab's, then the turn ends.
            take_cell_nb(state, a, seat)
            if rules.split and ph[GEMS_LEFT] > 0:
                collect_split_nb(state, rules, seat)
            if ph[GEMS_LEFT] == 0 and state.dk[HOLES] == 0:
                finish_nb(state, rules, GEMS_GONE)
                return
            turn_ends_nb(state, rules)
    else:
        gain_nb(state, a, b, -1)
        gain_nb(state, seat, b, 1)
        if shards_nb(rules):
            let_go_nb(state, a, b, seat)
        if b >= ACT0 and not rules.stolen_now:
            state.fresh[seat, b - ACT0] += 1
        kit.rec[STEALS] += 1
        ph[PHASE] = TURN
        emit_nb(kit, STOLE, a, b, 0, 0)
    settle_nb(state, tables, rules)


@njit(inline=True)
def used_nb(state, rules, seat, a):
    """An action tile of kind a discarded to use it: the turn's actions counted."""
    kit = state.kit
    ph = state.ph
    state.hand[seat, ACT0 + a] -= 1
    state.gone[ACT0 + a] += 1
    if shards_nb(rules):
        let_go_nb(state, seat, ACT0 + a, -1)
    ph[DISCARDED] += 1
    if ph[GRABBED_NOW] > 0:
        ph[ACTED_AFTER] = 1
    else:
        ph[ACTED_BEFORE] = 1
    ph[ACTED] += 1
    kit.tally[seat, TALLY_ACTIONS] += 1
    kit.rec[ACTIONS_USED] += 1
    emit_nb(kit, USED, a, 0, 0, 0)


# -- the expansions' hooks --------------------------------------------------------------------

@njit(cold=True)
def x_options_nb(state, tables, rules, kit, seat, phase):
    """The decisions Gemshards and Golden Actions add."""
    if phase == WILD_AT:
        offer_piles_nb(state, rules, kit, seat)
    elif phase == ROTATE_HELD_AT:
        rotations_nb(state, rules, kit, seat, True, -1)
    elif phase == ROTATE_CELL_AT:
        offer_board_turns_nb(state, kit)
    elif phase == TELEPORT_AT:
        offer_teleports_nb(state, kit)
    elif phase == RUMBLE_FROM:
        lifts_nb(state, rules, kit, True, state.sh[state.sh.shape[0] - 1, LANDED])
    else:
        drops_nb(state, rules, kit, state.sh[state.sh.shape[0] - 1, LIFTED], True)


@njit(cold=True)
def x_apply_nb(state, tables, rules, seat, kind, a, b, c):
    """The options Gemshards and Golden Actions add, applied: True when the game ended."""
    ph = state.ph
    if kind == GRAB_SIDE:
        if rules.dark_tunnels:
            mix_grab_nb(state, tables, rules, seat, a, b)
        else:
            top = top_nb(state, tables, state.arrow[0])
            grab_nb(state, tables, rules, seat, a, b, top, depth_nb(state))
        if rules.split and ph[GEMS_LEFT] > 0:
            collect_split_nb(state, rules, seat)
    elif kind == USE_X:
        used_nb(state, rules, seat, a)
        if a == ROTATE_GRABBED:
            ph[PHASE] = ROTATE_HELD_AT
        elif a == ROTATE_BOARD:
            ph[PHASE] = ROTATE_CELL_AT
        elif a == TELEPORT_ARROW:
            ph[PHASE] = TELEPORT_AT
        elif a == RUMBLE:
            rumble_nb(state)
        else:
            light_nb(state)
    elif kind == ROTATE_HELD:
        rotate_held_nb(state, seat, a, c)
    elif kind == ROTATE_CELL:
        turn_tile_nb(state, a, b)
    elif kind == JOIN:
        join_nb(state, seat, a, b)
    elif kind == LIFT:
        lift_nb(state, a)
    else:
        drop_nb(state, rules, a)
    # The last gem gone ends the game, once a grabbed Wildcard has its pile (and a Bomb's
    # hole its refill: Dark Tunnels).
    if ph[GEMS_LEFT] == 0 and ph[PHASE] != WILD_AT and state.dk[HOLES] == 0:
        finish_nb(state, rules, GEMS_GONE)
        return True
    return False


@njit(inline=True)
def settle_nb(state, tables, rules):
    """A turn with nothing left to decide ends without asking: its grabs taken (or none
    possible) and no action the seat may use."""
    ph = state.ph
    kit = state.kit
    while (ph[PHASE] == TURN and (ph[GRABS_DUE] == 0 or ph[TILES_LEFT] == 0)
           and not ended_nb(kit) and not can_act_nb(state, rules, seat_nb(kit))):
        turn_ends_nb(state, rules)


@njit
def end_turn_nb(state, rules):
    """The arrow turns a quarter clockwise unless locked, the standings are the seats'
    scores for the lead record, and the next seat's turn begins."""
    kit = state.kit
    seat = seat_nb(kit)
    if shards_nb(rules) and not rules.dark_tunnels and stuck_nb(state, rules):
        finish_nb(state, rules, STUCK)
        return
    pos = state.arrow[0]
    state.ph[EXPECT_ARROW] = pos if state.arrow[1] else quarter_nb(pos)
    if not state.arrow[1]:
        state.arrow[0] = quarter_nb(pos)
        emit_nb(kit, TURNED, state.arrow[0], 0, 0, 0)
    scores_nb(state, rules, kit.score, True)
    state.fresh[seat, :] = 0
    turn_nb(kit, (seat + 1) % rules.players)
    begin_turn_nb(state)


@njit(inline=True)
def turn_ends_nb(state, rules):
    """The turn ends: end_turn_nb, or Dark Tunnels' end of a turn around it (the base game's
    end_turn_nb kept as it was: with the expansion's steps in it, the base game played
    slower)."""
    if rules.dark_tunnels:
        dark_turn_ends_nb(state, rules)
    else:
        end_turn_nb(state, rules)


@njit
def dark_turn_ends_nb(state, rules):
    """Dark Tunnels' end of a turn: the information step first (the turn ends when the seat
    has chosen its tile), the end of a mountain whose last gems no one may take, the second
    arrow's turn with the first, and the next seat's turn skipped for a Bomb's refill."""
    if info_step_nb(state, rules, seat_nb(state.kit)):
        return
    if stalled_nb(state, rules):
        finish_nb(state, rules, end_reason_nb(state, rules))
        state.ph[PHASE] = OVER
        return
    turn_second_nb(state)
    end_turn_nb(state, rules)
    if state.dk[HOLES] > 0:
        skip_turn_nb(state, rules)


@njit
def skip_turn_nb(state, rules):
    """Dark Tunnels' Bomb: the turn just begun is spent refilling its hole, then ends with
    no information step and the arrows where they are; the game ends there when the
    mountain holds no gem."""
    kit = state.kit
    seat = seat_nb(kit)
    refill_nb(state, rules)
    if state.ph[GEMS_LEFT] == 0:
        finish_nb(state, rules, end_reason_nb(state, rules))
        state.ph[PHASE] = OVER
        return
    state.ph[EXPECT_ARROW] = state.arrow[0]
    state.dk[EXPECT_ARROW2] = state.dk[ARROW2]
    scores_nb(state, rules, kit.score, True)
    turn_nb(kit, (seat + 1) % rules.players)
    begin_turn_nb(state)


@njit(inline=True)
def quarter_nb(pos):
    """The arrow's quarter turn clockwise: two positions on, among the eight or among the
    eight Teleport Arrow adds between them."""
    if pos < POSITIONS:
        return (pos + 2) % POSITIONS
    return POSITIONS + (pos - POSITIONS + 2) % POSITIONS


@njit
def finish_nb(state, rules, reason):
    """No gem on the mountain (or none any player may take: `reason` BARRED under Dark Tunnels,
    STUCK under Gemshards): the majorities scored, the best score wins, a level best is a
    tie."""
    kit = state.kit
    n = rules.players
    if shards_nb(rules) and state.sh[state.sh.shape[0] - 1, WILD_END_SLOT]:
        settle_wilds_nb(state, rules)
    tied = scores_nb(state, rules, kit.score, True)
    kit.rec[TIED_COLOURS] = tied
    for q in range(n):
        for k in range(rules.colours):
            kit.tally[q, k] = state.cnt[q, k]
    best, second, at = -(1 << 40), -(1 << 40), 0
    for q in range(n):
        s = kit.score[q]
        if s > best:
            second, best, at = best, s, q
        elif s > second:
            second = s
    kit.rec[MARGIN] = best - second
    # Would the game have had another winner without the least's penalty?
    plain = state.plain
    scores_nb(state, rules, plain, False)
    alone = best > second
    beaten = False
    for q in range(n):
        if q != at and plain[q] >= plain[at]:
            beaten = True
    kit.rec[LEAST_DECIDES] = 1 if alone and beaten else 0
    for q in range(n):
        emit_nb(kit, SCORED, q + 1, kit.score[q], plain[q], 0)
    if alone:
        win_nb(kit, at, reason)
    else:
        tie_nb(kit, reason)


@njit(cold=True)
def settle_wilds_nb(state, rules):
    """`wild_joins = "end"`: at the end each Wildcard held joins, one at a time and seat by
    seat from the first, the pile (of a colour its holder has, no Multiplier on it) that then
    scores its holder most, the first of equal ones; one with no such pile is discarded."""
    x = state.sh.shape[0] - 1
    for q in range(rules.players):
        while state.hand[q, WILD] > 0:
            best, at = -(1 << 40), -1
            for k in range(rules.colours):
                if state.cnt[q, k] > 0 and state.mult[q, k] == 0:
                    code = k * VALUES + state.sh[x, WILD_SLOT]
                    gain_nb(state, q, code, 1)
                    scores_nb(state, rules, state.plain, True)
                    gain_nb(state, q, code, -1)
                    if state.plain[q] > best:
                        best, at = state.plain[q], k
            state.hand[q, WILD] -= 1
            d = going_nb(state, q, WILD, state.hand[q, WILD])
            if at < 0:
                state.ph[DISCARDED] += 1
                if d >= 0:
                    state.sh[d, OWNER] = -1
                    state.sh[d, CREDIT] = -1
                continue
            code = at * VALUES + state.sh[x, WILD_SLOT]
            gain_nb(state, q, code, 1)
            if d >= 0:
                state.sh[d, CREDIT] = code
            emit_nb(state.kit, JOINED, at, code, 0, 0)


# -- invariants -------------------------------------------------------------------------------

@njit
def broken_nb(state, rules):
    """1: a tile made or lost (mountain, hands, discards and deck against the box); 2: a grab
    not from the top layer; 3: the arrow did not turn as the lock says at a turn's end; 4: the
    counts of gems and tiles on the mountain disagree with it; then each expansion's own
    (Dark Tunnels' 5 to 8, dark_broken_nb; Gemshards' 9, broken_shards_nb)."""
    n_tiles = state.deck_n[0] + state.ph[DISCARDED] + laid_nb(state, rules)
    gems = 0
    tiles = 0
    for i in range(state.grid.shape[0]):
        if state.grid[i] != EMPTY:
            tiles += 1
            if gem_tile_nb(state, rules, state.grid[i]):
                gems += 1
    n_tiles += tiles
    for q in range(rules.players):
        for code in range(state.hand.shape[1]):
            if state.hand[q, code] < 0:
                return 1
            n_tiles += state.hand[q, code]
    if n_tiles != state.deck.shape[0]:
        return 1
    if state.ph[BAD_GRAB]:
        return 2
    ph = state.ph
    if (ph[PHASE] == TURN and ph[GRABBED_NOW] == 0 and ph[ACTED] == 0 and ph[EXPECT_ARROW] >= 0
            and state.arrow[0] != ph[EXPECT_ARROW]):
        return 3
    if gems != ph[GEMS_LEFT] or tiles != ph[TILES_LEFT]:
        return 4
    if rules.dark_tunnels:
        return dark_broken_nb(state, rules)
    if shards_nb(rules) and broken_shards_nb(state, rules):
        return 9
    return 0


@njit
def redrawn_nb(state, tables, rules, seat):
    """The kit redrew what `seat` does not know (KitGame.hidden, for a search's world): with
    Gemshards too, the sections of the divided tiles it has not seen dealt anew (mix_nb); the
    mountain's gem count made to agree with the tiles now on it (Dark Tunnels; the base game
    hides no tile of the mountain)."""
    if rules.dark_tunnels:
        if shards_nb(rules):
            redeal_unseen_nb(state, tables, rules, seat)
        recount_nb(state, rules)
