"""Issue 47, class 2, in the fuzz harness (tests/fuzz.py): a data file a game reads, edited
after its run was played, is a new identity. Before, a resume after an edit of Rusship's
rules.toml (`length = 12` to 20) played on into the same run, which then held games of 14.5
and 45.4 turns; after one of the learned player's weights, mean scores of 36.2 and 25.4. The
edits are made in a copy of the project (tests/project_copy.py), and the commands run there,
in a process of their own, as a designer's would after editing the file."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from balance.kernels import jit, sources
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from tests.fuzz import Case, assert_refused_cleanly, snapshot
from tests.project_copy import copy_project, edit

EXPERIMENTS = {
    "fzr": 'game = "rusship"\nplayers = 2\n',
    "fzl": 'edition = "2e"\nmode = "crisis"\nplayers = 2\nheuristic = "learned"\n',
}
RULES = "balance/games/rusship/data/rules.toml"
WEIGHTS = "heuristics/gemrush/learned.knobs.toml"
CONTENT = "balance/games/gemrush/data/content/gemrush-2e.toml"
WORLD: dict[str, Path] = {}


def _text(name: str) -> str:
    return (f'[experiment]\nname = "{name}"\ndescription = "a run whose data is edited"\n'
            f"games = 4\nseed = 3\nshard_size = 2\n{EXPERIMENTS[name]}")


@pytest.fixture(scope="module", autouse=True)
def world(tmp_path_factory):
    """The project's copy, and a run of each game played by this code (the copy's twin)."""
    root = tmp_path_factory.mktemp("identity")
    WORLD["project"] = copy_project(root / "project")
    for name in EXPERIMENTS:
        (root / f"{name}.toml").write_text(_text(name), encoding="utf-8")
        run_experiment(load_experiment(root / f"{name}.toml"), root / "runs", jobs=1)
        (root / "runs" / name / ".lock").unlink()
        WORLD[name] = root / "runs" / name


@pytest.fixture(autouse=True)
def restored():
    """Each test's edits of the copy are undone after it."""
    files = {p: p.read_bytes() for p in WORLD["project"].rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    yield
    for p, data in files.items():
        if p.read_bytes() != data:
            p.write_bytes(data)


def in_copy(*argv: str) -> SimpleNamespace:
    """`balance *argv` run by the project's copy, as the `cli` fixture's result (a process
    that exits has no exception to show: its exit status stands for it)."""
    env = dict(os.environ, PYTHONPATH=str(WORLD["project"]),
               BALANCE_CACHE=str(jit.CACHE_BASE))
    done = subprocess.run([sys.executable, "-m", "balance.cli.app", *map(str, argv)],
                          capture_output=True, text=True, env=env, cwd=WORLD["project"],
                          timeout=600)
    return SimpleNamespace(exception=SystemExit(done.returncode), exit_code=done.returncode,
                           stdout=done.stdout, stderr=done.stderr)


def resumed(name: str, rel: str, old: bytes | None = None, new: bytes = b"\n# edited\n"):
    """The copy's `rel` edited, then the rerun, to more games, of run `name`."""
    def make(tmp: Path) -> list[str]:
        edit(WORLD["project"] / rel, old, new)
        shutil.copytree(WORLD[name], tmp / "runs" / name)
        (tmp / f"{name}.toml").write_text(_text(name), encoding="utf-8")
        return ["run", str(tmp / f"{name}.toml"), "--out", str(tmp / "runs"), "--games", "8",
                "--jobs", "1"]
    return make


def _refused(name: str, rel: str) -> tuple[str, ...]:
    return (f"runs/{name}", "other engine or player code or data files", f"changed: {rel}",
            "--out")


CASES = {
    "rusship-rules-length-resume": Case("run folder", resumed(
        "fzr", RULES, b"\nlength = 12", b"\nlength = 20"), _refused("fzr", RULES)),
    "learned-weight-resume": Case("run folder", resumed(
        "fzl", WEIGHTS, b"\nlw_open = -0.121791\n", b"\nlw_open = 0.5\n"),
        _refused("fzl", WEIGHTS)),
    "gemrush-content-resume": Case("run folder", resumed("fzl", CONTENT),
                                   _refused("fzl", CONTENT)),
}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_a_resume_after_a_data_edit_is_refused_cleanly(case_id, tmp_path):
    assert_refused_cleanly(CASES[case_id], tmp_path, in_copy)


# -- outcomes other than a refusal --------------------------------------------------------

@pytest.mark.parametrize(("name", "rel"), [("fzl", RULES), ("fzr", WEIGHTS)])
def test_another_games_data_edit_leaves_a_run_resumable(name, rel, tmp_path):
    """Per game: Rusship's rules edited, a Gem Rush run resumes, and the other way round."""
    argv = resumed(name, rel)(tmp_path)
    argv[argv.index("--games") + 1] = "4"
    run = tmp_path / "runs" / name
    before = snapshot(run)
    r = in_copy(*argv)
    assert r.exit_code == 0, r.stderr[-1000:]
    assert "nothing to play" in r.stdout
    (run / ".lock").unlink()
    assert snapshot(run) == before


def _make_code(variable: str) -> str:
    """The Python the Makefile runs for `variable` (CODE, RUSSHIP_CODE): the hash that names
    the main job's run folder."""
    text = (sources.ROOT / "Makefile").read_text(encoding="utf-8")
    return re.search(rf'^{variable} = \$\(shell \$\(PY\) -c "(.*)"\)$', text, re.M)[1]


@pytest.mark.parametrize(("variable", "rel", "other"), [("CODE", WEIGHTS, "RUSSHIP_CODE"),
                                                         ("RUSSHIP_CODE", RULES, "CODE")])
def test_the_main_job_plays_into_a_new_folder_after_a_data_edit(variable, rel, other):
    env = dict(os.environ, PYTHONPATH=str(WORLD["project"]))

    def code(var):
        done = subprocess.run([sys.executable, "-c", _make_code(var)], capture_output=True,
                              text=True, env=env, cwd=WORLD["project"], check=True)
        return done.stdout.strip()

    before = {v: code(v) for v in (variable, other)}
    edit(WORLD["project"] / rel)
    assert code(variable) != before[variable]
    assert code(other) == before[other]
