"""Playing a ladder's matches (balance/ladder/plan.py) with the runner's workers, in memory,
and each game's outcome as the ladder reads it: which listed seat won, or the team's result.
Every game is played by the game's own play hook, as `balance run` plays it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import polars as pl

from balance.ladder.plan import Match, jobs_of
from balance.ladder.rungs import Rung
from balance.running.experiment import Experiment
from balance.running.runner import execute

# The outcome of one game, as analysis.py and luck.py read it.
SCHEMA = {"match": pl.Int32, "part": pl.Utf8, "upper": pl.Int16, "lower": pl.Int16,
          "at": pl.Int8, "streams": pl.Int16, "game": pl.Int64, "seed": pl.Int64,
          "winner": pl.Int8, "won": pl.Boolean, "undecided": pl.Boolean, "turns": pl.Int32}


def shard_size(rungs: list[Rung]) -> int:
    """Small shards where a search plays (a game takes a good part of a second), so that
    every worker has some and the bar moves; large ones otherwise."""
    return 25 if any(r.budget is not None for r in rungs) else 2000


def play(exp: Experiment, rungs: list[Rung], plan: list[Match], games: int, jobs: int,
         on_games: Callable[[int], None] | None = None) -> pl.DataFrame:
    """Every match's `games` games, one row each (SCHEMA), in match and game order."""
    todo = jobs_of(exp, rungs, plan, games, shard_size(rungs))
    parts = []
    results = execute(iter(todo), jobs, warm=[todo[0]])
    by_shard = {(j.shard.variant, j.shard.start): j for j in todo}
    for r in results:
        job = by_shard[(r.shard.variant, r.shard.start)]
        parts.append(outcomes(pl.from_arrow(r.tables["games"]), plan[r.shard.variant],
                              job, exp.game.undecided_ends))
        if on_games:
            on_games(r.shard.games)
    return pl.concat(parts).sort("match", "game")


def outcomes(g: pl.DataFrame, m: Match, job, undecided_ends: tuple[str, ...]) -> pl.DataFrame:
    """A shard's games table as the ladder's rows. The winner is the listed seat (from 0)
    that won, -1 for none: a game that seats its players in turn by its own rules
    (went_first) sat listed player i in seat (i - went_first) % players + 1."""
    n = g.height
    p = g["players"].to_numpy().astype(np.int64)
    seat = g["winner"].fill_null(0).to_numpy().astype(np.int64)
    first = g["went_first"].fill_null(1).to_numpy().astype(np.int64)
    listed = np.where(seat > 0, (seat - 1 + first - 1) % p, -1)
    return pl.DataFrame({
        "match": np.full(n, job.shard.variant), "part": [m.part] * n,
        "upper": np.full(n, m.upper), "lower": np.full(n, m.lower), "at": np.full(n, m.at),
        "streams": np.full(n, m.streams), "game": g["game"], "seed": g["seed"],
        "winner": listed, "won": g["won"],
        "undecided": g["end_reason"].is_in(list(undecided_ends)),
        "turns": g["turns"]}, schema=SCHEMA)
