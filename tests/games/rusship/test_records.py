"""The games table says what the trace says: the power chosen first is the first one the
events show chosen, also when a side chooses two at the start of one turn (two attacks in
the attacker's turn)."""

from __future__ import annotations

import numpy as np

from balance.games.rusship import records
from balance.games.rusship.engine.state import EV_POWER, POWER_NAMES
from balance.games.rusship.play import play_batch, play_traced, prepare


def test_the_first_power_is_the_first_chosen_even_two_in_one_turn():
    setup = prepare(seats=("random", "random"))
    seeds = np.arange(300)
    firsts = records.values(play_batch(setup, seeds), setup)["first_power"].to_pylist()
    two_in_a_turn = 0
    for seed, first in zip(seeds, firsts, strict=True):
        _, ev = play_traced(setup, int(seed))
        chosen = ev[ev[:, 2] == EV_POWER]
        assert first == (POWER_NAMES[chosen[0, 3]] if len(chosen) else None), seed
        turns = chosen[:, 0].tolist()
        two_in_a_turn += len(turns) != len(set(turns))
    assert two_in_a_turn > 0  # the case the order is for came up
