"""A card race against the Computer, on the engine kit (balance/kit/): the test game of the
contract for the next games (an automa, per-seat tallies, hidden information, 1 to 8 seats).

Cards come in three colours, red, green and blue, worth 1, 2 and 3 points. Each seat holds a
hand no other seat sees, dealt from a face-down deck. A round: each seat in turn plays a card
of its hand (its worth scores, its colour joins the seat's tally) and draws another; then the
Computer, the rules' own opponent and no seat, takes a card of the face-up market by its rule
(the highest or the lowest, `computer_takes`), scoring its worth and `computer_pace` more,
and the market is refilled. After `rounds` rounds the seat with the most cards of a colour,
alone, scores `majority` points for it. The best seat wins, unless the Computer has as many
points or more: then the Computer wins. Seats level at the top share a tie."""

from typing import NamedTuple

import numpy as np

from balance.kernels.jit import njit
from balance.kit.nb import (
    ask_nb,
    automa_wins_nb,
    emit_nb,
    offer_nb,
    seat_nb,
    shuffled_nb,
    tie_nb,
    turn_nb,
    win_nb,
)
from balance.kit.state import AUTOMA

END_REASONS = ("rounds",)
ROUNDS = 0
PLAY, TAKE = 0, 1  # the decisions: a seat plays a card, the Computer takes one
PLAY_CARD, TAKE_CARD = 0, 1  # their options, each with the card's colour and its place
PLAYED, TOOK, MAJORITY = 0, 1, 2  # events
COLOURS = 3  # the tallies: red, green, blue, cards played of each colour
COMPUTER, TAKEN = 0, 1  # the record: the Computer's score, the cards it took
MAX_HAND = 5
MARKET = 2


class Rules(NamedTuple):
    players: int
    hand: int
    rounds: int
    majority: int
    computer_pace: int
    computer_takes: int  # 0: the highest card of the market, 1: the lowest


class State(NamedTuple):
    kit: tuple
    hand: np.ndarray  # (seats, MAX_HAND): each seat's cards, hand[q, :hand_n[q]]
    hand_n: np.ndarray  # (seats,)
    deck: np.ndarray  # (cards,): face down, deck[:deck_n[0]], drawn from the end
    deck_n: np.ndarray  # (1,)
    market: np.ndarray  # (MARKET,): face up, for the Computer
    round: np.ndarray  # (1,): rounds finished


def cards(rules) -> int:
    """Exactly the cards a game draws: the hands, a card after each seat's turn, the market
    and a card after each of the Computer's."""
    return rules.players * (rules.hand + rules.rounds) + MARKET + rules.rounds


def new_state(rules, kit):
    return State(kit, np.zeros((rules.players, MAX_HAND), np.int64),
                 np.zeros(rules.players, np.int64), np.zeros(cards(rules), np.int64),
                 np.zeros(1, np.int64), np.zeros(MARKET, np.int64), np.zeros(1, np.int64))


@njit(inline=True)
def top_nb(state):
    state.deck_n[0] -= 1
    return state.deck[state.deck_n[0]]


@njit
def start_nb(state, tables, rules):
    kit = state.kit
    n = state.deck.shape[0]
    for i in range(n):
        state.deck[i] = i % COLOURS
    shuffled_nb(kit, state.deck, n)
    state.deck_n[0] = n
    state.round[0] = 0
    for q in range(rules.players):
        state.hand_n[q] = rules.hand
        for j in range(rules.hand):
            state.hand[q, j] = top_nb(state)
    for j in range(MARKET):
        state.market[j] = top_nb(state)
    turn_nb(kit, 0)


@njit(inline=True)
def options_nb(state, tables, rules):
    kit = state.kit
    seat = seat_nb(kit)
    if seat == AUTOMA:
        ask_nb(kit, TAKE, AUTOMA)
        for j in range(MARKET):
            offer_nb(kit, TAKE_CARD, state.market[j], j, 0)
        return
    ask_nb(kit, PLAY, seat)
    for j in range(state.hand_n[seat]):
        offer_nb(kit, PLAY_CARD, state.hand[seat, j], j, 0)


@njit
def automa_nb(state, tables, rules):
    """The Computer's rule: the highest card of the market (the first of equals), or with
    computer_takes the lowest."""
    sign = 1 if rules.computer_takes == 0 else -1
    best = 0
    for j in range(1, MARKET):
        if sign * state.market[j] > sign * state.market[best]:
            best = j
    return best


@njit(inline=True)
def apply_nb(state, tables, rules, pick):
    kit = state.kit
    seat = seat_nb(kit)
    if seat == AUTOMA:
        card = state.market[pick]
        kit.rec[COMPUTER] += card + 1 + rules.computer_pace
        kit.rec[TAKEN] += 1
        emit_nb(kit, TOOK, card + 1, kit.rec[COMPUTER], 0, 0)
        state.market[pick] = top_nb(state)
        state.round[0] += 1
        if state.round[0] == rules.rounds:
            end_nb(state, rules)
        else:
            turn_nb(kit, 0)
        return
    card = state.hand[seat, pick]
    last = state.hand_n[seat] - 1
    state.hand[seat, pick] = state.hand[seat, last]
    state.hand[seat, last] = top_nb(state)  # the hand keeps its size: a card drawn
    kit.score[seat] += card + 1
    kit.tally[seat, card] += 1
    emit_nb(kit, PLAYED, card, card + 1, kit.score[seat], 0)
    turn_nb(kit, seat + 1 if seat + 1 < rules.players else AUTOMA)


@njit
def end_nb(state, rules):
    kit = state.kit
    for c in range(COLOURS):
        most, holder = -1, -1
        for q in range(rules.players):
            if kit.tally[q, c] > most:
                most, holder = kit.tally[q, c], q
            elif kit.tally[q, c] == most:
                holder = -1
        if holder >= 0 and most > 0:
            kit.score[holder] += rules.majority
            emit_nb(kit, MAJORITY, c, holder + 1, rules.majority, 0)
    best, at, level = -1, -1, 0
    for q in range(rules.players):
        if kit.score[q] > best:
            best, at, level = kit.score[q], q, 1
        elif kit.score[q] == best:
            level += 1
    if kit.rec[COMPUTER] >= best:
        automa_wins_nb(kit, ROUNDS)
    elif level > 1:
        tie_nb(kit, ROUNDS)
    else:
        win_nb(kit, at, ROUNDS)


@njit
def broken_nb(state, rules):
    """1: cards made or lost: the hands, the deck, the market, the cards played and those the
    Computer took are not the deck the game was dealt."""
    kit = state.kit
    held = state.deck_n[0] + MARKET + kit.rec[TAKEN]
    for q in range(rules.players):
        held += state.hand_n[q]
        for c in range(COLOURS):
            held += kit.tally[q, c]
    return 0 if held == state.deck.shape[0] else 1
