"""Several runs as one: the main job's report covers the Crisis run and the Rush run together.

Variants are numbered per run, so each run's variants are renumbered after the previous runs'
(in the order given) in the games table, the rooms table and the manifest; nothing else
changes. The merged manifest names every experiment, file and hash.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl


@dataclass
class CombinedRun:
    games: object  # pl.DataFrame, or a balance.store ShardTable read piece by piece
    rooms: object | None
    manifest: dict


def combine(runs: list) -> CombinedRun:
    """Runs (anything with .games, .rooms and .manifest) as one run."""
    if len(runs) == 1:
        r = runs[0]
        return CombinedRun(r.games, r.rooms, r.manifest)
    games, rooms, variants = [], [], []
    offset = 0
    for r in runs:
        m = r.manifest
        shift = pl.col("variant") + offset
        games.append(_shifted(r.games, shift))
        if r.rooms is not None:
            rooms.append(_shifted(r.rooms, shift))
        for v in m.get("variants", []):
            variants.append(dict(v, variant=int(v["variant"]) + offset,
                                 experiment=m.get("experiment")))
        # A run read piece by piece is a real run: its manifest names every variant.
        seen = r.games["variant"].to_list() if isinstance(r.games, pl.DataFrame) else []
        offset += max([int(v["variant"]) for v in m.get("variants", [])] + seen + [-1]) + 1
    manifests = [r.manifest for r in runs]

    def joined(key: str, sep: str = ", "):
        values = [str(m[key]) for m in manifests if m.get(key) is not None]
        return sep.join(dict.fromkeys(values)) or None  # each distinct value once, in order

    per_variant = {m.get("games_per_variant") for m in manifests}
    manifest = {
        "experiment": joined("experiment", " + "),
        "description": joined("description", " "),
        "file": joined("file"),
        "hash": joined("hash"),
        "text": "\n".join(f"# ---- {m.get('file') or m.get('experiment')} ----\n{m['text']}"
                          for m in manifests if m.get("text")),
        "engine_version": joined("engine_version"),
        "packages": manifests[0].get("packages", {}),
        "seed": joined("seed"),
        "games_per_variant": per_variant.pop() if len(per_variant) == 1 else None,
        "variants": variants,
    }
    return CombinedRun(
        _concat(games),
        _concat(rooms) if len(rooms) == len(runs) else None,
        manifest)


def _shifted(table, shift: pl.Expr):
    """A table, or one read shard by shard (balance.store.ShardTable), renumbered."""
    if isinstance(table, pl.DataFrame):
        return table.with_columns(shift.cast(pl.Int32))
    return table.map(lambda df: df.with_columns(shift.cast(pl.Int32)) if "variant" in df.columns
                     else df)


def _concat(tables: list):
    if all(isinstance(t, pl.DataFrame) for t in tables):
        return pl.concat(tables, how="diagonal_relaxed")
    from balance.shard_table import ShardTable

    return ShardTable.concat([t if not isinstance(t, pl.DataFrame)
                              else ShardTable([lambda t=t: t], t.height, t.columns)
                              for t in tables])
