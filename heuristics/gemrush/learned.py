"""`learned`: greedy, except that it turns new tiles and takes its movement steps by models
learned from the search's decisions (`balance train-player`, balance/games/gemrush/train.py).
Each model is linear over the features of heuristics/gemrush/learned_nb.py; their weights are
knobs (`lw_<feature>` for rotations, `ls_<feature>` for steps), so
a trained file is a knob file that `--knobs`, a `[knobs]` table and `balance strength
--knobs` read as they read `balance tune-player`'s. The defaults are the shipped weights,
read from learned.knobs.toml beside this file, which says how they were trained.

What it reads (the audit issue 29 asks for, as greedy's was audited): greedy's reads, and at
a rotation the new tile's doors and their points, the cells around them, the builder's
hand, in Crisis the team's open hands (RULINGS 10), each player's room, the turn clock (public
in 2nd-edition Crisis, greedy.turns_after_nb); at a step, each option's kind, the built
door's points, greedy's worth of the ability where the move ends and that room's frontier
doors (greedy's own estimates, from the same reads), the steps left and the clock. Never
the deck, the room tiles to come, the unseen burns or, in Rush, another player's hand: the
Rush features that would need one are 0. tests/games/gemrush/test_learned.py permutes the
hidden information at its decisions and checks that no choice changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from balance.games.gemrush.capacity import MAX_OPTS
from balance.textfile import read_toml
from heuristics.gemrush import greedy
from heuristics.gemrush.learned_nb import (
    FEATURES,
    N_FEATURES,
    N_STEP_FEATURES,
    STEP_FEATURES,
)
from heuristics.gemrush.memory import Memory, new_memory
from heuristics.knobs import Knob

WEIGHTS_FILE = Path(__file__).with_name("learned.knobs.toml")
PREFIX = "lw_"  # a rotation weight
STEP_PREFIX = "ls_"  # a step weight
WEIGHT_RANGE = 100.0
WEIGHT_STEP = 0.1  # tune-player's first step for a weight: the shipped ones are 0.01 to 0.5


class LearnedMemory(NamedTuple):
    """learned's own memory. Its greedy decisions use greedy's memory (Seats.mem.greedy),
    which serves every greedy-minded seat of a game as it serves greedy's (memory.py says
    why that is safe): the seats are passed by value at every call between kernels, so each
    array here costs every game a little (measured: three more cost greedy 6%)."""

    scratch: Memory  # a copy of greedy's memory that the step features may refresh
    feats: np.ndarray  # (MAX_OPTS, features) one decision's features


def new_learned(tables, players: int) -> LearnedMemory:
    return LearnedMemory(scratch=new_memory(tables, players),
                         feats=np.zeros((MAX_OPTS, max(N_FEATURES, N_STEP_FEATURES)),
                                        np.float64))


def shipped_weights(path: Path = WEIGHTS_FILE) -> dict[str, float]:
    """The trained weights by knob name (0 for one the file lacks: that feature then plays no
    part, and with every weight 0 the player is greedy). A missing file is an error (an
    InputError naming it), never all 0: learned would play as greedy without a word."""
    data = read_toml(path, "learned weights")
    return {k: float(data.get(k, 0.0)) for k in weight_names()}


def weight_names() -> list[str]:
    """The model's knobs, in the order of the weights: rotations, then steps."""
    return [PREFIX + name for name, _doc in FEATURES] + \
        [STEP_PREFIX + name for name, _doc in STEP_FEATURES]


def _knobs() -> tuple[Knob, ...]:
    shipped = shipped_weights()
    docs = [f"learned weight (rotations) of: {doc}" for _name, doc in FEATURES] + \
        [f"learned weight (steps) of: {doc}" for _name, doc in STEP_FEATURES]
    groups = ["rotation model"] * len(FEATURES) + ["step model"] * len(STEP_FEATURES)
    return tuple(Knob(k, shipped[k], -WEIGHT_RANGE, WEIGHT_RANGE, doc, step=WEIGHT_STEP,
                      group=group)
                 for k, doc, group in zip(weight_names(), docs, groups, strict=True))


KNOBS = greedy.KNOBS + _knobs()


def weights(tables, values) -> np.ndarray:
    """greedy's weights (its knobs, then its room values), then the rotation model's
    N_FEATURES weights and the step model's N_STEP_FEATURES, last: learned_nb reads them
    from the end."""
    n = len(greedy.KNOBS)
    return np.concatenate([greedy.weights(tables, values[:n]),
                           np.array(values[n:], np.float64)])
