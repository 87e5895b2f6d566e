"""Differences between two variants played on the same games, with 95% intervals that use the
pairing, and the Holm correction for reading many differences at once.

Game i of every variant of an experiment is dealt from the same seed (balance/running/seeds.py), so
the two arms of a comparison share their shuffles, and most of the game-to-game spread cancels in
the per-game differences. Each method here works on those pairs; each comes with the p-value
of the test it inverts, so that an interval that excludes zero and a p-value under 0.05 say
the same thing, and Holm can be applied to the p-values:

- means: the paired t interval and the p-value of the paired t test, as scipy's ttest_rel
  computes them (balance/stats/distributions.py says why not through scipy.stats);
- rates: Tango's score interval for paired proportions (Tango 1998, Stat. Med. 17:891-908),
  the p-value of McNemar's test without continuity correction, which is the same score test
  at a difference of zero;
- medians: a paired percentile bootstrap (games resampled with their pairs), with a stated
  number of resamples and seed, and a p-value read off the same resamples.

Every function takes the baseline first and returns variant minus baseline.

One rule for every method, and for everything built on them (the comparison, the report's
findings, the headline, `balance tune` and `balance strength`):

- Fewer than MIN_PAIRS pairs: too few games to compare. The estimate is kept; the interval and
  the p-value are NaN, nothing is found and Holm leaves it out of its family.
- Every pair differs by the same amount c (a zero-variance difference): the interval is [c, c]
  and the p-value is the exact sign test's, 2 / 2**n (1 when c is 0), rather than the t test's
  0 or the bootstrap's floor. Over many games a constant shift is as sure as it looks; over six
  it is as sure as six coin flips all landing one way, and Holm weighs it so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from balance.stats.distributions import chi2_sf, normal_quantile, t_interval_of_mean
from balance.stats.intervals import CONFIDENCE

RESAMPLES = 4000  # bootstrap resamples: p-values down to 1/2000, enough for Holm over ~100
SEED = 1  # the bootstrap's seed: the same run always prints the same intervals
_BATCH = 250  # bootstrap resamples drawn at once (bounds the memory of a million games)
# The fewest pairs from which a difference can be told from chance. With n pairs all moving
# the same way, the exact two-sided sign test, which assumes nothing about how differences
# spread, gives p = 2 / 2**n: 0.0625 at 5 pairs, 0.031 at 6. Below 6 no outcome of the games
# is significant at 5% without assuming a distribution (the t test's normal differences, the
# bootstrap's sample standing for the population), and a handful of games cannot check one.
MIN_PAIRS = 6
TOO_FEW = "too few games to compare"


@dataclass(frozen=True)
class Paired:
    """variant - baseline over `n` pairs: the estimate, its interval and the p-value of the
    test of no difference that the interval inverts."""

    estimate: float
    low: float
    high: float
    p_value: float
    n: int

    @property
    def too_few(self) -> bool:
        return too_few(self.n)

    @property
    def found(self) -> bool:
        """A difference was found: enough pairs, and the interval excludes zero."""
        return bool(found(self.low, self.high, self.n))


def too_few(n) -> bool:
    """Fewer pairs than MIN_PAIRS: no interval, no p-value, nothing found."""
    return n < MIN_PAIRS


def found(low, high, n):
    """The one verdict: enough pairs and an interval that excludes zero (arrays broadcast;
    a NaN bound never excludes it)."""
    return (np.asarray(n) >= MIN_PAIRS) & ((np.asarray(low) > 0) | (np.asarray(high) < 0))


def _too_few(estimate: float, n: int) -> Paired:
    return Paired(float(estimate), math.nan, math.nan, math.nan, n)


def _constant(d: np.ndarray) -> Paired | None:
    """The result when every pair differs by the same amount c, else None: [c, c], which is
    also the sign test's distribution-free interval for the median difference, and the exact
    sign test's p-value (1 when c is 0: a rule no game touched)."""
    c = float(d[0])
    if not np.all(d == c):
        return None
    n = len(d)
    return Paired(c, c, c, 1.0 if c == 0 else min(1.0, 2.0 * 0.5 ** n), n)


