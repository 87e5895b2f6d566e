"""`balance new-game NAME` (balance/kit/scaffold/): run once in a copy of the project, what it
writes passes the contract tests, the layers, the neutral words, ruff and the game's own tests,
and its experiment runs and reports; a bad name is one message, exit 2, and writes nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from balance.kernels import jit
from balance.kit import scaffold
from tests.project_copy import copy_project

ROOT = Path(__file__).resolve().parents[1]
NAME = "quokka"
FOLDERS = [f.format(name=NAME) for f in scaffold.FOLDERS]
RUFF = Path(sys.executable).parent / "ruff"


def _run(root: Path, *argv: str, timeout: int = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=str(root), BALANCE_CACHE=str(root / ".numba_cache"))
    return subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True,
                          timeout=timeout)


def _balance(root: Path, *args: str) -> subprocess.CompletedProcess:
    return _run(root, sys.executable, "-m", "balance.cli.app", *args)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """A copy of the project with the new game written in it, once for the module."""
    root = copy_project(tmp_path_factory.mktemp("project"))
    _private_cache(root / ".numba_cache")
    shutil.copy2(ROOT / "pyproject.toml", root / "pyproject.toml")
    (root / "experiments").mkdir()
    before = _files(root)
    done = _balance(root, "new-game", NAME)
    outside = {k: v for k, v in _files(root).items() if not k.startswith(tuple(FOLDERS))}
    assert outside == before, "the command changed files outside the game's folders"
    return root, done


def _private_cache(folder: Path) -> None:
    """The project's compiled engines, linked rather than copied (a fraction of a second),
    for the copy to load and add to: the new game's entries name its modules, which only
    the copy has, and the kit's kernels it shares with the other games would carry them
    into the project's own cache, where no process could read their index again. Where
    the files cannot be linked (another file system), the copy compiles from nothing."""
    try:
        shutil.copytree(jit.CACHE_BASE, folder, copy_function=os.link,
                        ignore=shutil.ignore_patterns("*.lock"))
    except (OSError, shutil.Error):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()


def _files(root: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(root).as_posix(): (p.stat().st_mtime_ns, p.stat().st_size)
            for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
            and ".numba_cache" not in p.parts}


def test_it_writes_the_five_folders_and_says_what_next(project):
    root, done = project
    assert done.returncode == 0, done.stdout + done.stderr
    for folder in FOLDERS:
        assert (root / folder).is_dir(), folder
    written = [line.split()[0] for line in done.stdout.splitlines() if line.startswith("  ")
               and line.rstrip().endswith("lines)")]
    expected = {p.format(name=NAME, run=scaffold.run_of(NAME)) for p in scaffold.FILES} | {
        f"heuristics/{NAME}/dispatch_nb.py", f"balance/games/{NAME}/loop_nb.py",
        f"balance/games/{NAME}/golden/2p-random-seed1.txt",
        f"balance/games/{NAME}/golden/3p-threshold-seed4.txt"}
    assert set(written) == expected
    on_disk = {p.relative_to(root).as_posix() for f in FOLDERS for p in (root / f).rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert on_disk == expected
    for command in (f"balance run {NAME}-rerolls", f"balance report runs/{NAME}-rerolls",
                    f"python -m balance.kit.playthrough balance.games.{NAME}.game:KIT"):
        assert command in done.stdout, command


def test_the_contract_tests_and_its_own_pass(project):
    root, done = project
    assert done.returncode == 0
    r = _run(root, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             f"tests/games/{NAME}", "tests/test_contract.py", "tests/test_contract_play.py",
             "tests/test_kit.py", "tests/test_generated.py", "-k", NAME)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    passed = int(r.stdout.rsplit(" passed", 1)[0].rsplit(None, 1)[-1])
    assert passed >= 20, r.stdout[-500:]  # the game's cases ran, not only the deselection


def test_the_layers_the_neutral_words_and_ruff_hold(project):
    root, done = project
    assert done.returncode == 0
    r = _run(root, sys.executable, "-m", "tests.layers")
    assert r.returncode == 0 and "0 broken" in r.stdout, r.stdout[-3000:]
    assert f"{NAME} imports nothing of another game KEPT" in r.stdout
    r = _run(root, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             "tests/test_neutral.py", "tests/test_neutral_reports.py")
    assert r.returncode == 0, r.stdout[-3000:]
    ruff = str(RUFF) if RUFF.exists() else shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed: pip install -e '.[dev]'")
    r = _run(root, ruff, "check", *FOLDERS)
    assert r.returncode == 0, r.stdout[-3000:]


def test_its_experiment_runs_and_reports(project):
    root, done = project
    assert done.returncode == 0
    runs = root / "runs"
    # One job: two workers' start-up was half the command's CPU time; the contract tests
    # above play the new game in two workers (tables_depend_neither_on_workers...).
    r = _balance(root, "run", f"{NAME}-rerolls", "--games", "60", "--out", str(runs),
                 "--jobs", "1")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    r = _balance(root, "report", str(runs / f"{NAME}-rerolls"))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    page = (runs / f"{NAME}-rerolls" / "report.html").read_text()
    assert "Quokka" in page and "rerolls" in page


# -- refusals ---------------------------------------------------------------------------------

def _tree() -> dict[str, float]:
    """Every file and folder under the five folders' parents, with its modification time."""
    out = {}
    for parent in ("balance/games", "heuristics", "reports", "experiments", "tests/games"):
        for p in (ROOT / parent).rglob("*"):
            if "__pycache__" not in p.parts:
                out[p.relative_to(ROOT).as_posix()] = p.stat().st_mtime_ns
    return out


