"""Plans over the cards one holds, compiled: the Challenge worth most that a hand can still lay
(a search over the orders of its Hazards and Chains), and a way through a Challenge (a card for
each Hazard left and for the Gem). The Computer's play (computer_choice_nb, the rulebook's
priorities with its levers) and the players' heuristic (heuristics/gem_runner/) are both made
of them. They read the cards the chooser holds and what lies face up: nothing hidden from it."""

from balance.games.gem_runner.cards_nb import (
    beats_nb,
    card_at_nb,
    copy_held_nb,
    fits_nb,
    who_nb,
)
from balance.games.gem_runner.codes import (
    ANY,
    BEAT,
    BOSS,
    BUG_ON,
    BUILD,
    CHAIN,
    CREATOR,
    DIG,
    DIG_CARD,
    EDGE,
    FIX,
    GEM,
    HAND_GEM,
    HAZARD,
    KIND,
    MAX_CHALLENGE,
    NEED_EL,
    NEED_SUPER,
    PHASE,
    PLACED_CHAINS,
    PLACED_HAZARDS,
    PLAY_BUG,
    PLAY_FIX,
    POOL_GEM,
    POS,
    PUT_CHAIN,
    PUT_HAZARD,
    RIGHT,
    RUN,
    RUNNER,
    STACK_GEM,
    STOP,
)
from balance.kernels.jit import njit
from balance.kit.state import OFFERED

NO_ELEMENT = -2  # a Gem's Need not counted for repeats


@njit(inline=True)
def build_step_nb(state, tables, rules, seat, gem_el, w, hard):
    """The card to lay next for the Challenge worth most from here (a place in the seat's
    cards), or -1 to end it with its Gem now; and what the cards laid from here add. A
    Challenge is worth w[0] a Hazard, w[1] more for a Need with a Super move, w[2] more for a
    Need whose Element is the Gem's (`gem_el`), `hard` times the share of the game's cards
    that do not beat it more (Tables.beaten), and w[3] less a Chain. A search over every
    order of the cards (a stack, State.dfs: compiled code does not recurse here)."""
    ph = state.ph
    row = state.scratch
    n = copy_held_nb(state, rules, who_nb(rules, seat), row)
    room = MAX_CHALLENGE - 2 - state.chal_n[0]
    stk, val = state.dfs, state.dfs_v
    stk[0, 0], stk[0, 1], stk[0, 2] = 0, 0, ph[EDGE]
    stk[0, 3], stk[0, 4], stk[0, 5] = ph[PLACED_HAZARDS], ph[PLACED_CHAINS], -1
    val[0] = 0.0
    best, at = 0.0, -1
    depth = 0
    while depth >= 0:
        j = stk[depth, 0]
        if j >= n or depth >= room:
            depth -= 1
            continue
        stk[depth, 0] = j + 1
        used = stk[depth, 1]
        if (used >> j) & 1:
            continue
        card = row[j]
        kind = tables.card[card, KIND]
        hazards, chains = stk[depth, 3], stk[depth, 4]
        if kind == HAZARD or kind == BOSS:
            if hazards >= rules.base_hazards + rules.chain_adds * chains \
                    or not fits_nb(tables, stk[depth, 2], card):
                continue
            add = w[0] + w[1] * tables.card[card, NEED_SUPER] \
                + w[2] * (tables.card[card, NEED_EL] == gem_el) \
                + hard * (1.0 - tables.beaten[card])
            edge = tables.card[card, RIGHT]
            hazards += 1
        elif kind == CHAIN:
            add = -w[3]
            edge = ANY
            chains += 1
        else:
            continue
        first = stk[depth, 5] if depth > 0 else j
        v = val[depth] + add
        if v > best:
            best, at = v, first
        depth += 1
        stk[depth, 0], stk[depth, 1], stk[depth, 2] = 0, used | (1 << j), edge
        stk[depth, 3], stk[depth, 4], stk[depth, 5] = hazards, chains, first
        val[depth] = v
    return at, best


