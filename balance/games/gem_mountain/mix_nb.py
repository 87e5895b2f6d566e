"""Where Dark Tunnels meets Gemshards or Golden Actions (the guide's games/gem-mountain.md, "Where
the expansions meet", states every reading taken here). rules_nb.py calls it only when Dark
Tunnels and another expansion are on, so neither expansion alone, nor the base game, plays
through it.

The grabs: the tops of both arrows (and the layer below them, the Flashlight lit), each tile as
the seat knows it. A tile the seat has not seen is offered once, blind (UNSEEN): its sections,
and whether it is divided at all, stay hidden; taken, it counts as its section facing the
arrow it was grabbed by, the first clockwise when the arrow faces the line between two (a blind
grab has nothing to choose by). A blind grab of a Wildcard (or of a Wildcard section) by a seat
with no pile it may join is refused as the rulebook refuses it ("You can't grab a wildcard"):
the tile stays, turned face up, and the grab is spent. A tile the seat sees is offered as
Gemshards offers it, less what a Multiplier bars.

The hidden information: a divided tile's sections (State.sh) are known to a seat exactly when
the tile is (State.seen, or out of the mountain and the deck); the search's world deals the
sections of every divided tile its seat has not seen anew from the box (redeal_unseen_nb), as
the deal drew them, so that it cannot read them."""

from balance.games.gem_mountain.codes import (
    ACT0,
    ARROW2,
    BAD_GRAB,
    CREDIT,
    DIVIDED0,
    EMPTY,
    END,
    GEMS_LEFT,
    GRAB_SIDE,
    GRABBED,
    GRABBED_NOW,
    GRABS_DUE,
    IDLE,
    MULTIPLIER,
    OWNER,
    REVEALED,
    TAKE,
    TILES_LEFT,
    TRASH,
    TRUE_SIDE,
    UNSEEN,
    WILD,
    X_CODE0,
)
from balance.games.gem_mountain.dark_nb import barred_nb, layer_top_nb, turn_up_nb
from balance.games.gem_mountain.golden_nb import depth_nb
from balance.games.gem_mountain.shards_nb import (
    FACING,
    has_gem_nb,
    hold_nb,
    holds_gem_nb,
    sections_nb,
)
from balance.kernels.jit import njit
from balance.kit.nb import emit_nb, offer_nb


def sections_last(box: list[int]) -> list[int]:
    """The box with Trash and Multipliers moved just before the divided tiles: a divided tile's
    sections are drawn from the tiles before those (shards_nb.deal_nb), and neither is ever a
    section (a Trash a turn of its tile could shed would leave a hand; a Multiplier is laid
    out of the hand)."""
    aside = [c for c in box if c in (TRASH, MULTIPLIER)]
    rest = [c for c in box if c not in (TRASH, MULTIPLIER)]
    cut = next((j for j, c in enumerate(rest) if c > WILD), len(rest))
    return rest[:cut] + aside + rest[cut:]


@njit(inline=True)
def reach_nb(state, tables, pos, cell, deep):
    """The cell is in the top of arrow position pos, or `deep` layers below it."""
    top = layer_top_nb(state, tables, pos)
    return top <= tables.layer[pos, cell] <= top + deep


@njit(inline=True)
def facing_arrow_nb(state, tables, cell, deep):
    """The arrow whose reach the cell is in: the first's, else the second's; -1 for none."""
    if reach_nb(state, tables, state.arrow[0], cell, deep):
        return state.arrow[0]
    pos2 = state.dk[ARROW2]
    if pos2 >= 0 and reach_nb(state, tables, pos2, cell, deep):
        return pos2
    return -1


