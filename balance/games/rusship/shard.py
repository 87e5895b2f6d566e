"""Rusship's hooks for the runner (balance/contract/game.py): one shard of games into the games
table, the games in check mode, the bench case."""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from balance.contract.experiment import BenchCase
from balance.games.rusship import records
from balance.games.rusship.engine.state import VIOLATION_NAMES, new_state
from balance.games.rusship.engine.turn_nb import R_VIOLATION
from balance.games.rusship.game import VERSION
from balance.games.rusship.play import play_batch, prepare

_CACHE_SIZE = 16
_local = threading.local()


def _names(variant) -> tuple[str, str]:
    return tuple(variant.seats) if variant.seats else (variant.heuristic,) * 2


def _prepared(variant):
    """(Setup, State) for a variant, cached per thread: each thread owns its State."""
    cache = getattr(_local, "setups", None)
    if cache is None:
        cache = _local.setups = OrderedDict()
    key = repr(sorted(variant.describe().items()))
    if key not in cache:
        setup = prepare(variant.rules, _names(variant), variant.knobs)
        cache[key] = (setup, new_state(tokens=setup.rules.tokens))
        while len(cache) > _CACHE_SIZE:
            cache.popitem(last=False)
    cache.move_to_end(key)
    return cache[key]


def prepare_variant(variant) -> None:
    """The variant built as `play` builds it (its Game.prepare hook): the experiment parser
    asks this of every variant, so that what cannot be played is refused before a run
    folder is written."""
    prepare(variant.rules, _names(variant), variant.knobs, "knobs")


def play(job) -> dict:
    setup, st = _prepared(job.variant)
    seeds = job.seeds()
    out = play_batch(setup, seeds, state=st)
    return {"games": records.games_table(job.experiment, job.variant, job.shard.start, seeds,
                                         out, VERSION, job.source_hash)}


def check(variant, seeds) -> list[tuple[int, str]]:
    """The variant's games in check mode (engine/check_nb.py): each that broke an invariant."""
    out = play_batch(prepare(variant.rules, _names(variant), variant.knobs), seeds, check=True)
    return [(int(s), VIOLATION_NAMES[int(v)])
            for s, v in zip(seeds, out[:, R_VIOLATION], strict=True) if v]


def bench() -> BenchCase:
    """The case `balance bench --game rusship` times: two racers, the rulebook's rules."""
    def player():
        setup = prepare()
        st = new_state(tokens=setup.rules.tokens)
        return lambda seeds: play_batch(setup, np.asarray(seeds), state=st)

    return BenchCase("two racers, the default rules", {"players": 2, "heuristic": "racer"},
                     player)
