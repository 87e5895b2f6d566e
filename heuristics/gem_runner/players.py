"""Gem Runner's own player, beside the neutral random and scripted ones: a compiled decision
function that the generated dispatch calls with the arguments its roster entry names
(registry.py). It plans with the same searches as the Computer (balance/games/gem_runner/
plans_nb.py) over its own hand and what lies face up: it reads no hidden card."""

from balance.games.gem_runner.cards_nb import copy_held_nb, held_n_nb, who_nb
from balance.games.gem_runner.codes import (
    BEAT,
    BUG,
    BUG_FIX,
    BUG_ON,
    BUGS_OFF,
    BUILD,
    CHAIN,
    COMPUTER,
    CREATOR,
    DIG,
    DIG_CARD,
    DISCARD,
    FIX,
    KIND,
    POS,
    RUNNER,
    THROW,
)
from balance.games.gem_runner.plans_nb import (
    build_choice_nb,
    dig_choice_nb,
    fix_choice_nb,
    option_of_nb,
    run_choice_nb,
    through_nb,
)
from balance.kernels.jit import njit
from balance.kit.state import AUTOMA, OFFERED, SEAT

# Its knobs, in the order of `w` (registry.py): build_step_nb's four weights first.
(HAZARD_W, SUPER_W, REPEAT_W, CHAIN_W, POOL_FIRST, GEM_ON_GEM, HARD, BUG_WAY, DROP_BUG,
 DROP_FIX) = range(10)


@njit(inline=True)
def holds_nb(st, ru, w, kind, tb):
    """How many cards of that kind w holds."""
    n = 0
    for j in range(held_n_nb(st, ru, w)):
        card = st.comp[j] if w == ru.players else st.hand[w, j]
        n += tb.card[card, KIND] == kind
    return n


@njit(inline=True)
def computer_fixes_nb(st, tb, ru):
    """Does the Computer hold a Bug Fix (face up)? It answers every Bug with it, and keeps it
    until every Bug of the game has been played: a seat's Bug then wins no Gem of its."""
    return ru.play == COMPUTER and holds_nb(st, ru, ru.players, BUG_FIX, tb) > 0


@njit(inline=True)
def bug_unseen_nb(st, tb, ru, seat):
    """May a Bug be where the runner of the seat's Challenges could play it? Every Bug of
    the game is counted out that the seat sees in its own hand or face up on a discard pile
    (the Computer's cards, face up, are not counted out: it plays the Bugs it keeps)."""
    bugs = 0
    for c in range(tb.card.shape[0]):
        bugs += tb.card[c, KIND] == BUG
    seen = holds_nb(st, ru, seat, BUG, tb)
    for d in range(st.disc.shape[0]):
        for i in range(st.disc_n[d]):
            seen += tb.card[st.disc[d, i], KIND] == BUG
    return seen < bugs


@njit(inline=True)
def dead_nb(st, tb, ru, seat, card, drop_bug, drop_fix):
    """Is the seat's Bug card one to give up? A Bug is played only at the final Gem of a
    Challenge the seat runs, only while it holds a Chain (the Bug lets a Chain win the Gem),
    and in vain against a Computer holding a Bug Fix: `drop_bug` 1 gives it up then, 2
    always. A Bug Fix is played only on a Challenge the seat built, against a Bug its runner
    plays: `drop_fix` 1 gives it up when no Bug can be there (every Bug of the game lies in
    the seat's hand or face up on a discard pile), 2 unless its runner is seen holding one
    (the Computer's cards lie face up; a seat's hand is hidden), 3 always. With Bugs off,
    both go."""
    kind = tb.card[card, KIND]
    if kind != BUG and kind != BUG_FIX:
        return False
    if ru.bug_rule == BUGS_OFF:
        return True
    if kind == BUG:
        if drop_bug == 1:
            return holds_nb(st, ru, seat, CHAIN, tb) == 0 or computer_fixes_nb(st, tb, ru)
        return drop_bug == 2
    if drop_fix == 1:
        return not bug_unseen_nb(st, tb, ru, seat)
    if drop_fix == 2:
        return not (ru.play == COMPUTER and holds_nb(st, ru, ru.players, BUG, tb) > 0)
    return drop_fix == 3


@njit(inline=True)
def drop_dead_nb(st, tb, ru, seat, option, w):
    """The option that gives up a Bug card dead_nb names (`option`: THROW or DIG_CARD), or
    -1."""
    kit = st.kit
    drop_bug, drop_fix = int(w[DROP_BUG] + 0.5), int(w[DROP_FIX] + 0.5)
    for i in range(kit.sc[OFFERED]):
        card = kit.opt[i, 1]
        if kit.opt[i, 0] == option and card >= 0 and dead_nb(
                st, tb, ru, seat, card, drop_bug, drop_fix):
            return i
    return -1


@njit(inline=True)
def bug_way_nb(st, tb, ru, gem_on_gem):
    """A Hazard's card on a way through that wins the Gem with a Chain under a Bug, where no
    way wins it without: -1 when there is none, when the runner holds no Bug, or when the
    Computer builds and holds a Bug Fix. At the Gem itself run_choice_nb plays the Bug."""
    ph = st.ph
    if ru.bug_rule == BUGS_OFF or ph[BUG_ON] != 0:
        return -1
    w = who_nb(ru, ph[RUNNER])
    if holds_nb(st, ru, w, BUG, tb) == 0:
        return -1
    if ph[CREATOR] == AUTOMA and computer_fixes_nb(st, tb, ru):
        return -1
    row = st.scratch
    n = copy_held_nb(st, ru, w, row)
    if ph[POS] == st.chal_n[0] - 1 \
            or through_nb(st, tb, ru, n, ph[POS], 0, gem_on_gem) >= 0:
        return -1
    j = through_nb(st, tb, ru, n, ph[POS], 1, gem_on_gem)
    if j < 0:
        return -1
    return option_of_nb(st.kit, BEAT, row[j])


@njit
def runner_choose_nb(kind, st, tb, ru, w):
    """Builds the Challenge its weights value most (Hazards, Super Needs, Needs repeating the
    Gem's Element, Needs few cards of the game meet, Chains spent), a Pool Gem first while
    `pool_first`; runs to the Gem when its hand can, a Gem card on the Gem first while
    `gem_on_gem`, with a Bug and a Chain on the Gem while `bug_way`, else wins a Gem card on
    a Hazard; answers every Bug; discards (and digs away) a dead Bug card (dead_nb)."""
    if kind == BUILD or kind == DIG:
        # Digging for a Gem gives up a card: offered last while building, when no Gem is at
        # hand (the check keeps the scan off the builds that have one).
        kit = st.kit
        if kit.opt[kit.sc[OFFERED] - 1, 0] == DIG_CARD:
            i = drop_dead_nb(st, tb, ru, st.ph[CREATOR], DIG_CARD, w)
            if i >= 0:
                return i
        if kind == DIG:
            return dig_choice_nb(st, tb)
        return build_choice_nb(st, tb, ru, w, w[POOL_FIRST] > 0.5, w[HARD])
    if kind == DISCARD:
        i = drop_dead_nb(st, tb, ru, st.kit.sc[SEAT], THROW, w)
        return max(i, 0)
    if kind == FIX:
        return fix_choice_nb(st)
    if w[BUG_WAY] > 0.5:
        i = bug_way_nb(st, tb, ru, w[GEM_ON_GEM] > 0.5)
        if i >= 0:
            return i
    return run_choice_nb(st, tb, ru, w[GEM_ON_GEM] > 0.5, False)
