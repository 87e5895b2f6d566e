"""What a run's games depend on beyond its experiment file: the code that played them.

ENGINE_VERSION is bumped by hand, and a forgotten bump once let a resumed run mix games of two
engines. The engine and player sources are hashed instead, with the same file list and hash
that key the Numba cache (balance.kernels.jit), so any edit to them is a new identity.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path


@cache
def source_files() -> tuple[Path, ...]:
    from balance.kernels import jit
    return tuple(jit._SOURCES)


@cache
def source_hash() -> str:
    """The hash the Numba cache folder is named by (16 hex digits)."""
    from balance.kernels.jit import source_hash as jit_hash

    return jit_hash()


@cache
def source_hashes() -> dict[str, str]:
    """Each source file (path relative to the project) -> the first 16 hex of its sha256,
    so that a refusal can say which sources changed."""
    root = Path(__file__).resolve().parents[2]
    out = {}
    for p in source_files():
        rel = p.resolve().relative_to(root).as_posix() if p.resolve().is_relative_to(root) \
            else p.name
        out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()[:16]
    return out


def changed_sources(old: dict, new: dict) -> list[str]:
    """Source files added, removed or edited between two source_hashes() maps."""
    return sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
