"""balance bench --scaling and --runner --scheduler (balance/bench/scale.py), on the toy
dice race: the worker counts measured, the comparison of two runs' tables, the refusals, and
one small real run on a LocalCluster. No figure is asserted: they are the guide's, measured."""

from __future__ import annotations

import polars as pl
import pytest

from balance.bench import scale as bs
from balance.bench.speed import bench_experiment
from balance.running.runner import run_experiment
from tests.games.dice.game import GAME as DICE
from tests.local_cluster import local_cluster


@pytest.mark.parametrize(("most", "counts"), [
    (1, [1]), (2, [1, 2]), (3, [1, 2, 3]), (6, [1, 2, 4, 6]), (8, [1, 2, 4, 8]),
    (12, [1, 2, 4, 8, 12]), (64, [1, 2, 4, 8, 16, 32, 64])])
def test_worker_counts_double_up_to_the_cores_and_end_on_them(most, counts):
    assert bs.worker_counts(most) == counts


def test_a_cluster_is_taken_a_worker_at_a_time_in_address_order():
    threads = {"tcp://a:1": 1, "tcp://a:2": 1, "tcp://b:1": 2, "tcp://b:2": 2}
    assert bs.first_workers(threads, 1) == ("tcp://a:1",)
    assert bs.first_workers(threads, 2) == ("tcp://a:1", "tcp://a:2")
    assert bs.first_workers(threads, 3) == ("tcp://a:1", "tcp://a:2", "tcp://b:1")
    assert bs.first_workers(threads, 6) == tuple(threads)


def test_the_shards_are_enough_for_every_worker():
    usual = bench_experiment(DICE, 40_000, 0).shard_size
    assert bs.scaling_shard_size(DICE, 40_000, 2) == min(usual, 5_000)
    assert bs.scaling_shard_size(DICE, 40_000, 64) == 40_000 // (4 * 64)
    assert bs.scaling_shard_size(DICE, 10, 64) == 1


def _compared(hosts: tuple[str, ...], threads: int, workers: int = 2) -> bs.BackendComparison:
    return bs.BackendComparison(games=100, joblib_workers=2, joblib_s=1.0, dask_workers=workers,
                                dask_threads=threads, dask_hosts=hosts, dask_s=1.5,
                                connect_s=0.1, difference=None, busy_cores=0.0)


def test_the_comparison_is_called_fair_only_on_this_machines_cores():
    assert _compared(("127.0.0.1",), 2).same_cores
    assert _compared(("127.0.0.1",), 2).ratio == 1.5
    assert not _compared(("127.0.0.1",), 4).same_cores  # more workers than cores
    assert not _compared(("127.0.0.1",), 2, workers=1).same_cores  # one worker, 2 threads
    assert not _compared(("127.0.0.1", "192.0.2.7"), 2).same_cores  # another machine
    assert bs.on_this_machine(("tcp://127.0.0.1:8786", "tcp://localhost:1"))
    assert not bs.on_this_machine(("tcp://127.0.0.1:8786", "tcp://192.0.2.7:8786"))


GAMES = pl.DataFrame({"variant": [0, 0, 1, 1], "game": [0, 1, 0, 1], "score": [3, 4, 5, 6]})
SEATS = pl.DataFrame({"variant": [0, 0, 0, 0], "game": [0, 0, 1, 1], "seat": [1, 2, 1, 2],
                      "rolls": [[1, 2], [3], [4, 4], []]})


def test_the_same_rows_in_another_order_are_the_same_table():
    assert bs.frame_difference(GAMES, GAMES.reverse()) is None
    # a game's rows keep their order: the sort by (variant, game) is stable
    assert bs.frame_difference(SEATS, SEATS.reverse().reverse()) is None
    assert bs.frame_difference(None, None) is None


