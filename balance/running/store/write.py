"""Shard files written: whole or not at all, each carrying its provenance and the digest of
its rows; and what a killed or extended run leaves, tidied."""

from __future__ import annotations

import hashlib
import io
import json
import struct
from pathlib import Path

import pyarrow.parquet as pq

from balance import files
from balance.running.store.layout import (
    GAMES,
    SEATS_FROM,
    SEATS_KEY,
    SHARD_DIGEST,
    SHARD_META,
    Shard,
    _superseded,
    table_names,
)


def done_shards(run_dir: str | Path) -> set[str]:
    return {p.stem for p in (Path(run_dir) / GAMES).glob("*.parquet")}


def tidy(run_dir: str | Path, manifest: dict) -> list[Path]:
    """Remove what a killed or extended run leaves: temporary files, and the files of a short
    shard whose games a longer games shard from the same start now holds. A game that no
    other file holds is never removed."""
    run_dir = Path(run_dir)
    tables = table_names(manifest)
    removed, names = [], {}
    for sub in tables:
        for p in (run_dir / sub).iterdir() if (run_dir / sub).is_dir() else ():
            if files.is_temp_name(p.name):
                p.unlink()
                removed.append(p)
            elif p.suffix == ".parquet" and Shard.parse(p.stem) is not None:
                names.setdefault(Shard.parse(p.stem), set()).add(sub)
    done = [s for s, subs in names.items() if GAMES in subs]
    for s in sorted(_superseded(names, done)):
        for sub in (GAMES, *tables[:-1]):  # games first: another table's file alone is no shard
            if sub in names[s]:
                p = run_dir / sub / f"{s.name}.parquet"
                p.unlink()
                removed.append(p)
    return removed


class _Sink(io.RawIOBase):
    """Where ParquetWriter writes a file: kept in memory, and hashed as it comes."""

    def __init__(self):
        self.data, self.sha = io.BytesIO(), hashlib.sha256()

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        self.sha.update(b)
        return self.data.write(b)


def parquet_bytes(table) -> bytes:
    """A table as a Parquet file; a shard (a table carrying SHARD_META) gets the digest of its
    rows in the footer: the sha256 of every byte before it, which ParquetWriter has written
    when the footer, written at close, is still to come."""

    sink = _Sink()
    with pq.ParquetWriter(sink, table.schema, compression="zstd",
                          write_page_checksum=True) as writer:
        writer.write_table(table)
        if SHARD_META in (table.schema.metadata or {}):
            writer.add_key_value_metadata({SHARD_DIGEST: sink.sha.hexdigest()})
    return sink.data.getvalue()


def rows_digest(data: bytes) -> str | None:
    """The digest of a Parquet file's rows as parquet_bytes computes it; None if its last
    8 bytes give no footer length that fits."""
    if len(data) < 12:
        return None
    footer = struct.unpack("<I", data[-8:-4])[0]
    end = len(data) - 8 - footer
    return hashlib.sha256(memoryview(data)[:end]).hexdigest() if end >= 4 else None


def write_parquet(table, path: Path) -> None:
    """A Parquet file written whole or not at all, under a unique temporary name created
    exclusively, never through a link (balance.files.write_atomic)."""
    files.write_atomic(path, parquet_bytes(table))


def shard_meta(manifest: dict) -> dict:
    """The run's part of every shard's provenance."""
    return {"experiment": manifest["experiment"], "seed": manifest["seed"],
            "experiment_hash": manifest.get("experiment_hash", ""),
            "source_hash": manifest.get("source_hash", "")}


def _with_meta(table, meta: dict):
    old = table.schema.metadata or {}
    return table.replace_schema_metadata({**old, SHARD_META: json.dumps(meta, sort_keys=True)})


def write_shard(run_dir: str | Path, shard: Shard, tables: dict, meta: dict | None = None
                ) -> None:
    """The game's tables ({name: pyarrow.Table}), the games table last: its file marks the
    shard done. Each file carries its provenance (`meta` from shard_meta, the shard and every
    file's row count), that its seats count from 1, and the digest of its rows in its Parquet
    metadata, so that a file copied in from another run, one whose footer lost rows, or one
    rewritten with other rows, is told apart on resume and on read."""
    run_dir = Path(run_dir)
    names = [*(n for n in tables if n != GAMES), GAMES]
    full = None if meta is None else dict(
        meta, variant=shard.variant, start=shard.start, stop=shard.stop,
        **{f"{n}_rows": tables[n].num_rows for n in names})
    for name in names:
        t = tables[name]
        t = t.replace_schema_metadata({**(t.schema.metadata or {}), SEATS_KEY: SEATS_FROM})
        if full is not None:
            t = _with_meta(t, dict(full, table=name))
        write_parquet(t, run_dir / name / f"{shard.name}.parquet")
