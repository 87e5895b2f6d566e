"""Gem Runner's own player, beside the neutral random and scripted ones: a compiled decision
function that the generated dispatch calls with the arguments its roster entry names
(registry.py). It plans with the same searches as the Computer (balance/games/gem_runner/
plans_nb.py) over its own hand and what lies face up: it reads no hidden card."""

from balance.games.gem_runner.codes import (
    BUG,
    BUG_FIX,
    BUGS_OFF,
    BUILD,
    DIG,
    DISCARD,
    FIX,
    KIND,
    THROW,
)
from balance.games.gem_runner.plans_nb import (
    build_choice_nb,
    dig_choice_nb,
    fix_choice_nb,
    run_choice_nb,
)
from balance.kernels.jit import njit
from balance.kit.state import OFFERED

# Its knobs, in the order of `w` (registry.py): build_step_nb's four weights first.
HAZARD_W, SUPER_W, REPEAT_W, CHAIN_W, POOL_FIRST, GEM_ON_GEM, HARD = range(7)


@njit
def runner_choose_nb(kind, st, tb, ru, w):
    """Builds the Challenge its weights value most (Hazards, Super Needs, Needs repeating the
    Gem's Element, Needs few cards of the game meet, Chains spent), a Pool Gem first while
    `pool_first`; runs to the Gem when
    its hand can, a Gem card on the Gem first while `gem_on_gem`, else wins a Gem card on a
    Hazard; answers every Bug; throws only dead Bug cards (Bugs off)."""
    if kind == BUILD:
        return build_choice_nb(st, tb, ru, w, w[POOL_FIRST] > 0.5, w[HARD])
    if kind == DIG:
        return dig_choice_nb(st, tb)
    if kind == DISCARD:
        if ru.bug_rule == BUGS_OFF:
            kit = st.kit
            for i in range(kit.sc[OFFERED]):
                if kit.opt[i, 0] == THROW:
                    k = tb.card[kit.opt[i, 1], KIND]
                    if k == BUG or k == BUG_FIX:
                        return i
        return 0
    if kind == FIX:
        return fix_choice_nb(st)
    return run_choice_nb(st, tb, ru, w[GEM_ON_GEM] > 0.5, False)
