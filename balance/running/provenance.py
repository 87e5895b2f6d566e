"""What a run's games depend on beyond its experiment file: the code that played them, and
the data files that code reads.

ENGINE_VERSION is bumped by hand, and a forgotten bump once let a resumed run mix games of two
engines. The sources are hashed instead, so any edit to them is a new identity: for each game,
the code that plays its games, that is the import closure (balance/kernels/sources.py) of the
game's kernel modules (Game.kernel_modules: its kernels, its players, what prepares a variant)
and of jit.py, whose settings shape every kernel. The data files that code reads (a game's
default rules, its content and profiles, a player's learned weights) play the games as much
as the code does: an edited rules.toml once put games of 14.5 and of 45.4 turns in one run.
They are hashed with the sources, found beside them (data_files) rather than listed, so
that a new one is in the identity the day it is added. The identity is per game: an edit
to one game's engine, players or data leaves another game's runs resumable. The Numba cache
folders follow the closures alone, one per module (balance/kernels/jit.py): no compiled code
holds a data file's values, since kernels take what a game reads from one (its rules, its
content's tables, a player's weights) as arguments, never as globals baked in; an edit to
rules.toml recompiles nothing. (This module is in no kernel's closure, so that changing how
the identity is found recompiles nothing either.)
"""

from __future__ import annotations

import os
from collections.abc import Container, Iterable
from functools import cache
from pathlib import Path

from balance.contract import registry
from balance.kernels import sources

# Every game's compiled code is built with jit.py's settings; its closure brings sources.py.
COMPILER = "balance.kernels.jit"
# Files beside the sources that no game's games depend on. A compile plan
# (balance.kernels.compile_plan.PLAN_FILE, not imported here: that module imports Numba)
# orders a cold compile's work, and a stale one costs only time; re-recording it must not
# send the main job to a new folder.
NOT_DATA = frozenset({"compile_plan.txt"})


def roots(game) -> tuple[str, ...]:
    """The modules whose import closure is the code of `game`: a Game, or a registered game's
    name (a Game travels with a worker's job, so a game registered by a test needs no
    registry there)."""
    g = registry.get(game) if isinstance(game, str) else game
    return (*g.kernel_modules, COMPILER)


def _files(roots_: tuple[str, ...], root: Path) -> tuple[Path, ...]:
    code = sources.closure(roots_, root)
    return tuple(sorted((*code, *data_files(code))))


def data_files(files: Iterable[Path], skip: Container[str] = NOT_DATA) -> tuple[Path, ...]:
    """The data beside the source files `files`: every other file in the folder of each of
    their packages, and in that folder's subfolders that hold no Python (`data/`, say), to the
    end, sorted. A package's code reads its data from there (`Path(__file__).parent / ...`),
    so found this way none can be left out by a list someone forgot to update; the price of
    a file no code reads (a note) is a new identity when it changes. A folder holding Python
    is another package's (or scripts', as docs/), counted through its own modules if at all.
    Only package folders count: a top-level module's folder is the project's, with its runs.
    Hidden files (an editor's swap file), byte code and names in `skip` are not data."""
    out: set[Path] = set()
    for folder in {Path(f).parent for f in files}:
        if (folder / "__init__.py").is_file():
            out.update(_data_in(folder, skip))
    return tuple(sorted(out))


def _data_in(folder: Path, skip: Container[str]) -> list[Path]:
    found = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name.startswith(".") or entry.name == "__pycache__" or entry.name in skip:
            continue
        path = Path(entry.path)
        if entry.is_dir(follow_symlinks=False):
            if not _holds_python(path):
                found.extend(_data_in(path, skip))
        elif entry.is_file() and path.suffix not in (".py", ".pyc"):
            found.append(path)
    return found


def _holds_python(folder: Path) -> bool:
    return any(name.endswith(".py") for _, _, names in os.walk(folder) for name in names)


def source_files(game, root: Path = sources.ROOT) -> tuple[Path, ...]:
    """The files the code that plays `game` is built from and reads: its sources and their
    data files, in the project or in a copy of it at `root`."""
    return _project(roots(game))[0] if root == sources.ROOT else _files(roots(game), root)


def source_hash(game, root: Path = sources.ROOT) -> str:
    """The hash of the game's code and data (16 hex digits), in its runs' identity and games
    table."""
    if root == sources.ROOT:
        return _project(roots(game))[1]
    return sources.digest(_files(roots(game), root), root)


def source_hashes(game, root: Path = sources.ROOT) -> dict[str, str]:
    """Each of the game's source and data files (its path in the project) -> the first 16 hex
    of its sha256, so that a refusal can say which files changed."""
    if root == sources.ROOT:
        return dict(_project(roots(game))[2])
    return sources.file_hashes(_files(roots(game), root), root)


@cache
def _project(roots_: tuple[str, ...]) -> tuple[tuple[Path, ...], str, dict[str, str]]:
    """The project's own files, their hash and each file's, read once a process, as the
    process reads its code and most of its data once: a worker started after an edit
    computes another hash, and the run refuses its games (runner.py)."""
    files = _files(roots_, sources.ROOT)
    return files, sources.digest(files), sources.file_hashes(files)


def changed_sources(old: dict, new: dict) -> list[str]:
    """Files added, removed or edited between two source_hashes() maps, as a message names
    them: an added one is marked "(new)", as a data file is that a run recorded before data
    files were part of the identity, a removed one "(removed)"."""
    return [k + (" (new)" if k not in old else " (removed)" if k not in new else "")
            for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