def mean_difference(base, variant, confidence: float = CONFIDENCE) -> Paired | None:
    """Paired t interval of mean(variant - base); None without pairs, too few below
    MIN_PAIRS."""
    x = np.asarray(base, np.float64)
    y = np.asarray(variant, np.float64)
    n = len(x)
    if n == 0:
        return None
    d = y - x
    if too_few(n):
        return _too_few(d.mean(), n)
    same = _constant(d)
    if same is not None:
        return same
    mean, low, high, p = t_interval_of_mean(d, confidence)
    return Paired(mean, low, high, p, n)


def tango_statistic(n12, n21, n, delta):
    """Tango's score statistic for a difference `delta` of paired proportions: n12 pairs won
    by the variant only, n21 by the baseline only, n pairs. Arrays broadcast. It decreases in
    delta and is McNemar's z, (n12 - n21) / sqrt(n12 + n21), at delta = 0."""
    n12, n21, n, delta = (np.asarray(a, np.float64) for a in (n12, n21, n, delta))
    # The maximum likelihood estimate of the baseline-only probability under the constraint
    # that the difference is delta: the positive root of A q^2 + B q + C = 0 (Tango, eq. 6).
    a = 2 * n
    b = -n12 - n21 + (2 * n - n12 + n21) * delta
    c = -n21 * delta * (1 - delta)
    q21 = (np.sqrt(np.maximum(b * b - 4 * a * c, 0.0)) - b) / (2 * a)
    var = n * (2 * q21 + delta * (1 - delta))
    with np.errstate(divide="ignore", invalid="ignore"):
        return (n12 - n21 - n * delta) / np.sqrt(var)


def tango_interval(n12, n21, n, confidence: float = CONFIDENCE):
    """Tango's score interval for p_variant - p_baseline: (estimate, low, high) arrays.
    Found by bisection on each side of the estimate (the statistic is monotone), all rows at
    once, so that a whole difficulty curve costs one pass."""
    n12, n21, n = (np.asarray(a, np.float64) for a in (n12, n21, n))
    z = normal_quantile(0.5 + confidence / 2)
    est = (n12 - n21) / n
    bounds = []
    for side, edge in ((z, -1.0), (-z, 1.0)):
        # Between the estimate (statistic 0) and the edge (beyond +-z unless the data reach
        # it), the root of statistic = side. 60 halvings leave under 1e-17 of the range.
        near, far = est.copy(), np.full_like(est, edge)
        for _ in range(60):
            mid = (near + far) / 2
            t = tango_statistic(n12, n21, n, mid)
            inside = (t < side) if side > 0 else (t > side)
            near = np.where(inside, mid, near)
            far = np.where(inside, far, mid)
        bounds.append((near + far) / 2)
    return est, bounds[0], bounds[1]


def proportion_difference(base, variant, confidence: float = CONFIDENCE) -> Paired | None:
    """Tango's score interval for rate(variant) - rate(base), from per-game booleans; the
    p-value is McNemar's (asymptotic, no continuity correction). None without pairs, too few
    below MIN_PAIRS."""
    x = np.asarray(base, bool)
    y = np.asarray(variant, bool)
    n = len(x)
    if n == 0:
        return None
    n12 = int(np.count_nonzero(y & ~x))
    n21 = int(np.count_nonzero(x & ~y))
    if too_few(n):
        return _too_few((n12 - n21) / n, n)
    est, lo, hi = tango_interval(n12, n21, n, confidence)
    if n12 + n21 == 0:
        p = 1.0  # no game changed its outcome: no evidence of a difference at all
    else:
        p = mcnemar_p(n12, n21)
    return Paired(float(est), float(lo), float(hi), p, n)


def mcnemar_p(n12: int, n21: int) -> float:
    """McNemar's asymptotic test without continuity correction, from the discordant pairs'
    counts (at least one), as statsmodels' mcnemar(exact=False, correction=False) computes
    it. Written out here because importing statsmodels' contingency tables, and scipy.stats
    with them, was 0.64 s of the 1.4 s that printing a run's headline took;
    tests/test_compare.py checks it against statsmodels."""
    return chi2_sf((n12 - n21) ** 2 / (n12 + n21), 1)


