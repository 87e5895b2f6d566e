"""A run read back: every finished shard checked, as polars DataFrames (read_run), tables
read shard by shard (ShardTable), or LazyFrames over the files (scan_run)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from balance.contract.game import Table
from balance.errors import Problem, Problems
from balance.running.shard_table import ShardTable
from balance.running.store.check import (
    REPLAY,
    _check_whole,
    _contents,
    _damaged,
    _digest_problem,
    _footer,
    _footer_problem,
    _missing,
    _path,
    _Refused,
    _relisting,
    _survey,
)
from balance.running.store.layout import (
    GAMES,
    SEATS_KEY,
    Shard,
    _declared,
    _meta,
    table_names,
)
from balance.running.store.manifest import (
    read_manifest,
)

# -- reading ------------------------------------------------------------------------------

class _Tables:
    """A run's tables by name: `.games`, and each of the game's other tables as an attribute
    of its name (`run.tables[name]` likewise); None where the run has no folder of it."""

    def __getattr__(self, name: str):
        tables = self.__dict__.get("tables") or {}
        if name in tables:
            return tables[name]
        raise AttributeError(f"{type(self).__name__} has no table {name!r}")


@dataclass
class RunData(_Tables):
    games: object  # pl.DataFrame, one row per game, sorted by (variant, game)
    tables: dict  # the game's other tables: pl.DataFrame (or ShardTable, read lazily) or None
    manifest: dict
    missing: list[str] = field(default_factory=list)  # shards not played yet

    @property
    def complete(self) -> bool:
        return not self.missing


def _read_arrow(run_dir: Path, sub: str, shard: Shard, manifest: dict, probs: Problems,
                columns: list[str] | None = None):
    """One shard file as an Arrow table, read once, its footer, digest, page checksums and
    provenance verified; None if damaged or not this run's. Text columns come as dictionaries
    (they are stored so: much faster to decode, and a tenth of the memory). A shard a longer
    one replaced since it was listed gives the listed games of the longer one."""

    try:
        data, md, actual = _contents(run_dir, sub, shard)
    except _Refused as e:
        probs.items.append(e.problem)
        return None
    path = _path(run_dir, sub, actual)
    why = _footer_problem(md, manifest, actual, sub) or _digest_problem(data, md, manifest)
    if why:
        probs.items.append(Problem(str(path), "", "", f"{why}; {REPLAY}"))
        return None
    table = _declared(manifest, sub)
    cut = actual != shard and columns is not None and "game" not in columns
    try:
        schema = md.schema.to_arrow_schema()
        text = [f.name for f in schema if pa.types.is_string(f.type)]
        t = pq.ParquetFile(pa.BufferReader(data), metadata=md, read_dictionary=text,
                           page_checksum_verification=True).read(
            columns=[*columns, "game"] if cut else columns)
    except (OSError, pa.ArrowException, ValueError) as e:
        probs.items.append(_damaged(path, e))
        return None
    if actual != shard:
        t = t.filter(pc.less(t["game"], shard.stop))
        t = t.drop_columns(["game"]) if cut else t
    if sub == GAMES and t.num_rows != shard.games:
        probs.items.append(Problem(str(path), "", "", f"damaged shard: {t.num_rows} rows, its "
                                   f"name says {shard.games}; {REPLAY}"))
        return None
    t = _seats_from_one(t, table) if _seats_from_zero(md, manifest) else t
    return t.cast(_widened(t.schema, table)) if table.widened else t


def _seats_from_zero(md, manifest: dict) -> bool:
    """A shard written before seats counted from 1 in the tables (Table.seat_columns)."""
    return _meta(md.metadata, SEATS_KEY, manifest) is None


def _seats_from_one(t, table: Table):
    """An old shard's seat columns renumbered from 1 (-1, no seat, stays)."""

    for name in table.seat_columns:
        i = t.schema.get_field_index(name)
        if i >= 0:
            col = t.column(i)
            t = t.set_column(i, t.schema.field(i), pc.if_else(
                pc.greater_equal(col, 0), pc.add(col, 1), col).cast(col.type))
    return t


def _widened(schema, table: Table):
    """An Arrow schema with the table's widened columns it stores as Int16 as Int32."""

    for name in table.widened:
        i = schema.get_field_index(name)
        if i >= 0 and pa.types.is_int16(schema.field(i).type):
            schema = schema.set(i, schema.field(i).with_type(pa.int32()))
    return schema