@njit(cold=True)
def mix_grabs_nb(state, tables, rules, seat):
    """The grabs (module doc), each a GRAB_SIDE option: (cell, tile or section as the seat knows
    it, layer); the end of the turn when there is none."""
    kit = state.kit
    deep = depth_nb(state)
    gem = has_gem_nb(state, rules, seat, 0)
    n = 0
    for i in range(state.grid.shape[0]):
        code = state.grid[i]
        if code == EMPTY:
            continue
        at = facing_arrow_nb(state, tables, i, deep)
        if at < 0:
            continue
        layer = tables.layer[at, i]
        if not state.seen[seat, i]:
            offer_nb(kit, GRAB_SIDE, i, UNSEEN, layer)
            n += 1
        elif code < DIVIDED0:
            if not barred_nb(state, seat, code) and (code != WILD or gem):
                offer_nb(kit, GRAB_SIDE, i, code, layer)
                n += 1
        else:
            d = code - DIVIDED0
            first = -2
            for j in range(2):
                e = FACING[at, j]
                if e < 0:
                    continue
                s = state.sh[d, e]
                if s == first or barred_nb(state, seat, s) or (s == WILD and not gem):
                    continue
                offer_nb(kit, GRAB_SIDE, i, s, layer)
                first = s
                n += 1
    if n == 0:
        offer_nb(kit, END, 0, 0, 0)


@njit(cold=True)
def mix_grab_nb(state, tables, rules, seat, cell, code):
    """GRAB_SIDE with Dark Tunnels on: the tile at `cell` taken as `code` (UNSEEN: blind),
    face up for all from then on; a grab outside both arrows' reach, or of a section not facing
    the arrow, marked for the invariants (BAD_GRAB)."""
    ph = state.ph
    at = facing_arrow_nb(state, tables, cell, depth_nb(state))
    if at < 0:
        ph[BAD_GRAB] = 1
        at = state.arrow[0]
    tile = state.grid[cell]
    blind = code == UNSEEN
    s, d, side = tile, -1, -1
    if tile >= DIVIDED0:
        d = tile - DIVIDED0
        for j in range(2):
            e = FACING[at, j]
            if e >= 0 and side < 0 and (blind or state.sh[d, e] == code):
                side = e
        if side < 0:
            ph[BAD_GRAB] = 1
            side = FACING[at, 0]
        s = state.sh[d, side]
    elif not blind and tile != code:
        ph[BAD_GRAB] = 1
    ph[GRABS_DUE] -= 1
    ph[GRABBED_NOW] += 1
    if s == WILD and not has_gem_nb(state, rules, seat, 0):
        # Refused by the rulebook: the blind grab shows the tile to all and leaves it.
        if not blind:
            ph[BAD_GRAB] = 1
        turn_up_nb(state, rules, cell)
        emit_nb(state.kit, REVEALED, cell, tile, 0, 0)
        return
    emit_nb(state.kit, GRABBED, cell, s, tables.layer[at, cell], 0)
    state.grid[cell] = EMPTY
    ph[TILES_LEFT] -= 1
    if tile < ACT0 or holds_gem_nb(state, tile):
        ph[GEMS_LEFT] -= 1
    turn_up_nb(state, rules, cell)
    state.dk[IDLE] = 0
    if tile == TRASH:
        state.trash[seat] += 1
    if d >= 0:
        state.sh[d, OWNER] = seat
        state.sh[d, TRUE_SIDE] = side
        state.sh[d, CREDIT] = s
    hold_nb(state, seat, s, d)


@njit(inline=True)
def x_thefts_nb(hand, players, seat):
    """How many of Steal's targets lie past Dark Tunnels' Trash and Multiplier (never stolen):
    Gemshards' and Golden Actions' action tiles in the others' hands (under steal_actions: the
    caller asks, behind its switches)."""
    n = 0
    for q in range(players):
        if q != seat:
            for code in range(X_CODE0, WILD):
                if hand[q, code] > 0:
                    n += 1
    return n


@njit(inline=True)
def offer_x_thefts_nb(hand, kit, players, seat):
    """x_thefts_nb's targets offered, each a TAKE."""
    for q in range(players):
        if q != seat:
            for code in range(X_CODE0, WILD):
                if hand[q, code] > 0:
                    offer_nb(kit, TAKE, q, code, hand[q, code])


@njit(cold=True)
def redeal_unseen_nb(state, tables, rules, seat):
    """The sections of every divided tile `seat` has not seen (face down on the mountain
    unlooked-at, or in the deck) dealt anew from the box with the game's stream, as the deal
    drew them (the search's world: its stream is its own)."""
    for i in range(state.grid.shape[0]):
        if state.grid[i] >= DIVIDED0 and not state.seen[seat, i]:
            sections_nb(state, tables, state.grid[i] - DIVIDED0)
    for j in range(state.deck_n[0]):
        if state.deck[j] >= DIVIDED0:
            sections_nb(state, tables, state.deck[j] - DIVIDED0)

