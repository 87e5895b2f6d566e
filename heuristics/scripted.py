"""`scripted`: replays a list of option indices, then takes the first option. For hand-built
scenarios, tests and replaying a game a person has written down. Any game may register it:
it needs only its memory, one array holding its place in the list, the list's length and the
list (one list for every scripted seat, taken in the order the decisions come)."""

import numpy as np

from balance.kernels.jit import njit

MAX_SCRIPT = 4096
SCRIPT_POS, SCRIPT_N, SCRIPT_AT = 0, 1, 2  # the place, the length, where the list starts


def new_script(tables, players: int) -> np.ndarray:
    """The player's memory: one list for the whole table, whatever its content."""
    return np.zeros(SCRIPT_AT + MAX_SCRIPT, np.int64)


def set_script(mem: np.ndarray, choices) -> None:
    """The choices to replay from the next decision on."""
    if len(choices) > MAX_SCRIPT:
        raise ValueError(f"a script holds at most {MAX_SCRIPT} choices, got {len(choices)}")
    mem[SCRIPT_AT: SCRIPT_AT + len(choices)] = choices
    mem[SCRIPT_N] = len(choices)
    mem[SCRIPT_POS] = 0


@njit
def reset_script_nb(mem):
    """A new game replays the list from its start (the list itself is kept)."""
    mem[SCRIPT_POS] = 0


@njit
def scripted_choose_nb(mem):
    i = mem[SCRIPT_POS]
    if i < mem[SCRIPT_N]:
        mem[SCRIPT_POS] = i + 1
        return mem[SCRIPT_AT + i]
    return 0
