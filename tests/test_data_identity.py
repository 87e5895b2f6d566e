"""Issue 47, class 2: every file a game's code or players read is in its runs' identity, per
game. Before, only the Python sources were hashed: an edited rules.toml or learned.knobs.toml
resumed a run, which then held games of two rule sets or two players. The refusals a resume
gives after such an edit are in tests/test_fuzz_identity.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from balance.contract import registry
from balance.kernels import jit, sources
from balance.running import provenance
from tests.project_copy import copy_project, edit

# The files the issue found outside the identity, and the rest of the shipped data, by game.
SHIPPED = {
    "gemrush": {"balance/games/gemrush/data/content/gemrush-1e.toml",
                "balance/games/gemrush/data/content/gemrush-2e.toml",
                "balance/games/gemrush/data/profiles/1e.toml",
                "balance/games/gemrush/data/profiles/2e.toml",
                "heuristics/gemrush/learned.knobs.toml"},
    "rusship": {"balance/games/rusship/data/rules.toml"},
}

# Beside a player's code, so in its game's identity, though only `--knobs` reads it: an edit
# costs a new folder, never a wrong number.
NOT_READ = {"gemrush": {"heuristics/gemrush/greedy-hand-set.knobs.toml"}}


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    return copy_project(tmp_path_factory.mktemp("project"))


def _data(game: str, root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in provenance.source_files(game, root)
            if p.suffix != ".py"}


def test_the_copy_has_the_projects_identity(tree):
    for game in registry.names():
        assert provenance.source_hash(game, tree) == provenance.source_hash(game), game
        assert provenance.source_hashes(game, tree) == provenance.source_hashes(game), game


def test_the_shipped_data_is_in_each_games_identity_and_no_other(tree):
    for game, files in SHIPPED.items():
        # Exactly: a folder of notes (the guide, say) found as data would tie every game's
        # identity to it. A data file added since belongs here once it is checked.
        assert _data(game, tree) == files | NOT_READ.get(game, set()), game
        for other in set(registry.names()) - {game}:
            assert not files & _data(other, tree), (game, other)


def test_each_data_file_edited_changes_its_games_identity_and_only_theirs(tree):
    """Every data file of every game, edited in the copy: the identity of each game that reads
    it changes, naming that file alone; every other game's stays."""
    games = registry.names()
    data = {g: _data(g, tree) for g in games}
    base = {g: provenance.source_hashes(g, tree) for g in games}
    ident = {g: provenance.source_hash(g, tree) for g in games}
    edited = set().union(*data.values())
    assert edited >= set().union(*SHIPPED.values())
    for rel in sorted(edited):
        undo = edit(tree / rel)
        try:
            for g in games:
                now = provenance.source_hash(g, tree)
                if rel in data[g]:
                    assert now != ident[g], (rel, g)
                    changed = provenance.changed_sources(base[g],
                                                         provenance.source_hashes(g, tree))
                    assert changed == [rel], (rel, g)
                else:
                    assert now == ident[g], (rel, g)
        finally:
            undo()
    assert {g: provenance.source_hash(g, tree) for g in games} == ident


def test_a_new_data_file_enters_the_identity(tree):
    """Found, not listed: a file added beside a game's code, or in a data folder, counts."""
    base = provenance.source_hash("rusship", tree)
    for rel in ("balance/games/rusship/data/boards/real.toml", "heuristics/rusship/x.toml"):
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text("length = 20\n")
        try:
            assert rel in _data("rusship", tree)
            assert provenance.source_hash("rusship", tree) != base
            assert rel not in _data("gemrush", tree)
        finally:
            (tree / rel).unlink()
    assert provenance.source_hash("rusship", tree) == base


def test_a_refusal_marks_a_file_the_run_did_not_record():
    assert provenance.changed_sources({"a": "1", "b": "2", "c": "3"},
                                      {"a": "1", "b": "9", "d": "4"}) == ["b", "c (removed)",
                                                                         "d (new)"]