def median_difference(base, variant, resamples: int = RESAMPLES, seed: int = SEED,
                      confidence: float = CONFIDENCE) -> Paired | None:
    """median(variant) - median(base) with a paired percentile bootstrap: the games are
    resampled with replacement, each with both its results. The p-value is twice the smaller
    share of resamples on either side of zero (each share counted as (k + 1) / (R + 1), so it
    is never 0). None without pairs, too few below MIN_PAIRS; a constant difference is
    exact (_constant), as every resample would say.

    Resampling n games is drawing, from the table of distinct (base, variant) value pairs, a
    multinomial of n over those cells; the medians depend on the counts alone. Scores take a
    few dozen values, so a million games cost no more than a thousand."""
    x = np.asarray(base, np.float64)
    y = np.asarray(variant, np.float64)
    n = len(x)
    if n == 0:
        return None
    if too_few(n):
        return _too_few(np.median(y) - np.median(x), n)
    same = _constant(y - x)
    if same is not None:
        return same
    cells, counts = np.unique(np.stack([x, y], axis=1), axis=0, return_counts=True)
    rng = np.random.default_rng(seed)
    groups = _MedianGroups.of(cells, counts, n)
    draws = []
    for start in range(0, resamples, _BATCH):
        size = min(_BATCH, resamples - start)
        if groups is None:
            w = rng.multinomial(n, counts / n, size=size)
            draws.append(_weighted_median(cells[:, 1], w) - _weighted_median(cells[:, 0], w))
        else:
            draws.append(groups.differences(rng, size))
    boot = np.concatenate(draws)
    alpha = 1 - confidence
    lo, hi = np.quantile(boot, [alpha / 2, 1 - alpha / 2])
    below = np.count_nonzero(boot <= 0)
    above = np.count_nonzero(boot >= 0)
    p = float(min(1.0, 2 * (min(below, above) + 1) / (resamples + 1)))
    est = float(np.median(y) - np.median(x))
    return Paired(est, float(lo), float(hi), p, n)


# How far from the middle, in standard deviations of a resample's median rank (sqrt(n) / 2),
# a value still gets a group of its own (_MedianGroups). Beyond 6, about one resample in
# 500 million, a resample is drawn again cell by cell: exact, only slower.
_SPREAD = 6.0
_FEW_CELLS = 200  # drawn cell by cell: it costs little, and small runs keep their intervals


