"""Paired comparisons between the variants of a run (issue 11, item 3): the interval methods
against published reference values, Holm's correction by hand, the pairing actually used, the
"no difference found" wording, `balance compare` and `balance run`'s headline on small real
runs, and bad inputs refused with exit 2."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import polars as pl
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from balance.errors import InputError
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from balance.running.store import read_run
from balance.stats import paired
from balance.stats.intervals import difference as independent_difference
from balance.stats.intervals import wilson
from reports.compare import compare_text
from reports.compare.compare import compare
from reports.render import text

# Student's sleep data (R's `sleep`): extra hours of sleep of the same 10 patients with each
# drug. R: t.test(extra ~ group, data = sleep, paired = TRUE) gives t = -4.0621, df = 9,
# p-value = 0.002833, 95% CI -2.4598858 to -0.7001142, mean difference -1.58; unpaired
# (var.equal = TRUE), -3.363874 to 0.203874.
SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]

# Tango's score interval for a paired difference of proportions, published examples as the
# ratesci R package's tests reproduce them (tests/testthat/test3.R, "legacy & new methods
# match published examples"). Cells (a, b, c, d): both, first only, second only, neither;
# the difference is (b - c) / n, first minus second.
TANGO = [
    # Tango (1998), Stat. Med. 17:891-908, 90% interval
    ((43, 0, 1, 0), 0.90, (-0.096, 0.037), 3),
    # Agresti & Min (2005), Stat. Med. 24:729-740
    ((53, 16, 8, 9), 0.95, (-0.020, 0.207), 3),
    # Fagerland, Lydersen & Laake (2014), Stat. Med. 33:2850-2875 (Bentur et al. 2009 data)
    ((1, 1, 7, 12), 0.95, (-0.517, -0.026), 3),
    ((4, 9, 3, 16), 0.95, (-0.027, 0.390), 3),
    # Tang, Ling & Tian (2010) example, to four decimals
    ((8, 3, 1, 2), 0.95, (-0.1670, 0.4327), 4),
]


def _pairs(a: int, b: int, c: int, d: int):
    """Per-pair outcomes (baseline, variant) with b pairs won by the variant only."""
    base = [True] * a + [False] * b + [True] * c + [False] * d
    variant = [True] * a + [True] * b + [False] * c + [False] * d
    return np.array(base), np.array(variant)


# -- interval methods against published values --------------------------------------------

def test_paired_t_interval_matches_r_on_the_sleep_data():
    r = paired.mean_difference(SLEEP_2, SLEEP_1)  # baseline first: group 1 minus group 2
    assert r.estimate == pytest.approx(-1.58, abs=1e-12)
    assert r.low == pytest.approx(-2.4598858, abs=5e-8)
    assert r.high == pytest.approx(-0.7001142, abs=5e-8)
    assert r.p_value == pytest.approx(0.002833, abs=5e-7)
    assert r.found and r.n == 10


@pytest.mark.parametrize("cells,confidence,published,decimals", TANGO)
def test_tango_interval_matches_published_examples(cells, confidence, published, decimals):
    a, b, c, d = cells
    _, lo, hi = paired.tango_interval(b, c, a + b + c + d, confidence)
    assert (round(float(lo), decimals), round(float(hi), decimals)) == published


@pytest.mark.parametrize("cells,confidence,published,decimals", TANGO)
def test_proportion_difference_counts_the_discordant_pairs(cells, confidence, published,
                                                           decimals):
    base, variant = _pairs(*cells)
    r = paired.proportion_difference(base, variant, confidence)
    a, b, c, d = cells
    assert r.estimate == pytest.approx((b - c) / (a + b + c + d))
    assert (round(r.low, decimals), round(r.high, decimals)) == published


def test_mcnemar_p_value_is_the_score_test_the_interval_inverts():
    # McNemar's statistic without continuity correction is Tango's at a difference of zero,
    # (b - c)^2 / (b + c), so the interval excludes zero exactly when p < 0.05.
    for cells in [t[0] for t in TANGO] + [(10, 30, 12, 48), (5, 20, 9, 66)]:
        a, b, c, d = cells
        r = paired.proportion_difference(*_pairs(*cells))
        assert r.p_value == pytest.approx(stats.chi2.sf((b - c) ** 2 / (b + c), 1))
        assert float(paired.tango_statistic(b, c, a + b + c + d, 0.0)) ** 2 == \
            pytest.approx((b - c) ** 2 / (b + c))
        assert r.found == (r.p_value < 0.05)


def test_mcnemar_p_is_statsmodels_on_every_small_table():
    # Written out from statsmodels' formula (paired.mcnemar_p says why); the same bits.
    for n12 in range(0, 41):
        for n21 in range(0, 41):
            if n12 + n21:
                want = mcnemar([[7, n21], [n12, 5]], exact=False, correction=False).pvalue
                assert paired.mcnemar_p(n12, n21) == want, (n12, n21)


def test_no_discordant_pair_gives_a_symmetric_interval_and_p_one():
    r = paired.proportion_difference(np.zeros(400, bool), np.zeros(400, bool))
    z2 = stats.norm.ppf(0.975) ** 2
    assert r.estimate == 0 and r.p_value == 1 and not r.found
    # With no discordant pair the score interval is +-z^2 / (n + z^2).
    assert r.high == pytest.approx(z2 / (400 + z2), rel=1e-9)
    assert r.low == pytest.approx(-z2 / (400 + z2), rel=1e-9)


def test_bootstrap_median_agrees_with_scipy_paired_bootstrap():
    rng = np.random.default_rng(7)
    base = rng.integers(15, 45, 600)
    variant = base + rng.integers(-2, 6, 600)
    ours = paired.median_difference(base, variant, resamples=4000, seed=3)
    ref = stats.bootstrap((base, variant), lambda x, y, axis=-1: np.median(y, axis=axis)
                          - np.median(x, axis=axis), paired=True, method="percentile",
                          n_resamples=4000, random_state=11).confidence_interval
    assert ours.estimate == np.median(variant) - np.median(base)
    # Two independent sets of resamples of a discrete statistic: the same to a score point.
    assert abs(ours.low - ref.low) <= 1 and abs(ours.high - ref.high) <= 1
    assert ours.low <= ours.estimate <= ours.high


def test_bootstrap_is_repeatable_and_its_seed_matters():
    rng = np.random.default_rng(1)
    base = rng.integers(0, 60, 300)
    variant = np.clip(base + rng.integers(-8, 9, 300), 0, None)
    a = paired.median_difference(base, variant, resamples=500, seed=5)
    assert a == paired.median_difference(base, variant, resamples=500, seed=5)
    others = {paired.median_difference(base, variant, resamples=500, seed=s).p_value
              for s in range(6, 12)}
    assert len(others | {a.p_value}) > 1


def _cell_by_cell(base, variant, resamples, seed):
    """The bootstrap's differences drawn over every cell: what median_difference drew
    before its cells were grouped."""
    n = len(base)
    cells, counts = np.unique(np.stack([base, variant], axis=1), axis=0, return_counts=True)
    w = np.random.default_rng(seed).multinomial(n, counts / n, size=resamples)
    return paired._weighted_median(cells[:, 1], w) - paired._weighted_median(cells[:, 0], w)


def test_a_small_run_draws_its_cells_as_before_grouping():
    # A few hundred games have few distinct pairs: drawn cell by cell, with the same random
    # numbers, the same interval and p-value as before grouping.
    rng = np.random.default_rng(8)
    base = rng.integers(10, 60, 150).astype(float)
    variant = np.clip(base + rng.integers(-6, 9, 150), 0, None)
    cells, counts = np.unique(np.stack([base, variant], axis=1), axis=0, return_counts=True)
    assert paired._MedianGroups.of(cells, counts, 150) is None
    boot = _cell_by_cell(base, variant, 500, 3)
    got = paired.median_difference(base, variant, resamples=500, seed=3)
    assert (got.low, got.high) == tuple(np.quantile(boot, [0.025, 0.975]))
    below, above = np.count_nonzero(boot <= 0), np.count_nonzero(boot >= 0)
    assert got.p_value == min(1.0, 2 * (min(below, above) + 1) / 501)


@pytest.mark.parametrize("spread", [0.3, paired._SPREAD])
def test_grouped_cells_draw_the_medians_the_cells_draw(monkeypatch, spread):
    # Grouping is exact: the same distribution of the difference of medians as drawing
    # every cell. At a spread of 0.3 most resamples' medians fall outside the window and are
    # split back into cells (the path a real run takes about once in 500 million).
    monkeypatch.setattr(paired, "_SPREAD", spread)
    monkeypatch.setattr(paired, "_FEW_CELLS", 0)
    rng = np.random.default_rng(12)
    n = 2000
    base = np.round(rng.gamma(5, 3, n))
    variant = np.clip(base + np.round(rng.normal(1, 4, n)), 0, None)
    cells, counts = np.unique(np.stack([base, variant], axis=1), axis=0, return_counts=True)
    groups = paired._MedianGroups.of(cells, counts, n)
    assert len(groups.share) < len(cells) / 4
    draws = 20_000
    grouped = np.concatenate([groups.differences(np.random.default_rng(s), 250)
                              for s in range(draws // 250)])
    plain = _cell_by_cell(base, variant, draws, 99)
    for v in np.union1d(grouped, plain):
        a, b = np.mean(grouped == v), np.mean(plain == v)
        se = math.sqrt((a * (1 - a) + b * (1 - b)) / draws)
        assert abs(a - b) <= 4.5 * se + 1e-3, (v, a, b)


def test_resampling_cells_is_resampling_games():
    # The bootstrap draws counts of distinct (base, variant) pairs; the median of each draw
    # must be the median of the games those counts stand for.
    rng = np.random.default_rng(2)
    values = np.array([3.0, 7.0, 7.5, 10.0, 12.0, 40.0])
    weights = rng.integers(0, 5, size=(200, len(values)))
    weights[:, 0] += 1  # no empty draw
    got = paired._weighted_median(values, weights)
    want = [np.median(np.repeat(values, w)) for w in weights]
    assert np.array_equal(got, want)


# -- Holm -----------------------------------------------------------------------------------

def test_holm_by_hand():
    # Sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> 0.06
    # (adjusted p-values never decrease down the sorted list). At 5%: the first two survive.
    survives, adjusted = paired.holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert survives.tolist() == [True, False, False, True]


def test_holm_is_statsmodels_on_random_families_with_ties(monkeypatch):
    import gc

    monkeypatch.setattr(gc, "collect", lambda *a: 0)  # statsmodels' own, 0.05 s a call here
    rng = np.random.default_rng(4)
    for size in list(range(1, 12)) + [30, 200]:
        for alpha in (0.05, 0.1, 0.01):
            for _ in range(20):
                p = rng.uniform(0, 0.2, size) ** rng.uniform(0.5, 3)
                p = np.round(p, int(rng.integers(2, 6)))  # ties, and p-values of 0
                survives, adjusted = paired.holm(p, alpha)
                reject, want, _, _ = multipletests(p, alpha=alpha, method="holm")
                assert survives.tolist() == reject.tolist()
                assert np.array_equal(adjusted, want)


def test_holm_collects_no_garbage(monkeypatch):
    # statsmodels' multipletests calls gc.collect() on every call: a full collection of
    # every object in the process, which the test suite's workers paid dozens of times.
    import gc

    calls = []
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append(a) or 0)
    paired.holm([0.01, 0.2, 0.03])
    assert calls == []


def test_holm_leaves_missing_p_values_out_of_the_family():
    survives, adjusted = paired.holm([0.02, float("nan"), 0.02])
    assert survives.tolist() == [True, False, True]  # 0.02 x 2 = 0.04: a family of two
    assert adjusted[0] == pytest.approx(0.04) and np.isnan(adjusted[1])


# -- the pairing is used ---------------------------------------------------------------------

def test_sleep_data_paired_interval_is_narrower_than_the_unpaired_one():
    r = paired.mean_difference(SLEEP_2, SLEEP_1)
    unpaired = stats.ttest_ind(SLEEP_1, SLEEP_2, equal_var=True).confidence_interval()
    assert (unpaired.low, unpaired.high) == pytest.approx((-3.363874, 0.203874), abs=5e-7)
    assert r.high - r.low < 0.5 * (unpaired.high - unpaired.low)


DIFFS = {"Apprentice": 35, "Journeyman": 45, "Master": 75}


def _manifest(n_variants: int, mode: str = "crisis", exhaust: bool = True, target=None,
              players: int = 2, grid_text: str = "", baseline: int | None = None) -> dict:
    head = "[experiment]\nname = \"syn\"\n" + (f"baseline = {baseline}\n" if baseline is not None
                                              else "")
    return {"experiment": "syn", "text": head + grid_text,
            "variants": [{"variant": v, "mode": mode, "exhaust": exhaust, "target": target,
                          "players": players, "difficulties": dict(DIFFS)}
                         for v in range(n_variants)]}


def _crisis_games(scores_by_variant: list[np.ndarray], won=None) -> pl.DataFrame:
    frames = []
    for v, s in enumerate(scores_by_variant):
        frames.append(pl.DataFrame({
            "variant": np.full(len(s), v, np.int32), "game": np.arange(len(s), dtype=np.int64),
            "score": np.asarray(s, np.int16),
            "won": pl.Series([None] * len(s) if won is None else won[v], dtype=pl.Boolean)}))
    return pl.concat(frames)


def test_compare_pairs_games_by_index_not_by_row_order():
    """Scores spread widely from game to game; the variant adds one point to every game. The
    variant's rows are shuffled: only a join on `game` finds the narrow paired interval."""
    rng = np.random.default_rng(4)
    base = rng.integers(10, 60, 500)
    games = _crisis_games([base, base + 1])
    shuffled = pl.concat([games.filter(pl.col("variant") == 0),
                          games.filter(pl.col("variant") == 1).sample(fraction=1.0, seed=9,
                                                                      shuffle=True)])
    cmp = compare(shuffled, _manifest(2, grid_text="[grid]\nhand_limit = [4, 5]\n"))
    mean = cmp.differences.filter(pl.col("quantity") == "score:mean").row(0, named=True)
    assert mean["difference"] == 1 and mean["ci_low"] == 1 and mean["ci_high"] == 1
    welch = stats.ttest_ind(base + 1, base, equal_var=False).confidence_interval()
    assert welch.low < 0 < welch.high  # unpaired, the same games could not tell the point
    # Win rates: every game just below a target crosses it in the variant and no game goes
    # the other way; the paired interval is far narrower than the independent one.
    row = cmp.differences.filter(pl.col("quantity") == "win:Apprentice").row(0, named=True)
    k0, k1 = int((base >= 35).sum()), int((base + 1 >= 35).sum())
    _, lo, hi = independent_difference(k1, 500, k0, 500)
    assert row["difference"] == pytest.approx((k1 - k0) / 500)
    assert row["found"] and (row["ci_high"] - row["ci_low"]) < 0.5 * (hi - lo)