@pytest.mark.parametrize("name, says", [
    ("Quokka", "must be a lower-case Python identifier"),
    ("quo-kka", "must be a lower-case Python identifier"),
    ("9lives", "must be a lower-case Python identifier"),
    ("class", "not a keyword"),
    ("_quokka", "must be a lower-case Python identifier"),
    ("rusship", "'rusship' is a game already"),
    ("pig", "'pig' is a game already"),  # registered, not found in balance/games/
    ("search", "heuristics/search.py exists already"),  # a neutral module of that name
    ("templates", "reports/templates exists already"),
])
def test_a_bad_name_is_one_message_and_writes_nothing(cli, name, says):
    before = _tree()
    r = cli("new-game", name)
    assert isinstance(r.exception, SystemExit), f"traceback: {r.exception!r}"
    assert r.exit_code == 2, r.stdout + r.stderr
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and says in errors[0], r.stderr
    assert "NAME" in errors[0] and "Traceback" not in r.stdout + r.stderr
    assert _tree() == before


def test_a_folder_of_the_name_left_anywhere_refuses_it(tmp_path):
    """An experiments/ or tests/games/ folder of that name (a game removed by hand, say)."""
    for parent in ("balance/games", "heuristics", "reports", "experiments", "tests/games"):
        (tmp_path / parent).mkdir(parents=True)
    (tmp_path / "tests/games" / NAME).mkdir()
    problem = scaffold.refusal(NAME, tmp_path)
    assert problem is not None and f"tests/games/{NAME} exists already" in problem.message
    assert sorted(p.name for p in tmp_path.rglob("*")) == sorted(
        ["balance", "games", "heuristics", "reports", "experiments", "tests", "games", NAME])


def test_a_failed_generator_leaves_no_half_made_game(tmp_path, monkeypatch):
    for parent in ("balance/games", "heuristics", "reports", "experiments", "tests/games"):
        (tmp_path / parent).mkdir(parents=True)
    monkeypatch.setattr(scaffold, "GENERATORS", (("balance.kit.no_such_generator",),))
    with pytest.raises(RuntimeError, match="no_such_generator"):
        scaffold.write(NAME, tmp_path)
    assert not [p for f in FOLDERS for p in [tmp_path / f] if p.exists()]


def test_a_name_with_an_underscore_gets_an_experiment_its_run_folder_can_take():
    """A game's name may hold '_' (an identifier), a run's only '-': the scaffold's experiment
    is named and filed with '-', as the contract tests name theirs."""
    import tomllib

    from balance.kit import scaffold
    from balance.running.experiment import NAME_CHARS

    data = tomllib.loads(scaffold.render("experiment.toml.tmpl", "two_words"))
    assert data["experiment"]["game"] == "two_words"
    assert set(data["experiment"]["name"]) <= NAME_CHARS
    assert "experiments/{name}/{run}-rerolls.toml" in scaffold.FILES
