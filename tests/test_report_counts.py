"""Issue 12, scale: the report works from counts of the games (reports/tables/tally.py, counts.py),
never from one row per game. These tests hold the counts to the rows: every summary equals the
one polars and numpy compute from the games one by one, to the last bit, and a report read
shard by shard is the report of the whole tables, byte for byte."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from balance.running import store
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from balance.running.shard_table import ShardTable
from balance.running.store.layout import GAMES
from balance.running.store.manifest import read_manifest
from reports.gemrush import burn, crisis, frame, rush, tally
from reports.page.build import FIGURES, PAGE, build_report, write_report
from reports.tables import counts
from tests.report_data import synthetic_run


def rows_summary(df: pl.DataFrame, value: str, by: list[str]) -> pl.DataFrame:
    """The summary of a column as polars computes it from the rows (the report's former
    code), for the counts to be held to."""
    schema = {**{c: df.schema[c] for c in by}, "games": pl.UInt32, "n": pl.UInt32,
              "missing": pl.Float64, "mean": pl.Float64, "min": pl.Float64,
              **{f"q{int(q * 100)}": pl.Float64 for q in counts.QUANTILES}, "max": pl.Float64}
    v = pl.col(value).cast(pl.Float64)
    out = df.group_by(by).agg(
        pl.len().alias("games"), v.count().alias("n"),
        (v.null_count() / pl.len()).alias("missing"), v.mean().alias("mean"),
        v.min().alias("min"),
        *[v.quantile(q, "linear").alias(f"q{int(q * 100)}") for q in counts.QUANTILES],
        v.max().alias("max"))
    return out.select(list(schema)).cast(schema).sort(by)


@pytest.mark.parametrize("seed", range(6))
def test_distribution_of_counts_is_polars_on_the_rows(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 4000))
    values = rng.integers(0, int(rng.integers(1, 300)), n).astype(float)
    values[rng.random(n) < rng.random() * 0.8] = np.nan  # nulls shift polars' positions
    df = pl.DataFrame({"g": rng.integers(0, 5, n), "p": rng.integers(1, 4, n),
                       "v": values}).with_columns(pl.col("v").fill_nan(None).cast(pl.Int16))
    expected = rows_summary(df, "v", ["g", "p"])
    got = counts.distribution(counts.of_rows(df, ["g", "p"], ["v"]), "v", ["g", "p"])
    assert got.equals(expected)


@pytest.mark.parametrize("seed", range(6))
def test_box_stats_of_counts_are_numpys_percentiles(seed):
    rng = np.random.default_rng(seed)
    for _ in range(200):
        rows = rng.integers(0, int(rng.integers(1, 80)), int(rng.integers(1, 500)))
        values, n = np.unique(rows, return_counts=True)
        stats = counts.box_stats(values, n)
        expected = np.percentile(rows.astype(float), [10, 25, 50, 75, 90])
        got = [stats[k] for k in ("whislo", "q1", "med", "q3", "whishi")]
        assert got == list(expected)  # exact: the same pixels in every box plot


@pytest.fixture(scope="module")
def synthetic():
    run = synthetic_run(games_per_variant=80, seed=4)
    games = frame.with_variant_info(run.games, run.manifest)
    return run, games, frame.difficulties(run.manifest, games)


def _timed_rows(games: pl.DataFrame) -> pl.DataFrame:
    """The Crisis games burn timing reads, chosen row by row (burn.py's module doc)."""
    cg = frame.crisis_games(games).cast({"players": pl.Int64})
    ex = pl.col("exhaust").fill_null(False)
    return (cg.with_columns(ex.any().over("setting", "players").alias("_has"))
            .filter(ex == pl.col("_has")))


def test_burn_tables_of_counts_are_the_rows_tables(synthetic):
    run, games, diffs = synthetic
    timed = _timed_rows(games)
    assert burn.deck_out(games).drop("source").equals(
        rows_summary(timed, "deck_out_turn", ["setting", "players"]))
    ended = timed.filter(pl.col("end_reason").is_in(list(frame.CLOCK_END_REASONS)))
    assert ended.height and burn.clock_end(games).drop("source").equals(
        rows_summary(ended, "turns", ["setting", "players"]))
    per_game = burn.slack_games(games, diffs, run.manifest)
    by = ["setting", "players", "difficulty", "target"]
    cards = per_game.group_by(by).agg(pl.col("cards_left").median().alias("cards_median"),
                                      pl.col("cards_left").mean().alias("cards_mean"))
    expected = (rows_summary(per_game, "slack_turns", by).join(cards, on=by, how="left")
                .sort("setting", "players", "target"))
    assert per_game.height and burn.slack(games, diffs, run.manifest).equals(expected)


def test_rush_tables_of_counts_are_the_rows_tables(synthetic):
    _, games, _ = synthetic
    r = frame.rush_games(games).cast({"players": pl.Int64})
    rounds = r.with_columns(((pl.col("turns").cast(pl.Int64) + pl.col("players") - 1)
                             // pl.col("players")).alias("rounds"))
    assert rush.rounds(games).equals(rows_summary(rounds, "rounds", ["setting", "players"]))
    margins = rush.margins(games)
    assert margins.height and rush.score_margin(games).equals(
        rows_summary(margins, "margin", ["setting", "players"]))


def test_the_curve_counted_in_pieces_is_the_curve_of_the_whole(synthetic):
    _, games, _ = synthetic
    cut = [games.filter(pl.col("game") % 3 == k) for k in range(3)]
    pieces = ShardTable([lambda c=c: c for c in cut], games.height, games.columns)
    whole, counted = tally.count(games), tally.count(pieces)
    assert crisis.difficulty_curve(counted).equals(crisis.difficulty_curve(whole))
    assert burn.slack_counts(counted).equals(burn.slack_counts(whole))
    assert rush.seat_wins(counted).equals(rush.seat_wins(whole))


CRISIS = """\
[experiment]
name = "shards-crisis"
description = "Crisis in shards of 10 games"
edition = "2e"
mode = "crisis"
games = 40
seed = 12
shard_size = 10

[grid]
players = [2, 3]
exhaust = [true, false]
target = ["Journeyman"]
"""

RUSH = """\
[experiment]
name = "shards-rush"
description = "Rush in shards of 10 games"
edition = "2e"
mode = "rush"
games = 30
seed = 13
shard_size = 10

[grid]
players = [2, 3]
"""


@pytest.fixture(scope="module")
def run_dirs(tmp_path_factory):
    root = tmp_path_factory.mktemp("shards")
    dirs = []
    for name, text in (("crisis", CRISIS), ("rush", RUSH)):
        path = root / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        dirs.append(run_experiment(load_experiment(path), out=root / "runs", jobs=1).run_dir)
    return dirs


def _written(page) -> dict[str, bytes]:
    out = {PAGE: page.read_bytes()}
    for png in sorted((page.parent / FIGURES).glob("*.png")):
        out[png.name] = png.read_bytes()
    return out


@pytest.fixture(scope="module")
def whole_report(run_dirs, tmp_path_factory) -> dict[str, bytes]:
    """The report of the same runs read whole into memory (one piece each: how often pieces
    are added up does not reach it), written once for both orders of adding up."""
    from reports.page.build import combined, comparisons_of

    whole = combined([store.read_run(d) for d in run_dirs], run_dirs)
    assert isinstance(whole.games, pl.DataFrame) and isinstance(whole.rooms, pl.DataFrame)
    cmps = comparisons_of(run_dirs, [read_manifest(d) for d in run_dirs])
    return _written(write_report(whole, tmp_path_factory.mktemp("whole"), cmps))


@pytest.mark.parametrize("every", [1, 64])
def test_report_read_shard_by_shard_is_the_report_of_the_whole_tables(run_dirs, whole_report,
                                                                      tmp_path, monkeypatch,
                                                                      every):
    """`balance report` counts a shard at a time (adding the counts up after every shard, or
    every 64); the same runs read whole into memory give the same page and figures."""
    monkeypatch.setattr(counts, "EVERY", every)
    assert all(len(list((d / GAMES).glob("*.parquet"))) >= 6 for d in run_dirs)
    pieces = _written(build_report(run_dirs, tmp_path / "pieces"))
    rows = whole_report
    assert len(rows) >= 10 and rows.keys() == pieces.keys()  # the page and 9 figures
    for name in rows:
        assert pieces[name] == rows[name], name
