"""Gem Rush's play hook (balance/contract/game.py, Game.play): one shard of an experiment's
games, from the runner's Job to the games and rooms tables; and what else the runner and
`balance bench` reach through the contract (the players, the bench case)."""

from __future__ import annotations

import hashlib
import json

from balance.contract.experiment import BenchCase
from balance.games.gemrush import records
from balance.games.gemrush.engine.game_nb import R_VIOLATION
from balance.games.gemrush.engine.state import VIOLATION_NAMES, new_state
from balance.games.gemrush.experiment import prepare_variant
from balance.games.gemrush.play import ENGINE_VERSION, play_batch, prepare
from balance.games.gemrush.tables import SEAT_VP
from balance.kit.hooks import ThreadCache

_setups = ThreadCache()


def _prepared(variant):
    """(Setup, State) for a variant, cached per thread: each thread owns its State."""
    text = variant.carry.get("content_text")
    text_sha = None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()
    key = json.dumps([variant.describe(), variant.carry.get("content"), text_sha],
                     sort_keys=True)
    return _setups.get(key, lambda: _with_state(prepare_variant(variant)))


def _with_state(setup):
    return setup, new_state(setup.tables, setup.rules)


def play(job) -> dict:
    """One shard (balance.running.runner.Job): {"games": ..., "rooms": ...} as Arrow tables."""
    setup, state = _prepared(job.variant)
    s = job.shard
    seeds = job.seeds()
    batch = play_batch(setup, seeds, state=state, streams=job.streams)
    games = records.games_table(job.experiment, job.variant, s.start, seeds, batch,
                                ENGINE_VERSION, job.source_hash, setup.skill_names,
                                setup.rules.seat[SEAT_VP], setup.rules.target)
    rooms = records.rooms_table(job.experiment, job.variant, s.start, batch, setup.room_names)
    return {"games": games, "rooms": rooms}


def check(variant, seeds) -> list[tuple[int, str]]:
    """The variant's games in check mode (engine/check_nb.py): each that broke an invariant."""
    out = play_batch(prepare_variant(variant), seeds, check=True).out
    return [(int(s), VIOLATION_NAMES[int(v)])
            for s, v in zip(seeds, out[:, R_VIOLATION], strict=True) if v]


BENCH = dict(edition="2e", mode="crisis", players=4, heuristic="greedy", exhaust=True)


def _bench_player():
    setup = prepare(BENCH["edition"], BENCH["mode"], BENCH["players"], BENCH["heuristic"],
                    exhaust=BENCH["exhaust"])
    return lambda seeds: play_batch(setup, seeds)


def bench() -> BenchCase:
    """The case `balance bench` times: 2nd-edition Crisis, 4 players, greedy, to exhaustion."""
    return BenchCase("2nd-edition Crisis, 4 players, greedy, to exhaustion", dict(BENCH),
                     _bench_player)