def test_variants_with_different_game_counts_are_compared_on_the_games_both_played():
    rng = np.random.default_rng(5)
    base = rng.integers(10, 60, 400)
    games = _crisis_games([base, base[:250] + 2])
    cmp = compare(games, _manifest(2))
    assert set(cmp.differences["pairs"].to_list()) == {250}
    assert any("compared on the 250 games both played" in n for n in cmp.notes)
    assert cmp.variants["games"].to_list() == [400, 250]


def test_baseline_comes_from_the_command_then_the_file_then_the_first():
    rng = np.random.default_rng(6)
    base = rng.integers(10, 60, 300)
    games = _crisis_games([base, base + 1, base + 3])
    grid = "[grid]\nhand_limit = [4, 5, 6]\n"
    assert compare(games, _manifest(3, grid_text=grid)).baseline == 0
    from_file = compare(games, _manifest(3, grid_text=grid, baseline=2))
    assert from_file.baseline == 2
    assert from_file.label(2) == "hand_limit=6"
    assert sorted(set(from_file.differences["variant"].to_list())) == [0, 1]
    mean = from_file.differences.filter((pl.col("quantity") == "score:mean")
                                        & (pl.col("variant") == 0))
    assert mean["difference"].item() == -3
    assert compare(games, _manifest(3, grid_text=grid, baseline=2), baseline=1).baseline == 1
    with pytest.raises(InputError, match="--baseline: must be a variant of run, 0 to 2, got 3"):
        compare(games, _manifest(3), baseline=3)


