"""Gem Mountain's Dark Tunnels expansion, compiled (Rules.dark_tunnels; the guide's
games/gem-mountain.md, "Dark Tunnels", for every reading taken here). rules_nb.py calls it
through small hooks, each behind the switch, so the base game plays as it did.

Every tile is dealt face down (State.dark). What each seat knows of a cell is State.seen: an
empty or face-up cell every seat knows; a face-down one only the seats that looked at it or saw
it face up (memory is perfect: a tile Ransack turns back face down stays known to all). The
kit redraws what a seat does not know (KitGame.hidden: the grid masked by `seen`, and the
deck), and a seat's options show such a tile as UNSEEN.

A turn ends with the information step (before the arrow turns): a seat that used no action
looks at a face-down tile it does not know, secretly; one that used an action turns a
face-down tile face up. The new actions: Lightbulb turns a row or a column face up; Bomb
removes the tiles of a 2x2 square, face up, out of the game, and the next seat's turn is
spent refilling those cells face down from the deck; Second Arrow adds the second arrow
opposite the first, or removes it (both turn at a turn's end, the lock holds both, a grab may
come from either's top); Ransack turns a face-up tile face down, collects a tile next to it and
ends the turn. The gems: Trash, Rules.trash_points each, never leaves a hand (Steal cannot take
it); a Multiplier, laid on a pile of its holder's (in its own turn, no action), multiplies that
colour's points by Rules.multiply_by, and its holder may then take no tile it sees of that
colour. Neither keeps the game going: it ends when no colour gem is left on the mountain (and
no hole waits for its refill), or, the last gems barred to the seats that see them, when
4 x players turns in a row took no tile (the end reason "barred": by then every seat has
faced every top the arrow turns through)."""

from balance.games.gem_mountain.codes import (
    ACT0,
    ACTED,
    ARROW2,
    BAD_RAID,
    BARRED,
    BLAST,
    BLAST_AT,
    BOMB,
    BOMBED,
    DISCARDED,
    EMPTY,
    END,
    EXPECT_ARROW2,
    FLIP_DOWN,
    FLIP_UP,
    FLIPPED,
    GEMS_GONE,
    GEMS_LEFT,
    GRAB,
    GRABS_DUE,
    HIDE,
    HOLES,
    IDLE,
    INFO_TAKEN,
    LAID,
    LAY,
    LIGHT,
    LIGHT_LINE,
    LIGHTBULB,
    LIT,
    LOOK,
    LOOK_AT,
    LOOKED,
    MAX_COLOURS,
    MULTIPLIER,
    PHASE,
    POSITIONS,
    RAID,
    RAID_AT,
    RANSACK,
    RANSACKED,
    REFILLED,
    REVEAL,
    REVEALED,
    SECOND,
    SECOND_ARROW,
    TILES_LEFT,
    TRASH,
    TURN,
    TURNED2,
    UNSEEN,
    USE,
    VALUES,
)
from balance.games.gem_mountain.shards_nb import holds_gem_nb
from balance.kernels.jit import njit
from balance.kit.nb import emit_nb, offer_nb

# -- set-up and what a seat sees ---------------------------------------------------------------


def dark_box(rules) -> list:
    """The expansion's tiles of the box, by code (none with it off)."""
    if not rules.dark_tunnels:
        return []
    out = []
    for code, n in ((ACT0 + LIGHTBULB, rules.lightbulb), (ACT0 + BOMB, rules.bomb),
                    (ACT0 + SECOND_ARROW, rules.second_arrow), (ACT0 + RANSACK, rules.ransack),
                    (TRASH, rules.trash), (MULTIPLIER, rules.multiplier)):
        out += [code] * n
    return out


@njit
def dark_start_nb(state, rules):
    """The mountain dealt face down: no seat knows a tile of it."""
    for i in range(state.grid.shape[0]):
        down = state.grid[i] != EMPTY
        state.dark[i] = 1 if down else 0
        for q in range(rules.players):
            state.seen[q, i] = 0 if down else 1
    state.dk[:] = 0
    state.dk[ARROW2] = -1
    state.dk[EXPECT_ARROW2] = -1
    state.mult[:] = 0
    for q in range(rules.players):  # a Trash dealt as a start tile is held from the start
        state.trash[q] = state.hand[q, TRASH]