@njit(inline=True)
def option_of_nb(kit, kind, card):
    """The index of the option of that kind for that card, or -1."""
    for i in range(kit.sc[OFFERED]):
        if kit.opt[i, 0] == kind and kit.opt[i, 1] == card:
            return i
    return -1


@njit(inline=True)
def first_of_nb(kit, kind):
    for i in range(kit.sc[OFFERED]):
        if kit.opt[i, 0] == kind:
            return i
    return -1


@njit(inline=True)
def build_choice_nb(state, tables, rules, w, pool_first, hard):
    """A builder's pick: the Gem that the best Challenge ends with (a Pool Gem first when
    `pool_first`, else the hand's first; the first offered of the kind, or among them the
    one whose Need's Element most Hazards repeat when w[2] counts repeats, and, with `hard`,
    the one fewest cards beat), then, while a card adds to it, the next card of that
    Challenge."""
    kit = state.kit
    seat = state.ph[CREATOR]
    hand_gem = first_of_nb(kit, HAND_GEM)
    pool_gem = first_of_nb(kit, POOL_GEM)
    first = pool_gem if (pool_first and pool_gem >= 0) or hand_gem < 0 else hand_gem
    if first < 0:
        first = first_of_nb(kit, STACK_GEM)
    if first < 0:
        return dig_choice_nb(state, tables)
    kind = kit.opt[first, 0]
    best_at, best_v, gem_opt = -1, -1.0, first
    seen = 0  # the Gems' Need Elements searched already: another of one is worth no more
    for i in range(kit.sc[OFFERED]):
        if kit.opt[i, 0] != kind:
            continue
        gem = kit.opt[i, 1]
        gem_el = tables.card[gem, NEED_EL] if w[2] != 0 else NO_ELEMENT
        if gem_el >= 0 and hard == 0:
            if (seen >> gem_el) & 1:
                continue
            seen |= 1 << gem_el
        at, v = build_step_nb(state, tables, rules, seat, gem_el, w, hard)
        v += hard * (1.0 - tables.beaten[gem])
        if v > best_v:
            best_at, best_v, gem_opt = at, v, i
        if w[2] == 0 and hard == 0:
            break
    if best_at < 0:
        return gem_opt
    card = card_at_nb(state, rules, who_nb(rules, seat), best_at)
    put = PUT_CHAIN if tables.card[card, KIND] == CHAIN else PUT_HAZARD
    return max(option_of_nb(kit, put, card), 0)


@njit(inline=True)
def dig_choice_nb(state, tables):
    """Digging for a Gem: the first Hazard offered goes (Chains, Bugs and Bug Fixes kept)."""
    kit = state.kit
    for i in range(kit.sc[OFFERED]):
        card = kit.opt[i, 1]
        if kit.opt[i, 0] == DIG_CARD and card >= 0:
            kind = tables.card[card, KIND]
            if kind == HAZARD or kind == BOSS:
                return i
    return 0


@njit(inline=True)
def past_chains_nb(tables, chal, pos, last):
    while pos < last and tables.card[chal[pos], KIND] == CHAIN:
        pos += 1
    return pos


