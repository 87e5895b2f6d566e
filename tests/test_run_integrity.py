"""Issue 12: a run never reports success when shards were lost with a worker."""

from __future__ import annotations

import pytest

from balance.running import runner
from balance.running.experiment import load_experiment
from balance.running.runner import RunFailed, run_experiment
from tests.local_cluster import local_cluster

EXPERIMENT = """\
[experiment]
name = "lost"
description = "two shards"
edition = "2e"
mode = "crisis"
games = 10
seed = 1
shard_size = 5
players = 2
exhaust = true
"""


@pytest.fixture
def exp(tmp_path):
    path = tmp_path / "lost.toml"
    path.write_text(EXPERIMENT, encoding="utf-8")
    return load_experiment(path)


def test_a_lost_shard_fails_the_run(exp, tmp_path, monkeypatch):
    """Before: a backend that dropped a shard (a worker killed by a double free) let
    run_experiment return as if the run were complete."""
    real = runner.execute

    def drop_last(jobs, n_jobs=1, scheduler=None, warm=None, dask_workers=None):
        jobs = list(jobs)
        yield from real(jobs[:-1], n_jobs, scheduler)

    monkeypatch.setattr(runner, "execute", drop_last)
    with pytest.raises(RunFailed, match="only 1 of the 2 shards"):
        run_experiment(exp, tmp_path / "runs", jobs=1)


def test_a_dead_worker_is_named_and_resumable(exp, tmp_path, monkeypatch, cli):
    # loky's own error: the runner knows a dead worker by its class (a broken pool).
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    def die(jobs, n_jobs=1, scheduler=None, warm=None, dask_workers=None):
        raise TerminatedWorkerError("A worker process managed by the executor was "
                                    "unexpectedly terminated (SIGABRT)")
        yield

    monkeypatch.setattr(runner, "execute", die)
    r = cli("run", exp.file, "--out", tmp_path / "runs", "--jobs", "1")
    assert r.exit_code == 1
    assert "a worker process died (TerminatedWorkerError" in r.stderr
    assert "run the same command again to resume" in r.stderr
    assert "Traceback" not in r.stderr


def test_custom_content_is_never_read_from_a_planted_file(tmp_path, playable_text):
    """Before: workers read $TMPDIR/gemrush-content-<hash>.toml if it existed; a planted file
    with +5 points per door changed every score while the manifest showed the original."""
    import hashlib
    import tempfile
    from pathlib import Path

    import balance

    text = playable_text.replace('name = "mini"', 'name = "planted-test"')
    content = tmp_path / "planted.toml"
    content.write_text(text, encoding="utf-8")
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    plant = Path(tempfile.gettempdir()) / f"gemrush-content-{sha}.toml"
    before = set(Path(tempfile.gettempdir()).glob("gemrush-content-*"))
    plant.write_text(text.replace("points = 1", "points = 6"), encoding="utf-8")
    try:
        kw = dict(players=2, games=20, seed=4, exhaust=True, content=str(content))
        pooled = balance.simulate(**kw, jobs=2)
        assert pooled.equals(balance.simulate(**kw, jobs=1))
        assert pooled["score"].max() < 20  # 6-point doors would have shown
    finally:
        plant.unlink()
    # nothing of this content is left on disk (other runs' old files are not ours to judge)
    assert set(Path(tempfile.gettempdir()).glob("gemrush-content-*")) == before


def test_a_cluster_without_workers_is_refused_before_the_folder(exp, tmp_path, monkeypatch):
    """Before: Dask with no workers ended in a traceback (or waited for ever)."""
    from balance.errors import InputError

    monkeypatch.setattr(runner, "WORKER_WAIT_S", 1.0)
    with (local_cluster(n_workers=0, processes=True, host="127.0.0.1") as cluster,
          pytest.raises(InputError, match="has no workers")):
        run_experiment(exp, tmp_path / "runs", scheduler=cluster.scheduler_address)
    assert not (tmp_path / "runs").exists()


def test_a_run_whose_workers_all_left_gives_up(monkeypatch):
    """Before: the progress bar froze for ever once every Dask worker was gone."""
    import threading

    closed = threading.Event()

    class Gone:
        def scheduler_info(self):
            return {"workers": {}}

        def close(self):
            closed.set()

    monkeypatch.setattr(runner, "WORKERLESS_S", 0.2)
    runner._cluster_lost.clear()
    runner._watch_workers(Gone(), threading.Event())
    assert closed.is_set() and runner._cluster_lost.is_set()

    def lost(jobs, n_jobs=1, scheduler=None, warm=None, dask_workers=None):
        raise RuntimeError("the client closed")
        yield

    monkeypatch.setattr(runner, "execute", lost)
    with pytest.raises(RunFailed, match="every Dask worker was gone"):
        list(runner._collect([], 1, "tcp://x"))
    runner._cluster_lost.clear()