def test_what_is_not_data(tmp_path):
    """Hidden files, byte code, a folder of Python (another package, scripts: docs/), the
    compile plan, and the project's own folder beside a top-level module are no data."""
    for rel in ("pkg/__init__.py", "pkg/mod.py", "pkg/rules.toml", "pkg/data/a/b.csv",
                "pkg/.mod.py.swp", "pkg/__pycache__/mod.cpython-311.pyc",
                "pkg/docs/gen.py", "pkg/docs/page.md", "pkg/compile_plan.txt",
                "pkg/sub/__init__.py", "pkg/sub/weights.toml", "top.py", "README.md",
                "runs/r/manifest.json"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    found = provenance.data_files([tmp_path / "pkg/mod.py", tmp_path / "top.py"])
    assert {p.relative_to(tmp_path).as_posix() for p in found} == {"pkg/rules.toml",
                                                                   "pkg/data/a/b.csv"}


def test_the_compile_plan_is_no_part_of_the_identity(tree):
    """It orders a cold compile's work; re-recording it must not move the main job's folder."""
    from balance.kernels.compile_plan import PLAN_FILE

    assert {PLAN_FILE} == provenance.NOT_DATA
    base = provenance.source_hash("rusship", tree)
    undo = edit(tree / "balance/games/rusship" / PLAN_FILE)
    try:
        assert provenance.source_hash("rusship", tree) == base
    finally:
        undo()


# What a game's run opens, seen by an audit hook in a process of its own (the hashing's own
# reads left out): played, not guessed, so a data file found by no rule fails here.
AUDIT = """\
import json, os, sys
opened = set()
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename.endswith(os.path.join("kernels", "sources.py")):
                return
            frame = frame.f_back
        opened.add(os.path.realpath(os.fsdecode(args[0])))
sys.addaudithook(hook)
from balance.running.experiment import load_experiment
from balance.running.runner import simulate_tables
exp = load_experiment(sys.argv[1])
exp.game.player_registry()
simulate_tables(exp, 1)
print(json.dumps(sorted(opened)))
"""

# One game each of every edition and fast player (the search players are slow; they read
# no file of their own, and their import is in the roster's).
PLAYED = {
    "gemrush": ('mode = "crisis"\nplayers = 2\n[grid]\nedition = ["1e", "2e"]\n'
                'heuristic = ["greedy", "learned"]\n'),
    "rusship": 'game = "rusship"\nplayers = 2\n[grid]\nlength = [6, 12]\n',
}


@pytest.mark.parametrize("game", sorted(PLAYED))
def test_every_file_a_games_run_reads_is_in_its_identity(game, tmp_path):
    exp = tmp_path / "audit.toml"
    head, _, grid = PLAYED[game].partition("[grid]")
    exp.write_text(f'[experiment]\nname = "audit"\ndescription = "what a run reads"\n'
                   f"games = 1\nseed = 1\n{head}[grid]{grid}", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(sources.ROOT), BALANCE_CACHE=str(jit.CACHE_BASE))
    done = subprocess.run([sys.executable, "-c", AUDIT, str(exp)], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    root = sources.ROOT.resolve()
    read = set()
    for name in json.loads(done.stdout.splitlines()[-1]):
        path = Path(name)
        if not path.is_relative_to(root) or path.suffix in (".py", ".pyc") \
                or "__pycache__" in path.parts or path.is_relative_to(jit.CACHE_BASE.resolve()):
            continue
        rel = path.relative_to(root)
        if (root / rel.parts[0] / "__init__.py").is_file():  # in a package of the project
            read.add(rel.as_posix())
    read -= {r for r in read if Path(r).name in provenance.NOT_DATA}
    assert SHIPPED[game] <= read  # the audit sees what the game reads
    assert read <= _data(game, sources.ROOT)
