"""A ladder's folder: `ladder.json` (what was played, by which code, and every number the
report shows) and `games.parquet` (one row per game, balance/ladder/play.py's SCHEMA), from
which the numbers can be computed again.

A folder is written once: `balance ladder --out` refuses one that holds anything, and the
files are written into a temporary folder beside it, renamed into place whole, so that an
interrupted ladder leaves nothing half-written."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from balance import files
from balance.errors import InputError, Problem

SUMMARY = "ladder.json"
GAMES = "games.parquet"
KIND = "strength ladder"  # ladder.json's "kind": what tells a ladder's folder from a run's
SUMMARY_LIMIT = 16 * files.MiB
GAMES_LIMIT = 4 * 2**30


@dataclass
class Ladder:
    summary: dict
    games: pl.DataFrame
    folder: Path


def check_out(out: Path) -> Path:
    """Refuse, before any game is played, a folder that holds anything or is no folder."""
    files.check_dir(out, "--out")
    files.refuse_link(out, "--out")
    if out.is_dir() and any(out.iterdir()):
        raise InputError([Problem(str(out), "", "", "already holds files; a ladder is "
                                  "written into a new or empty folder and never changes "
                                  "one that holds results: name another with --out")])
    return out


def write(out: Path, summary: dict, games: pl.DataFrame) -> Path:
    """Both files into `out`, whole or not at all."""
    check_out(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        buf = io.BytesIO()
        games.write_parquet(buf)
        (tmp / GAMES).write_bytes(buf.getvalue())
        (tmp / SUMMARY).write_text(json.dumps(summary, indent=1, sort_keys=True,
                                              ensure_ascii=False) + "\n", encoding="utf-8")
        if out.is_dir():
            out.rmdir()  # empty (check_out): the rename needs the name free
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            shutil.rmtree(tmp)
        raise
    return out


def read(folder: Path | str, field: str = "--ladder") -> Ladder:
    """A ladder's folder; one message naming the folder and what is wrong otherwise."""
    folder = Path(folder)
    path = folder / SUMMARY
    if not folder.is_dir() or not path.is_file():
        raise InputError([Problem(str(folder), "", field, f"is no ladder's folder (it has no "
                                  f"{SUMMARY}: `balance ladder` writes one)")])
    raw = files.read_bytes(path, "ladder summary", SUMMARY_LIMIT)
    try:
        summary = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InputError([Problem(str(path), "", "", f"is not a ladder's summary: {e}")]) \
            from None
    if not isinstance(summary, dict) or summary.get("kind") != KIND:
        raise InputError([Problem(str(path), "", "kind", f"is not a ladder's summary (its "
                                  f"kind must be {KIND!r})")])
    games_path = folder / GAMES
    try:
        games = pl.read_parquet(files.read_bytes(games_path, "ladder games", GAMES_LIMIT))
    except InputError:
        raise
    except Exception as e:  # polars' own error types for a damaged file
        raise InputError([Problem(str(games_path), "", "", f"cannot be read as the ladder's "
                                  f"games ({type(e).__name__})")]) from None
    return Ladder(summary, games, folder)
