"""Pig, on the engine kit (balance/kit/): 2 to 4 players take turns. A turn rolls a die: a 1
loses the turn's points at stake and ends the turn; any other roll adds to them, and the
player rolls again or holds, banking them. The first to hold `goal` points wins (reaching it
holds at once); after `max_turns` turns the game stops undecided."""

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
ROLL_OR_HOLD = 0  # the decision
HOLD, ROLL = 0, 1  # its options, each with the points at stake
ROLLED, PIGGED, HELD = 0, 1, 2  # events
PIGS, HOLDS = 0, 1  # tallies
BEST = 0  # the record: the most points one turn held


class Rules(NamedTuple):
    players: int
    goal: int
    max_turns: int


class State(NamedTuple):
    kit: tuple
    at_stake: np.ndarray  # (1,): the turn's points so far


def new_state(rules, kit):
    return State(kit, np.zeros(1, np.int64))


@njit
def start_nb(state, tables, rules):
    turn_nb(state.kit, 0)
    state.at_stake[0] = 0
    roll_on_nb(state, rules)


@njit(inline=True)
def options_nb(state, tables, rules):
    kit = state.kit
    ask_nb(kit, ROLL_OR_HOLD, seat_nb(kit))
    offer_nb(kit, HOLD, state.at_stake[0], 0, 0)
    offer_nb(kit, ROLL, state.at_stake[0], 0, 0)


@njit(inline=True)
def apply_nb(state, tables, rules, pick):
    if state.kit.opt[pick, 0] == HOLD:
        hold_nb(state, rules)
    if not ended_nb(state.kit):
        roll_on_nb(state, rules)


@njit(inline=True)
def roll_on_nb(state, rules):
    """Roll until a seat has points at stake to hold or not, or the game ends."""
    kit = state.kit
    while not ended_nb(kit):
        seat = seat_nb(kit)
        roll = roll_nb(kit, 6)
        emit_nb(kit, ROLLED, roll, 0, 0, 0)
        if roll == 1:
            kit.tally[seat, PIGS] += 1
            emit_nb(kit, PIGGED, state.at_stake[0], kit.score[seat], 0, 0)
            next_turn_nb(state, rules)
            continue
        state.at_stake[0] += roll
        if kit.score[seat] + state.at_stake[0] < rules.goal:
            return
        hold_nb(state, rules)


@njit(inline=True)
def hold_nb(state, rules):
    kit = state.kit
    seat = seat_nb(kit)
    kit.score[seat] += state.at_stake[0]
    kit.tally[seat, HOLDS] += 1
    kit.rec[BEST] = max(kit.rec[BEST], state.at_stake[0])
    emit_nb(kit, HELD, state.at_stake[0], kit.score[seat], 0, 0)
    if kit.score[seat] >= rules.goal:
        win_nb(kit, seat, GOAL)
    else:
        next_turn_nb(state, rules)


@njit(inline=True)
def next_turn_nb(state, rules):
    kit = state.kit
    if turns_nb(kit) >= rules.max_turns:
        undecided_nb(kit, CAP)
        return
    turn_nb(kit, (seat_nb(kit) + 1) % rules.players)
    state.at_stake[0] = 0


@njit
def broken_nb(state, rules):
    """1: a seat holds the goal and the game goes on, or a winner does not; 2: more points
    held than the holds could bring (six a roll at most, goal + 5 a turn at most)."""
    kit = state.kit
    for seat in range(rules.players):
        if (kit.score[seat] >= rules.goal) != (seat == winner_nb(kit)):
            return 1
        if kit.score[seat] > kit.tally[seat, HOLDS] * (rules.goal + 5):
            return 2
    return 0
