"""How a game's length grows with the board: settings that differ by `length` alone (the same
run, players and every other rule) form a sweep. Each length's mean turns (with its 95% t
interval, from the counts: one row per (setting, turns) with `n` games) are fitted by a power
law, turns = scale * length ** exponent: a straight line in log-log, fitted by least squares
over the lengths, each weighted by its games. An exponent of 1 is a race whose every space
costs the same; above 1, a longer board costs more than its spaces (more captures, tokens
sent back further). The exponent's 95% interval is the t interval of that regression over the
lengths (lengths - 2 degrees of freedom), so it widens when the means stray from the curve;
the largest relative gap between a length's mean and the curve says whether it holds."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from balance.contract.labels import value_words
from balance.games.rusship.game import GAME
from balance.stats.distributions import t_quantile
from balance.stats.intervals import UPPER


@dataclass(frozen=True)
class Fit:
    group: str          # what the settings share: the players, other rules, the run
    lengths: pl.DataFrame  # length, setting, games, mean, ci_low, ci_high, step
    exponent: float
    exponent_low: float  # NaN with two lengths (no degrees of freedom left)
    exponent_high: float
    scale: float
    worst: float        # the largest |mean / curve - 1| over the lengths
    games: int

    def at(self, length: float) -> float:
        return self.scale * float(length) ** self.exponent


def mean_interval(values: np.ndarray, n: np.ndarray) -> tuple[float, float, float]:
    """The mean of counted values with its 95% t interval (NaN bounds below two games)."""
    total = int(n.sum())
    mean = float((values * n).sum() / total)
    if total < 2:
        return mean, math.nan, math.nan
    var = float((n * (values - mean) ** 2).sum() / (total - 1))
    half = t_quantile(total - 1, UPPER) * math.sqrt(var / total)
    return mean, mean - half, mean + half


SCHEMA = {"length": pl.Int64, "setting": pl.Utf8, "games": pl.Int64, "mean": pl.Float64,
          "ci_low": pl.Float64, "ci_high": pl.Float64, "step": pl.Float64}


def fit(group: str, settings: list[tuple[str, int]], turn_counts: pl.DataFrame) -> Fit | None:
    """The fit over `settings` ((setting, length), each length once); None below two lengths
    with games."""
    rows = []
    for setting, length in sorted(settings, key=lambda s: s[1]):
        c = turn_counts.filter(pl.col("setting") == setting)
        if c.height == 0:
            continue
        n = c["n"].cast(pl.Float64).to_numpy()
        mean, lo, hi = mean_interval(c["turns"].cast(pl.Float64).to_numpy(), n)
        # turns each space added since the previous length: where the growth speeds up
        step = ((mean - rows[-1][3]) / (length - rows[-1][0])) if rows else None
        rows.append((int(length), setting, int(n.sum()), mean, lo, hi, step))
    if len(rows) < 2 or any(r[3] <= 0 for r in rows):
        return None
    x = np.log([float(r[0]) for r in rows])
    y = np.log([r[3] for r in rows])
    w = np.array([float(r[2]) for r in rows])
    w = w / w.mean()
    mx, my = (w * x).sum() / w.sum(), (w * y).sum() / w.sum()
    sxx = (w * (x - mx) ** 2).sum()
    k = float((w * (x - mx) * (y - my)).sum() / sxx)
    a = float(my - k * mx)
    df = len(rows) - 2
    if df > 0:
        resid = float((w * (y - a - k * x) ** 2).sum() / df)
        half = t_quantile(df, UPPER) * math.sqrt(resid / sxx)
        lo, hi = k - half, k + half
    else:
        lo = hi = math.nan
    table = pl.DataFrame(rows, schema=SCHEMA, orient="row")
    worst = float(max(abs(r[3] / (math.exp(a) * r[0] ** k) - 1) for r in rows))
    return Fit(group, table, k, lo, hi, math.exp(a), worst, int(table["games"].sum()))


def sweeps(levers: pl.DataFrame) -> list[tuple[str, list[tuple[str, int]]]]:
    """The settings that differ by length alone: (what they share, [(setting, length)]), each
    of two lengths or more, in the order of their first variant."""
    if levers.height == 0:
        return []
    out = []
    for (run, heuristic, rest), g in levers.group_by(["run", "heuristic", "beside_length"],
                                                     maintain_order=True):
        g = g.unique("length", keep="first", maintain_order=True)
        if g.height < 2:
            continue
        name = ", ".join(x for x in (value_words(GAME, "heuristic", heuristic), rest or "",
                                     f"{run} run" if run else "") if x)
        out.append((name, list(zip(g["setting"].to_list(), g["length"].to_list(),
                                   strict=True))))
    return out
