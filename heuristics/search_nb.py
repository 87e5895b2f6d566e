"""The compiled part of the search player (heuristics/search.py) that is the same for every
game: the replay a rollout starts with. A rollout starts from the state saved at the start of
the turn, so it first replays the decisions the turn has already seen (they are
deterministic: same state, same choices, same stream), then hands out the decision being
tried. At that moment, and not before, the game's forward model resamples what the searching
seat cannot know, and every seat is handed to the rollout player to play on to the end (the
game's generated dispatch does both: heuristics/generate.py).

The replay is the rollouts' own memory (Seats.mem.replay), one array: its place in the list,
the list's length, whether to resample, the policy id every seat plays after it, and the
list."""

import numpy as np

from balance.kernels.jit import njit
from heuristics.scripted import MAX_SCRIPT

RP_POS, RP_N, RP_RESAMPLE, RP_THEN, RP_AT = range(5)


def new_replay(tables, players: int) -> np.ndarray:
    return np.zeros(RP_AT + MAX_SCRIPT, np.int64)


@njit
def reset_replay_nb(mem):
    mem[RP_POS] = 0
    mem[RP_N] = 0


@njit
def start_replay_nb(mem, m, resample):
    """Replay the first m choices of the list (the last is the one tried) from the start;
    `resample` = 0 keeps the true hidden information (tests: the rollout then ends as the
    real game does)."""
    mem[RP_POS] = 0
    mem[RP_N] = m
    mem[RP_RESAMPLE] = resample


@njit
def replay_next_nb(mem):
    """The next recorded choice, or -1 when the list is spent."""
    i = mem[RP_POS]
    if i >= mem[RP_N]:
        return -1
    mem[RP_POS] = i + 1
    return mem[RP_AT + i]


@njit
def replay_tried_nb(mem):
    """Whether the choice just handed out was the last: the one being tried."""
    return mem[RP_POS] == mem[RP_N]


@njit
def replay_resamples_nb(mem):
    return mem[RP_RESAMPLE] != 0


@njit
def hand_over_nb(pol, mem):
    """Every seat plays the rollout player from now on."""
    for q in range(pol.shape[0]):
        pol[q] = mem[RP_THEN]
    return mem[RP_THEN]


@njit
def set_tried_nb(mem, m, choice):
    """The m-th choice of the list is the option a rollout tries."""
    mem[RP_AT + m - 1] = choice