def _to_polars(t, where: str, probs: Problems, compact: bool = False):
    """An Arrow table as one contiguous polars DataFrame; text columns as String, or left as
    Categorical when `compact` (the report's choice: a million games' text in a tenth of the
    memory). None, with the damage named, if polars panics on it."""
    import polars as pl  # lazy: a worker writing shards needs no polars

    try:
        df = pl.from_arrow(t, rechunk=True)
        text = [f.name for f in t.schema if pa.types.is_dictionary(f.type)
                and pa.types.is_string(f.type.value_type)]
        return df if compact else df.with_columns(pl.col(text).cast(pl.String))
    except pl.exceptions.PanicException as e:  # a BaseException: named like any damage
        probs.items.append(_damaged(Path(where), e))
        return None


class _ShardFile:
    """A loader of one shard file for a ShardTable: reads it (only `columns`, if given),
    verified as read_run verifies it, or raises InputError naming the damage."""

    def __init__(self, run_dir: Path, manifest: dict, shard: Shard, sub: str,
                 available: list[str], compact: bool, columns: list[str] | None = None):
        self.run_dir, self.manifest, self.shard, self.sub = run_dir, manifest, shard, sub
        self.available, self.compact, self.columns = available, compact, columns

    def __call__(self):
        path = _path(self.run_dir, self.sub, self.shard)
        probs = Problems(str(path))
        t = _read_arrow(self.run_dir, self.sub, self.shard, self.manifest, probs, self.columns)
        df = None if t is None else _to_polars(t, str(path), probs, self.compact)
        probs.raise_if_any()
        return df

    def select(self, columns: list[str]) -> _ShardFile:
        return _ShardFile(self.run_dir, self.manifest, self.shard, self.sub, self.available,
                          self.compact, [c for c in self.available if c in columns])


def _lazy_table(run_dir: Path, sub: str, shards: list[Shard], manifest: dict,
                probs: Problems, compact: bool = False) -> ShardTable:
    """The `sub` shards (of any of the run's tables) as a ShardTable, their footers, row
    counts, columns and provenance checked now; their pages and digests when read."""
    table = _declared(manifest, sub)
    loaders, rows, columns, kept, first = [], 0, [], [], None
    for shard in shards:
        path = _path(run_dir, sub, shard)
        try:
            md = _footer(run_dir, sub, shard)
        except _Refused as e:
            probs.items.append(e.problem)
            continue
        schema = _widened(md.schema.to_arrow_schema(), table)
        why = _footer_problem(md, manifest, shard, sub)
        if why is None and first is not None and not schema.equals(first, check_metadata=False):
            why = "damaged shard: its columns differ from the other shards'"
        if why:
            probs.items.append(Problem(str(path), "", "", f"{why}; {REPLAY}"))
            continue
        if first is None:
            first, columns = schema, schema.names
        rows += md.num_rows
        kept.append(shard.name)
        loaders.append(_ShardFile(run_dir, manifest, shard, sub, schema.names, compact))
    return ShardTable(loaders, rows, columns, kept)


def read_run(run_dir: str | Path, lazy_tables: bool = False, columns: list[str] | None = None,
             compact: bool = False, lazy_games: bool = False) -> RunData:
    """Every finished shard of a run, checked: InputError names each damaged shard file, or
    the manifest when it disagrees with its shards. With lazy_tables, each table but the
    games table is a ShardTable read file by file when iterated (a table of several rows a
    game, of a million games, is over a gigabyte in memory); with lazy_games, `.games` is one
    too (pieces paired with the other tables' by shard name). Their footers are checked now,
    their pages and digests as they are read. `columns` reads only those games columns;
    `compact` leaves text columns Categorical."""
    run_dir = Path(run_dir)
    return _relisting(lambda: _read_run(run_dir, read_manifest(run_dir), lazy_tables, columns,
                                        compact, lazy_games), run_dir)


def _read_run(run_dir: Path, manifest: dict, lazy_tables: bool, columns: list[str] | None,
              compact: bool, lazy_games: bool) -> RunData:
    import polars as pl  # lazy: a worker writing shards needs no polars

    probs = Problems(str(run_dir))
    shards = _survey(run_dir, manifest, probs)
    others = [n for n in table_names(manifest)[:-1] if (run_dir / n).is_dir()]
    games = []
    parts: dict[str, list] = {n: [] for n in others}
    for shard in shards if not lazy_games else ():
        g = _read_arrow(run_dir, GAMES, shard, manifest, probs, columns)
        if g is not None and games and not g.schema.equals(games[0].schema,
                                                            check_metadata=False):
            probs.items.append(Problem(str(_path(run_dir, GAMES, shard)), "", "", "damaged "
                                       f"shard: its columns differ from the other shards'; "
                                       f"{REPLAY}"))
            g = None
        for name in others if not lazy_tables else ():
            _read_other(run_dir, name, shard, manifest, probs, parts[name])
        if g is not None:
            games.append(g)
    lazy_g = None
    if lazy_games:
        lazy_g = _lazy_table(run_dir, GAMES, shards, manifest, probs, compact)
        if columns is not None:
            lazy_g = lazy_g.select(columns)
    tables: dict = {n: None for n in table_names(manifest)[:-1]}
    for name in others if (lazy_tables or lazy_games) else ():
        tables[name] = _lazy_table(run_dir, name, shards, manifest, probs, compact)
    probs.raise_if_any()
    missing = _missing(manifest, shards)
    # One contiguous polars copy of the Arrow pieces: polars would otherwise make one at the
    # first group_by of the 200 pieces of a million games, and keep both.
    g_df = lazy_g if lazy_games else pl.DataFrame()
    if games:
        whole = pa.concat_tables([t.replace_schema_metadata(None) for t in games])
        del games
        g_df = _to_polars(whole, str(run_dir / GAMES), probs, compact)
        del whole
        pa.default_memory_pool().release_unused()
        probs.raise_if_any()
    for name in others if not (lazy_tables or lazy_games) else ():
        tables[name] = pl.concat(parts[name], rechunk=False) if parts[name] else pl.DataFrame()
    return RunData(g_df, tables, manifest, missing)


