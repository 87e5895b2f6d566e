"""The kit's part of a game's forward model (balance/contract/forward.py), for a search player
(heuristics/search.py) over a game on the kit: the kit's arrays copied, the game's stream
drawn anew, a finished game's worth to a seat, the turn under way. A game's own forward model
copies its own arrays and calls these; its play-on is its generated loop's `play_on_nb`,
which plays from the decision at hand, where the loop told the players the turn began.

A game that names a forward module (KitGame.forward) writes no forward model: the kit
generates its state's copy and its determinization there (balance/kit/generate.py: the
game's stream drawn anew and what the searching seat cannot see, KitGame.hidden, redrawn),
and KitGame.forward_hooks puts them together with these."""

from balance.kernels.copy_nb import copy_array_nb
from balance.kernels.jit import njit
from balance.kernels.rng import next32_nb
from balance.kit.state import (
    AUTOMA_WON,
    CHECK,
    OUTCOME,
    SEAT_WON,
    TEAM_WON,
    TRACE,
    TURN,
    WINNER,
)


@njit(inline=True)
def copy_kit_nb(dst, src):
    """dst <- src: everything a game plays on from (the decision at hand and its options
    included), not the events; the copy traces nothing and checks nothing."""
    copy_array_nb(dst.sc, src.sc)
    copy_array_nb(dst.chance, src.chance)
    copy_array_nb(dst.score, src.score)
    copy_array_nb(dst.tally, src.tally)
    copy_array_nb(dst.rec, src.rec)
    copy_array_nb(dst.opt, src.opt)
    copy_array_nb(dst.lead, src.lead)
    dst.sc[TRACE] = 0
    dst.sc[CHECK] = 0


@njit(inline=True)
def reseed_chance_nb(kit, rng):
    """The game's stream (its dice, draws, shuffles to come) drawn anew from the stream `rng`:
    what no seat can know."""
    for i in range(4):
        kit.chance[i] = next32_nb(rng) | 1  # never the all-zero state


@njit
def kit_value_nb(kit, seat):
    """A finished game for `seat`: 1 won (alone, or with the team), 0 lost (to a seat or to
    the automa), a half for a tie or a game stopped undecided."""
    outcome = kit.sc[OUTCOME]
    if outcome == SEAT_WON:
        return 1.0 if kit.sc[WINNER] == seat else 0.0
    if outcome == TEAM_WON:
        return 1.0
    if outcome == AUTOMA_WON:
        return 0.0
    return 0.5


@njit
def state_value_nb(state, rules, seat):
    """ForwardModel.value for a game on the kit: kit_value_nb of its state's kit."""
    return kit_value_nb(state.kit, seat)


def kit_turn(state) -> int:
    """The turn under way, from 0 (ForwardModel.turn)."""
    return int(state.kit.sc[TURN])
