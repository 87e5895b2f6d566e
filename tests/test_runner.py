"""balance run, whatever the game (played here on the toy dice race, tests/games/dice/): the
same tables whatever the number of workers or the backend; interrupted runs resume to the same
result; damaged shards and changed experiment files are refused. Gem Rush's own tables and
variants: tests/games/gemrush/test_runner.py."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
import warnings
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest

from balance.errors import InputError
from balance.running import runner, store
from balance.running.experiment import load_experiment
from balance.running.runner import (
    _in_pool,
    execute,
    jobs_for,
    quiet_pool_teardown,
    run_experiment,
)
from balance.running.store.folder import locked
from balance.running.store.layout import plan
from balance.running.store.manifest import manifest_text, read_manifest, write_manifest
from balance.running.store.read import RunData
from tests.conftest import CLI
from tests.games.dice.game import GAME as DICE
from tests.local_cluster import local_cluster

EXPERIMENT = """\
[experiment]
name = "tiny"
description = "two player counts, two targets"
game = "dice"
games = 45
seed = 11
shard_size = 20

[grid]
players = [2, 3]
target = [20, 40]
"""


def write_experiment(folder: Path, text: str = EXPERIMENT) -> Path:
    path = folder / "tiny.toml"
    path.write_text(text, encoding="utf-8")
    return path


def run_into(folder: Path, exp_path: Path, **kw) -> RunData:
    run_experiment(load_experiment(exp_path), folder, **kw)
    return store.read_run(folder / "tiny")


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> RunData:
    """The experiment run uninterrupted, in-process (one job)."""
    tmp = tmp_path_factory.mktemp("reference")
    return run_into(tmp / "runs", write_experiment(tmp), jobs=1)


def assert_same(a: RunData, b: RunData) -> None:
    assert a.games.sort("variant", "game").equals(b.games.sort("variant", "game"))
    keys = ["variant", "game", "seat"]
    assert a.tables["seats"].sort(keys).equals(b.tables["seats"].sort(keys))
    # the same bytes, but for the experiment file's path as given
    assert manifest_text(dict(a.manifest, file="")) == manifest_text(
        dict(b.manifest, file=""))


def test_the_run_holds_the_games_tables_and_records_its_game(reference):
    g = reference.games
    assert g.height == 4 * 45 and reference.complete
    assert g["game"].to_list() == list(range(45)) * 4  # sorted by variant, then game
    assert g.group_by("variant", "players", "target").len().sort("variant").rows() == [
        (0, 2, 20, 45), (1, 2, 40, 45), (2, 3, 20, 45), (3, 3, 40, 45)]
    assert reference.seats.height == 45 * (2 + 2 + 3 + 3)  # the other table, by its name
    m = reference.manifest
    assert m["game"] == "dice" and m["engine_version"] == DICE.version
    assert m["variants"][3]["race"] == {"target": 40, "faces": 6, "max_turns": 200}
    assert m["swept"] == ["players", "target"]
    # common random numbers: game i has the same seed in every variant
    assert g.group_by("game").agg(pl.col("seed").n_unique())["seed"].max() == 1


def test_one_and_two_jobs_give_identical_tables(reference, tmp_path):
    """Two jobs: the game's declaration travels to loky's workers in each job, so a game a
    test registered plays there too."""
    assert_same(reference, run_into(tmp_path / "runs", write_experiment(tmp_path), jobs=2))


def _cli(args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(CLI + args, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def _wait_for_shards(games_dir: Path, n: int, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if games_dir.is_dir() and len(list(games_dir.glob("*.parquet"))) >= n:
            return
        if proc.poll() is not None:
            pytest.fail(f"the run ended before it could be interrupted:\n{proc.stdout.read()}")
        time.sleep(0.02)
    pytest.fail("no shard appeared")


# Many small shards, so that the run is still going when it is interrupted.
LONG = EXPERIMENT.replace("games = 45", "games = 300").replace("shard_size = 20",
                                                               "shard_size = 10")


@pytest.fixture(scope="module")
def long_whole(tmp_path_factory) -> RunData:
    """LONG run uninterrupted, in-process (one job): what both interrupted runs resume to."""
    tmp = tmp_path_factory.mktemp("long")
    return run_into(tmp / "whole", write_experiment(tmp, LONG), jobs=1)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["killed", "ctrl-c"])
def test_interrupted_run_resumes_to_the_uninterrupted_result(tmp_path, sig, long_whole):
    exp_path = write_experiment(tmp_path, LONG)
    out = tmp_path / "runs"
    proc = _cli(["run", str(exp_path), "--out", str(out), "--jobs", "2"], tmp_path)
    _wait_for_shards(out / "tiny" / "games", 3, proc)
    os.killpg(proc.pid, sig)
    output = proc.communicate(timeout=120)[0]
    if sig == signal.SIGINT:
        assert proc.returncode == 130
        assert "run the same command again to resume" in output
    partial = store.read_run(out / "tiny")
    assert partial.missing, "the run finished before it was interrupted"
    # a killed writer can leave a temporary file and another table's file without its games
    (out / "tiny" / "games" / ".v00000-g000000000000-000000000010.parquet.tmp99").write_bytes(b"x")
    missing = partial.missing[-1]
    (out / "tiny" / "seats" / f"{missing}.parquet").write_bytes(b"half")

    resumed = _cli(["run", str(exp_path), "--out", str(out), "--jobs", "2"], tmp_path)
    output = resumed.communicate(timeout=300)[0]
    assert resumed.returncode == 0, output
    assert "resuming" in output
    assert_same(store.read_run(out / "tiny"), long_whole)
    assert not [p for p in (out / "tiny").rglob(".*tmp*")]


def test_a_deleted_shard_is_played_again_and_nothing_else(tmp_path, cli, reference):
    exp_path = write_experiment(tmp_path)
    out = tmp_path / "runs"
    assert cli("run", exp_path, "--out", out, "--jobs", "1").exit_code == 0
    gone = sorted((out / "tiny" / "games").glob("*.parquet"))[4]
    stamp = {p: p.stat().st_mtime_ns for p in (out / "tiny").rglob("*.parquet")
             if p.name != gone.name}
    gone.unlink()
    r = cli("run", exp_path, "--out", out, "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "reused 160 games already in" in r.stdout and "played 20 more in 1 shard," in \
        r.stdout, r.output
    assert stamp == {p: p.stat().st_mtime_ns for p in stamp}
    assert_same(store.read_run(out / "tiny"), reference)


def test_rerun_skips_finished_shards(tmp_path, cli):
    exp_path = write_experiment(tmp_path)
    out = tmp_path / "runs"
    first = cli("run", exp_path, "--out", out, "--jobs", "1")
    assert first.exit_code == 0, first.output
    assert "played 180 games in 12 shards" in first.stdout
    stamp = {p: p.stat().st_mtime_ns for p in (out / "tiny").rglob("*.parquet")}
    again = cli("run", exp_path, "--out", out, "--jobs", "1")
    assert again.exit_code == 0
    assert "nothing to play" in again.stdout
    assert stamp == {p: p.stat().st_mtime_ns for p in (out / "tiny").rglob("*.parquet")}


def test_more_games_extend_a_run_and_fewer_are_refused(tmp_path, cli):
    exp_path = write_experiment(tmp_path)
    out = tmp_path / "runs"
    run_experiment(load_experiment(exp_path), out, jobs=1)  # 45 games: shards of 20, 20, 5
    run_experiment(load_experiment(exp_path), out, games=70, jobs=1)
    extended = store.read_run(out / "tiny")
    assert extended.manifest["games_per_variant"] == 70
    # The new games only, in shards of their own from game 45 (issue 50): the manifest says so.
    assert extended.manifest.pop("layout") == [[0, 45, 20], [45, 70, 20]]
    direct = run_into(tmp_path / "direct", exp_path, games=70, jobs=1)
    assert_same(extended, direct)
    r = cli("run", exp_path, "--out", out, "--games", "30")
    assert r.exit_code == 2
    assert "holds 70 games per variant, more than the 30 asked for" in r.stderr


def test_changed_experiment_file_is_refused(tmp_path, cli):
    exp_path = write_experiment(tmp_path)
    out = tmp_path / "runs"
    assert cli("run", exp_path, "--out", out, "--jobs", "1").exit_code == 0
    before = {p: p.read_bytes() for p in (out / "tiny").rglob("*") if p.is_file()}
    exp_path.write_text(EXPERIMENT.replace("seed = 11", "seed = 12"), encoding="utf-8")
    r = cli("run", exp_path, "--out", out, "--jobs", "1")
    assert r.exit_code == 2
    assert "holds games of a different experiment file" in r.stderr
    assert "never mixed" in r.stderr and str(out / "tiny") in r.stderr
    assert before == {p: p.read_bytes() for p in (out / "tiny").rglob("*") if p.is_file()}


def test_other_engine_version_or_game_is_refused(tmp_path):
    exp_path = write_experiment(tmp_path)
    out = tmp_path / "runs"
    run_experiment(load_experiment(exp_path), out, jobs=1)
    m = read_manifest(out / "tiny")
    write_manifest(out / "tiny", dict(m, engine_version="0"))
    with pytest.raises(InputError, match="played by engine version 0"):
        run_experiment(load_experiment(exp_path), out, jobs=1)
    write_manifest(out / "tiny", dict(m, game="gemrush"))
    with pytest.raises(InputError, match="it holds games of gemrush, and this experiment "
                       "plays dice"):
        run_experiment(load_experiment(exp_path), out, jobs=1)


def test_a_manifest_naming_an_unknown_game_is_one_message(tmp_path):
    exp_path = write_experiment(tmp_path)
    run_experiment(load_experiment(exp_path), tmp_path / "runs", jobs=1)
    m = read_manifest(tmp_path / "runs" / "tiny")
    write_manifest(tmp_path / "runs" / "tiny", dict(m, game="chess"))
    with pytest.raises(InputError) as e:
        store.read_run(tmp_path / "runs" / "tiny")
    (p,) = e.value.problems
    assert p.field == "game" and "no such game 'chess' (known: " in p.message
    assert "gemrush" in p.message and "rusship" in p.message


def _damage(path: Path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "truncated":
        path.write_bytes(bytes(data[: len(data) // 2]))
    else:  # flipped bytes inside the data pages
        for i in range(40, 60):
            data[i] ^= 0x5A
        path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["truncated", "flipped"])
@pytest.mark.parametrize("table", ["games", "seats"])
def test_damaged_shard_is_detected_and_named(tmp_path, how, table):
    exp_path = write_experiment(tmp_path)
    out = tmp_path / "runs"
    run_experiment(load_experiment(exp_path), out, jobs=1)
    victim = sorted((out / "tiny" / table).glob("*.parquet"))[3]
    _damage(victim, how)
    with pytest.raises(InputError) as e:
        store.read_run(out / "tiny")
    assert [p.file for p in e.value.problems] == [str(victim)]
    assert "damaged shard" in str(e.value)


@pytest.mark.parametrize("table", ["games", "seats"])
def test_resuming_over_a_damaged_shard_is_refused(tmp_path, cli, table):
    exp_path = write_experiment(tmp_path)
    out = tmp_path / "runs"
    run_experiment(load_experiment(exp_path), out, jobs=1)
    victim = sorted((out / "tiny" / table).glob("*.parquet"))[5]
    _damage(victim, "truncated")
    r = cli("run", exp_path, "--out", out, "--jobs", "1")
    assert r.exit_code == 2
    assert r.stderr.startswith(f"error: {victim}: damaged shard")


def test_a_lost_table_folder_is_named(tmp_path):
    exp_path = write_experiment(tmp_path)
    run_experiment(load_experiment(exp_path), tmp_path / "runs", jobs=1)
    for p in (tmp_path / "runs" / "tiny" / "seats").iterdir():
        p.unlink()
    (tmp_path / "runs" / "tiny" / "seats").rmdir()
    with pytest.raises(InputError, match="missing: the run's games shards have seats shards"):
        store.read_run(tmp_path / "runs" / "tiny")


def test_read_run_without_manifest_names_the_folder(tmp_path):
    with pytest.raises(InputError) as e:
        store.read_run(tmp_path)
    assert str(e.value).startswith(str(tmp_path)) and "manifest.json" in str(e.value)


def test_a_second_writer_is_refused(tmp_path):
    exp_path = write_experiment(tmp_path)
    with locked(tmp_path / "runs" / "tiny"), pytest.raises(InputError, match="another"):
        run_experiment(load_experiment(exp_path), tmp_path / "runs", jobs=1)


def test_seeds_do_not_depend_on_sharding():
    from balance.running.seeds import game_seeds

    whole = game_seeds(7, 0, 100)
    parts = np.concatenate([game_seeds(7, a, min(a + 7, 100)) for a in range(0, 100, 7)])
    assert (whole == parts).all() and len(set(whole.tolist())) == 100
    assert (whole >= 0).all()
    assert not (game_seeds(8, 0, 100) == whole).any()


def test_dask_cluster_gives_the_local_table(reference, tmp_path):
    with local_cluster(n_workers=2, threads_per_worker=1, processes=True,
                       host="127.0.0.1") as cluster:
        ran = run_into(tmp_path / "runs", write_experiment(tmp_path),
                       scheduler=cluster.scheduler_address)
    assert_same(reference, ran)


def test_a_cluster_s_client_closes_quietly_after_an_interrupt(monkeypatch, caplog):
    """Stopped by Ctrl-C, the run's client closes with shards in flight; their gathers fail on
    the closed connection, and distributed's event loop logged each as a traceback after the
    command's "interrupted" (seen now and then on a real cluster). `connected` keeps that
    log quiet until its client is closed; here the close logs as those gathers did."""
    distributed = pytest.importorskip("distributed")
    import gc
    import logging

    from distributed.comm import CommClosedError

    # An earlier test's client left in a reference cycle is closed by its __del__ when the
    # collector runs, and on its gone cluster that close may log as the faked one does:
    # collected now, before the log is watched.
    gc.collect()
    real_close = distributed.Client.close
    faked: list = []

    def close_as_the_gathers_in_flight_fail(self, *args, **kw):
        # Only the run's own client: an earlier test's client, collected here, closes in its
        # __del__ at any moment, outside `connected` (CI once failed on that).
        if getattr(self, "_start_arg", None) != cluster.scheduler_address:
            return real_close(self, *args, **kw)
        faked.append(self)
        try:
            raise CommClosedError("in <TCP (closed) ConnectionPool.gather>: Stream is closed")
        except CommClosedError:
            logging.getLogger("tornado.application").error("Exception in callback",
                                                            exc_info=True)
        return real_close(self, *args, **kw)

    with local_cluster(n_workers=1, threads_per_worker=1, processes=False,
                       protocol="tcp://", host="127.0.0.1") as cluster:
        monkeypatch.setattr(distributed.Client, "close", close_as_the_gathers_in_flight_fail)
        with caplog.at_level(logging.ERROR), pytest.raises(KeyboardInterrupt), \
                runner.connected(cluster.scheduler_address):
            raise KeyboardInterrupt
        monkeypatch.undo()
    assert faked, "the run's client never closed"
    assert not [r for r in caplog.records if r.name == "tornado.application"]


def test_runner_bench_smoke():
    from balance.bench.speed import runner_bench

    r = runner_bench(DICE, games=60, say=lambda *_: None)
    assert set(r.games_per_s) == {1, 2} and r.scaling > 0


def test_a_run_stopped_early_does_not_warn_of_cancelled_shards(tmp_path):
    """Ctrl-C or SIGTERM closes the runner's generator with shards in flight: joblib then
    warns that they were cancelled, a warning the designer cannot act on (the command's own
    message says what is kept)."""
    exp = load_experiment(write_experiment(tmp_path))
    shards = plan(len(exp.variants), exp.games, exp.shard_size)
    played = execute(jobs_for(exp, shards), n_jobs=2)
    with warnings.catch_warnings(record=True) as seen:
        next(played)
        played.close()
    assert not [w for w in seen if "tasks" in str(w.message)], [str(w.message) for w in seen]


def test_a_pool_shut_down_early_prints_no_traceback_of_its_manager_thread(monkeypatch):
    """Shut down with shards cancelled, loky's manager thread can trip on a cancelled shard's
    id (KeyError; seen under load in the test suite) and Python would print its traceback
    after the command's own message. That one exception, in a pool shutting down, is
    ignored; every other is printed as before."""
    from joblib.externals.loky import process_executor

    printed = []
    monkeypatch.setattr(threading, "excepthook", printed.append)
    quiet_pool_teardown()
    manager = object.__new__(process_executor._ExecutorManagerThread)
    manager.executor_flags = SimpleNamespace(shutdown=True)
    other = threading.Thread(name="another thread")
    for exc, thread in ((KeyError, manager), (ValueError, manager), (KeyError, other)):
        threading.excepthook(threading.ExceptHookArgs([exc, exc(), None, thread]))
    manager.executor_flags = SimpleNamespace(shutdown=False)  # a pool still working
    threading.excepthook(threading.ExceptHookArgs([KeyError, KeyError(), None, manager]))
    assert [(a.exc_type, a.thread) for a in printed] == [
        (ValueError, manager), (KeyError, other), (KeyError, manager)]


def test_a_pool_task_leaves_ctrl_c_to_the_parent():
    """Ctrl-C reaches the whole terminal's group; a loky worker that took it died mid-task
    (often while compiling), and the run ended as failed instead of interrupted."""
    before = signal.getsignal(signal.SIGINT)
    try:
        assert _in_pool(signal.getsignal, signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
