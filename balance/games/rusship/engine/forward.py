"""Rusship's forward model (balance/contract/forward.py; FORWARD at the end, Game.forward),
for the search player (heuristics/search.py): copy a game, resample what a player cannot
know, play on, score the end.

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
    S_CHECK,
    S_TRACE,
    S_TURN,
    S_WINNER,
    new_state,
)
from balance.kernels.copy_nb import copy_array_nb
from balance.kernels.jit import njit
from balance.kernels.rng import next32_nb


def new_forward_state(tables, rules):
    return new_state(tokens=rules.tokens)

@njit
def copy_state_nb(dst, src):
    """dst <- src: everything a game reads on (not the trace or the options)."""
    copy_array_nb(dst.sc, src.sc)
    copy_array_nb(dst.rng, src.rng)
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
    dst.sc[S_TRACE] = 0
    dst.sc[S_CHECK] = 0

@njit
def determinize_nb(st, tb, ru, p, rng):
    """The dice to come are drawn anew from `rng`: the only thing seat p cannot know."""
    for i in range(4):
        st.rng[i] = next32_nb(rng) | 1  # never the all-zero state

@njit
def value_nb(st, ru, p):
    """A finished game for seat p: 1 a win, 0 a loss, a half for a game stopped undecided."""
    w = st.sc[S_WINNER]
    if w < 0:
        return 0.5
    return 1.0 if w == p else 0.0

def turn(st) -> int:
    return int(st.sc[S_TURN])

FORWARD = ForwardModel(
    new_state="balance.games.rusship.engine.forward:new_forward_state",
    copy="balance.games.rusship.engine.forward:copy_state_nb",
    determinize="balance.games.rusship.engine.forward:determinize_nb",
    play_on="balance.games.rusship.engine.turn_nb:resume_nb",
    value="balance.games.rusship.engine.forward:value_nb",
    turn="balance.games.rusship.engine.forward:turn",
    searchable=(("power", D_POWER), ("dice", D_DICE), ("reroll", D_REROLL), ("plus", D_PLUS),
                ("move", D_MOVE)),
)
