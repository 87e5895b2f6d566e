"""A copy of the project's packages, for tests that edit what a game reads without touching
the project: balance/, heuristics/, reports/ and tests/ (a test's toy game lives there),
every file, with its modification time, so that a process started in the copy loads the
compiled engines from the cache rather than compiling them again."""

from __future__ import annotations

import shutil
from pathlib import Path

from balance.kernels import sources

PACKAGES = ("balance", "heuristics", "reports", "tests")


def copy_project(dst: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(sources.ROOT / package, dst / package,
                        ignore=shutil.ignore_patterns("__pycache__", ".*"))
    return dst


def edit(path: Path, old: bytes | None = None, new: bytes = b"\n# edited\n"):
    """Replace `old` by `new` in a file (or append `new`); returns the undo."""
    before = path.read_bytes()
    if old is None:
        path.write_bytes(before + new)
    else:
        assert old in before, (path, old)
        path.write_bytes(before.replace(old, new, 1))
    return lambda: path.write_bytes(before)
