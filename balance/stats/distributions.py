"""The normal and Student's t quantiles and tails that the intervals need, and the chi-squared
tail of McNemar's test, from scipy.special.

scipy.stats computes these with the same scipy.special functions, but importing scipy.stats
takes about 0.55 s and scipy.special about 0.17 s (2-core machine). Every `balance run` pays
the import twice (the command, then the child process that prints its headline), and so does
every command that reads a run; a command that refuses its input before any interval (a
damaged run folder) does not import it at all. The intervals built on these (intervals.wilson,
paired.mean_difference, measures.t_interval) follow scipy.stats' own formulas, and
tests/test_distributions.py checks them against scipy.stats on a grid of inputs.
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
