"""Rusship's forward model (balance/contract/forward.py; FORWARD at the end, Game.forward),
for the search player (heuristics/search.py): copy a game, resample what a player cannot
know, play on, score the end. The kit's part is balance/kit/forward.py.

The only hidden information is the dice not yet rolled: a player sees the whole track, both
supplies and every power. So resampling reseeds the game's stream, and a rollout's future
rolls are new ones, never the real game's.
"""

from balance.contract.forward import ForwardModel
from balance.games.rusship.engine.state import (
    D_DICE,
    D_MOVE,
    D_PLUS,
    D_POWER,
    D_REROLL,
    MAX_OPTS,
    RECORD,
    new_state,
)
from balance.kernels.copy_nb import copy_array_nb
from balance.kernels.jit import njit
from balance.kit.forward import copy_kit_nb, kit_value_nb, reseed_chance_nb
from balance.kit.state import new_kit


def new_forward_state(tables, rules):
    return new_state(rules, new_kit(rules.players, 0, len(RECORD), MAX_OPTS))


@njit
def copy_state_nb(dst, src):
    """dst <- src: everything a game plays on from (not the trace)."""
    copy_kit_nb(dst.kit, src.kit)
    copy_array_nb(dst.sc, src.sc)
    copy_array_nb(dst.pos, src.pos)
    copy_array_nb(dst.occ, src.occ)
    copy_array_nb(dst.ms, src.ms)
    copy_array_nb(dst.hits, src.hits)
    copy_array_nb(dst.owed, src.owed)
    copy_array_nb(dst.power, src.power)
    copy_array_nb(dst.power_order, src.power_order)
    copy_array_nb(dst.face, src.face)
    copy_array_nb(dst.die, src.die)
    copy_array_nb(dst.used, src.used)
    copy_array_nb(dst.captures, src.captures)
    copy_array_nb(dst.ms_moves, src.ms_moves)
    copy_array_nb(dst.lost, src.lost)


@njit
def determinize_nb(st, tb, ru, p, rng):
    """The dice to come are drawn anew from `rng`: the only thing seat p cannot know."""
    reseed_chance_nb(st.kit, rng)


@njit
def value_nb(st, ru, p):
    """A finished game for seat p: 1 a win, 0 a loss, a half for a game stopped undecided."""
    return kit_value_nb(st.kit, p)


FORWARD = ForwardModel(
    new_state="balance.games.rusship.engine.forward:new_forward_state",
    copy="balance.games.rusship.engine.forward:copy_state_nb",
    determinize="balance.games.rusship.engine.forward:determinize_nb",
    play_on="balance.games.rusship.loop_nb:play_on_nb",
    value="balance.games.rusship.engine.forward:value_nb",
    turn="balance.kit.forward:kit_turn",
    searchable=(("power", D_POWER), ("dice", D_DICE), ("reroll", D_REROLL), ("plus", D_PLUS),
                ("move", D_MOVE)),
)
