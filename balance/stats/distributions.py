"""The normal and Student's t quantiles and tails that the intervals need, the chi-squared
tail of McNemar's test, and the exact binomial test, from scipy.special.

scipy.stats computes these with the same scipy.special functions, but importing scipy.stats
takes about 0.55 s and scipy.special about 0.17 s (2-core machine). Every `balance run` pays
the import twice (the command, then the child process that prints its headline), and so does
every command that reads a run; a command that refuses its input before any interval (a
damaged run folder) does not import it at all. The intervals built on these (intervals.wilson,
paired.mean_difference, measures.t_interval) follow scipy.stats' own formulas, and
tests/test_distributions.py checks them against scipy.stats on a grid of inputs. The exact
binomial test (a seat against its fair share) was the last reason a headline imported
scipy.stats: every run of a game a seat wins paid it.
"""

from __future__ import annotations

import math

import numpy as np


def normal_quantile(q: float) -> float:
    """The standard normal's q-quantile (scipy.stats.norm.ppf)."""
    from scipy.special import ndtri  # imported at first use (module docstring)

    return float(ndtri(q))


def t_quantile(df: float, q: float) -> float:
    """Student's t's q-quantile with df degrees of freedom (scipy.stats.t.ppf)."""
    from scipy.special import stdtrit  # imported at first use (module docstring)

    return float(stdtrit(df, q))


def t_two_sided_p(df: float, t: float) -> float:
    """The two-sided p-value of a t statistic (2 * scipy.stats.t.sf(|t|, df)); NaN for a NaN
    statistic."""
    if math.isnan(t):
        return math.nan
    from scipy.special import stdtr  # imported at first use (module docstring)

    return float(2.0 * stdtr(df, -abs(t)))


def chi2_sf(x: float, df: int) -> float:
    """The chi-squared survival function with df degrees of freedom (scipy.stats.chi2.sf)."""
    from scipy.special import chdtrc  # imported at first use (module docstring)

    return float(chdtrc(df, x))


def t_interval_of_mean(values, confidence: float) -> tuple[float, float, float, float]:
    """The one-sample t test of mean 0 as scipy.stats.ttest_1samp computes it: (mean, low,
    high, two-sided p-value) for at least two values that are not all equal."""
    n = len(values)
    mean = float(np.mean(values))
    se = float(np.std(values, ddof=1)) / math.sqrt(n)
    tail = (1 - confidence) / 2
    return (mean, t_quantile(n - 1, tail) * se + mean, t_quantile(n - 1, 1 - tail) * se + mean,
            t_two_sided_p(n - 1, mean / se))


def binomial_two_sided_p(k: int, n: int, p: float) -> float:
    """The two-sided p-value of the exact binomial test of k successes in n trials against a
    success probability p (scipy.stats.binomtest(k, n, p).pvalue): the probability, under p,
    of every count no more likely than k (with scipy's relative tolerance of 1e-7, so that
    counts as likely as k up to rounding are counted too). The counts beyond k on its own
    side are one tail; on the other side of the most likely count the probabilities fall
    steadily away from it, so the counts no more likely than k there are found by bisection: a
    handful of probabilities, not n of them."""
    if not (n >= 1 and 0 <= k <= n and 0.0 <= p <= 1.0):
        raise ValueError(f"no binomial test of {k} successes in {n} trials at p = {p}")
    mean = p * n
    if k == mean:
        return 1.0
    if p in (0.0, 1.0):  # one count is certain, and k is not it
        return 0.0
    from scipy.special import bdtr, bdtrc  # imported at first use (module docstring)

    limit = _binomial_pmf(k, n, p) * (1 + 1e-7)
    if k < mean:
        # above the most likely count the probabilities fall: the first count at most
        # `limit` starts the far tail (n + 1: none)
        lo, hi = math.ceil(mean), n + 1
        while lo < hi:
            mid = (lo + hi) // 2
            if _binomial_pmf(mid, n, p) <= limit:
                hi = mid
            else:
                lo = mid + 1
        far = float(bdtrc(lo - 1, n, p)) if lo <= n else 0.0
        return min(1.0, float(bdtr(k, n, p)) + far)
    # below the most likely count they rise: the last count at most `limit` ends the far
    # tail (-1: none)
    lo, hi = -1, math.floor(mean)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _binomial_pmf(mid, n, p) <= limit:
            lo = mid
        else:
            hi = mid - 1
    far = float(bdtr(lo, n, p)) if lo >= 0 else 0.0
    return min(1.0, far + float(bdtrc(k - 1, n, p)))


def _binomial_pmf(i: int, n: int, p: float) -> float:
    return math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                    + i * math.log(p) + (n - i) * math.log1p(-p))
