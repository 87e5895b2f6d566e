"""Summaries of a value from its counts: a table with one row per (group, value) and `n`, the
games with that value, stands for the games themselves.

Scores and turns are small integers, so counts hold a distribution exactly in a few rows,
whatever the number of games. The quantiles here are computed as polars (tables) and numpy
(box plots) compute them from the values one by one, to the last bit, so a summary of counts
is the summary of the games.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from balance.stats.intervals import with_wilson

QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
WHISKERS = (10, 90)
EVERY = 64  # pieces between two additions of their counts (Sums): memory against time


def of_rows(df: pl.DataFrame, by: list[str], values: list[str]) -> pl.DataFrame:
    """The counts of a table: one row per (by, values) with `n`."""
    return df.group_by([*by, *values]).agg(pl.len().cast(pl.Int64).alias("n"))


def added(parts: list[pl.DataFrame], keys: list[str]) -> pl.DataFrame:
    """Counts of several pieces of games as one table: every column outside `keys` (`n`, and
    any other count) added up."""
    whole = pl.concat(parts, how="diagonal_relaxed")
    sums = [c for c in whole.columns if c not in keys]
    return whole.group_by(keys).agg(pl.col(sums).sum())


class Sums:
    """Count tables of many pieces of games, added up as they come: `sums` names, for each
    table, the columns added up (the others tell rows apart). Every EVERY pieces the parts
    are added into one, so a run of any size holds one table per name and a few parts."""

    def __init__(self, sums: dict[str, tuple[str, ...]]):
        self.sums = sums
        self.every = EVERY
        self.parts: dict[str, list[pl.DataFrame]] = {name: [] for name in sums}
        self.pieces = 0

    def add(self, tables: dict[str, pl.DataFrame]) -> None:
        for name, table in tables.items():
            self.parts[name].append(table)
        self.pieces += 1
        if self.pieces % self.every == 0:
            self.parts = {name: [self.total(name)] for name in self.parts}

    def total(self, name: str) -> pl.DataFrame | None:
        """The table `name` of every piece so far; None before the first piece."""
        parts = self.parts[name]
        if not parts:
            return None
        keys = [c for c in parts[0].columns if c not in self.sums[name]]
        return added(parts, keys)


def distribution(counts: pl.DataFrame, value: str, by: list[str] | tuple[str, ...]
                 ) -> pl.DataFrame:
    """Summary of a value per group: games, `n` with a value, the share with none (`missing`),
    mean, min, the 10/25/50/75/90% quantiles (linear, as polars) and max. Sorted by group."""
    by = list(by)
    schema = {**{c: counts.schema[c] for c in by}, "games": pl.UInt32, "n": pl.UInt32,
              "missing": pl.Float64, "mean": pl.Float64, "min": pl.Float64,
              **{f"q{int(q * 100)}": pl.Float64 for q in QUANTILES}, "max": pl.Float64}
    if counts.height == 0:
        return pl.DataFrame(schema=schema)
    rows = []
    for key, g in counts.group_by(by, maintain_order=True):
        games = int(g["n"].sum())
        have = g.filter(pl.col(value).is_not_null()).group_by(value).agg(pl.col("n").sum())
        have = have.sort(value)
        values = have[value].cast(pl.Float64).to_numpy()
        n = have["n"].to_numpy()
        seen = int(n.sum())
        if seen:
            total = float((values * n).sum()) if values.size else 0.0
            summary = [total / seen, float(values[0]),
                       *[_polars_quantile(values, n, games - seen, q) for q in QUANTILES],
                       float(values[-1])]
        else:
            summary = [None] * (3 + len(QUANTILES))
        rows.append((*key, games, seen, (games - seen) / games, *summary))
    return pl.DataFrame(rows, schema=schema, orient="row").sort(by)


def _positions(values: np.ndarray, n: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The values at 0-based positions `at` of the sorted games."""
    return values[np.searchsorted(np.cumsum(n), at, side="right")]


def _polars_quantile(values: np.ndarray, n: np.ndarray, nulls: int, q: float) -> float:
    """polars' linear quantile of the games, from the sorted distinct values and their
    counts: the same float operations as polars on the values themselves, which places the
    nulls first and so counts the position from them."""
    index = float(int(n.sum()) - 1) * q + float(nulls)
    lo, hi = math.floor(index), math.ceil(index)
    a, b = (float(x) for x in _positions(values, n, np.array([lo, hi]) - nulls))
    return a if a == b else (index - lo) * (b - a) + a


def box_stats(values: np.ndarray, n: np.ndarray) -> dict:
    """matplotlib box statistics as numpy.percentile gives them from the games (linear):
    quartiles and median in the box, whiskers at the 10th and 90th percentiles. `values`
    are distinct, `n` their counts."""
    order = np.argsort(values, kind="stable")
    values, n = values[order].astype(float), n[order].astype(np.int64)
    total = int(n.sum())
    # numpy's own steps: the virtual index (n - 1) q, its floor and the next position, and
    # its lerp that works from the upper neighbour when gamma >= 0.5.
    q = np.true_divide(np.asarray([WHISKERS[0], 25, 50, 75, WHISKERS[1]], dtype=float), 100)
    virtual = (total - 1) * q
    previous = np.floor(virtual)
    following = np.minimum(previous + 1, total - 1)
    previous = np.minimum(previous, total - 1)
    a = _positions(values, n, previous.astype(np.intp))
    b = _positions(values, n, following.astype(np.intp))
    gamma = virtual - np.floor(virtual)
    diff = b - a
    lerp = np.where(gamma >= 0.5, b - diff * (1 - gamma), a + diff * gamma)
    q10, q25, q50, q75, q90 = (float(x) for x in lerp)
    return {"whislo": q10, "q1": q25, "med": q50, "q3": q75, "whishi": q90, "fliers": []}


# A rate per (setting, players), as `rates` gives it before its interval.
RATE_SCHEMA = {"setting": pl.Utf8, "players": pl.Int64, "games": pl.Int64, "wins": pl.Int64}


def rates(c: pl.DataFrame, column: str) -> pl.DataFrame:
    """Per (setting, players) of counted rows `c` (a count `n` each): games, wins (those where
    `column` holds) and the share with its 95% Wilson interval."""
    group = list(RATE_SCHEMA)[:2]
    out = (c.group_by(*group).agg(pl.col("n").sum().alias("games"),
                                  pl.col("n").filter(pl.col(column)).sum().alias("wins"))
           if c.height else pl.DataFrame(schema=RATE_SCHEMA))
    return with_wilson(out.cast(RATE_SCHEMA).sort(*group))
