"""Each rung against the rung below, paired on seeds, and the tiers a designer can tell
apart.

A race: for each seed, the upper rung's share of the game in each seat in turn against the
lower rung's share per seat (balance/ladder/shares.py), averaged over the rotations; the
step's difference is the mean over seeds of upper minus lower, with the paired t interval
(balance/stats/paired.py). A team game: the team's result at the upper rung minus at the
lower, each seed's averaged over its replays.

Tiers: the steps are K-1 comparisons read together, so each interval is a Bonferroni one,
at 1 - 5%/(K-1): all of them hold together at least 95% of the time. A step whose interval
excludes 0 separates two tiers; the ladder has 1 + that many tiers. A pure game of chance
then shows one tier in at least 95% of ladders, whatever its number of rungs.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from balance.ladder.plan import SEEDS, STEP
from balance.ladder.shares import seat_shares, team_result
from balance.stats.intervals import CONFIDENCE
from balance.stats.paired import mean_difference

FAMILY = 1 - CONFIDENCE  # the chance, over all steps together, of one told apart by luck


def level(rungs: int) -> float:
    """Each step's interval's confidence: Bonferroni over the rungs' K-1 steps."""
    return 1 - FAMILY / max(1, rungs - 1)


def per_seed(df: pl.DataFrame, players: int, race: bool, upper: int, lower: int
             ) -> tuple[np.ndarray, np.ndarray]:
    """(lower's, upper's) result on each seed, in seed order."""
    if race:
        g = df.filter((pl.col("part") == STEP) & (pl.col("upper") == upper)).sort("game", "at")
        shares = seat_shares(g, players)
        at = g["at"].to_numpy()
        n = g.height // players
        up = shares[np.arange(g.height), at]
        down = (shares.sum(axis=1) - up) / (players - 1)
        return down.reshape(n, players).mean(axis=1), up.reshape(n, players).mean(axis=1)
    return team_by_seed(df, lower), team_by_seed(df, upper)


def team_by_seed(df: pl.DataFrame, rung: int) -> np.ndarray:
    g = df.filter((pl.col("part") == SEEDS) & (pl.col("upper") == rung)).sort("game", "streams")
    reps = g["streams"].n_unique()
    return team_result(g).reshape(-1, reps).mean(axis=1)


def steps(df: pl.DataFrame, rungs: int, players: int, race: bool) -> list[dict]:
    """One dict per step (upper rung i against i-1): the difference, its Bonferroni
    interval, the plain 95% one, and whether it tells the rungs apart."""
    out = []
    conf = level(rungs)
    for i in range(1, rungs):
        down, up = per_seed(df, players, race, i, i - 1)
        d = mean_difference(down, up, conf)
        plain = mean_difference(down, up)
        out.append({"upper": i, "lower": i - 1, "seeds": int(len(up)),
                    "upper_result": float(up.mean()), "lower_result": float(down.mean()),
                    "difference": d.estimate, "low": _bounded(d.low),
                    "high": _bounded(d.high), "p_value": _num(d.p_value),
                    "low95": _bounded(plain.low), "high95": _bounded(plain.high),
                    "told_apart": bool(d.found),
                    **upsets(df, players, race, i, d.estimate)})
    return out


def tiers(found: list[dict]) -> int:
    return 1 + sum(s["told_apart"] for s in found)


def upsets(df: pl.DataFrame, players: int, race: bool, upper: int, difference: float) -> dict:
    """How often the stronger side of a step still loses, beside what equal strength would give.

    A race: of the step's games a seat won, the share the stronger rung lost; the upper rung
    holds one seat, so when it is the stronger it loses (players-1)/players of them by chance
    alone, and when it is the weaker it wins 1/players. A team game: of the seeds and
    replays where exactly one of the two teams won, the share the weaker won (a half by
    chance)."""
    if race:
        g = df.filter((pl.col("part") == STEP) & (pl.col("upper") == upper)
                      & (pl.col("winner") >= 0))
        if g.height == 0:
            return {"upset": None, "upset_chance": None, "decided": 0}
        upper_won = (g["winner"] == g["at"]).to_numpy()
        if difference >= 0:
            return {"upset": float(1 - upper_won.mean()),
                    "upset_chance": (players - 1) / players, "decided": g.height}
        return {"upset": float(upper_won.mean()), "upset_chance": 1 / players,
                "decided": g.height}
    a = _team_games(df, upper)
    b = _team_games(df, upper - 1)
    strong, weak = (a, b) if difference >= 0 else (b, a)
    split = (strong == 1) ^ (weak == 1)
    split &= (strong != 0.5) & (weak != 0.5)
    if not split.any():
        return {"upset": None, "upset_chance": 0.5, "decided": 0}
    return {"upset": float((weak[split] == 1).mean()), "upset_chance": 0.5,
            "decided": int(split.sum())}


def _team_games(df: pl.DataFrame, rung: int) -> np.ndarray:
    g = df.filter((pl.col("part") == SEEDS) & (pl.col("upper") == rung)).sort("game", "streams")
    return team_result(g)


def _bounded(x) -> float | None:
    """An interval's end within the differences a share can make, -1 to 1: the t interval
    of a difference near its bound reaches past it (+99 points give 97 to 101)."""
    x = _num(x)
    return None if x is None else min(1.0, max(-1.0, x))


def _num(x) -> float | None:
    """A statistic as JSON holds it: None for NaN (too few seeds)."""
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)
