"""The kit's part of a game's state: plain arrays in one NamedTuple, carried as the `kit` field
of the game's own State, allocated once per batch and reset per game by the kit.

Scalars live in `sc`, an int64 array indexed by the constants below, so that compiled code
updates them in place. Seats count from 0 here and from 1 in every table."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# Scalar slots.
(TURN, TURNS, SEAT, KIND, OFFERED, ENDED, OUTCOME, WINNER, END, DECISIONS, OPTIONS, VIOLATION,
 PICKED, CHECK, TRACE, EVENTS, LEADER, LEADS, KEPT, STRIDE, SOLE, LEAD_CHANGES, SLOTS) = range(23)

# How a game ended: one encoding for every game on the kit (table.py writes it as the core
# columns `winner` and `won`).
NOT_ENDED, SEAT_WON, TIE, TEAM_WON, AUTOMA_WON, UNDECIDED = range(6)
# The seat of the automa's turns and decisions (ask_nb, turn_nb): the rules' own opponent is no
# seat, so it has no player, no score in `score` and no row in the seats table.
AUTOMA = -1
OUTCOMES = ("not ended", "seat", "tie", "team", "automa", "undecided")

# What the kit itself finds wrong in a game played with checks on; a game's own invariants
# (KitGame.invariants) follow them.
KIT_VIOLATIONS = ("none", "a player picked an option that was not offered",
                  "a decision offered no option",
                  "a decision offered more options than the kit holds (KitGame.max_options)",
                  "an option of a kind the game does not declare")
PICK_NOT_OFFERED, NO_OPTION, TOO_MANY_OPTIONS, UNKNOWN_OPTION = range(1, 5)

# Events the kit writes beside the game's (code, a, b, c, d): each option of a decision
# (its kind and values), the pick (the decision's kind, the option's index, how many there
# were), the end (the outcome, the winning seat, the end reason) and each turn's start (its
# turn and seat are the row's own).
OPTION_EVENT, PICK_EVENT, END_EVENT, TURN_EVENT = 1000, 1001, 1002, 1003
EVENT_WIDTH = 7  # turn, seat, code, a, b, c, d
OPTION_WIDTH = 4  # an option's kind, then three values of the game's
# Lead changes a game's record keeps: past them the last slot holds the latest change, so the
# record always ends with the change that decided the game.
MAX_LEADS = 16
# The course of a game (course_nb.py): each seat's progress after every turn is kept, every
# turn while COURSE_KEEP of them fit and every 2nd, 4th... turn past that, and the record holds
# it at the end of each of COURSE_POINTS equal parts of the game. Twentieths: the tenths and
# the quarters both fall on one.
COURSE_KEEP = 128
COURSE_POINTS = 20


class Kit(NamedTuple):
    sc: np.ndarray  # (SLOTS,) int64
    chance: np.ndarray  # (4,) int64: the game's random stream (dice, shuffles, draws)
    score: np.ndarray  # (seats,) int64: each seat's score, as the game keeps it
    tally: np.ndarray  # (seats, tallies) int64: each seat's counts (KitGame.tallies)
    rec: np.ndarray  # (record,) int64: the game's own record of a game (KitGame.record)
    opt: np.ndarray  # (max options, OPTION_WIDTH) int64: the options of the decision at hand
    ev: np.ndarray  # (events, EVENT_WIDTH) int64: the trace, written only when tracing
    lead: np.ndarray  # (MAX_LEADS, 2) int64: (turn, leading seat or -1) at each lead change
    # (COURSE_KEEP + 1, seats) int64: each seat's progress, every STRIDE turns; then, in the
    # last row's first column (PROGRESS_AT), what counts as progress, the game's declaration
    # (KitGame.progress): -1 the score, else the index of the tally that counts it. Kept here,
    # not in `sc` (which every game resets), and in no array of its own: every array of the
    # state is passed wherever the state is, in every game.
    course: np.ndarray


def new_kit(seats: int, tallies: int = 0, record: int = 0, options: int = 64,
            events: int = 0, progress: int = -1) -> Kit:
    return Kit(sc=np.zeros(SLOTS, np.int64), chance=np.zeros(4, np.int64),
               score=np.zeros(seats, np.int64), tally=np.zeros((seats, tallies), np.int64),
               rec=np.zeros(record, np.int64), opt=np.zeros((options, OPTION_WIDTH), np.int64),
               ev=np.zeros((events, EVENT_WIDTH), np.int64),
               lead=np.zeros((MAX_LEADS, 2), np.int64),
               course=_course(seats, progress))


def _course(seats: int, progress: int) -> np.ndarray:
    course = np.zeros((COURSE_KEEP + 1, seats), np.int64)
    course[COURSE_KEEP, 0] = progress
    return course
