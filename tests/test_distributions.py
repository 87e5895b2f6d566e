"""Issue 30: the intervals come from scipy.special, not scipy.stats (balance/stats/distributions.py
says why). Each must be scipy.stats' own figure, and the processes that print a headline or read
a run must not import scipy.stats, matplotlib or seaborn until something is drawn."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from balance.stats import distributions as dist
from balance.stats.intervals import wilson
from balance.stats.measures import t_interval
from balance.stats.paired import holm as paired_holm
from balance.stats.paired import mean_difference, proportion_difference, tango_interval
from tests.fresh import imports_none


def test_quantiles_and_tails_are_scipy_stats():
    for q in (0.5, 0.9, 0.95, 0.975, 0.995, 0.025):
        assert dist.normal_quantile(q) == stats.norm.ppf(q)
        for df in (1, 2, 5, 29, 30.7, 999):
            assert dist.t_quantile(df, q) == pytest.approx(stats.t.ppf(q, df), rel=1e-14)
    for t in (-4.0, -0.3, 0.0, 1.2, 8.0):
        for df in (3, 17.5, 400):
            assert dist.t_two_sided_p(df, t) == pytest.approx(2 * stats.t.sf(abs(t), df),
                                                              rel=1e-12)
    assert np.isnan(dist.t_two_sided_p(5, float("nan")))


def test_wilson_is_scipys_on_every_count_and_confidence():
    for n in [*range(1, 41), 97, 1000, 123_457]:
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            for confidence in (0.9, 0.95, 0.99):
                ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence,
                                                         method="wilson")
                low, high = wilson.__wrapped__(k, n, confidence)
                assert (low, high) == pytest.approx((ci.low, ci.high), abs=1e-15), (k, n)
    for k, n in ((4, 3), (-1, 3)):
        with pytest.raises(ValueError):
            stats.binomtest(k, n)
        with pytest.raises(ValueError):
            wilson(k, n)


def test_the_exact_binomial_test_is_scipys_binomtest():
    """Every count of small n at fair shares of 2 to 7 seats and at skewed p (where the two
    tails are far from mirror images), and a sample of counts at large n."""
    rng = np.random.default_rng(5)
    for n in [*range(1, 13), 17, 30, 97, 4321, 123_457]:
        for p in (1 / 2, 1 / 3, 1 / 4, 1 / 7, 0.37, 0.9, 0.02):
            ks = range(n + 1) if n <= 30 else sorted(
                {0, 1, n - 1, n, int(p * n), int(p * n) + 1, *rng.integers(0, n + 1, 10)})
            for k in ks:
                want = stats.binomtest(int(k), n, p).pvalue
                # abs: far tails below 1e-250 underflow differently; no test reads them
                assert dist.binomial_two_sided_p(int(k), n, p) == pytest.approx(
                    want, rel=1e-9, abs=1e-250), (k, n, p)
    assert dist.binomial_two_sided_p(3, 6, 0.5) == 1.0
    assert dist.binomial_two_sided_p(0, 5, 0.0) == 1.0
    assert dist.binomial_two_sided_p(1, 5, 0.0) == 0.0 == stats.binomtest(1, 5, 0.0).pvalue
    for k, n, p in ((4, 3, 0.5), (-1, 3, 0.5), (1, 0, 0.5), (1, 3, 1.5)):
        with pytest.raises(ValueError):
            dist.binomial_two_sided_p(k, n, p)


def test_the_paired_t_interval_and_p_value_are_ttest_rels():
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(6, 400))
        base = rng.integers(0, 60, n).astype(float)
        variant = base + rng.normal(rng.normal(0, 1), 3, n).round()
        got = mean_difference(base, variant, confidence=0.9 if n % 2 else 0.95)
        if got.low == got.high:
            continue  # a constant difference: the sign test's, not the t test's
        ref = stats.ttest_rel(variant, base)
        ci = ref.confidence_interval(0.9 if n % 2 else 0.95)
        assert (got.low, got.high) == pytest.approx((ci.low, ci.high), rel=1e-12, abs=1e-12)
        assert got.p_value == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-300)
        assert got.estimate == pytest.approx(float(np.mean(variant - base)), abs=1e-12)


def test_the_t_interval_of_a_mean_is_scipys():
    x = np.array([3.0, 7, 7, 19, 4, 11, 2])
    ref = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert t_interval(x) == pytest.approx(ref, rel=1e-12)


def test_tango_reads_the_normal_quantile_of_the_confidence():
    est, low, high = tango_interval(30, 10, 100, confidence=0.95)
    # at the bounds the score statistic is the normal quantile, either side
    from balance.stats.paired import tango_statistic  # the statistic the bounds invert

    z = stats.norm.ppf(0.975)
    assert float(tango_statistic(30, 10, 100, low)) == pytest.approx(z, abs=1e-9)
    assert float(tango_statistic(30, 10, 100, high)) == pytest.approx(-z, abs=1e-9)
    assert proportion_difference(np.zeros(100, bool), np.ones(100, bool)).found


def test_reading_and_heading_a_run_imports_no_scipy_nor_matplotlib():
    """What `balance run` imports, and what its child that prints the headline and the
    comparison imports (every game's report included), draw nothing: the half second of
    scipy.stats and the quarter of matplotlib wait until a figure is drawn, and
    scipy.special's tenth of a second until the first interval or test
    (a damaged run folder is refused without it)."""
    imports_none("import balance.running.runner, balance.running.precision, "
                 "reports.headline, reports.page.build, reports.compare.compare_text; "
                 "from balance.contract import registry; "
                 "[registry.get(g) for g in registry.names()]; "
                 "import reports.gemrush.report, reports.rusship.report",
                 ("scipy", "matplotlib", "seaborn", "statsmodels"))


def test_a_team_run_s_headline_imports_no_scipy_stats(tmp_path):
    """The closing summary of a Crisis run tests no seat against its fair share: Holm's
    correction over p-values that are all missing imports nothing (it imported statsmodels'
    multitest, and with it scipy.stats: 0.8 s of every such `balance run`)."""
    _headline_imports_neither(tmp_path, 'mode = "crisis"\ngames = 4\nplayers = 2\n', "'c' in text")
    survives, adjusted = paired_holm([float("nan")] * 3)
    assert not survives.any() and np.isnan(adjusted).all()


def test_a_race_s_headline_tests_its_seats_without_scipy_stats(tmp_path):
    """A run a seat wins: the headline tests each seat against its fair share (the exact
    binomial test, balance/stats/distributions.py), which imported scipy.stats: 0.6 s of
    every such `balance run`, Rush's and Rusship's."""
    _headline_imports_neither(tmp_path, 'mode = "rush"\ngames = 40\nplayers = 2\n',
                              "'fair share' in text and 'Holm' in text")


def test_a_comparison_s_headline_imports_no_scipy_stats_nor_statsmodels(tmp_path):
    """Two variants: the headline compares win rates (McNemar's p-values, then Holm's
    correction over them). Importing statsmodels' contingency tables for McNemar, and
    scipy.stats with them, was 0.64 s of the 1.4 s that headline took."""
    _headline_imports_neither(tmp_path, 'mode = "crisis"\ngames = 40\nplayers = 2\n'
                              'exhaust = true\n[grid]\nskills = ["normal", "none"]\n',
                              "'Holm' in text or 'holm' in text")


def _headline_imports_neither(tmp_path, settings: str, check: str) -> None:
    """Play a 2nd-edition experiment of these settings (TOML lines after the edition), then
    print its headline in a fresh process: `check` (on `text`) holds, and neither scipy.stats
    nor statsmodels was imported."""
    path = tmp_path / "c.toml"
    path.write_text('[experiment]\nname = "c"\ndescription = "d"\nedition = "2e"\nseed = 1\n'
                    + settings, encoding="utf-8")
    from balance.running.experiment import load_experiment
    from balance.running.runner import run_experiment

    run = run_experiment(load_experiment(path), out=tmp_path / "runs", jobs=1).run_dir
    imports_none("import pathlib; from reports.headline import headline; "
                 f"text = headline(pathlib.Path({str(run)!r})); assert {check}, text",
                 ("scipy.stats", "statsmodels"))


@pytest.mark.parametrize("args", [["--help"], ["validate", "gemrush-2e"],
                                  ["rusship", "--help"]])
def test_the_command_lines_help_and_content_checks_load_no_engine(args):
    """`balance --help` and `balance validate` list and check; neither plays, so neither
    imports numba with a game's engine (0.4 s of every command's start), nor scipy."""
    imports_none(f"import sys; from balance.cli.app import app; sys.argv = ['balance', *{args!r}]"
                 "\ntry:\n    app()\nexcept SystemExit as e:\n    assert not e.code, e.code",
                 ("numba", "scipy", "matplotlib"))
