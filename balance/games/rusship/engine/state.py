"""Rusship's state, rules and tables as the compiled engine holds them: plain arrays in
NamedTuples, allocated once per batch and reset per game.

The track's spaces are numbered 1..L from Humanity's planet (Earth, space 0) to the Alien
planet (space L + 1). Side 0 is Humanity, seat 1, and moves up the track; side 1 is the Alien
Empire, seat 2, and moves down it. Scalars live in `sc`, an int64 array indexed by the
constants below, so that kernels can update them in place.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# Scalar slots.
(S_TURN, S_CUR, S_STARTER, S_ENDED, S_WINNER, S_END, S_FIRST_HIT, S_FIRST_HIT_TURN,
 S_CHECK, S_VIOLATION, S_DECISIONS, S_TRACE, S_EV_N, S_NDICE, S_BONUS, S_N_SCALARS) = range(16)

# End reasons (stable codes: stored in the games table by name).
END_NONE, END_DESTROYED, END_TURN_CAP = range(3)
END_NAMES = ("none", "planet_destroyed", "turn_cap")

# The five powers, in the order of the rulebook (stable codes).
P_REROLL, P_PLUS, P_ONE_DIE, P_BACK, P_SHARE, N_POWERS = range(6)
POWER_NAMES = ("reroll", "plus_one", "one_die", "move_back", "share")
# power[k]: the side that holds power k, or one of these.
IN_BOX, OUT_OF_GAME = -1, -2

# Decision kinds (a player's `kind` argument; the search's searchable kinds).
D_POWER, D_DICE, D_REROLL, D_PLUS, D_MOVE = range(5)
DECISION_NAMES = ("power", "dice", "reroll", "plus", "move")

# A move option's row in st.opt: the die it spends, its kind, from, to (absolute spaces).
O_DIE, O_KIND, O_FROM, O_TO, O_N = range(5)
M_ENTER, M_FORWARD, M_BACK, M_MOTHERSHIP, M_PASS = range(5)
MOVE_NAMES = ("enter", "forward", "back", "mothership", "pass")
MAX_OPTS = 64
MAX_TOKENS = 8  # the most ship tokens a side a setting may ask for (the rule `tokens`)
MAX_LENGTH = 40  # the longest track a setting may ask for

# Invariant violations (check mode); the first one found is recorded.
(V_NONE, V_BAD_CHOICE, V_TOKENS, V_SHARED, V_POWERS, V_BOARD, V_ATTACKS) = range(7)
VIOLATION_NAMES = ("none", "a player chose an option that was not offered",
                   "a side's tokens on the track and in supply are not its number (tokens)",
                   "two tokens of a side share a space without the power, or a space holds "
                   "tokens of both sides",
                   "a power is held twice, or a side holds more powers than attacks suffered",
                   "a token or mothership is off the track", "a side was attacked past the end")

# Events (trace mode): (turn, side, code, a, b, c, d). EV_START is one roll-off (first
# side, or -1 for a tie rolled again; the two dice), EV_DICE the dice's values a turn moves
# with (after reroll, +1 and the second player's bonus); the rest as emitted.
(EV_TURN, EV_ROLL, EV_REROLL, EV_PLUS, EV_MOVE, EV_CAPTURE, EV_ATTACK, EV_POWER, EV_LOST,
 EV_END, EV_OPTION, EV_PICK, EV_START, EV_DICE) = range(14)
MAX_EVENTS = 20_000


class Rules(NamedTuple):
    """The rules as the engine reads them (balance/games/rusship/rules.py makes them)."""

    players: int  # 2: the contract's player count, read by neutral player code
    length: int  # spaces between the planets
    tokens: int  # ship tokens a side
    hits_to_lose: int  # attacks a planet survives, plus one
    power_now: int  # 1: the attacked side chooses its power at the attack, 0: at its next turn
    entry_counted: int  # 1: an entering token counts its die from the mothership's space
    must_move: int  # 1: a die that can move must move
    both_dice: int  # 1 (with must_move): only first moves that leave the other die a move,
    # where some do
    blocked_mothership: int  # 1: a die no token can use moves the mothership instead
    mothership_back: int  # 1: a rolled 1 may move the mothership back too
    mothership_blocks: int  # 1: no token ends on a mothership, no mothership on a token
    plus_always: int  # 1: the +1 power is always applied
    back_captures: int  # 1: a token moving back captures as one moving forward does
    jump_protected: int  # 1: the one-die jump passes a protected pair without capturing it
    second_tokens: int  # tokens the second player starts with on the track
    second_bonus: int  # added to each die of the second player's first turn
    max_turns: int  # turns (both sides') after which the game stops undecided
    box: int  # bit k: power k is in the box


class Tables(NamedTuple):
    """What the dice make of distances, for the players: reach[d] is the chance that a roll
    of two dice can move a token exactly d spaces with one die or both (ignoring blocks)."""

    reach: np.ndarray  # (MAX_LENGTH + 8,) float64


class State(NamedTuple):
    sc: np.ndarray  # (S_N_SCALARS,) int64
    rng: np.ndarray  # (4,) int64: the game's stream, the dice
    pos: np.ndarray  # (2, tokens) int64: each token's space, -1 in supply
    occ: np.ndarray  # (2, MAX_LENGTH + 2) int64: tokens of a side on each space
    ms: np.ndarray  # (2,) int64: each mothership's space
    hits: np.ndarray  # (2,) int64: attacks each side's planet suffered
    owed: np.ndarray  # (2,) int64: powers a side is still to choose
    power: np.ndarray  # (N_POWERS,) int64: holder side, IN_BOX or OUT_OF_GAME
    power_order: np.ndarray  # (N_POWERS,) int64: its place among the game's choices, -1
    face: np.ndarray  # (2,) int64: the dice as rolled (0: not rolled)
    die: np.ndarray  # (2,) int64: the dice's values (face, +1, the second player's bonus)
    used: np.ndarray  # (2,) int64: 1 once spent
    captures: np.ndarray  # (2,) int64: enemy tokens a side captured
    ms_moves: np.ndarray  # (2,) int64: mothership moves a side made
    lost: np.ndarray  # (2,) int64: dice a side lost (no move for them)
    opt: np.ndarray  # (MAX_OPTS, O_N) int64: the options of the decision under way
    ev: np.ndarray  # (events, 7) int64: (turn, side, code, a, b, c, d)


def new_state(events: int = 0, *, tokens: int) -> State:
    """A state for games of `tokens` ships a side (Rules.tokens): the token arrays are that
    long, so every loop over a side's tokens is as long as the game's."""
    return State(sc=np.zeros(S_N_SCALARS, np.int64), rng=np.zeros(4, np.int64),
                 pos=np.full((2, tokens), -1, np.int64),
                 occ=np.zeros((2, MAX_LENGTH + 2), np.int64), ms=np.zeros(2, np.int64),
                 hits=np.zeros(2, np.int64), owed=np.zeros(2, np.int64),
                 power=np.full(N_POWERS, IN_BOX, np.int64),
                 power_order=np.full(N_POWERS, -1, np.int64), face=np.zeros(2, np.int64),
                 die=np.zeros(2, np.int64), used=np.zeros(2, np.int64),
                 captures=np.zeros(2, np.int64), ms_moves=np.zeros(2, np.int64),
                 lost=np.zeros(2, np.int64), opt=np.zeros((MAX_OPTS, O_N), np.int64),
                 ev=np.zeros((events, 7), np.int64))


def new_tables() -> Tables:
    """reach[d] for two six-sided dice: a die shows d, or (d <= 12) the two sum to d."""
    reach = np.zeros(MAX_LENGTH + 8, np.float64)
    for a in range(1, 7):
        for b in range(1, 7):
            for d in {a, b, a + b}:
                reach[d] += 1 / 36
    return Tables(reach=reach)
