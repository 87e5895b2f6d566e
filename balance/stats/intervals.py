"""Confidence intervals for win rates: the Wilson score interval, and the difference of two
independent rates built from those intervals (Newcombe's hybrid score method).

Every interval here is 95% unless a caller asks otherwise. An empty sample has no rate and no
interval (None), never NaN.
"""

from __future__ import annotations

import math
from functools import lru_cache

import polars as pl

from balance.stats.distributions import normal_quantile

CONFIDENCE = 0.95
UPPER = 0.5 + CONFIDENCE / 2  # the quantile a two-sided interval at CONFIDENCE reaches


@lru_cache(maxsize=65536)
def wilson(k: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """The Wilson score interval for k successes in n trials, None when n is 0: the formula of
    scipy's binomtest(k, n).proportion_ci(method="wilson") (Newcombe 1998), without the half
    second scipy.stats takes to import (distributions.py)."""
    if n <= 0:
        return None
    k, n = int(k), int(n)
    if not 0 <= k <= n:
        raise ValueError(f"{k} successes in {n} trials")  # as binomtest refuses them
    p = k / n
    z = normal_quantile(0.5 + 0.5 * confidence)
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * n * p * (1 - p) + z**2)
    return (0.0 if k == 0 else center - delta), (1.0 if k == n else center + delta)


def with_wilson(df: pl.DataFrame, wins: str = "wins", games: str = "games",
                prefix: str = "") -> pl.DataFrame:
    """Add `{prefix}win_rate`, `{prefix}ci_low`, `{prefix}ci_high` from count columns.

    Rows with no games get nulls (rendered as a dash), never NaN.
    """
    rate, low, high = [], [], []
    for k, n in zip(df[wins].to_list(), df[games].to_list(), strict=True):
        ci = wilson(int(k or 0), int(n or 0))
        if ci is None:
            rate.append(None)
            low.append(None)
            high.append(None)
        else:
            rate.append(k / n)
            low.append(ci[0])
            high.append(ci[1])
    return df.with_columns(
        pl.Series(f"{prefix}win_rate", rate, dtype=pl.Float64),
        pl.Series(f"{prefix}ci_low", low, dtype=pl.Float64),
        pl.Series(f"{prefix}ci_high", high, dtype=pl.Float64),
    )


def difference(k1: int, n1: int, k2: int, n2: int,
               confidence: float = CONFIDENCE) -> tuple[float, float, float] | None:
    """p1 - p2 with Newcombe's hybrid score interval (his method 10, Stat. Med. 1998): each
    rate's distance to its own Wilson bound, combined in quadrature. None if either arm is
    empty. Near 0 or 1 it keeps the Wilson interval's good coverage."""
    a = wilson(k1, n1, confidence)
    b = wilson(k2, n2, confidence)
    if a is None or b is None:
        return None
    p1, p2 = k1 / n1, k2 / n2
    d = p1 - p2
    lo = d - math.sqrt((p1 - a[0]) ** 2 + (b[1] - p2) ** 2)
    hi = d + math.sqrt((a[1] - p1) ** 2 + (p2 - b[0]) ** 2)
    return d, lo, hi
