"""The dice race's rules, on the engine kit (balance/kit/).

Seats take turns. A turn rolls the die again and again, adding each roll to the turn's total,
until the seat's player stops (the total is banked) or a 1 comes up (the total is lost: a
bust). The first seat to bank `target` points wins; after `max_turns` turns the game stops
with no winner."""

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

END_REASONS = ("target", "cap")
END_TARGET, END_CAP = 0, 1
ROLL_AGAIN = 0  # the one decision
BANK, ROLL = 0, 1  # its options
ROLLED, BUST, BANKED = 0, 1, 2  # events
BUSTS = 0  # the one tally


class Rules(NamedTuple):
    players: int
    target: int
    faces: int
    max_turns: int


class State(NamedTuple):
    kit: tuple
    total: np.ndarray  # (1,): the turn's total at stake


def new_state(rules, kit):
    return State(kit, np.zeros(1, np.int64))


@njit
def start_nb(state, tables, rules):
    turn_nb(state.kit, 0)
    state.total[0] = 0
    roll_on_nb(state, rules)


@njit(inline=True)
def options_nb(state, tables, rules):
    kit = state.kit
    ask_nb(kit, ROLL_AGAIN, seat_nb(kit))
    offer_nb(kit, BANK, 0, 0, 0)
    offer_nb(kit, ROLL, 0, 0, 0)


@njit(inline=True)
def apply_nb(state, tables, rules, pick):
    if state.kit.opt[pick, 0] == BANK:
        end_turn_nb(state, rules, False)
    if not ended_nb(state.kit):
        roll_on_nb(state, rules)


@njit(inline=True)
def roll_on_nb(state, rules):
    """Roll until the seat has a total to bank or not, or its turn ends."""
    kit = state.kit
    while True:
        seat = seat_nb(kit)
        roll = roll_nb(kit, rules.faces)
        state.total[0] = 0 if roll == 1 else state.total[0] + roll
        emit_nb(kit, ROLLED, roll, 0, 0, 0)
        if roll != 1 and kit.score[seat] + state.total[0] < rules.target:
            return
        end_turn_nb(state, rules, roll == 1)
        if ended_nb(kit):
            return


@njit(inline=True)
def end_turn_nb(state, rules, bust):
    kit = state.kit
    seat = seat_nb(kit)
    if bust:
        kit.tally[seat, BUSTS] += 1
        emit_nb(kit, BUST, kit.score[seat], 0, 0, 0)
    else:
        kit.score[seat] += state.total[0]
        emit_nb(kit, BANKED, state.total[0], kit.score[seat], 0, 0)
    if kit.score[seat] >= rules.target:
        win_nb(kit, seat, END_TARGET)
    elif turns_nb(kit) >= rules.max_turns:
        undecided_nb(kit, END_CAP)
    else:
        turn_nb(kit, (seat + 1) % rules.players)
        state.total[0] = 0


@njit
def broken_nb(state, rules):
    """1: a seat reached the target and the game goes on, or a winner did not reach it; 2: no
    winner before the turn cap; 3: a seat banked more than a turn can roll."""
    kit = state.kit
    winner = winner_nb(kit)
    for seat in range(rules.players):
        if (kit.score[seat] >= rules.target) != (seat == winner):
            return 1
        if kit.score[seat] > rules.target + rules.faces * rules.target:
            return 3
    if ended_nb(kit) and winner < 0 and turns_nb(kit) != rules.max_turns:
        return 2
    return 0
