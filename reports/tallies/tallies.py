"""Each seat's tallies, per setting: what a game declares in Game.tallies (balance/contract/
game.py) and the kit writes in the run's table "seats", one row per game and seat.

`by_seat` makes, per (setting, players, seat, tally), the seats counted, the mean with its 95%
t interval, and the tally's share of everything that seat tallied (the sum of this tally over
the sum of all of them). It reads the table piece by piece, keeping sums and sums of squares,
so a run of millions of games is never held whole, and the numbers are exact (the counts are
small integers).

`wide` is the comparison's view of the same table: one row per game, a column per seat and
tally (`column`), so that the games of two variants pair on `game` as the games table does.
"""

from __future__ import annotations

import math

import polars as pl

from balance.stats.distributions import t_quantile
from balance.stats.intervals import CONFIDENCE
from reports.tables import pieces

TABLE = "seats"
SCHEMA = {"setting": pl.Utf8, "players": pl.Int64, "seat": pl.Int64, "tally": pl.Utf8,
          "n": pl.Int64, "mean": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
          "share": pl.Float64}


def table_of(data, names: tuple[str, ...]):
    """The run's seats table (a DataFrame or a ShardTable), or None when the game declares no
    tallies or the run has no such table (a run of an older version of the game)."""
    if not names:
        return None
    table = getattr(data, TABLE, None)  # a run's tables are its attributes, by name
    if table is None or any(c not in table.columns for c in ("variant", "seat", *names)):
        return None
    return table


def by_seat(seats, names: tuple[str, ...], kinds: pl.DataFrame,
            confidence: float = CONFIDENCE) -> pl.DataFrame:
    """SCHEMA: every setting's seats and tallies, in the order of `names` (see the module
    doc). `kinds`: variant, setting, players (an analysis's kinds), which name each variant."""
    sums = [p.group_by("variant", "seat").agg(
        pl.len().alias("n"),
        *[pl.col(t).cast(pl.Int64).sum().alias(f"s:{t}") for t in names],
        *[(pl.col(t).cast(pl.Int64) ** 2).sum().alias(f"q:{t}") for t in names])
        for p in pieces.of(seats, ["variant", "seat", *names]) if p.height]
    if not sums or not kinds.height:
        return pl.DataFrame(schema=SCHEMA)
    named = kinds.select(pl.col("variant").cast(pl.Int64), "setting",
                         pl.col("players").cast(pl.Int64)).unique()
    totals = (pl.concat(sums).with_columns(pl.col("variant").cast(pl.Int64),
                                           pl.col("seat").cast(pl.Int64))
              .join(named, on="variant")
              .group_by("setting", "players", "seat")
              .agg(pl.all().exclude("variant").sum()))
    rows = []
    for r in totals.iter_rows(named=True):
        whole = sum(r[f"s:{t}"] for t in names)
        for t in names:
            low, high = _interval(r["n"], r[f"s:{t}"], r[f"q:{t}"], confidence)
            rows.append({"setting": r["setting"], "players": r["players"], "seat": r["seat"],
                         "tally": t, "n": r["n"], "mean": r[f"s:{t}"] / r["n"],
                         "ci_low": low, "ci_high": high,
                         "share": r[f"s:{t}"] / whole if whole else math.nan})
    order = {t: i for i, t in enumerate(names)}
    return (pl.DataFrame(rows, schema=SCHEMA)
            .sort("setting", "players", "seat", pl.col("tally").replace_strict(order)))


def _interval(n: int, total: int, squares: int, confidence: float) -> tuple[float, float]:
    """The t interval of a mean from its count, sum and sum of squares; NaN below two values.
    Equal values give an interval of no width."""
    if n < 2:
        return math.nan, math.nan
    mean = total / n
    variance = max((squares - total * total / n) / (n - 1), 0.0)
    half = t_quantile(n - 1, 0.5 + confidence / 2) * math.sqrt(variance / n)
    return mean - half, mean + half


def column(name: str, seat: int) -> str:
    """The comparison's column of one seat's tally (`wide`)."""
    return f"tally:{seat}:{name}"


def wide(seats, names: tuple[str, ...]) -> pl.DataFrame:
    """variant, game and a column per seat and tally (`column`): one row per game, a seat
    the game did not have null."""
    parts = [p for p in pieces.of(seats, ["variant", "game", "seat", *names]) if p.height]
    if not parts:
        return pl.DataFrame(schema={"variant": pl.Int32, "game": pl.Int64})
    long = pl.concat(parts)
    out = long.select("variant", "game").unique()
    for seat in sorted(long["seat"].unique().to_list()):
        mine = long.filter(pl.col("seat") == seat).select(
            "variant", "game", *[pl.col(t).alias(column(t, seat)) for t in names])
        out = out.join(mine, on=["variant", "game"], how="left")
    return out.sort("variant", "game")
