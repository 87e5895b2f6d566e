"""Golden Actions, Gem Mountain's expansion of "chaotic, powerful, spicy" actions (rules_nb.py
calls it through small hooks when `Rules.golden_actions` is on; the guide's
games/gem-mountain.md states every reading).

- Rumble: two tiles of the mountain, one after the other, each moved to an empty cell of the
  grid; the second is another tile than the first (it may go where the first was). The rule
  names no condition: the mountain may split (`rumble_connected` asks Swap's, no more groups
  than before).
- Flashlight (RECONSTRUCTED: the rulebook names it without a rule): its light reaches one layer
  deeper, so that this turn's grabs may also come from the layer below the top.

Its slots are State.sh's last row (shards_nb.py holds the layout); it imports nothing of
rules_nb.py, which imports it."""

from balance.games.gem_mountain.codes import (
    ACT0,
    CONNECTED_SLOT,
    DROP,
    EMPTY,
    FLASHED,
    FLASHLIGHT,
    GRABS_DUE,
    LANDED,
    LIFT,
    LIFTED,
    LIFTS_LEFT,
    LIT_TURN,
    PHASE,
    RUMBLE,
    RUMBLE_FROM,
    RUMBLE_TO,
    RUMBLED,
    TILES_LEFT,
    TURN,
    UNSEEN,
    expansions,
)
from balance.kernels.jit import njit
from balance.kit.nb import emit_nb, offer_nb, seat_nb, turns_nb


def golden_box(rules) -> list[int]:
    """Golden Actions' tiles of the box."""
    x = expansions(rules)
    return [ACT0 + RUMBLE] * x["rumble"] + [ACT0 + FLASHLIGHT] * x["flashlight"]


@njit(inline=True)
def xrow(state):
    return state.sh.shape[0] - 1


# -- Flashlight -------------------------------------------------------------------------------

@njit(inline=True)
def depth_nb(state):
    """The layers below the top this turn's grabs may reach: 1 with the Flashlight lit."""
    return 1 if state.sh[xrow(state), LIT_TURN] == turns_nb(state.kit) else 0


@njit(inline=True)
def may_light_nb(state):
    return state.ph[GRABS_DUE] > 0 and state.ph[TILES_LEFT] > 0 and depth_nb(state) == 0


@njit
def light_nb(state):
    state.sh[xrow(state), LIT_TURN] = turns_nb(state.kit)
    emit_nb(state.kit, FLASHED, 1, 0, 0, 0)


# -- Rumble -----------------------------------------------------------------------------------

@njit
def groups_nb(grid, rows, cols, stack, seen):
    """The mountain's groups of orthogonally adjacent tiles, counted (rules_nb.groups_nb's,
    on scratch arrays: rules_nb imports this module)."""
    cells = grid.shape[0]
    for i in range(cells):
        seen[i] = 0
    g = 0
    for s in range(cells):
        if grid[s] == EMPTY or seen[s]:
            continue
        g += 1
        seen[s] = 1
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
                elif d == 1 and r < rows - 1:
                    j = i + cols
                elif d == 2 and c > 0:
                    j = i - 1
                elif d == 3 and c < cols - 1:
                    j = i + 1
                if j >= 0 and grid[j] != EMPTY and not seen[j]:
                    seen[j] = 1
                    stack[top] = j
                    top += 1
    return g


@njit
def keeps_nb(state, rules, a, b, before):
    """The tile at a moved to the empty cell b leaves no more groups than `before`."""
    grid = state.grid
    code = grid[a]
    grid[b], grid[a] = code, EMPTY
    g = groups_nb(grid, rules.rows, rules.cols, state.work, state.label)
    grid[a], grid[b] = code, EMPTY
    return g <= before


@njit
def drops_nb(state, rules, kit, a, offer):
    """The empty cells the tile at a may move to: offered when `offer`; how many."""
    grid = state.grid
    before = 0
    connected = state.sh[xrow(state), CONNECTED_SLOT]
    if connected:
        before = groups_nb(grid, rules.rows, rules.cols, state.work, state.label)
    n = 0
    for b in range(grid.shape[0]):
        if grid[b] != EMPTY or b == a:
            continue
        if connected and not keeps_nb(state, rules, a, b, before):
            continue
        if offer:
            offer_nb(kit, DROP, b, 0, 0)
        n += 1
    return n


@njit
def lifts_nb(state, rules, kit, offer, landed):
    """The tiles Rumble may move now (not the one it moved already, at `landed`, and each
    with somewhere to go): offered when `offer`; how many."""
    grid = state.grid
    n = 0
    for a in range(grid.shape[0]):
        if grid[a] == EMPTY or a == landed:
            continue
        if state.sh[xrow(state), CONNECTED_SLOT] and drops_nb(state, rules, kit, a, False) == 0:
            continue
        if offer:  # as the seat knows it (Dark Tunnels)
            offer_nb(kit, LIFT, a, grid[a] if state.seen[seat_nb(kit), a] else UNSEEN, 0)
        n += 1
    return n


@njit(inline=True)
def may_rumble_nb(state, rules):
    """Rumble has two tiles to move and an empty cell for the first."""
    if state.ph[TILES_LEFT] < 2 or state.ph[TILES_LEFT] == state.grid.shape[0]:
        return False
    return lifts_nb(state, rules, state.kit, False, -1) > 0


@njit
def rumble_nb(state):
    """Rumble used: two moves to come."""
    x = xrow(state)
    state.sh[x, LIFTS_LEFT] = 2
    state.sh[x, LANDED] = -1
    state.ph[PHASE] = RUMBLE_FROM


@njit
def lift_nb(state, a):
    state.sh[xrow(state), LIFTED] = a
    state.ph[PHASE] = RUMBLE_TO


@njit
def drop_nb(state, rules, b):
    """The lifted tile put down at b; the second move next, if there is one to make."""
    x = xrow(state)
    a = state.sh[x, LIFTED]
    state.grid[b] = state.grid[a]
    state.grid[a] = EMPTY
    # A face-down tile stays so, and who knew it knows it still (Dark Tunnels; without it
    # every cell is face up and known, and this changes nothing).
    state.dark[b], state.dark[a] = state.dark[a], 0
    for q in range(state.seen.shape[0]):
        state.seen[q, b], state.seen[q, a] = state.seen[q, a], 1
    state.sh[x, LANDED] = b
    state.sh[x, LIFTS_LEFT] -= 1
    emit_nb(state.kit, RUMBLED, a, b, 0, 0)
    if state.sh[x, LIFTS_LEFT] > 0 and lifts_nb(state, rules, state.kit, False, b) > 0:
        state.ph[PHASE] = RUMBLE_FROM
    else:
        state.sh[x, LIFTS_LEFT] = 0
        state.ph[PHASE] = TURN
