"""What a run's games depend on beyond its experiment file: the code that played them.

ENGINE_VERSION is bumped by hand, and a forgotten bump once let a resumed run mix games of two
engines. The sources are hashed instead, so any edit to them is a new identity: for each game,
the code that plays its games, that is the import closure (balance/kernels/sources.py) of the
game's kernel modules (Game.kernel_modules: its kernels, its players, what prepares a variant)
and of jit.py, whose settings shape every kernel. The identity is per game: an edit to one
game's engine or players leaves another game's runs resumable. The Numba cache folders follow
the same closures, one per module (balance/kernels/jit.py).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from balance.contract import registry
from balance.kernels import sources

# Every game's compiled code is built with jit.py's settings; its closure brings sources.py.
COMPILER = "balance.kernels.jit"


def roots(game: str) -> tuple[str, ...]:
    """The modules whose import closure is the code of `game` (a registered game's name)."""
    return (*registry.get(game).kernel_modules, COMPILER)


@cache
def source_files(game: str) -> tuple[Path, ...]:
    """The source files the code that plays `game` is built from."""
    return sources.closure(roots(game))


@cache
def source_hash(game: str) -> str:
    """The hash of the game's code (16 hex digits), in its runs' identity and games table."""
    return sources.digest(source_files(game))


@cache
def source_hashes(game: str) -> dict[str, str]:
    """Each of the game's source files (its path in the project) -> the first 16 hex of its
    sha256, so that a refusal can say which sources changed."""
    return sources.file_hashes(source_files(game))


def changed_sources(old: dict, new: dict) -> list[str]:
    """Source files added, removed or edited between two source_hashes() maps."""
    return sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