def test_a_different_value_is_named_by_its_game_and_column():
    other = GAMES.with_columns(score=pl.Series([3, 4, 5, 7]))
    why = bs.frame_difference(GAMES, other)
    assert why == "1 row(s) differ, the first at variant 1, game 1, in score"
    rolled = SEATS.with_columns(rolls=pl.Series([[1, 2], [3], [4, 5], []]))
    assert "variant 0, game 1, in rolls" in bs.frame_difference(SEATS, rolled)
    # two seats of one game swapped: the same rows as a set, not as the game wrote them
    assert bs.frame_difference(SEATS, SEATS[[1, 0, 2, 3]]) is not None


def test_missing_rows_columns_and_types_differ():
    assert bs.frame_difference(GAMES, GAMES.head(3)) == "4 rows against 3"
    assert "different columns" in bs.frame_difference(GAMES, GAMES.drop("score"))
    assert "different columns" in bs.frame_difference(
        GAMES, GAMES.with_columns(pl.col("score").cast(pl.Int16)))
    assert bs.frame_difference(GAMES, None) == "in one run only"


def _run(tmp_path, name: str, seed: int, jobs: int = 1):
    exp = bench_experiment(DICE, 30, seed, shard_size=10)
    run_experiment(exp, tmp_path / name, jobs=jobs)
    return tmp_path / name / exp.name


def test_two_runs_of_one_batch_are_identical_and_of_two_seeds_are_not(tmp_path):
    one, two = _run(tmp_path, "a", 0), _run(tmp_path, "b", 0, jobs=2)
    assert bs.runs_difference(one, two) is None
    why = bs.runs_difference(one, _run(tmp_path, "c", 1))
    assert why is not None and why.startswith("the games table: ")


@pytest.mark.parametrize(("args", "option", "words"), [
    (["--scaling", "--report"], "--report", "give one of them"),
    (["--runner", "--report"], "--report", "give one of them"),
    (["--runner", "--scaling"], "--scaling", "give one of --runner and --scaling"),
    (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler", "goes with --scaling"),
    (["--runner", "--scheduler", " "], "--scheduler", "is empty"),
    (["--scaling", "--scheduler", "nonsense"], "--scheduler", "cannot reach"),
])
def test_options_that_do_not_go_together_are_refused(cli, args, option, words):
    r = cli("bench", "--game", "dice", *args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith(f"error: {option}") and words in r.stderr, r.stderr
    assert "Traceback" not in r.output


def test_an_unreachable_scheduler_is_refused(cli, monkeypatch):
    monkeypatch.setattr("balance.running.runner.CONNECT_WAIT_S", 0.5)
    r = cli("bench", "--game", "dice", "--runner", "--scheduler", "tcp://127.0.0.1:9")
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("error: --scheduler: cannot reach the Dask scheduler at "
                               "tcp://127.0.0.1:9"), r.stderr
    assert "Traceback" not in r.output


def test_scaling_prints_every_worker_count(cli, monkeypatch):
    monkeypatch.setattr(bs, "default_jobs", lambda: 3)
    r = cli("bench", "--game", "dice", "--scaling", "--games", "48")
    assert r.exit_code == 0, r.output
    assert "48 games in shards of 4, on this machine's 3 cores" in r.stdout
    table = r.stdout.split("efficiency\n", 1)[1]
    rows = [line.split() for line in table.splitlines() if line[:8].strip().isdigit()]
    assert [int(row[0]) for row in rows] == [1, 2, 3]
    assert rows[0][2:] == ["1.00x", "100%"]


def test_joblib_against_a_local_dask_cluster(cli, monkeypatch):
    monkeypatch.setattr(bs, "default_jobs", lambda: 2)
    with local_cluster(n_workers=2, threads_per_worker=1, processes=True,
                       host="127.0.0.1") as cluster:
        r = cli("bench", "--game", "dice", "--runner", "--games", "60",
                "--scheduler", cluster.scheduler_address)
        assert r.exit_code == 0, r.output
        assert "tables identical" in r.stdout
        assert "2 workers, 2 threads, on 127.0.0.1" in r.stdout
        assert "both used the same 2 cores" in r.stdout
        s = bs.scaling_bench(DICE, 40, cluster.scheduler_address, say=lambda *_: None)
    assert sorted(s.games_per_s) == [1, 2] and s.shard_size == 5
    assert s.efficiency(1) == 1.0
