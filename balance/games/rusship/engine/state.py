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

# Scalar slots of the game's own (the kit keeps the turn, the seat, the end: balance/kit/).
# S_TURN repeats the kit's turn under way for the players; S_PHASE is where the turn stands
# (PH_*), S_CHOOSER the side choosing powers and S_AFTER the phase after its choices.
(S_TURN, S_STARTER, S_FIRST_HIT, S_FIRST_HIT_TURN, S_NDICE, S_BONUS, S_PHASE, S_CHOOSER,
 S_AFTER, S_N_SCALARS) = range(10)
# A turn's phases: its start, powers owed, one die or two, the roll (and reroll), +1, moves.
PH_TURN, PH_POWERS, PH_DICE, PH_ROLL, PH_PLUS, PH_MOVES = range(6)

# End reasons (stable codes: stored in the games table by name).
END_DESTROYED, END_TURN_CAP = range(2)
END_NAMES = ("planet_destroyed", "turn_cap")

# The five powers, in the order of the rulebook (stable codes).
P_REROLL, P_PLUS, P_ONE_DIE, P_BACK, P_SHARE, N_POWERS = range(6)
POWER_NAMES = ("reroll", "plus_one", "one_die", "move_back", "share")
# power[k]: the side that holds power k, or one of these.
IN_BOX, OUT_OF_GAME = -1, -2

# Decision kinds (a player's `kind` argument; the search's searchable kinds).
D_POWER, D_DICE, D_REROLL, D_PLUS, D_MOVE = range(5)
DECISION_NAMES = ("power", "dice", "reroll", "plus", "move")

# An option's row (the kit's, state.kit.opt): its kind (K_*), then for a move the die it
# spends, the space it leaves and the one it reaches (absolute spaces); for any other
# option its value (O_VALUE: the power, the dice, the die rerolled or -1, the +1 or not).
O_KIND, O_DIE, O_FROM, O_TO, O_N = range(5)
O_VALUE = O_DIE
M_ENTER, M_FORWARD, M_BACK, M_MOTHERSHIP, M_PASS = range(5)
MOVE_NAMES = ("enter", "forward", "back", "mothership", "pass")
# The kinds of option (KitGame.options): the moves (M_*), a power (K_POWER + its code), two
# dice or one, keep or reroll die 1 or 2, the +1 or not.
K_POWER = 5
K_TWO, K_ONE, K_KEEP, K_REROLL = 10, 11, 12, 13
K_PLUS, K_NO_PLUS = 15, 16
MAX_OPTS = 64
MAX_TOKENS = 8  # the most ship tokens a side a setting may ask for (the rule `tokens`)
MAX_LENGTH = 40  # the longest track a setting may ask for

# Invariants broken (check mode): broken_nb's 1-based code, KitGame.invariants.
(V_NONE, V_TOKENS, V_SHARED, V_POWERS, V_BOARD, V_ATTACKS) = range(6)
INVARIANTS = ("a side's tokens on the track and in supply are not its number (tokens)",
              "two tokens of a side share a space without the power, or a space holds "
              "tokens of both sides",
              "a power is held twice, or a side holds more powers than attacks suffered",
              "a token or mothership is off the track", "a side was attacked past the end")

# The game's events (the kit adds each turn's start, the options, the picks and the end).
# EV_START is one roll-off (first side, or -1 for a tie rolled again; the two dice), EV_DICE
# the dice's values a turn moves with (after reroll, +1 and the second player's bonus).
(EV_START, EV_ROLL, EV_REROLL, EV_PLUS, EV_MOVE, EV_CAPTURE, EV_ATTACK, EV_POWER, EV_LOST,
 EV_DICE) = range(10)
EVENT_NAMES = ("start", "roll", "reroll", "plus", "move", "capture", "attack", "power",
               "lost", "dice")
MAX_EVENTS = 20_000

# The game's record of a finished game (KitGame.record, kit.rec).
(R_STARTER, R_FIRST_HIT, R_FIRST_HIT_TURN, R_CAPT0, R_CAPT1, R_MS0, R_MS1, R_LOST0,
 R_LOST1, R_POWER) = range(10)
R_POWER_ORDER = R_POWER + 5
RECORD = ("starter", "first_hit", "first_hit_turn", "captures_1", "captures_2", "ms_1",
          "ms_2", "lost_1", "lost_2", *(f"holder_{k}" for k in range(5)),
          *(f"order_{k}" for k in range(5)))


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
    kit: tuple  # the kit's arrays (balance/kit/state.py): the dice's stream, options, end
    sc: np.ndarray  # (S_N_SCALARS,) int64
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
    opt: np.ndarray  # the kit's options (kit.opt), by the name the players read


def new_state(rules, kit) -> State:
    """A state for games of rules.tokens ships a side: the token arrays are that long, so
    every loop over a side's tokens is as long as the game's."""
    tokens = rules.tokens
    return State(kit=kit, sc=np.zeros(S_N_SCALARS, np.int64),
                 pos=np.full((2, tokens), -1, np.int64),
                 occ=np.zeros((2, MAX_LENGTH + 2), np.int64), ms=np.zeros(2, np.int64),
                 hits=np.zeros(2, np.int64), owed=np.zeros(2, np.int64),
                 power=np.full(N_POWERS, IN_BOX, np.int64),
                 power_order=np.full(N_POWERS, -1, np.int64), face=np.zeros(2, np.int64),
                 die=np.zeros(2, np.int64), used=np.zeros(2, np.int64),
                 captures=np.zeros(2, np.int64), ms_moves=np.zeros(2, np.int64),
                 lost=np.zeros(2, np.int64), opt=kit.opt)


def new_tables(rules=None) -> Tables:
    """reach[d] for two six-sided dice: a die shows d, or (d <= 12) the two sum to d."""
    reach = np.zeros(MAX_LENGTH + 8, np.float64)
    for a in range(1, 7):
        for b in range(1, 7):
            for d in {a, b, a + b}:
                reach[d] += 1 / 36
    return Tables(reach=reach)
