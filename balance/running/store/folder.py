"""A run folder opened for writing: created with its manifest, or checked to hold the same
experiment, and locked so that one process writes it at a time."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from balance import files
from balance.errors import InputError, Problem
from balance.running.experiment import MAX_SHARDS
from balance.running.store.layout import (
    LOCK,
    MANIFEST,
    grown,
    shard_count,
    table_names,
)
from balance.running.store.manifest import (
    identity_refusal,
    read_manifest,
    write_manifest,
)


def _refuse(run_dir: Path, what: str) -> InputError:
    return InputError([Problem(str(run_dir), "", "", f"{what}. The run there is kept; use "
                               "--out for another folder, or delete this one to start again")])


def _leftover(p: Path, names: tuple[str, ...]) -> bool:
    """What a run stopped before its manifest was written can leave: the lock, temporary
    files, empty shard folders. A folder holding only these has no results to protect."""
    if p.name == LOCK or files.is_temp_name(p.name):
        return True
    return p.name in names and p.is_dir() and not any(p.iterdir())


def check_folder(run_dir: str | Path, manifest: dict) -> dict | None:
    """Everything open_run would refuse, checked without changing anything: the manifest in
    force (None for a new run folder), or InputError."""
    run_dir = Path(run_dir)
    for parent in (run_dir, *run_dir.parents):
        if parent.exists() and not parent.is_dir():
            raise InputError([Problem(str(parent), "", "--out", "is a file, not a folder: "
                                      "name a folder for the run")])
        if parent.exists():
            break
    # A run folder handed over by someone else may link its shard folders or its lock
    # outside it: refused before anything is written there.
    names = table_names(manifest)
    for name in (*names, LOCK):
        files.refuse_link(run_dir / name)
    for name in names:
        if (run_dir / name).exists() and not (run_dir / name).is_dir():
            raise _refuse(run_dir, f"its {name} is a file, not the folder of its shards")
    if not os.path.lexists(run_dir / MANIFEST):
        if run_dir.is_dir() and not all(_leftover(p, names) for p in run_dir.iterdir()):
            stray = sorted(p.name for p in run_dir.iterdir() if not _leftover(p, names))
            raise _refuse(run_dir, "the folder exists and is not a run folder (no "
                          f"{MANIFEST}; it holds {', '.join(stray[:3])})")
        return None
    old = read_manifest(run_dir)
    refusal = identity_refusal(old, manifest)
    if refusal:
        raise _refuse(run_dir, refusal)
    if manifest["games_per_variant"] < old["games_per_variant"]:
        raise _refuse(run_dir, f"it holds {old['games_per_variant']:,} games per variant, "
                      f"more than the {manifest['games_per_variant']:,} asked for: ask for at "
                      "least as many")
    shards = shard_count(_grown(old, manifest))
    if shards > MAX_SHARDS:
        raise _refuse(run_dir, f"grown to {manifest['games_per_variant']:,} games per variant "
                      f"in shards of {manifest['shard_size']:,}, it would hold {shards:,} "
                      f"shards, more than a run can have ({MAX_SHARDS:,}): ask for larger "
                      "shards (--shard-size)")
    return old


def _grown(old: dict, manifest: dict) -> dict:
    """The manifest in force once the run holds the games `manifest` asks for."""
    return grown(old, manifest["games_per_variant"], manifest["shard_size"])


def open_run(run_dir: str | Path, manifest: dict) -> dict:
    """Create the run folder with its manifest, or check that an existing one holds the same
    experiment. More games per variant than before are allowed (the manifest is updated, its
    new games laid out after the old: layout.grown); anything else that differs but the
    shard size is refused. Returns the manifest in force."""
    run_dir = Path(run_dir)
    old = check_folder(run_dir, manifest)
    if old is None:
        # The manifest first: a run stopped here (a full disk) leaves a manifest or nothing
        # but leftovers, and either can be resumed.
        run_dir.mkdir(parents=True, exist_ok=True)
        write_manifest(run_dir, manifest)
        old = manifest
    elif manifest["games_per_variant"] > old["games_per_variant"]:
        old = _grown(old, manifest)
        write_manifest(run_dir, old)
    for name in table_names(old):
        files.owned_dir(run_dir, name)
    return old


@contextlib.contextmanager
def locked(run_dir: str | Path) -> Iterator[None]:
    """Only one process writes a run folder at a time (the lock dies with the process). The
    lock file is never truncated nor opened through a link."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    fd = files.open_lock(run_dir / LOCK)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InputError([Problem(str(run_dir), "", "", "another `balance run` is writing "
                                      "to this folder; wait for it or use --out")]) from None
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
