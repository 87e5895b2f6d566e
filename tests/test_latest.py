"""Issue 26 item 9: the main job's latest run has a stable path, runs/main/latest, a relative
link to its code-hash folder, which stays the run's identity."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from balance.errors import InputError
from balance.running.latest import point_latest

ROOT = Path(__file__).resolve().parents[1]


def test_latest_points_at_the_last_code_folder_and_moves_with_it(tmp_path):
    main = tmp_path / "runs" / "main"
    for code in ("aaaa", "bbbb"):
        (main / code / "skills").mkdir(parents=True)
        (main / code / "skills" / "manifest.json").write_text(code, encoding="utf-8")
    link = point_latest(main, "aaaa")
    assert link == main / "latest" and os.readlink(link) == "aaaa"  # relative
    assert (main / "latest" / "skills" / "manifest.json").read_text() == "aaaa"
    point_latest(main, "bbbb")
    assert os.readlink(link) == "bbbb"
    assert (main / "latest" / "skills" / "manifest.json").read_text() == "bbbb"
    assert (main / "aaaa" / "skills").is_dir()  # the hashed folders stay
    # moved whole, the link still leads to its folder
    moved = tmp_path / "elsewhere"
    (tmp_path / "runs").rename(moved)
    assert (moved / "main" / "latest" / "skills" / "manifest.json").read_text() == "bbbb"
    assert not [p for p in (moved / "main").iterdir() if p.name.startswith(".")]


def test_a_latest_of_the_designers_is_left_alone(tmp_path):
    (tmp_path / "aaaa").mkdir()
    mine = tmp_path / "latest"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(InputError, match="not a symbolic link"):
        point_latest(tmp_path, "aaaa")
    assert (mine / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("name, phrase", [("missing", "is not a folder"),
                                          ("../aaaa", "not a path"), ("latest", "not a path")])
def test_latest_needs_a_code_folder_beside_it(tmp_path, name, phrase):
    (tmp_path / "aaaa").mkdir()
    with pytest.raises(InputError, match=phrase):
        point_latest(tmp_path, name)
    assert not os.path.lexists(tmp_path / "latest")


def test_the_makefiles_last_step_points_latest(tmp_path):
    """`python -m balance.running.latest runs/main CODE`, as the Makefile runs it: one line said,
    and
    a clear error (exit 2) for a folder that is not there."""
    (tmp_path / "cafe").mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    ok = subprocess.run([sys.executable, "-m", "balance.running.latest", str(tmp_path), "cafe"],
                        capture_output=True, text=True, env=env, cwd=ROOT)
    assert ok.returncode == 0 and ok.stdout.strip() == f"{tmp_path / 'latest'} -> cafe"
    bad = subprocess.run([sys.executable, "-m", "balance.running.latest", str(tmp_path), "nope"],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.startswith("error: ")
    assert "Traceback" not in bad.stderr
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "$(PY) -m balance.running.latest runs/main $(CODE)" in make
