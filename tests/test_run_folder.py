"""Issue 12, silent corruption 6: everything is checked before the run folder is touched,
and a run stopped at the very start (a full disk) can be resumed."""

from __future__ import annotations

import errno

import pytest

from balance import files
from balance.errors import InputError
from balance.running import store
from balance.running.experiment import load_experiment

EXPERIMENT = """\
[experiment]
name = "folder"
description = "one variant"
edition = "2e"
mode = "crisis"
games = 10
seed = 2
shard_size = 5
players = 2
exhaust = true
"""


def _files(folder):
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file() and p.name != ".lock"}


@pytest.fixture
def exp_path(tmp_path):
    path = tmp_path / "folder.toml"
    path.write_text(EXPERIMENT, encoding="utf-8")
    return path


def test_a_huge_games_option_never_touches_a_finished_run(exp_path, tmp_path, cli):
    """Before: the manifest was rewritten, then the run died of MemoryError and the games
    already played could no longer be read."""
    out = tmp_path / "runs"
    assert cli("run", exp_path, "--out", out, "--jobs", "1").exit_code == 0
    before = _files(out / "folder")
    r = cli("run", exp_path, "--out", out, "--games", "1000000000000000", "--jobs", "1")
    assert r.exit_code == 2
    assert "--games: field 'games'" in r.stderr and "Traceback" not in r.stderr
    assert _files(out / "folder") == before
    assert store.read_run(out / "folder").complete


def test_too_many_jobs_are_refused_before_anything(exp_path, tmp_path, cli):
    r = cli("run", exp_path, "--out", tmp_path / "runs", "--jobs", "1000")
    assert r.exit_code == 2 and "--jobs" in r.stderr and "per core" in r.stderr
    assert not (tmp_path / "runs").exists()


def test_a_game_count_that_cannot_be_planned_is_refused_at_load(tmp_path):
    """Before: games = 10^11 was allowed, created the folder and died of MemoryError."""
    path = tmp_path / "huge.toml"
    path.write_text(EXPERIMENT.replace("games = 10", "games = 100000000000"), encoding="utf-8")
    with pytest.raises(InputError, match=r"\[experiment\]: field 'games': .* shards, more than"):
        load_experiment(path)


def test_out_naming_a_file_is_refused(exp_path, tmp_path, cli):
    f = tmp_path / "afile"
    f.write_text("x", encoding="utf-8")
    r = cli("run", exp_path, "--out", f, "--jobs", "1")
    assert r.exit_code == 2 and "is a file, not a folder" in r.stderr
    assert f.read_text(encoding="utf-8") == "x"


def test_a_folder_with_other_files_is_refused_naming_them(exp_path, tmp_path, cli):
    (tmp_path / "runs" / "folder").mkdir(parents=True)
    (tmp_path / "runs" / "folder" / "notes.txt").write_text("mine", encoding="utf-8")
    r = cli("run", exp_path, "--out", tmp_path / "runs", "--jobs", "1")
    assert r.exit_code == 2 and "it holds notes.txt" in r.stderr


def test_disk_full_at_the_start_leaves_a_folder_that_resumes(exp_path, tmp_path, cli,
                                                             monkeypatch):
    """Before: an empty games/ and a 0-byte manifest temporary file were left, and the rerun
    was refused as 'not a run folder'."""
    real = files.write_atomic

    def full(path, data):
        with open(path.with_name(f".{path.name}.tmp1"), "wb"):
            pass
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(files, "write_atomic", full)
    out = tmp_path / "runs"
    r = cli("run", exp_path, "--out", out, "--jobs", "1")
    assert r.exit_code == 2 and "No space left on device" in r.stderr
    assert "Traceback" not in r.stderr
    monkeypatch.setattr(files, "write_atomic", real)
    r = cli("run", exp_path, "--out", out, "--jobs", "1")
    assert r.exit_code == 0, r.stderr
    assert store.read_run(out / "folder").complete
