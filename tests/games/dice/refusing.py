"""The dice race with a play hook that refuses, in the process that plays the shard: a refusal
raised in a worker must reach the command as itself (tests/test_fuzz_workers.py). Nothing a
parser checks can catch it first; the race's rules say when it refuses."""

from __future__ import annotations

import dataclasses

from balance.errors import InputError, Problem
from tests.games.dice import game as dice

EVERY_SHARD = 77  # a target of 77: every shard refuses, a worker's warming game too
IN_THE_POOL = 78  # 78: every shard but a worker's one warming game (runner.warm_shard) refuses


def play(job) -> dict:
    target = job.variant.settings["race"]["target"]
    if target == EVERY_SHARD or (target == IN_THE_POOL and job.shard.games > 1):
        raise InputError([Problem("refusing.toml", f"game {job.shard.start}", "target",
                                  f"{target} is refused by the game in its worker")])
    return dice.KIT.play_shard(job)


GAME = dataclasses.replace(dice.GAME, name="dice_refusing", title="Refusing dice race",
                           play="tests.games.dice.refusing:play")
