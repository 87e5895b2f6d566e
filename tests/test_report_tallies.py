"""Per-seat tallies (Game.tallies, issue 49 item 4) read by the report and by `balance compare`:
a run of the card race against the Computer (tests/games/cards/, whose seats tally the cards
they played by colour) gets the section "Tallies by seat", each number checked against polars
over the run's seats table, and its comparison pairs each seat's mean tally game by game. A
game that declares no tallies gets neither."""

from __future__ import annotations

import dataclasses
import math

import polars as pl
import pytest
from scipy import stats

from balance.contract import registry
from balance.running.runner import run_experiment
from balance.running.store.read import read_run
from reports.compare.compare import compare_run
from reports.page import game_report
from reports.page.build import write_report
from reports.tallies import tallies_page
from tests.test_contract_play import _experiment

GAMES = 12  # per variant: past paired.MIN_PAIRS, so every difference has an interval
NAMES = ("red", "green", "blue")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    exp = _experiment(registry.get("cards"), GAMES, GAMES, grid={"hand": [3, 5]})
    return run_experiment(exp, tmp_path_factory.mktemp("tallies"), jobs=1).run_dir


@pytest.fixture
def untallied():
    """The card race declared without its tallies, for one test."""
    cards = registry.get("cards")
    registry.register(dataclasses.replace(cards, tallies=()))
    yield
    registry.register(cards)


def _expected(run) -> pl.DataFrame:
    """Each variant's seats: n, mean, the t interval's bounds, the share, straight from the
    seats table."""
    seats = run.seats.with_columns(pl.sum_horizontal(*NAMES).alias("all"))
    rows = []
    for (variant, seat), g in seats.group_by("variant", "seat"):
        for t in NAMES:
            x = g[t].cast(pl.Float64)
            n, mean, sd = g.height, x.mean(), x.std()
            half = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
            rows.append({"variant": variant, "seat": seat, "tally": t, "n": n, "mean": mean,
                         "ci_low": mean - half, "ci_high": mean + half,
                         "share": x.sum() / g["all"].sum()})
    return pl.DataFrame(rows).with_columns(pl.col("variant", "seat").cast(pl.Int64))


def test_the_report_gives_each_seat_s_mean_tally_with_its_interval_and_share(run_dir, tmp_path):
    run = read_run(run_dir, lazy_tables=True)
    report = game_report.of_manifest(run.manifest)
    a = report.analyse(run)
    # each variant's setting as the analysis names it (in the designer's words)
    named = a.kinds.select(pl.col("variant").cast(pl.Int64), "setting").unique()
    assert named.height == len(run.manifest["variants"]) == named["setting"].n_unique()
    want = _expected(read_run(run_dir))
    got = a.tallies.join(named, on="setting")
    assert got.height == want.height == 2 * 4 * len(NAMES)  # variants x seats x tallies
    both = got.join(want, on=["variant", "seat", "tally"], suffix="_want")
    assert both.height == got.height
    assert (both["n"] == GAMES).all() and (both["n_want"] == GAMES).all()
    for c in ("mean", "ci_low", "ci_high", "share"):
        assert (both[c] - both[f"{c}_want"]).abs().max() < 1e-9, c
    section = next(s for s in report.sections(a, [], []) if s.id == tallies_page.SID)
    assert section.title == "Tallies by seat"
    [block] = section.blocks
    assert len(block.figures) == 1 and block.tables[0].fold == "closed"
    first = both.sort("variant", "seat").row(0, named=True)
    row = next(r for r in block.tables[0].rows
               if r[0] == first["setting"] and r[2] == str(first["seat"])
               and r[3] == first["tally"])
    assert row[5] == tallies_page.mean_text(first["mean"], first["ci_low"], first["ci_high"])
    page = write_report(run, tmp_path / "report").read_text(encoding="utf-8")
    assert "Tallies by seat" in page and (tmp_path / "report" / "figures" /
                                          "tallies-by-seat.png").is_file()


def test_compare_pairs_each_seat_s_mean_tally_game_by_game(run_dir):
    cmp = compare_run(run_dir)
    rows = cmp.differences.filter(pl.col("quantity").str.starts_with("tally:"))
    assert rows.height == 4 * len(NAMES)
    seats = read_run(run_dir).seats
    pairs = seats.filter(pl.col("variant") == 0).join(
        seats.filter(pl.col("variant") == 1), on=["game", "seat"], suffix="_v")
    for r in rows.iter_rows(named=True):
        _, seat, t = r["quantity"].split(":")
        mine = pairs.filter(pl.col("seat") == int(seat))
        d = (mine[f"{t}_v"].cast(pl.Float64) - mine[t].cast(pl.Float64))
        assert r["name"] == f"seat {seat} mean {t}" and r["pairs"] == GAMES
        assert r["baseline"] == pytest.approx(mine[t].mean())
        assert r["value"] == pytest.approx(mine[f"{t}_v"].mean())
        assert r["difference"] == pytest.approx(d.mean())
        if d.std() > 0:
            test = stats.ttest_1samp(d.to_numpy(), 0.0)
            low, high = test.confidence_interval(0.95)
            assert (r["ci_low"], r["ci_high"]) == (pytest.approx(low), pytest.approx(high))
            assert r["p_value"] == pytest.approx(test.pvalue)
    # Holm's correction runs over the tallies with every other difference.
    assert cmp.family == cmp.differences["p_value"].is_not_nan().sum() > rows.height
    assert rows["p_holm"].is_not_null().all()


def test_a_game_without_tallies_gets_neither(run_dir, untallied):
    run = read_run(run_dir, lazy_tables=True)
    report = game_report.of_manifest(run.manifest)
    a = report.analyse(run)
    assert a.tallies is None
    assert tallies_page.SID not in [s.id for s in report.sections(a, [], [])]
    cmp = compare_run(run_dir)
    assert cmp.differences.height
    assert not cmp.differences["quantity"].str.starts_with("tally:").any()



def test_compare_names_a_tally_in_words_and_skips_one_never_counted():
    from reports.compare.compare import tally_rows
    from reports.tallies.tallies import column

    game = dataclasses.replace(registry.get("cards"), seat_names=("North",))
    n = GAMES
    pairs = pl.DataFrame({column("red", 1): [1, 2] * (n // 2),
                          f"{column('red', 1)}_v": [2, 2] * (n // 2),
                          column("blue", 1): [0] * n, f"{column('blue', 1)}_v": [0] * n})
    rows = tally_rows(pairs, game, 1, "hand=5")
    assert [r["name"] for r in rows] == ["North mean red"]
    assert rows[0]["difference"] == pytest.approx(0.5)
    assert game.tally_word("runs_won") == "runs won"


def test_a_long_setting_leaves_the_tally_chart_its_bars():
    """Labels of many settings' words at 45 degrees took all of a 4-inch chart: matplotlib
    collapsed the axes (a warning, and a chart of labels only)."""
    import warnings

    from reports.render import figures

    setting = "way to play head to head, Bit Boy's deck, Cache Cat's deck second, target 9"
    groups = pl.DataFrame({"setting": [setting] * 4, "players": [2, 2, 4, 4],
                           "seat": [1, 2, 1, 2]})
    seats = pl.DataFrame([{**g, "tally": t, "mean": 1.0, "ci_low": 0.5, "ci_high": 1.5}
                          for g in groups.iter_rows(named=True) for t in NAMES])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figures.png_bytes(tallies_page.tallies_figure(seats, groups, NAMES))