def test_targets_above_a_fixed_target_are_not_compared():
    """Games played to Journeyman stop when they reach it: whether they would have reached
    Master is unknown, so Master is left out (with a note), not counted as lost."""
    scores = [np.array([46, 30, 50, 20]), np.array([45, 47, 20, 25])]
    won = [[True, False, True, False], [True, True, False, False]]
    cmp = compare(_crisis_games(scores, won), _manifest(2, exhaust=False, target=45))
    quantities = cmp.differences["quantity"].to_list()
    assert quantities == ["win:Apprentice", "win:Journeyman"]
    assert any("Master is not compared" in n for n in cmp.notes)
    assert any("team scores are compared only between games played to exhaustion" in n
               for n in cmp.notes)


def test_holm_runs_over_every_difference_of_the_table():
    rng = np.random.default_rng(8)
    base = rng.integers(20, 50, 2000)
    games = _crisis_games([base, base + rng.integers(0, 2, 2000), base])
    cmp = compare(games, _manifest(3))
    d = cmp.differences
    assert cmp.family == d.height == 2 * 5  # 3 named targets, mean, median per variant
    survives, adjusted = paired.holm(d["p_value"].to_list())
    assert d["p_holm"].to_list() == pytest.approx(adjusted.tolist())
    assert (d["holm"] == (pl.Series(survives) & d["found"])).all()
    # The variant identical to the baseline has no difference anywhere.
    same = d.filter(pl.col("variant") == 2)
    assert not same["found"].any() and (same["difference"] == 0).all()


