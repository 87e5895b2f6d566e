"""A run folder written by the code before games were plug-ins (commit 5bc63e6, data/
run-5bc63e6/ from data/run-5bc63e6.toml): its manifest names no game, its shards carry their
provenance, digest and seat numbering under the old "gemrush.*" Parquet keys. It reads, scans,
passes the resume's shard check and compares as it did, and holds the games this code plays."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from balance.errors import InputError
from balance.running import store
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from balance.running.store.check import check_shards
from balance.running.store.layout import run_game
from balance.running.store.manifest import read_manifest

DATA = Path(__file__).parent / "data"
OLD = DATA / "run-5bc63e6"


def test_the_old_shards_carry_the_old_keys_and_the_manifest_no_game():
    keys = pq.read_metadata(next((OLD / "games").glob("*.parquet"))).metadata
    assert {b"gemrush.shard", b"gemrush.rows_sha256", b"gemrush.seats_from"} <= set(keys)
    assert not any(k.startswith(b"balance.") for k in keys)
    assert "game" not in read_manifest(OLD)


def test_an_old_run_reads_as_the_same_games_played_now(tmp_path):
    old = store.read_run(OLD)
    assert old.complete and run_game(old.manifest).name == "gemrush"
    check_shards(OLD, old.manifest)  # what a resume checks: provenance, digests
    run_experiment(load_experiment(DATA / "run-5bc63e6.toml"), tmp_path, jobs=1)
    new = store.read_run(tmp_path / "old-run")
    kept = old.games.drop("source_hash")
    assert kept.equals(new.games.select(kept.columns))
    # Recorded since issue 49, as every game on the kit records them; the game's course
    # (each seat's progress by twentieths, the lead changes, Crisis's target) since issue 53.
    assert set(new.games.columns) - set(old.games.columns) == {
        "decisions", "branching", "course", "lead_changes", "course_goal"}
    assert old.tables["rooms"].equals(new.tables["rooms"])
    scan = store.scan_run(OLD)
    assert scan.games.collect().equals(old.games)
    assert scan.tables["rooms"].collect().equals(old.tables["rooms"])
    lazy = store.read_run(OLD, lazy_tables=True, lazy_games=True)
    assert lazy.games.height == old.games.height


def test_an_old_run_compares_and_refuses_a_resume_by_other_code(tmp_path, cli):
    r = cli("compare", OLD)
    assert r.exit_code == 0, r.output
    copy = tmp_path / "old-run"
    shutil.copytree(OLD, copy)
    with pytest.raises(InputError, match="played by other engine or player code"):
        run_experiment(load_experiment(DATA / "run-5bc63e6.toml"), tmp_path, jobs=1)
