"""Gem runner's rules, compiled, on the engine kit (balance/kit/; the guide's developers/kit.md).

`balance new-game` wrote them as a small race, to be replaced by the game's own: 2 to 4
players take turns. A turn rolls a die; the seat moves that many spaces or, while it has a
reroll left this turn (`rerolls` of them), rolls again. The first to reach `goal` wins; after
`max_turns` turns the game stops undecided."""

from typing import NamedTuple

import numpy as np

from balance.kernels.jit import njit
from balance.kit.nb import (
    ask_nb,
    emit_nb,
    ended_nb,
    offer_nb,
    roll_nb,
    seat_nb,
    turn_nb,
    turns_nb,
    undecided_nb,
    win_nb,
    winner_nb,
)

END_REASONS = ("goal", "cap")
GOAL, CAP = 0, 1
MOVE_OR_REROLL = 0  # the decision
MOVE, REROLL = 0, 1  # its options, each with the roll and the rerolls left
ROLLED, MOVED = 0, 1  # events
REROLLS = 0  # tallies
FACES = 6
ROLL, LEFT = 0, 1  # State.turn: the roll at hand, the rerolls left this turn


class Rules(NamedTuple):
    players: int
    goal: int
    rerolls: int
    max_turns: int


class State(NamedTuple):
    kit: tuple
    turn: np.ndarray  # (2,): ROLL, LEFT


def new_state(rules, kit):
    return State(kit, np.zeros(2, np.int64))


@njit
def start_nb(state, tables, rules):
    turn_nb(state.kit, 0)
    state.turn[LEFT] = rules.rerolls
    roll_on_nb(state, rules)


@njit(inline=True)
def options_nb(state, tables, rules):
    kit = state.kit
    ask_nb(kit, MOVE_OR_REROLL, seat_nb(kit))
    offer_nb(kit, MOVE, state.turn[ROLL], state.turn[LEFT], 0)
    offer_nb(kit, REROLL, state.turn[ROLL], state.turn[LEFT], 0)


@njit(inline=True)
def apply_nb(state, tables, rules, pick):
    kit = state.kit
    if kit.opt[pick, 0] == REROLL:
        state.turn[LEFT] -= 1
        kit.tally[seat_nb(kit), REROLLS] += 1
    else:
        move_nb(state, rules)
    if not ended_nb(kit):
        roll_on_nb(state, rules)


@njit(inline=True)
def roll_on_nb(state, rules):
    """Roll until a seat may move or reroll, or the game ends: without a reroll left, the
    seat moves at once."""
    kit = state.kit
    while not ended_nb(kit):
        state.turn[ROLL] = roll_nb(kit, FACES)
        emit_nb(kit, ROLLED, state.turn[ROLL], 0, 0, 0)
        if state.turn[LEFT] > 0:
            return
        move_nb(state, rules)


@njit(inline=True)
def move_nb(state, rules):
    kit = state.kit
    seat = seat_nb(kit)
    kit.score[seat] = min(kit.score[seat] + state.turn[ROLL], rules.goal)
    emit_nb(kit, MOVED, state.turn[ROLL], kit.score[seat], 0, 0)
    if kit.score[seat] >= rules.goal:
        win_nb(kit, seat, GOAL)
    elif turns_nb(kit) >= rules.max_turns:
        undecided_nb(kit, CAP)
    else:
        turn_nb(kit, (seat + 1) % rules.players)
        state.turn[LEFT] = rules.rerolls


@njit
def broken_nb(state, rules):
    """1: a seat at the goal while the game goes on, or a winner short of it; 2: more rerolls
    than the turns played allow."""
    kit = state.kit
    for seat in range(rules.players):
        if (kit.score[seat] >= rules.goal) != (seat == winner_nb(kit)):
            return 1
        if kit.tally[seat, REROLLS] > turns_nb(kit) * rules.rerolls:
            return 2
    return 0