def test_curve_difference_at_every_target_matches_the_named_rows():
    rng = np.random.default_rng(3)
    base = rng.integers(20, 50, 800)
    variant = base + rng.integers(-1, 4, 800)
    cmp = compare(_crisis_games([base, variant]), _manifest(2))
    cd = cmp.tables["curve_differences"]
    for name, t in DIFFS.items():
        row = cmp.differences.filter(pl.col("quantity") == f"win:{name}").row(0, named=True)
        at = cd.filter(pl.col("target") == t).row(0, named=True)
        assert at["difference"] == pytest.approx(row["difference"])
        assert (at["ci_low"], at["ci_high"]) == pytest.approx((row["ci_low"], row["ci_high"]))
    curve = cmp.tables["curve"].filter((pl.col("variant") == 1)
                                       & (pl.col("target") == 30))
    assert curve["wins"].item() == int((variant >= 30).sum())


def test_rush_compares_length_margin_and_seat_shares():
    n = 300
    rng = np.random.default_rng(12)
    turns = rng.integers(20, 60, n)
    frames = []
    for v, extra in ((0, 0), (1, 3)):
        winner = np.where(rng.random(n) < 0.5, 1, rng.integers(2, 4, n))  # seats from 1
        scores = [[20, 20 - (i % 4), 10] for i in range(n)]
        frames.append(pl.DataFrame({"variant": np.full(n, v, np.int32),
                                    "game": np.arange(n, dtype=np.int64),
                                    "turns": (turns + extra).astype(np.int16),
                                    "winner": winner.astype(np.int8),
                                    "scores": pl.Series(scores, dtype=pl.List(pl.Int16))}))
    cmp = compare(pl.concat(frames), _manifest(2, mode="rush", players=3))
    assert cmp.differences["quantity"].to_list() == [
        "rounds:mean", "rounds:median", "margin:mean", "seat:1", "seat:2", "seat:3"]
    rounds = -(-turns // 3), -(-(turns + 3) // 3)
    mean = cmp.differences.filter(pl.col("quantity") == "rounds:mean").row(0, named=True)
    assert mean["difference"] == pytest.approx(float(np.mean(rounds[1] - rounds[0])))
    margin = cmp.differences.filter(pl.col("quantity") == "margin:mean").row(0, named=True)
    assert margin["baseline"] == pytest.approx(np.mean([i % 4 for i in range(n)]))
    assert margin["difference"] == 0 and not margin["found"]


# -- wording --------------------------------------------------------------------------------

def test_an_interval_containing_zero_reads_no_difference_found():
    rng = np.random.default_rng(10)
    base = rng.integers(20, 50, 400)
    noisy = base + rng.integers(-3, 4, 400)  # no shift: no difference to find
    shifted = base + 2 + rng.integers(-3, 4, 400)
    cmp = compare(_crisis_games([base, noisy, shifted]), _manifest(3))
    for r in cmp.differences.iter_rows(named=True):
        shown = compare_text.difference_text(r)
        if r["found"]:
            assert shown[0] in "+−" and compare_text.NOT_FOUND not in shown
            assert compare_text.holm_text(r) in ("yes", "no")
        else:
            # Never a point estimate that could pass for an effect: the words, the interval.
            assert shown.startswith("no difference found (") and shown.endswith(")")
            assert compare_text.holm_text(r) == ""
    table = compare_text.full_table(cmp)
    lines = [x for x in table.splitlines() if x.startswith("  mean team score")]
    assert "no difference found (" in lines[0] and not lines[0].endswith(("yes", "no"))
    assert "no difference found" not in lines[1] and lines[1].endswith("yes")
    short = compare_text.short_table(cmp).splitlines()
    mean = next(i for i, x in enumerate(short) if x.rstrip().endswith("mean score"))
    assert short[mean + 2].startswith("variant 1") and "no difference (" in short[mean + 2]
    assert short[mean + 3].startswith("variant 2") and short[mean + 3].endswith(" *")
    assert max(len(x) for x in [*table.splitlines(), *short]) <= 100


def _numbers(cell: str) -> list[float]:
    return [float(x) for x in re.findall(r"[+−-]?\d+(?:\.\d+)?", cell.replace("−", "-"))]


def test_the_short_table_gives_every_difference_its_interval():
    """Issue 26 item 7: the headline after `balance run` printed a star and no interval."""
    rng = np.random.default_rng(10)
    base = rng.integers(20, 50, 400)
    games = _crisis_games([base, base + rng.integers(-3, 4, 400),
                           base + 2 + rng.integers(-3, 4, 400), base + 3])
    cmp = compare(games, _manifest(4))
    short = compare_text.short_table(cmp)
    shown = [q for q, _, _ in compare_text._headline_quantities(cmp)]
    assert "score:mean" in shown and "win:Apprentice" in shown
    for r in cmp.differences.filter(pl.col("quantity").is_in(shown)).iter_rows(named=True):
        # Issue 50 item 9: the variant's own value first, then its difference.
        whole = compare_text._short_cell(r)
        assert whole in short
        value = compare_text.value_text(r["value"], r["kind"])
        assert whole.startswith(value + "  ")
        cell = whole.removeprefix(value + "  ")
        scale = 100 if r["kind"] == "rate" else 1
        lo, hi, d = (scale * r[k] for k in ("ci_low", "ci_high", "difference"))
        got = _numbers(cell)
        if not r["found"]:
            assert cell.startswith("no difference (") and got == pytest.approx([lo, hi], abs=0.51)
        elif "±" in cell:
            assert got == pytest.approx([d, (hi - lo) / 2], abs=0.051 * scale)
        else:
            assert got == pytest.approx([d, lo, hi], abs=0.051 * scale)
        assert cell.endswith(" *") == (r["found"] and r["holm"])
    # Every game three points up: exact, "± 0".
    assert "+3 ± 0 *" in short


# -- the commands on small real runs --------------------------------------------------------

SWEEP = """\
[experiment]
name = "hand-limit"
description = "Does a larger hand make 2-player Crisis easier?"
edition = "2e"
mode = "crisis"
games = 300
seed = 3
players = 2
exhaust = true
shard_size = 150

[grid]
hand_limit = [6, 4, 5]
"""

ONE = """\
[experiment]
name = "one"
description = "one variant"
edition = "2e"
mode = "crisis"
games = 60
seed = 3
players = 2
exhaust = true
"""


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    """`balance run` of a 3-variant hand_limit sweep and of a one-variant experiment."""
    from typer.testing import CliRunner

    from balance.cli.app import app

    root = tmp_path_factory.mktemp("compare")
    out = {}
    for name, body in (("hand-limit", SWEEP), ("one", ONE)):
        (root / f"{name}.toml").write_text(body, encoding="utf-8")
        r = CliRunner().invoke(app, ["run", str(root / f"{name}.toml"), "--out",
                                     str(root / "runs"), "--jobs", "1"])
        assert r.exit_code == 0, r.output
        out[name] = (root / "runs" / name, r.stdout)
    return out


def test_balance_run_ends_with_the_comparison_against_the_baseline(real):
    run_dir, stdout = real["hand-limit"]
    tail = stdout.split("read them with balance.running.store.read_run)", 1)[1]
    # Issue 50: the designer's words, not the file's keys.
    assert "Against the baseline, hand limit 6, on the same games" in tail
    rows = [x for x in tail.splitlines() if x.startswith("hand limit ")]
    assert [" ".join(x.split()[:3]) for x in rows[:3]] == ["hand limit 6", "hand limit 4",
                                                           "hand limit 5"]
    assert f"balance compare {run_dir}" in tail.replace("\n", " ")


def test_balance_run_of_one_variant_ends_with_its_win_rates(real):
    run_dir, stdout = real["one"]
    assert "Win rate at each named target (95% Wilson intervals; 60 games played to " \
        "exhaustion)" in stdout
    scores = read_run(run_dir, columns=["score"]).games["score"].to_numpy()
    for name, target in (("Apprentice", 35), ("Master", 75)):
        k = int((scores >= target).sum())
        want = text.rate(k / 60, *wilson(k, 60))
        assert f"  {f'{name} ({target})':<20} {want}" in stdout.splitlines()


def test_balance_compare_prints_every_variant_in_grid_order(real, cli):
    run_dir, _ = real["hand-limit"]
    r = cli("compare", run_dir)
    assert r.exit_code == 0, r.output
    blocks = [x for x in r.stdout.splitlines() if x.startswith("hand limit ")]
    assert [" ".join(x.split()[:3]) for x in blocks] == ["hand limit 4", "hand limit 5"]
    assert "baseline, hand limit 6 (variant 0)" in r.stdout.replace("\n", " ")
    assert max(len(x) for x in r.stdout.splitlines()) <= 100
    for name in ("win at Apprentice (35)", "win at Master (75)", "mean team score",
                 "median team score"):
        assert r.stdout.count(f"  {name} ") == 2


def test_balance_compare_numbers_are_the_games_own(real, cli):
    run_dir, _ = real["hand-limit"]
    data = json.loads(cli("compare", run_dir, "--json").stdout)
    games = read_run(run_dir, columns=["variant", "game", "score"]).games
    s = {v: games.filter(pl.col("variant") == v).sort("game")["score"].to_numpy()
         .astype(float) for v in range(3)}
    mean = next(d for d in data["differences"]
                if d["variant"] == 1 and d["quantity"] == "score:mean")
    ref = stats.ttest_rel(s[1], s[0])
    assert mean["difference"] == pytest.approx(float(np.mean(s[1] - s[0])))
    assert (mean["ci_low"], mean["ci_high"]) == pytest.approx(tuple(ref.confidence_interval()))
    assert data["baseline"] == 0 and data["holm_family"] == len(data["differences"])
    assert {c["variant"] for c in data["curve"]} == {0, 1, 2}
    assert data["bootstrap"] == {"resamples": paired.RESAMPLES, "seed": paired.SEED}


def test_balance_compare_baseline_option(real, cli):
    run_dir, _ = real["hand-limit"]
    r = cli("compare", run_dir, "--baseline", "2")
    assert r.exit_code == 0
    assert "baseline, hand limit 5 (variant 2)" in r.stdout.replace("\n", " ")


@pytest.mark.parametrize("args,message", [
    (["--baseline", "3"], "error: --baseline: must be a variant of"),
    (["--baseline", "-1"], "error: --baseline: must be a variant of"),
])
def test_baseline_out_of_range_is_refused(real, cli, args, message):
    run_dir, _ = real["hand-limit"]
    r = cli("compare", run_dir, *args)
    assert r.exit_code == 2 and r.stderr.startswith(message)
    assert "0 to 2" in r.stderr and "Traceback" not in r.output


def test_a_run_with_one_variant_is_refused(real, cli):
    run_dir, _ = real["one"]
    r = cli("compare", run_dir)
    assert r.exit_code == 2
    assert r.stderr == f"error: {run_dir}: has one variant: there is nothing to compare it " \
        "with (sweep a key in the experiment's [grid] to make variants)\n"


def test_a_folder_that_is_not_a_run_is_refused(tmp_path, cli):
    r = cli("compare", tmp_path)
    assert r.exit_code == 2
    assert r.stderr.startswith(f"error: {tmp_path}: no manifest.json: not a run folder")
    assert len(r.stderr.splitlines()) == 1


def test_a_file_given_for_the_run_folder_is_refused(tmp_path, cli):
    f = tmp_path / "exp.toml"
    f.write_text(SWEEP, encoding="utf-8")
    r = cli("compare", f)
    assert r.exit_code == 2
    assert r.stderr == f"error: {f}: is a file, not a run folder (name the folder `balance " \
        "run` wrote, e.g. runs/<experiment name>)\n"


@pytest.mark.parametrize("value", ["3", "-1", "true", '"first"', "1.0"])
def test_experiment_baseline_must_name_a_variant(tmp_path, value):
    path = tmp_path / "exp.toml"
    path.write_text(SWEEP.replace("exhaust = true\n", f"exhaust = true\nbaseline = {value}\n"),
                    encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_experiment(path)
    assert [str(p) for p in e.value.problems] == [
        f"{path}: [experiment]: field 'baseline': must be the number of a variant, 0 to 2 (in "
        f"the order of the [grid]'s cross product), got {_python(value)}"]


def _python(toml_value: str) -> str:
    return {"true": "True", '"first"': "'first'"}.get(toml_value, toml_value)


def test_experiment_baseline_is_accepted(tmp_path):
    path = tmp_path / "exp.toml"
    path.write_text(SWEEP.replace("exhaust = true\n", "exhaust = true\nbaseline = 2\n"),
                    encoding="utf-8")
    assert len(load_experiment(path).variants) == 3


def test_rush_headline_gives_each_seat_its_share_and_the_length():
    from reports.gemrush.headline import rush_lines

    winner = np.array([1] * 50 + [2] * 30 + [3] * 15 + [-1] * 5, np.int8)
    turns = np.arange(100) % 10 + 30  # 30..39 player turns: 10..13 rounds at 3 players
    games = pl.DataFrame({"winner": winner, "turns": turns.astype(np.int16)})
    lines = rush_lines(games, {"players": 3})
    assert lines[0].endswith("100 games; a fair share is 31.7%):")
    # 95 games one seat won: 50 and 15 of them are off 1/3 beyond chance (exact binomial,
    # Holm over the three seats); 30 is not.
    p = [stats.binomtest(k, 95, 1 / 3).pvalue for k in (50, 30, 15)]
    off = multipletests(p, method="holm")[0]
    assert list(off) == [True, False, True]
    for seat, k, mark in ((1, 50, "  above its fair share"), (2, 30, ""),
                          (3, 15, "  below its fair share")):
        assert f"  seat {seat:<3} {text.rate(k / 100, *wilson(k, 100))}{mark}" in lines
    assert "  ties     5.0%" in lines
    rounds = -(-turns // 3)
    assert lines[-1].startswith(f"Length: {text.num(float(np.median(rounds)))} rounds")


def test_seats_are_tested_against_the_fair_share_with_holm_over_every_seat():
    """Issue 26 item 7: each seat's wins among the games one seat won, against 1/players, by
    the exact binomial test; Holm over every seat the headline prints."""
    from reports.headline import _seat_tests
    from reports.outcomes import outcomes

    # Two variants of 4 players: seat 1 wins 290 of 1,000 decided games in the first (p about
    # 0.002 alone), which Holm over the 8 seats keeps; 25 of them wins in the second are too
    # few to test.
    wins = {0: [290, 240, 235, 235], 1: [2, 1, 1, 1]}
    rows = []
    for v, ks in wins.items():
        for seat, k in enumerate(ks, start=1):
            rows += [(v, seat)] * k
        rows += [(v, -1)] * 10
    games = pl.DataFrame(rows, schema={"variant": pl.Int32, "winner": pl.Int8}, orient="row")
    manifest = {"variants": [{"variant": v, "mode": "rush", "players": 4} for v in wins]}
    tests = _seat_tests(games, manifest)
    p = [stats.binomtest(k, 1000, 0.25).pvalue for k in wins[0]]
    assert tests[0] == list(multipletests(p, method="holm")[0]) and tests[0][0]
    assert tests[1] == [None] * 4  # 5 games one seat won: fewer than paired.MIN_PAIRS
    assert outcomes.fair_share_p(3, 5, 4) != outcomes.fair_share_p(3, 5, 4)  # NaN: too few
    assert outcomes.fair_share_p(1, 100, 1) != outcomes.fair_share_p(1, 100, 1)  # one player


def test_the_report_s_seat_table_carries_the_same_test():
    from reports.gemrush import rush
    from tests.report_data import games_frame

    base = {"mode": "rush", "exhaust": False, "target": 20, "turns": 30,
            "end_reason": "rush_target"}
    # Games one seat won, by seat, and ties: 3 players, 100 decided; 2 players, 5 decided.
    counts = {3: ({1: 60, 2: 25, 3: 15}, 10), 2: ({1: 3, 2: 2}, 5)}
    rows = [{**base, "players": players, "scores": [1] * players, "winner": seat}
            for players, (by_seat, ties) in counts.items()
            for seat, k in [*by_seat.items(), (-1, ties)] for _ in range(k)]
    seats = rush.seat_wins(games_frame(rows))
    assert seats.filter(pl.col("players") == 3)["decided"].to_list() == [100] * 3
    assert seats.filter(pl.col("players") == 2)["p_fair"].is_nan().all()  # 5 decided
    for r in seats.iter_rows(named=True):
        want = stats.binomtest(r["wins"], r["decided"], 1 / r["players"]).pvalue \
            if r["decided"] >= paired.MIN_PAIRS and r["players"] > 1 else None
        assert (r["p_fair"] is None or np.isnan(r["p_fair"])) if want is None else \
            r["p_fair"] == pytest.approx(want)
    p = seats["p_fair"].to_numpy()
    ok = np.isfinite(p)
    want = np.zeros(len(p), bool)
    if ok.any():
        want[ok] = multipletests(p[ok], method="holm")[0]
    assert seats["off_fair"].to_list() == list(want)


def test_crisis_headline_of_games_played_to_a_target_leaves_higher_targets_out():
    from reports.gemrush.headline import crisis_lines

    games = pl.DataFrame({"score": [46, 30, 50, 20], "won": [True, False, True, False]})
    info = {"exhaust": False, "target": 45, "difficulties": DIFFS}
    lines = crisis_lines(games, info)
    assert lines[0] == ("Win rate at each named target (95% Wilson intervals; 4 games played "
                        "to 45 points):")
    assert lines[1] == f"  {'Apprentice (35)':<20} {text.rate(0.5, *wilson(2, 4))}"
    assert lines[3].startswith("  Master (75)") and "stop at their target" in lines[3]
    assert not any(x.startswith("Team score") for x in lines)


def test_a_rush_comparison_ends_with_each_variant_s_seats_against_the_fair_share(tmp_path):
    from reports.headline import headline

    path = tmp_path / "rush-grid.toml"
    path.write_text('[experiment]\nname = "rush-grid"\ndescription = "two Rush targets"\n'
                    'edition = "2e"\nmode = "rush"\ngames = 60\nseed = 3\nplayers = 3\n\n'
                    '[grid]\nrush_target_small = [15, 20]\n', encoding="utf-8")
    run_experiment(load_experiment(path), tmp_path / "runs", jobs=1)
    out = headline(tmp_path / "runs" / "rush-grid")
    block = out.split("Seats against their fair share:\n", 1)[1].splitlines()
    assert block[0].startswith("  Rush target 15 (fair share ")
    assert block[1].startswith("  Rush target 20 (fair share ")
    assert "Holm-corrected over the 6 seats tested here" in " ".join(block[2:])


def test_a_difference_that_was_found_never_shows_a_bound_of_zero():
    """1st against 2nd edition printed "−0.1 pp (−0.3 to 0)" for a difference found."""
    row = {"pairs": 4000, "kind": "rate", "difference": -0.0012, "ci_low": -0.0029,
           "ci_high": -0.0003, "found": True, "holm": False}
    assert compare_text.difference_text(row) == "−0.12 pp (−0.29 to −0.03)"
    assert compare_text._difference_cell(row) == "−0.12 pp (−0.29 to −0.03)"
    mean = dict(row, kind="mean", difference=-0.02, ci_low=-0.04, ci_high=-0.001)
    assert not compare_text._difference_cell(mean).endswith(" 0)")
    assert compare_text._difference_cell(dict(row, found=False, ci_high=0.0004)).startswith(
        "no difference (−0.3 to 0")  # an interval that holds zero may show it


@pytest.mark.parametrize("value, shown", [(0.056, "0.056"), (0.82, "0.82"), (-0.31, "-0.31"),
                                          (0.0014, "0.0014"), (14.43, "14.4"), (1.0, "1.0"),
                                          (0.0, "0.0")])
def test_a_mean_below_one_keeps_two_significant_digits(value, shown):
    """Issue 53: a course measure's mean (decided at 0.82, drama 0.056) read "0.8" and "0.1"
    beside its difference of −0.01 or −0.0014."""
    assert compare_text.value_text(value, "mean") == shown
