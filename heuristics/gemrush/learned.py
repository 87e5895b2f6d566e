"""`learned`: greedy, except that it turns new tiles by a model learned from the search's
decisions (`balance train-player`, balance/games/gemrush/train.py). The model is linear over
the features of heuristics/gemrush/learned_nb.py; its weights are knobs (`lw_<feature>`), so
a trained file is a knob file that `--knobs`, a `[knobs]` table and `balance strength
--knobs` read as they read `balance tune-player`'s. The defaults are the shipped weights,
read from learned.knobs.toml beside this file, which says how they were trained.

What it reads (the audit issue 29 asks for, as greedy's was audited): greedy's reads, and at
a rotation the new tile's doors and their points, the cells around them, the builder's
hand, in Crisis the team's open hands (RULINGS 10), each player's room, the turn clock (public
in 2nd-edition Crisis, greedy.turns_after_nb). Never the deck, the room tiles to come, the
unseen burns or, in Rush, another player's hand: the Rush features that would need one are
0. tests/games/gemrush/test_learned.py permutes the hidden information at its decisions and
checks that no choice changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from balance.games.gemrush.capacity import MAX_OPTS
from balance.textfile import read_toml
from heuristics.gemrush import greedy
from heuristics.gemrush.learned_nb import FEATURES, N_FEATURES
from heuristics.gemrush.memory import Memory, new_memory
from heuristics.knobs import Knob

WEIGHTS_FILE = Path(__file__).with_name("learned.knobs.toml")
PREFIX = "lw_"
WEIGHT_RANGE = 100.0


class LearnedMemory(NamedTuple):
    greedy: Memory  # greedy's caches and plan: learned plays greedy's other decisions
    feats: np.ndarray  # (MAX_OPTS, N_FEATURES) one decision's features, scratch


def new_learned(tables, players: int) -> LearnedMemory:
    return LearnedMemory(greedy=new_memory(tables, players),
                         feats=np.zeros((MAX_OPTS, N_FEATURES), np.float64))


def shipped_weights(path: Path = WEIGHTS_FILE) -> dict[str, float]:
    """The trained weights by feature name (0 for a feature the file lacks: the feature then
    plays no part)."""
    data = read_toml(path, "learned weights") if path.exists() else {}
    return {name: float(data.get(PREFIX + name, 0.0)) for name, _doc in FEATURES}


def _knobs() -> tuple[Knob, ...]:
    shipped = shipped_weights()
    return tuple(Knob(PREFIX + name, shipped[name], -WEIGHT_RANGE, WEIGHT_RANGE,
                      f"learned weight (rotations) of: {doc}") for name, doc in FEATURES)


KNOBS = greedy.KNOBS + _knobs()


def weights(tables, values) -> np.ndarray:
    """greedy's weights (its knobs, then its room values), then the model's N_FEATURES
    weights, last: learned_nb reads them from the end."""
    n = len(greedy.KNOBS)
    return np.concatenate([greedy.weights(tables, values[:n]),
                           np.array(values[n:], np.float64)])