@njit(inline=True)
def through_nb(state, tables, rules, n, pos, bug_on, gem_on_gem):
    """The card (a place among the n of State.scratch) for the Challenge's card at `pos` on
    a way through to its Gem, or -1 for none: Hazards by cards that are not Gems (a Gem would
    end the run), plain cards before Chains; the Gem by a Gem card first when `gem_on_gem`
    (it wins both). A search with a stack (State.dfs), the first way found in that order."""
    row, chal, stk = state.scratch, state.chal, state.dfs
    last = state.chal_n[0] - 1
    stk[0, 0], stk[0, 1], stk[0, 2], stk[0, 3] = 0, 0, past_chains_nb(tables, chal, pos,
                                                                      last), -1
    depth = 0
    while depth >= 0:
        k = stk[depth, 0]
        if k >= 2 * n:
            depth -= 1
            continue
        stk[depth, 0] = k + 1
        second, j = k // n, k % n
        used, at = stk[depth, 1], stk[depth, 2]
        if (used >> j) & 1:
            continue
        card = row[j]
        kind = tables.card[card, KIND]
        if not beats_nb(tables, rules, card, chal[at], bug_on):
            continue
        first = stk[depth, 3] if depth > 0 else j
        if at == last:
            if (second == 0) == (kind == GEM and gem_on_gem):
                return first
            continue
        if kind == GEM or (kind == CHAIN) != (second == 1):
            continue
        depth += 1
        stk[depth, 0], stk[depth, 1] = 0, used | (1 << j)
        stk[depth, 2], stk[depth, 3] = past_chains_nb(tables, chal, at + 1, last), first
    return -1


@njit(inline=True)
def run_choice_nb(state, tables, rules, gem_on_gem, earliest):
    """A runner's pick: on a way through to the Gem if there is one (a Bug played at the Gem
    when only a Chain can win it); else a Gem card on this Hazard (it wins itself); else, with
    `earliest`, a plain card on this Hazard while a later Hazard could take a Gem card;
    else stop."""
    kit = state.kit
    ph = state.ph
    row = state.scratch
    n = copy_held_nb(state, rules, who_nb(rules, ph[RUNNER]), row)
    pos = ph[POS]
    last = state.chal_n[0] - 1
    j = through_nb(state, tables, rules, n, pos, ph[BUG_ON], gem_on_gem)
    if j >= 0:
        return max(option_of_nb(kit, BEAT, row[j]), 0)
    bug = first_of_nb(kit, PLAY_BUG)
    if bug >= 0 and through_nb(state, tables, rules, n, pos, 1, gem_on_gem) >= 0:
        return bug
    stop = first_of_nb(kit, STOP)
    if pos == last:
        return stop
    for i in range(kit.sc[OFFERED]):
        if kit.opt[i, 0] == BEAT and tables.card[kit.opt[i, 1], KIND] == GEM:
            return i
    if earliest:
        later = False
        for k in range(pos + 1, last):
            for q in range(n):
                if tables.card[row[q], KIND] == GEM and beats_nb(tables, rules, row[q],
                                                                 state.chal[k], 0):
                    later = True
        if later:
            for i in range(kit.sc[OFFERED]):
                if kit.opt[i, 0] == BEAT and tables.card[kit.opt[i, 1], KIND] != GEM:
                    return i
    return stop


@njit(inline=True)
def fix_choice_nb(state):
    """A Bug answered whenever a Bug Fix is held."""
    return max(first_of_nb(state.kit, PLAY_FIX), 0)


# The Computer's weights (build_step_nb's w): the longest Challenge first; then Super Needs;
# then Needs repeating the Gem's Element; a Chain only where it lets a Hazard more in.
LONGEST, SUPER, REPEAT, CHAIN_COST = 1000.0, 10.0, 1.0, 0.01


@njit
def computer_choice_nb(state, tables, rules):
    """The Computer's pick, as the rulebook's Computer Rules write it, with its levers."""
    phase = state.ph[PHASE]
    if phase == BUILD:
        w = state.plan_w
        w[0] = LONGEST
        w[1] = SUPER if rules.computer_supers == 0 else 0.0
        w[2] = REPEAT if rules.computer_repeats == 0 else 0.0
        w[3] = CHAIN_COST
        return build_choice_nb(state, tables, rules, w, rules.computer_gem == 0, 0.0)
    if phase == DIG:
        return dig_choice_nb(state, tables)
    if phase == RUN:
        return run_choice_nb(state, tables, rules, True, True)
    if phase == FIX:
        return fix_choice_nb(state)
    return 0