def _read_other(run_dir: Path, name: str, shard: Shard, manifest: dict, probs: Problems,
                into: list) -> None:
    """One shard's file of a table other than games, read into `into` as polars."""
    r = _read_arrow(run_dir, name, shard, manifest, probs)
    r = None if r is None else _to_polars(r, str(_path(run_dir, name, shard)), probs)
    if r is not None and into and r.schema != into[0].schema:
        probs.items.append(Problem(str(_path(run_dir, name, shard)), "", "", "damaged shard: "
                                   f"its columns differ from the other shards'; {REPLAY}"))
        r = None
    if r is not None:
        into.append(r)


@dataclass
class RunScan(_Tables):
    games: object  # pl.LazyFrame over every games shard
    tables: dict  # the game's other tables: a pl.LazyFrame over every shard of each, or None
    manifest: dict
    missing: list[str] = field(default_factory=list)


_SHARD_PATH = "__shard_path"  # scan_run's column naming each row's file, while it renumbers


def scan_run(run_dir: str | Path) -> RunScan:
    """A run as polars LazyFrames, for notebooks: queries push their column choices and
    filters down to the files, so that a million games answer in seconds without being
    decoded. Each shard is checked first as a resume checks it (names against the manifest,
    rows, provenance, the digest of its rows: every file is read once); the page checksums
    only when data is read (read_run checks them all)."""
    run_dir = Path(run_dir)
    return _relisting(lambda: _scan_run(run_dir, read_manifest(run_dir)), run_dir)


def _scan_run(run_dir: Path, manifest: dict) -> RunScan:
    probs = Problems(str(run_dir))
    shards = _survey(run_dir, manifest, probs)
    present = [n for n in table_names(manifest) if (run_dir / n).is_dir() or n == GAMES]
    for shard in shards:
        for sub in present:
            try:
                _check_whole(run_dir, sub, shard, manifest)
            except _Refused as e:
                probs.items.append(e.problem)
    for sub in present[:-1]:
        _lazy_table(run_dir, sub, shards, manifest, probs)
    probs.raise_if_any()
    tables = {n: (_scan(run_dir, n, shards, manifest) if n in present else None)
              for n in table_names(manifest)[:-1]}
    return RunScan(_scan(run_dir, GAMES, shards, manifest), tables, manifest,
                   _missing(manifest, shards))


def _scan(run_dir: Path, sub: str, shards: list[Shard], manifest: dict):
    """One table's shards as a LazyFrame: widened columns as the widest, and the seats of
    shards written before they counted from 1 renumbered."""
    import polars as pl  # lazy: a worker writing shards needs no polars

    table = _declared(manifest, sub)
    paths = [str(_path(run_dir, sub, s)) for s in shards]
    if not paths:
        return pl.LazyFrame()
    old = [p for p, s in zip(paths, shards, strict=True)
           if _seats_from_zero(_footer(run_dir, sub, s), manifest)]
    opts = {"include_file_paths": _SHARD_PATH} if old else {}
    if not table.widened:
        lf = pl.scan_parquet(paths, **opts)
    else:
        first = _widened(pq.read_schema(paths[0]), table)
        lf = pl.scan_parquet(paths, schema=pl.from_arrow(first.empty_table()).schema,
                             cast_options=pl.ScanCastOptions(integer_cast="upcast"), **opts)
    if not old:
        return lf
    seats = [c for c in table.seat_columns if c in lf.collect_schema().names()]
    was = pl.col(_SHARD_PATH).is_in(old)
    return lf.with_columns(
        pl.when(was & (pl.col(c) >= 0)).then(pl.col(c) + 1).otherwise(pl.col(c))
        .cast(pl.Int8).alias(c) for c in seats).drop(_SHARD_PATH)
