"""Issue 27: the code's identity follows its imports, per game. The hash that names a run's code
(and, per module, the Numba cache folders) must change whenever any source the code is built
from changes, skill.py included (its opcodes are baked into compiled code, yet it was missing
from the hand-kept list), and must not change for an edit elsewhere, another game's included."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from balance.kernels import jit, sources
from balance.running import provenance

GAME = "gemrush"
# Outside Gem Rush's code: the runner, the CLI, the report, a game tool that plays nothing.
OUTSIDE = ("balance/running/runner.py", "balance/cli/app.py", "reports/page/build.py",
           "balance/games/gemrush/narrate.py", "balance/stats/paired.py")


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """A copy of the project's tracked Python sources."""
    root = tmp_path_factory.mktemp("tree")
    for package in ("balance", "heuristics", "reports", "tests"):
        for src in (sources.ROOT / package).rglob("*.py"):
            dst = root / src.relative_to(sources.ROOT)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
    return root


def _hash(root: Path, game: str = GAME) -> str:
    return sources.digest(sources.closure(provenance.roots(game), root), root)


def _edit(path: Path, line: str = "# edited\n"):
    """Append a line; returns the undo."""
    before = path.read_bytes()
    path.write_bytes(before + line.encode())
    return lambda: path.write_bytes(before)


def test_the_copy_hashes_as_the_project(tree):
    # The sources only (this copy has no data files: tests/test_data_identity.py has them).
    code = [p for p in provenance.source_files(GAME) if p.suffix == ".py"]
    assert _hash(tree) == sources.digest(code)
    rel = {p.relative_to(sources.ROOT) for p in code}
    assert rel == {p.relative_to(tree) for p in sources.closure(provenance.roots(GAME), tree)}


def test_every_hashed_source_changes_the_hash(tree):
    files = sources.closure(provenance.roots(GAME), tree)
    names = {p.relative_to(tree).as_posix() for p in files}
    # What the compiled code inlines or bakes in, the players, and the compile settings.
    for must in ("balance/games/gemrush/skill.py", "balance/games/gemrush/tables.py",
                 "balance/games/gemrush/ability.py", "balance/games/gemrush/engine/turn_nb.py",
                 "balance/kernels/rng.py", "balance/kernels/jit.py",
                 "heuristics/gemrush/greedy.py", "heuristics/gemrush/dispatch_nb.py",
                 "heuristics/search.py", "heuristics/search_nb.py", "heuristics/scripted.py"):
        assert must in names
    base = _hash(tree)
    for p in files:
        undo = _edit(p)
        try:
            assert _hash(tree) != base, p
        finally:
            undo()
    assert _hash(tree) == base


def test_a_file_outside_the_closure_leaves_the_hash(tree):
    base = _hash(tree)
    names = {p.relative_to(tree).as_posix() for p in sources.closure(provenance.roots(GAME),
                                                                       tree)}
    for rel in OUTSIDE:
        assert rel not in names
        undo = _edit(tree / rel)
        try:
            assert _hash(tree) == base, rel
        finally:
            undo()


def test_a_new_import_brings_its_module_in(tree):
    base = _hash(tree)
    skill = tree / "balance/games/gemrush/skill.py"
    undo = _edit(skill, "from balance.stats import intervals  # noqa\n")
    try:
        files = sources.closure(provenance.roots(GAME), tree)
        assert tree / "balance/stats/intervals.py" in files
        assert _hash(tree) != base
    finally:
        undo()


def test_one_games_edit_leaves_another_games_hash(tree):
    """A second game (a toy kernel module beside Gem Rush): an edit to either game leaves the
    other's hash, an edit to the shared compiler settings changes both."""
    toy = tree / "balance/games/toy"
    toy.mkdir()
    (toy / "__init__.py").write_text("")
    (toy / "engine.py").write_text("from balance.kernels.jit import njit\n"
                                   "from balance.kernels.rng import next32_nb\n")
    toy_roots = ("balance.games.toy.engine", provenance.COMPILER)

    def toy_hash():
        return sources.digest(sources.closure(toy_roots, tree), tree)

    gem, other = _hash(tree), toy_hash()
    try:
        for edited, gem_changes, toy_changes in (
                ("balance/games/gemrush/skill.py", True, False),
                ("balance/games/toy/engine.py", False, True),
                ("balance/kernels/rng.py", True, True),
                ("balance/kernels/jit.py", True, True)):
            undo = _edit(tree / edited)
            try:
                assert (_hash(tree) != gem, toy_hash() != other) == (gem_changes,
                                                                     toy_changes), edited
            finally:
                undo()
    finally:
        shutil.rmtree(toy)


def test_imports_are_read_relative_and_from_packages(tmp_path):
    """Every form of import that runs with the module is followed; one inside a function is
    not (no compiled code can see it), nor one of an outside package."""
    pkg = tmp_path / "pkg"
    for rel, text in {
        "__init__.py": "VALUE = 1\n",
        "a.py": ("from . import b\nfrom .c import f\nfrom pkg import d, VALUE\n"
                 "import pkg.sub.e\nimport numpy\n"
                 "if True:\n    from .g import x\n"
                 "def later():\n    from pkg import lazy\n"),
        "b.py": "", "c.py": "def f(): pass\n", "d.py": "", "g.py": "x = 1\n",
        "lazy.py": "", "unused.py": "",
        "sub/__init__.py": "", "sub/e.py": "from ..h import y\n", "h.py": "y = 2\n",
    }.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text)
    found = {p.relative_to(pkg).as_posix() for p in sources.closure(["pkg.a"], tmp_path)}
    assert found == {"__init__.py", "a.py", "b.py", "c.py", "d.py", "g.py", "sub/__init__.py",
                     "sub/e.py", "h.py"}


def test_a_root_without_a_source_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no source file for module 'pkg.nothing'"):
        sources.closure(["pkg.nothing"], tmp_path)


def test_a_modules_cache_folder_is_named_by_its_closure():
    """Numba checks only a function's own file: its folder changes with any file it imports."""
    module = "balance.games.gemrush.engine.cards_nb"
    path = sources.module_path(module)
    folder = jit.cache_folder(str(path))
    assert folder == jit.CACHE_BASE / sources.digest(sources.closure([module]), salt=module)
    # Another module, even one the first imports, has a folder of its own.
    assert jit.cache_folder(str(sources.module_path("balance.kernels.rng"))) != folder
    assert jit.cache_folder("/elsewhere/notebook.py") is None