@dataclass(frozen=True)
class _MedianGroups:
    """The bootstrap's cells (distinct (base, variant) pairs) grouped so that a resample is
    drawn over far fewer of them, with the same medians. A resample's median can only be a
    value near the sample's middle, so the values of each side are kept apart within a window
    around it, and the values below it (and those above) are lumped into one. A multinomial
    over the groups is the multinomial over the cells, summed; when a resample's median does
    fall outside a window, the groups it drew are split into their cells by the conditional
    multinomials, which is the same draw cell by cell. Over 10,000 games of scores, 700 to
    1,100 cells became 12 to 16 groups, and the main job's report spent a tenth of the time
    on its bootstraps.

    Drawn in the old way, cell by cell, when there are few cells (a run of a few hundred
    games) or grouping saves nothing: the same random numbers, so the same intervals as
    before grouping."""

    cells: np.ndarray  # (K, 2): base, variant
    counts: np.ndarray  # (K,) games per cell
    group: np.ndarray  # (K,) each cell's group
    share: np.ndarray  # (G,) each group's share of the games
    side_cat: tuple  # per side, (G,) each group's category: 0 below, 1..W the window, W+1 above
    side_values: tuple  # per side, (W,) the window's values
    n: int

    @staticmethod
    def of(cells: np.ndarray, counts: np.ndarray, n: int) -> _MedianGroups | None:
        if len(cells) <= _FEW_CELLS:
            return None
        reach = math.ceil(_SPREAD * math.sqrt(n) / 2)
        lo, hi = max(0, (n - 1) // 2 - reach), min(n - 1, n // 2 + reach)
        cats, windows = [], []
        for side in (0, 1):
            values, inv = np.unique(cells[:, side], return_inverse=True)
            cum = np.cumsum(np.bincount(inv, weights=counts))
            first = int(np.searchsorted(cum, lo, side="right"))  # the value of rank lo
            last = int(np.searchsorted(cum, hi, side="right"))
            cats.append(np.clip(inv - first + 1, 0, last - first + 2))
            windows.append(values[first:last + 1])
        joint = cats[0] * (len(windows[1]) + 2) + cats[1]
        keys, group = np.unique(joint, return_inverse=True)
        if len(keys) == len(cells):
            return None
        width = len(windows[1]) + 2
        return _MedianGroups(cells, counts, group,
                             np.bincount(group, weights=counts) / n,
                             (keys // width, keys % width), tuple(windows), n)

    def differences(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """variant's median less base's, for `size` resamples."""
        w = rng.multinomial(self.n, self.share, size=size)
        medians, outside = [], np.zeros(size, bool)
        for side in (0, 1):
            cat, values = self.side_cat[side], self.side_values[side]
            per_cat = np.zeros((size, len(values) + 2), np.int64)
            for c in range(len(values) + 2):
                per_cat[:, c] = w[:, cat == c].sum(axis=1)
            cum = np.cumsum(per_cat, axis=1)
            lower = np.argmax(cum > (self.n - 1) // 2, axis=1)
            upper = np.argmax(cum > self.n // 2, axis=1)
            edge = len(values) + 1
            outside |= (lower == 0) | (upper == 0) | (lower == edge) | (upper == edge)
            inside = np.clip(np.stack([lower, upper]) - 1, 0, len(values) - 1)
            medians.append((values[inside[0]] + values[inside[1]]) / 2)
        diff = medians[1] - medians[0]
        for r in np.flatnonzero(outside):
            full = self._split(rng, w[r])
            diff[r] = (_weighted_median(self.cells[:, 1], full[None])
                       - _weighted_median(self.cells[:, 0], full[None]))[0]
        return diff

    def _split(self, rng: np.random.Generator, drawn: np.ndarray) -> np.ndarray:
        """One resample's games per cell, given its games per group."""
        full = np.zeros(len(self.cells), np.int64)
        for g in np.flatnonzero(drawn):
            members = np.flatnonzero(self.group == g)
            if len(members) == 1:
                full[members[0]] = drawn[g]
            else:
                c = self.counts[members]
                full[members] = rng.multinomial(drawn[g], c / c.sum())
        return full


def _weighted_median(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The median (numpy's: the mean of the two middle values for an even count) of each row
    of `weights`, counts of `values`."""
    order = np.argsort(values, kind="stable")
    v = values[order]
    cum = np.cumsum(weights[:, order], axis=1)
    total = cum[:, -1]
    lower = np.argmax(cum > ((total - 1) // 2)[:, None], axis=1)
    upper = np.argmax(cum > (total // 2)[:, None], axis=1)
    return (v[lower] + v[upper]) / 2


def holm(p_values, alpha: float = 1 - CONFIDENCE):
    """Holm's step-down correction: (survives, adjusted p-values), one each per p-value, in
    the order given. A NaN p-value is left out of the family and never survives.

    As statsmodels' multipletests(method="holm") computes it (tests/test_compare.py checks
    the two agree), written out because that function calls gc.collect() each time: a full
    collection of every object in the process, 0.1 s in a report's process and more in a
    long-lived one such as a notebook's or the test suite's."""
    p = np.asarray(p_values, np.float64)
    ok = np.isfinite(p)
    survives = np.zeros(len(p), bool)
    adjusted = np.full(len(p), math.nan)
    family = p[ok]
    m = len(family)
    if m:
        order = np.argsort(family)  # the same sort as statsmodels', so ties keep its order
        ranked = family[order]
        # the k-th smallest (from 0) is tested at alpha / (m - k); the first that fails
        # stops the steps, and every later one fails with it
        fails = np.nonzero(ranked > alpha / np.arange(m, 0, -1))[0]
        first_fail = fails[0] if fails.size else m
        reject = np.arange(m) < first_fail
        adj = np.minimum(np.maximum.accumulate(ranked * np.arange(m, 0, -1)), 1.0)
        at = np.flatnonzero(ok)[order]
        survives[at] = reject
        adjusted[at] = adj
    return survives, adjusted