@njit(inline=True)
def shown_nb(state, seat, cell):
    """The tile at `cell` as `seat` knows it: its code, or UNSEEN."""
    return state.grid[cell] if state.seen[seat, cell] else UNSEEN


@njit(inline=True)
def barred_nb(state, seat, code):
    """A tile the seat sees is of a colour it laid a Multiplier on: it may not take it."""
    return 0 <= code < ACT0 and state.mult[seat, code // VALUES] > 0


@njit(inline=True)
def gem_code_nb(state, rules, code):
    """The tile counts as a gem on the mountain: a colour's, or with Gemshards a Wildcard or a
    divided tile with a gem section (the game ends when none is left)."""
    return (0 <= code < ACT0) or (rules.gemshards != 0 and code >= 0
                                  and holds_gem_nb(state, code))


@njit(inline=True)
def around_nb(pos, n):
    """Arrow position pos turned n eighths clockwise, among the eight or, for a position
    Teleport Arrow reached (Gemshards), among the eight between them."""
    if pos < POSITIONS:
        return (pos + n) % POSITIONS
    return POSITIONS + (pos - POSITIONS + n) % POSITIONS


@njit(inline=True)
def turn_up_nb(state, rules, cell):
    state.dark[cell] = 0
    for q in range(rules.players):
        state.seen[q, cell] = 1


@njit(inline=True)
def neighbour_nb(rules, i, d):
    """Cell i's neighbour in direction d (up, down, left, right), or -1 off the grid."""
    r, c = i // rules.cols, i % rules.cols
    if d == 0 and r > 0:
        return i - rules.cols
    if d == 1 and r < rules.rows - 1:
        return i + rules.cols
    if d == 2 and c > 0:
        return i - 1
    if d == 3 and c < rules.cols - 1:
        return i + 1
    return -1


@njit(inline=True)
def layer_top_nb(state, tables, pos):
    best = 1 << 30
    layer = tables.layer[pos]
    for i in range(state.grid.shape[0]):
        if state.grid[i] != EMPTY and layer[i] < best:
            best = layer[i]
    return best


@njit(inline=True)
def on_top_nb(state, tables, cell):
    """The cell is in the top layer of the first arrow or of the second."""
    pos, pos2 = state.arrow[0], state.dk[ARROW2]
    if tables.layer[pos, cell] == layer_top_nb(state, tables, pos):
        return True
    return pos2 >= 0 and tables.layer[pos2, cell] == layer_top_nb(state, tables, pos2)


# -- the decision at hand ----------------------------------------------------------------------

@njit(inline=True)
def dark_grabs_nb(state, tables, rules, seat):
    """The grabs: the tops of both arrows, each tile as the seat knows it, none it may not
    take; the end of the turn when every tile there is barred to it."""
    kit = state.kit
    pos, pos2 = state.arrow[0], state.dk[ARROW2]
    top = layer_top_nb(state, tables, pos)
    top2 = layer_top_nb(state, tables, pos2) if pos2 >= 0 else -1
    n = 0
    for i in range(state.grid.shape[0]):
        if state.grid[i] == EMPTY:
            continue
        here = tables.layer[pos, i] == top
        there = pos2 >= 0 and tables.layer[pos2, i] == top2
        if here or there:
            code = shown_nb(state, seat, i)
            if not barred_nb(state, seat, code):
                offer_nb(kit, GRAB, i, code, tables.layer[pos, i] if here
                         else tables.layer[pos2, i])
                n += 1
    if n == 0:
        offer_nb(kit, END, 0, 0, 0)


@njit(inline=True)
def usable_dark_nb(state, rules, seat, a):
    """Tiles of the expansion's action a the seat may use now, 0 where it has nothing to do."""
    held = state.hand[seat, ACT0 + a]
    if held <= 0:
        return 0
    if a == LIGHTBULB and not any_dark_nb(state):
        return 0
    if (a == BOMB or a == SECOND_ARROW) and state.ph[TILES_LEFT] < 1:
        return 0
    if a == RANSACK and not any_raid_nb(state, rules, seat):
        return 0
    return held


@njit(inline=True)
def any_dark_nb(state):
    for i in range(state.grid.shape[0]):
        if state.dark[i]:
            return True
    return False


@njit
def raid_targets_nb(state, rules, seat, up, offer):
    """The tiles next to face-up cell `up` the seat may collect; offered when `offer`."""
    n = 0
    for d in range(4):
        j = neighbour_nb(rules, up, d)
        if j >= 0 and state.grid[j] != EMPTY:
            code = shown_nb(state, seat, j)
            if not barred_nb(state, seat, code):
                if offer:
                    offer_nb(state.kit, RAID_AT, j, code, 0)
                n += 1
    return n


@njit
def any_raid_nb(state, rules, seat):
    for i in range(state.grid.shape[0]):
        if (state.grid[i] != EMPTY and not state.dark[i]
                and raid_targets_nb(state, rules, seat, i, False) > 0):
            return True
    return False


@njit(inline=True)
def layable_nb(state, rules, seat, k):
    return state.hand[seat, MULTIPLIER] > 0 and state.cnt[seat, k] > 0 and \
        state.mult[seat, k] == 0


@njit
def dark_can_act_nb(state, rules, seat, may_act):
    """Something of the expansion the seat may still do this turn: lay a Multiplier (no
    action) or, when the rules allow an action now, use one of its actions."""
    for k in range(rules.colours):
        if layable_nb(state, rules, seat, k):
            return True
    if may_act:
        for a in range(LIGHTBULB, RANSACK + 1):
            if usable_dark_nb(state, rules, seat, a) > 0:
                return True
    return False


@njit(inline=True)
def dark_turn_options_nb(state, rules, seat, may_act):
    """The expansion's options beside the grabs: its actions, and each pile a Multiplier
    may be laid on."""
    kit = state.kit
    if may_act:
        for a in range(LIGHTBULB, RANSACK + 1):
            held = usable_dark_nb(state, rules, seat, a)
            if held > 0:
                offer_nb(kit, USE, a, held, 0)
    for k in range(rules.colours):
        if layable_nb(state, rules, seat, k):
            offer_nb(kit, LAY, k, state.cnt[seat, k], 0)


@njit
def dark_options_nb(state, tables, rules, seat, phase):
    """The expansion's decisions: the information step, Lightbulb, Bomb and Ransack's
    targets."""
    kit = state.kit
    cells = state.grid.shape[0]
    if phase == LOOK:
        for i in range(cells):
            if state.dark[i] and not state.seen[seat, i]:
                offer_nb(kit, LOOK_AT, i, 0, 0)
    elif phase == REVEAL:
        for i in range(cells):
            if state.dark[i]:
                offer_nb(kit, FLIP_UP, i, shown_nb(state, seat, i), 0)
    elif phase == LIGHT:
        for line in range(2):
            for x in range(rules.rows if line == 0 else rules.cols):
                n = 0
                for y in range(rules.cols if line == 0 else rules.rows):
                    i = x * rules.cols + y if line == 0 else y * rules.cols + x
                    n += state.dark[i]
                if n > 0:
                    offer_nb(kit, LIGHT_LINE, x, line, n)
    elif phase == BLAST:
        for r in range(rules.rows - 1):
            for c in range(rules.cols - 1):
                i = r * rules.cols + c
                n = ((state.grid[i] != EMPTY) + (state.grid[i + 1] != EMPTY)
                     + (state.grid[i + rules.cols] != EMPTY)
                     + (state.grid[i + rules.cols + 1] != EMPTY))
                if n > 0:
                    offer_nb(kit, BLAST_AT, i, n, 0)
    elif phase == HIDE:
        for i in range(cells):
            if (state.grid[i] != EMPTY and not state.dark[i]
                    and raid_targets_nb(state, rules, seat, i, False) > 0):
                offer_nb(kit, FLIP_DOWN, i, state.grid[i], 0)
    else:
        raid_targets_nb(state, rules, seat, state.dk[FLIPPED], True)


# -- what an option does -----------------------------------------------------------------------

@njit
def dark_use_nb(state, rules, a):
    """One of the expansion's action tiles used (its tile already discarded)."""
    if a == LIGHTBULB:
        state.ph[PHASE] = LIGHT
    elif a == BOMB:
        state.ph[PHASE] = BLAST
    elif a == RANSACK:
        state.ph[PHASE] = HIDE
    elif state.dk[ARROW2] >= 0:
        state.dk[ARROW2] = -1
        emit_nb(state.kit, SECOND, -1, 0, 0, 0)
    else:
        state.dk[ARROW2] = around_nb(state.arrow[0], POSITIONS // 2)
        emit_nb(state.kit, SECOND, state.dk[ARROW2], 0, 0, 0)


@njit
def dark_apply_nb(state, tables, rules, seat, kind, a, b):
    """An option of the expansion's applied. rules_nb goes on by what it returns: 1 Ransack
    collected a tile (settled as a grab's, then the turn ends), 2 the information step was
    taken (the turn ends), 0 nothing more."""
    kit = state.kit
    ph = state.ph
    if kind == LOOK_AT:
        state.seen[seat, a] = 1
        emit_nb(kit, LOOKED, a, state.grid[a], 0, 0)
        ph[PHASE] = TURN
        return 2
    if kind == FLIP_UP:
        turn_up_nb(state, rules, a)
        emit_nb(kit, REVEALED, a, state.grid[a], 0, 0)
        ph[PHASE] = TURN
        return 2
    if kind == LAY:
        state.hand[seat, MULTIPLIER] -= 1
        state.mult[seat, a] += 1
        emit_nb(kit, LAID, a, 0, 0, 0)
        return 0
    ph[PHASE] = TURN
    if kind == LIGHT_LINE:
        n = 0
        for y in range(rules.cols if b == 0 else rules.rows):
            i = a * rules.cols + y if b == 0 else y * rules.cols + a
            if state.dark[i]:
                turn_up_nb(state, rules, i)
                n += 1
        emit_nb(kit, LIT, a, b, n, 0)
        return 0
    if kind == BLAST_AT:
        n = 0
        for d in range(4):
            i = a + (d // 2) * rules.cols + d % 2
            code = state.grid[i]
            if code != EMPTY:
                state.grid[i] = EMPTY
                turn_up_nb(state, rules, i)
                ph[TILES_LEFT] -= 1
                if gem_code_nb(state, rules, code):
                    ph[GEMS_LEFT] -= 1
                ph[DISCARDED] += 1
                if code < state.gone.shape[0]:  # a divided tile has no column of the hand
                    state.gone[code] += 1
                state.hole[state.dk[HOLES]] = i
                state.dk[HOLES] += 1
                n += 1
        emit_nb(kit, BOMBED, a, n, 0, 0)
        return 0
    if kind == FLIP_DOWN:
        state.dark[a] = 1  # every seat saw it face up: all still know it
        state.dk[FLIPPED] = a
        ph[PHASE] = RAID
        emit_nb(kit, RANSACKED, a, -1, 0, 0)
        return 0
    # RAID_AT: a tile next to the tile turned down, collected; the turn ends.
    near = False
    for d in range(4):
        near = near or neighbour_nb(rules, state.dk[FLIPPED], d) == a
    if not near:
        state.dk[BAD_RAID] = 1
    emit_nb(kit, RANSACKED, state.dk[FLIPPED], a, state.grid[a], 0)
    ph[GRABS_DUE] = 0
    return 1


# -- the turn's end ----------------------------------------------------------------------------

@njit
def info_step_nb(state, rules, seat):
    """The information step, once a turn, when there is a tile for it: True when the turn
    now waits for the seat's choice of that tile."""
    if state.dk[INFO_TAKEN]:
        return False
    state.dk[INFO_TAKEN] = 1
    used = state.ph[ACTED] > 0
    for i in range(state.grid.shape[0]):
        if state.dark[i] and (used or not state.seen[seat, i]):
            state.ph[PHASE] = REVEAL if used else LOOK
            return True
    return False


@njit
def turn_second_nb(state):
    """The second arrow turns with the first (the lock holds both)."""
    pos2 = state.dk[ARROW2]
    if pos2 >= 0:
        state.dk[EXPECT_ARROW2] = pos2 if state.arrow[1] else around_nb(pos2, 2)
        if not state.arrow[1]:
            state.dk[ARROW2] = around_nb(pos2, 2)
            emit_nb(state.kit, TURNED2, state.dk[ARROW2], 0, 0, 0)


@njit
def refill_nb(state, rules):
    """The skipped turn's work: the Bomb's hole refilled face down from the deck, as far as
    the deck goes. The tiles put back."""
    n = 0
    for h in range(state.dk[HOLES]):
        i = state.hole[h]
        if state.deck_n[0] == 0 or state.grid[i] != EMPTY:  # a Swap may have filled it
            continue
        state.deck_n[0] -= 1
        code = state.deck[state.deck_n[0]]
        state.grid[i] = code
        state.dark[i] = 1
        for q in range(rules.players):
            state.seen[q, i] = 0
        state.ph[TILES_LEFT] += 1
        if gem_code_nb(state, rules, code):
            state.ph[GEMS_LEFT] += 1
        n += 1
    state.dk[HOLES] = 0
    emit_nb(state.kit, REFILLED, n, 0, 0, 0)
    return n


@njit(inline=True)
def new_turn_nb(state):
    state.dk[INFO_TAKEN] = 0


@njit(inline=True)
def stalled_nb(state, rules):
    """A turn ends: True when this and the turns before it, 4 x players in a row, took no
    tile (a tile taken sets State.dk[IDLE] back to 0)."""
    state.dk[IDLE] += 1
    return state.dk[IDLE] > 4 * rules.players


@njit(inline=True)
def end_reason_nb(state, rules):
    return BARRED if rules.dark_tunnels and state.dk[IDLE] > 4 * rules.players else GEMS_GONE


# -- invariants --------------------------------------------------------------------------------

@njit
def dark_broken_nb(state, rules):
    """0, or which of the expansion's invariants (after the base game's four) is broken:
    5 a seat does not know an empty or face-up cell; 6 a Trash left a hand; 7 the second
    arrow did not turn with the first; 8 Ransack collected a tile not next to the one it
    turned down."""
    for i in range(state.grid.shape[0]):
        if state.grid[i] == EMPTY or not state.dark[i]:
            for q in range(rules.players):
                if not state.seen[q, i]:
                    return 5
        if state.grid[i] == EMPTY and state.dark[i]:
            return 5
    for q in range(rules.players):
        if state.hand[q, TRASH] != state.trash[q]:
            return 6
    ph = state.ph
    if (ph[PHASE] == TURN and ph[ACTED] == 0 and state.dk[EXPECT_ARROW2] >= 0
            and state.dk[ARROW2] >= 0 and state.dk[ARROW2] != state.dk[EXPECT_ARROW2]):
        return 7
    if state.dk[BAD_RAID]:
        return 8
    return 0


@njit
def laid_nb(state, rules):
    """The Multipliers laid on piles: tiles out of the hands, still in the game."""
    n = 0
    for q in range(rules.players):
        for k in range(MAX_COLOURS):
            n += state.mult[q, k]
    return n


# -- the search's worlds -----------------------------------------------------------------------

@njit
def recount_nb(state, rules):
    """The mountain's gems counted again: after the kit redrew the tiles a seat does not
    know, the mountain may hold more or fewer gems than before."""
    gems = 0
    for i in range(state.grid.shape[0]):
        if gem_code_nb(state, rules, state.grid[i]):
            gems += 1
    state.ph[GEMS_LEFT] = gems

