"""Issue 11, play to a precision: `balance run --precision` plays rounds of shards until every
headline interval is narrow enough, and its games are exactly those of a fixed run of the
same size."""

from __future__ import annotations

import polars as pl
import pytest

from balance.running import store
from balance.running.precision import next_games
from balance.running.store.manifest import read_manifest
from balance.stats.measures import headline_counts, headline_rates, widest_half_width

EXPERIMENT = """\
[experiment]
name = "prec"
description = "two hand limits, 2 players"
edition = "2e"
mode = "crisis"
games = 3000
seed = 3
players = 2
exhaust = true
shard_size = 250

[grid]
hand_limit = [5, 7]
"""


@pytest.fixture
def exp_path(tmp_path):
    path = tmp_path / "prec.toml"
    path.write_text(EXPERIMENT, encoding="utf-8")
    return path


def _table(run_dir):
    return store.read_run(run_dir).games.sort("variant", "game")


def test_the_precision_stop_equals_the_fixed_run_of_its_size(exp_path, tmp_path, cli):
    r = cli("run", exp_path, "--precision", "3", "--out", tmp_path / "a", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "precision reached" in r.output
    rounds = [line for line in r.output.splitlines() if line.startswith("round ")]
    assert len(rounds) >= 2  # 250 games are too few for +-3 points at these rates
    played = read_manifest(tmp_path / "a" / "prec")["games_per_variant"]
    assert played % 250 == 0 and played < 3000
    fixed = cli("run", exp_path, "--games", played, "--out", tmp_path / "b", "--jobs", "1")
    assert fixed.exit_code == 0, fixed.output
    a, b = _table(tmp_path / "a" / "prec"), _table(tmp_path / "b" / "prec")
    assert a.height == 2 * played
    assert a.equals(b)
    # and the precision asked for is what the headline now has
    scan = store.scan_run(tmp_path / "a" / "prec")
    assert widest_half_width(headline_rates(scan.games, scan.manifest)) <= 0.03


def test_the_cap_comes_first_and_says_so(exp_path, tmp_path, cli):
    r = cli("run", exp_path, "--precision", "0.1", "--games", 500, "--out", tmp_path,
            "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "precision NOT reached" in r.output
    assert read_manifest(tmp_path / "prec")["games_per_variant"] == 500


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "100"])
def test_a_bad_precision_is_refused_before_any_folder_exists(exp_path, tmp_path, cli, bad):
    r = cli("run", exp_path, "--precision", bad, "--out", tmp_path / "out")
    assert r.exit_code == 2
    assert "--precision" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "out").exists()


def test_next_round_aims_at_the_widest_interval_in_whole_shards():
    # half-width 4 points, goal 2: four times the games
    assert next_games(1000, 4.0, 2.0, 250, 100_000) == 4000
    # nearly there: grow by at least a quarter, rounded up to whole shards
    assert next_games(1000, 2.01, 2.0, 250, 100_000) == 1250
    # far off: at most four times per round
    assert next_games(1000, 40.0, 2.0, 250, 100_000) == 4000
    # never past the cap
    assert next_games(1000, 4.0, 2.0, 250, 3000) == 3000


def test_headline_counts_named_targets_and_rush_seats():
    games = pl.DataFrame({
        "variant": [0, 0, 0, 0, 1, 1, 1],
        "mode": ["crisis"] * 4 + ["rush"] * 3,
        "players": [2] * 7,
        "exhaust": [True] * 4 + [False] * 3,
        "won": [None] * 4 + [True] * 3,
        "score": [10, 20, 30, 40, 5, 6, 7],
        "winner": [None] * 4 + [1, 2, 2],
    })
    manifest = {"variants": [{"variant": 0, "mode": "crisis", "players": 2, "exhaust": True,
                              "difficulties": {"Easy": 15, "Hard": 35}},
                             {"variant": 1, "mode": "rush", "players": 2, "exhaust": False}]}
    rows = headline_counts(games, manifest).select("variant", "measure", "wins", "games").rows()
    assert rows == [(0, "Easy (15)", 3, 4), (0, "Hard (35)", 1, 4),
                    (1, "seat 1 wins", 1, 3), (1, "seat 2 wins", 2, 3)]
