"""Run folders on disk: the manifest, the Parquet shards, and reading a run back.

Layout of a run folder (`runs/<experiment>/` by default):

    manifest.json                what was run: the experiment file, its hash, versions
    games/<shard>.parquet        one row per game
    rooms/<shard>.parquet        one row per placed tile

A shard is one variant and a range of games, named `v<variant>-g<start>-<stop>` with
zero-padded numbers, so that names sort in (variant, game) order. Files are written to a
temporary name and renamed, rooms first and games last: a shard is done when its games file
exists, and only whole files ever exist. The engine never imports this module.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from balance.errors import InputError, Problem, Problems
from balance.shard_table import ShardTable

MANIFEST = "manifest.json"
GAMES = "games"
ROOMS = "rooms"
LOCK = ".lock"
# What makes two runs the same experiment. The game count is not part of it: a rerun may ask
# for more games per variant (new shards are added), never fewer. `experiment_hash` is the
# parsed file's (comments do not count); `hash`, of its text, is kept for the record only.
IDENTITY = ("experiment", "experiment_hash", "engine_version", "source_hash", "inputs", "seed",
            "shard_size")
# A manifest written before runs recorded their code lacks the newer keys; it can still be
# read and reported, never resumed.
REQUIRED = ("experiment", "hash", "engine_version", "inputs", "seed", "shard_size", "variants",
            "games_per_variant")
SHARD_META = b"gemrush.shard"  # key of a shard's provenance in its Parquet metadata
SHARD_RE = re.compile(r"^v(\d{5})-g(\d{12})-(\d{12})$")
# A rooms shard written before its uses and gained columns were widened to Int32
# (balance/limits.py) holds them as Int16: they are read as Int32, so that a run resumed
# across the change reads as one.
WIDENED = ("uses", "gained")


@dataclass(frozen=True, order=True)
class Shard:
    variant: int
    start: int
    stop: int

    @property
    def name(self) -> str:
        return f"v{self.variant:05d}-g{self.start:012d}-{self.stop:012d}"

    @property
    def games(self) -> int:
        return self.stop - self.start

    @classmethod
    def parse(cls, name: str) -> Shard | None:
        m = SHARD_RE.match(name)
        if not m:
            return None
        v, a, b = (int(x) for x in m.groups())
        return cls(v, a, b) if a < b else None


def plan(variants: int, games: int, shard_size: int) -> list[Shard]:
    """Shards of fixed size at fixed offsets (the last of a variant may be shorter)."""
    return [Shard(v, a, min(a + shard_size, games))
            for v in range(variants) for a in range(0, games, shard_size)]


# -- manifest -----------------------------------------------------------------------------

def manifest_text(manifest: dict) -> str:
    """Deterministic JSON: sorted keys, no timestamps, so a report of it is reproducible."""
    return json.dumps(manifest, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():  # a full disk leaves no 0-byte temporary file behind
            tmp.unlink()


def write_manifest(run_dir: Path, manifest: dict) -> None:
    _write_atomic(Path(run_dir) / MANIFEST, manifest_text(manifest).encode("utf-8"))


def read_manifest(run_dir: str | Path) -> dict:
    run_dir = Path(run_dir)
    path = run_dir / MANIFEST
    probs = Problems(str(run_dir))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        probs.add("", "", f"no {MANIFEST}: not a run folder (make one with `balance run`)")
        probs.raise_if_any()
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        probs.add("", MANIFEST, f"cannot be read ({e})")
        probs.raise_if_any()
    if not isinstance(data, dict) or any(k not in data for k in REQUIRED):
        missing = [k for k in REQUIRED if not isinstance(data, dict) or k not in data]
        probs.add("", MANIFEST, f"is not a run manifest (missing: {', '.join(missing)})")
        probs.raise_if_any()
    types = {"seed": int, "shard_size": int, "games_per_variant": int, "variants": list,
             "inputs": dict, "experiment": str, "engine_version": str}
    for key, kind in types.items():
        value = data[key]
        if not isinstance(value, kind) or isinstance(value, bool) or (
                kind is int and value < (0 if key == "seed" else 1)):
            probs.add("", f"{MANIFEST}: {key}", f"must be {kind.__name__}"
                      f"{' >= 1' if kind is int and key != 'seed' else ''}, got {value!r}: "
                      "the manifest is damaged")
    probs.raise_if_any()
    return data


def _refuse(run_dir: Path, what: str) -> InputError:
    return InputError([Problem(str(run_dir), "", "", f"{what}. The run there is kept; use "
                               "--out for another folder, or delete this one to start again")])


def _leftover(p: Path) -> bool:
    """What a run stopped before its manifest was written can leave: the lock, temporary
    files, empty shard folders. A folder holding only these has no results to protect."""
    if p.name == LOCK or (p.name.startswith(".") and ".tmp" in p.name):
        return True
    return p.name in (GAMES, ROOMS) and p.is_dir() and not any(p.iterdir())


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
    if not (run_dir / MANIFEST).exists():
        if run_dir.is_dir() and not all(_leftover(p) for p in run_dir.iterdir()):
            stray = sorted(p.name for p in run_dir.iterdir() if not _leftover(p))
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
    return old


def open_run(run_dir: str | Path, manifest: dict) -> dict:
    """Create the run folder with its manifest, or check that an existing one holds the same
    experiment. More games per variant than before are allowed (the manifest is updated);
    anything else that differs is refused. Returns the manifest in force."""
    run_dir = Path(run_dir)
    old = check_folder(run_dir, manifest)
    if old is None:
        # The manifest first: a run stopped here (a full disk) leaves a manifest or nothing
        # but leftovers, and either can be resumed.
        run_dir.mkdir(parents=True, exist_ok=True)
        write_manifest(run_dir, manifest)
        (run_dir / GAMES).mkdir(exist_ok=True)
        (run_dir / ROOMS).mkdir(exist_ok=True)
        return manifest
    if manifest["games_per_variant"] > old["games_per_variant"]:
        old = dict(old, games_per_variant=manifest["games_per_variant"])
        write_manifest(run_dir, old)
    (run_dir / GAMES).mkdir(exist_ok=True)
    (run_dir / ROOMS).mkdir(exist_ok=True)
    return old


def identity_refusal(old: dict, manifest: dict) -> str | None:
    """Why the games of `old` cannot be mixed with those `manifest` would play, or None."""
    from balance.provenance import changed_sources

    if "source_hash" not in old or "experiment_hash" not in old:
        return ("its games were played before runs recorded the hash of their code, so "
                "they cannot be told apart from this code's games")
    if old["experiment_hash"] != manifest["experiment_hash"]:
        return (f"it holds games of a different experiment file ({old['file']}); this one "
                f"({manifest['file']}) differs in more than comments or layout, and results "
                "are never mixed")
    if old["source_hash"] != manifest["source_hash"]:
        changed = changed_sources(old.get("sources", {}), manifest.get("sources", {}))
        return (f"its games were played by other engine or player code (sources "
                f"{old['source_hash']}, now {manifest['source_hash']}; changed: "
                f"{', '.join(changed) or 'unknown'}), and results are never mixed")
    if old["engine_version"] != manifest["engine_version"]:
        return (f"its games were played by engine version {old['engine_version']}, this is "
                f"engine version {manifest['engine_version']}, and results are never mixed")
    changed = sorted(k for k in set(old["inputs"]) | set(manifest["inputs"])
                     if old["inputs"].get(k) != manifest["inputs"].get(k))
    if changed:
        return f"{', '.join(changed)} changed since its games were played, and results are " \
            "never mixed"
    for key in IDENTITY:
        if old[key] != manifest[key]:
            return f"its manifest differs in {key!r}"
    return None


@contextlib.contextmanager
def locked(run_dir: str | Path) -> Iterator[None]:
    """Only one process writes a run folder at a time (the lock dies with the process)."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    with open(run_dir / LOCK, "w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InputError([Problem(str(run_dir), "", "", "another `balance run` is writing "
                                      "to this folder; wait for it or use --out")]) from None
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


# -- shards -------------------------------------------------------------------------------

def done_shards(run_dir: str | Path) -> set[str]:
    return {p.stem for p in (Path(run_dir) / GAMES).glob("*.parquet")}


def tidy(run_dir: str | Path, keep: set[str]) -> list[Path]:
    """Remove what a killed run can leave: temporary files, a rooms file whose games file was
    never written, and a short last shard that a larger game count has replaced."""
    run_dir = Path(run_dir)
    removed = []
    for sub in (GAMES, ROOMS):
        for p in (run_dir / sub).iterdir() if (run_dir / sub).is_dir() else ():
            stale = p.name.startswith(".") and ".tmp" in p.name
            if p.suffix == ".parquet" and Shard.parse(p.stem) is not None:
                stale = p.stem not in keep
            if stale:
                p.unlink()
                removed.append(p)
    return removed


def check_shards(run_dir: str | Path, names: set[str], manifest: dict) -> None:
    """Before a resume: every finished shard must have a readable Parquet footer, the right
    number of games, its rooms file, and provenance matching this run and its name, or the
    run stops naming the files (a full check of the data pages happens on read)."""
    import pyarrow.parquet as pq

    run_dir = Path(run_dir)
    probs = Problems(str(run_dir))
    for name in sorted(names):
        shard = Shard.parse(name)
        for sub in (ROOMS, GAMES):
            path = run_dir / sub / f"{name}.parquet"
            try:
                md = pq.read_metadata(path)
                rows, meta = md.num_rows, _meta_of(md.metadata)
            except (OSError, ValueError) as e:
                msg = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
                probs.items.append(Problem(str(path), "", "", f"damaged shard, cannot be read "
                                           f"({msg}); delete it and rerun to replay it"))
                continue
            if sub == GAMES and rows != shard.games:
                probs.items.append(Problem(str(path), "", "", f"damaged shard: {rows} rows, "
                                           f"its name says {shard.games}; delete it and "
                                           "rerun"))
                continue
            why = provenance_problem(meta, manifest, shard, sub, rows)
            if why:
                probs.items.append(Problem(str(path), "", "", f"{why}; delete it and rerun "
                                           "to replay it"))
    probs.raise_if_any()


def write_parquet(table, path: Path) -> None:
    import pyarrow.parquet as pq

    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        pq.write_table(table, tmp, compression="zstd", write_page_checksum=True)
        os.replace(tmp, path)
    finally:
        if tmp.exists():  # a full disk or a failed write leaves no temporary file behind
            tmp.unlink()


def shard_meta(manifest: dict) -> dict:
    """The run's part of every shard's provenance."""
    return {"experiment": manifest["experiment"], "seed": manifest["seed"],
            "experiment_hash": manifest.get("experiment_hash", ""),
            "source_hash": manifest.get("source_hash", "")}


def _with_meta(table, meta: dict):
    old = table.schema.metadata or {}
    return table.replace_schema_metadata({**old, SHARD_META: json.dumps(meta, sort_keys=True)})


def write_shard(run_dir: str | Path, shard: Shard, games, rooms, meta: dict | None = None
                ) -> None:
    """Rooms first, games last: the games file marks the shard done. Each file carries its
    provenance (`meta` from shard_meta, the shard and both files' row counts) in its Parquet
    metadata, so that a file copied in from another run, or one whose footer lost rows, is
    told apart on resume and on read."""
    run_dir = Path(run_dir)
    if meta is not None:
        full = dict(meta, variant=shard.variant, start=shard.start, stop=shard.stop,
                    games_rows=games.num_rows, rooms_rows=rooms.num_rows)
        games = _with_meta(games, dict(full, table=GAMES))
        rooms = _with_meta(rooms, dict(full, table=ROOMS))
    write_parquet(rooms, run_dir / ROOMS / f"{shard.name}.parquet")
    write_parquet(games, run_dir / GAMES / f"{shard.name}.parquet")


def provenance_problem(meta: dict | None, manifest: dict, shard: Shard, sub: str,
                       rows: int) -> str | None:
    """Why a shard file's metadata does not belong to this run at this name, or None. `meta`
    is None for a file without provenance, accepted only in a run written before shards
    carried it."""
    if meta is None:
        if manifest.get("source_hash"):
            return "not a shard of this run: it carries no provenance"
        return None
    want = dict(shard_meta(manifest), variant=shard.variant, start=shard.start,
                stop=shard.stop, table=sub)
    wrong = [f"{k} {meta.get(k)!r} (this run: {v!r})" for k, v in want.items()
             if meta.get(k) != v]
    if wrong:
        return "not a shard of this run at this name: its " + "; ".join(wrong)
    if rows != meta.get(f"{sub}_rows"):
        return (f"damaged shard: {rows:,} rows where {meta.get(f'{sub}_rows')!r} were "
                "written")
    return None


def _meta_of(md) -> dict | None:
    raw = (md or {}).get(SHARD_META)
    if raw is None:
        return None
    try:
        meta = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return {}
    return meta if isinstance(meta, dict) else {}


# -- reading ------------------------------------------------------------------------------

@dataclass
class RunData:
    games: object  # pl.DataFrame, one row per game, sorted by (variant, game)
    rooms: object | None  # pl.DataFrame, one row per placed tile, or None
    manifest: dict
    missing: list[str] = field(default_factory=list)  # shards not played yet

    @property
    def complete(self) -> bool:
        return not self.missing


def _damaged(path: Path, e: BaseException) -> Problem:
    msg = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
    return Problem(str(path), "", "", "damaged shard, cannot be read "
                   f"({msg}); delete it and rerun `balance run` to replay it")


def _read_arrow(path: Path, rows: int | None, probs: Problems, manifest: dict,
                shard: Shard, sub: str, columns: list[str] | None = None):
    """One shard file as an Arrow table, its page checksums and provenance verified; None if
    damaged or not this run's. Text columns come as dictionaries (they are stored so: much
    faster to decode, and a tenth of the memory)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(path)
        text = [f.name for f in schema if pa.types.is_string(f.type)]
        t = pq.read_table(path, columns=columns, page_checksum_verification=True,
                          read_dictionary=text)
    except (OSError, pa.ArrowException, ValueError) as e:
        probs.items.append(_damaged(path, e))
        return None
    if rows is not None and t.num_rows != rows:
        probs.items.append(Problem(str(path), "", "", f"damaged shard: {t.num_rows} rows, its "
                                   f"name says {rows}; delete it and rerun `balance run`"))
        return None
    why = provenance_problem(_meta_of(schema.metadata), manifest, shard, sub, t.num_rows)
    if why:
        probs.items.append(Problem(str(path), "", "", f"{why}; delete it and rerun "
                                   "`balance run`"))
        return None
    return t.cast(_widened(t.schema)) if sub == ROOMS else t


def _widened(schema):
    """An Arrow schema with the WIDENED columns it stores as Int16 as Int32."""
    import pyarrow as pa

    for name in WIDENED:
        i = schema.get_field_index(name)
        if i >= 0 and pa.types.is_int16(schema.field(i).type):
            schema = schema.set(i, schema.field(i).with_type(pa.int32()))
    return schema


def _to_polars(t, where: str, probs: Problems, compact: bool = False):
    """An Arrow table as one contiguous polars DataFrame; text columns as String, or left as
    Categorical when `compact` (the report's choice: a million games' text in a tenth of the
    memory). None, with the damage named, if polars panics on it."""
    import polars as pl
    import pyarrow as pa

    try:
        df = pl.from_arrow(t, rechunk=True)
        text = [f.name for f in t.schema if pa.types.is_dictionary(f.type)
                and pa.types.is_string(f.type.value_type)]
        return df if compact else df.with_columns(pl.col(text).cast(pl.String))
    except pl.exceptions.PanicException as e:  # a BaseException: named like any damage
        probs.items.append(_damaged(Path(where), e))
        return None


def _read_table(path: Path, rows: int | None, probs: Problems, manifest: dict,
                shard: Shard, sub: str):
    """One shard file as a polars DataFrame, verified as _read_arrow verifies it."""
    t = _read_arrow(path, rows, probs, manifest, shard, sub)
    return None if t is None else _to_polars(t, str(path), probs)


class _ShardFile:
    """A loader of one shard file for a ShardTable: reads it (only `columns`, if given),
    verified as read_run verifies it, or raises InputError naming the damage."""

    def __init__(self, path: Path, manifest: dict, shard: Shard, sub: str, available: list[str],
                 compact: bool, columns: list[str] | None = None):
        self.path, self.manifest, self.shard, self.sub = path, manifest, shard, sub
        self.available, self.compact, self.columns = available, compact, columns

    def __call__(self):
        probs = Problems(str(self.path))
        t = _read_arrow(self.path, self.shard.games if self.sub == GAMES else None, probs,
                        self.manifest, self.shard, self.sub, self.columns)
        df = None if t is None else _to_polars(t, str(self.path), probs, self.compact)
        probs.raise_if_any()
        return df

    def select(self, columns: list[str]) -> _ShardFile:
        return _ShardFile(self.path, self.manifest, self.shard, self.sub, self.available,
                          self.compact, [c for c in self.available if c in columns])


def _lazy_table(run_dir: Path, sub: str, names: list[str], manifest: dict, probs: Problems,
                compact: bool = False) -> ShardTable:
    """The `sub` shards (games or rooms) as a ShardTable, their footers, row counts,
    columns and provenance checked now; their pages when read."""
    import pyarrow.parquet as pq

    loaders, rows, columns, kept, first = [], 0, [], [], None
    for name in names:
        path = run_dir / sub / f"{name}.parquet"
        shard = Shard.parse(name)
        try:
            md = pq.read_metadata(path)
        except FileNotFoundError:
            probs.items.append(Problem(str(path), "", "", "missing: the games shard exists "
                                       "but its rooms shard does not; delete "
                                       f"{run_dir / GAMES / path.name} and rerun `balance run`"))
            continue
        except (OSError, ValueError) as e:
            probs.items.append(_damaged(path, e))
            continue
        schema = md.schema.to_arrow_schema()
        if sub == ROOMS:
            schema = _widened(schema)
        why = provenance_problem(_meta_of(md.metadata), manifest, shard, sub, md.num_rows)
        if sub == GAMES and md.num_rows != shard.games:
            why = f"damaged shard: {md.num_rows} rows, its name says {shard.games}"
        elif first is not None and not schema.equals(first, check_metadata=False):
            why = "damaged shard: its columns differ from the other shards'"
        if why:
            probs.items.append(Problem(str(path), "", "", f"{why}; delete it and rerun "
                                       "`balance run`"))
            continue
        if first is None:
            first, columns = schema, schema.names
        rows += md.num_rows
        kept.append(name)
        loaders.append(_ShardFile(path, manifest, shard, sub, schema.names, compact))
    return ShardTable(loaders, rows, columns, kept)


def read_run(run_dir: str | Path, lazy_rooms: bool = False, columns: list[str] | None = None,
             compact: bool = False, lazy_games: bool = False) -> RunData:
    """Every finished shard of a run, checked: InputError names each damaged shard file.
    With lazy_rooms, `.rooms` is a ShardTable read file by file when iterated (the rooms of
    a million games are over a gigabyte in memory); with lazy_games, `.games` is one too
    (pieces paired with the rooms' by shard name). Their footers are checked now, their pages
    as they are read. `columns` reads only those games columns; `compact` leaves text
    columns Categorical."""
    import polars as pl
    import pyarrow as pa

    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    probs = Problems(str(run_dir))
    files = sorted((run_dir / GAMES).glob("*.parquet"))
    has_rooms = (run_dir / ROOMS).is_dir()
    games, rooms = [], []
    for f in files:
        shard = Shard.parse(f.stem)
        if shard is None:
            probs.items.append(Problem(str(f), "", "", "not a shard file name "
                                       "(v<variant>-g<start>-<stop>.parquet)"))
            continue
        if lazy_games:
            continue
        g = _read_arrow(f, shard.games, probs, manifest, shard, GAMES, columns)
        if g is not None and games and not g.schema.equals(games[0].schema,
                                                            check_metadata=False):
            probs.items.append(Problem(str(f), "", "", "damaged shard: its columns differ "
                                       "from the other shards'"))
            g = None
        if has_rooms and not lazy_rooms:
            rf = run_dir / ROOMS / f.name
            if not rf.exists():
                probs.items.append(Problem(str(rf), "", "", "missing: the games shard exists "
                                           "but its rooms shard does not; delete "
                                           f"{f} and rerun `balance run`"))
                r = None
            else:
                r = _read_table(rf, None, probs, manifest, shard, ROOMS)
                if r is not None and rooms and r.schema != rooms[0].schema:
                    probs.items.append(Problem(str(rf), "", "", "damaged shard: its columns "
                                               "differ from the other shards'"))
                    r = None
            if r is not None:
                rooms.append(r)
        if g is not None:
            games.append(g)
    names = [f.stem for f in files if Shard.parse(f.stem)]
    lazy_g = lazy_r = None
    if lazy_games:
        lazy_g = _lazy_table(run_dir, GAMES, names, manifest, probs, compact)
        if columns is not None:
            lazy_g = lazy_g.select(columns)
    if has_rooms and (lazy_rooms or lazy_games):
        lazy_r = _lazy_table(run_dir, ROOMS, names, manifest, probs, compact)
    probs.raise_if_any()
    expected = plan(len(manifest["variants"]), manifest["games_per_variant"],
                    manifest["shard_size"])
    done = {f.stem for f in files}
    missing = [s.name for s in expected if s.name not in done]
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
    r_df = None
    if has_rooms:
        r_df = lazy_r if lazy_r is not None else (pl.concat(rooms, rechunk=False) if rooms
                                                  else pl.DataFrame())
    return RunData(g_df, r_df, manifest, missing)


@dataclass
class RunScan:
    games: object  # pl.LazyFrame over every games shard
    rooms: object | None  # pl.LazyFrame over every rooms shard, or None
    manifest: dict
    missing: list[str] = field(default_factory=list)


def scan_run(run_dir: str | Path) -> RunScan:
    """A run as polars LazyFrames, for notebooks: queries push their column choices and
    filters down to the files, so that a million games answer in seconds without being
    loaded. Each shard's footer and provenance are checked first (names, rows, seed,
    experiment, code); the page checksums only when data is read (read_run checks them all)."""
    import polars as pl
    import pyarrow.parquet as pq

    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    probs = Problems(str(run_dir))
    names = []
    for f in sorted((run_dir / GAMES).glob("*.parquet")):
        shard = Shard.parse(f.stem)
        if shard is None:
            probs.items.append(Problem(str(f), "", "", "not a shard file name "
                                       "(v<variant>-g<start>-<stop>.parquet)"))
            continue
        try:
            md = pq.read_metadata(f)
        except (OSError, ValueError) as e:
            probs.items.append(_damaged(f, e))
            continue
        why = (f"damaged shard: {md.num_rows} rows, its name says {shard.games}"
               if md.num_rows != shard.games else
               provenance_problem(_meta_of(md.metadata), manifest, shard, GAMES, md.num_rows))
        if why:
            probs.items.append(Problem(str(f), "", "", f"{why}; delete it and rerun "
                                       "`balance run`"))
            continue
        names.append(f.stem)
    has_rooms = (run_dir / ROOMS).is_dir()
    if has_rooms:
        _lazy_table(run_dir, ROOMS, names, manifest, probs)
    probs.raise_if_any()
    expected = plan(len(manifest["variants"]), manifest["games_per_variant"],
                    manifest["shard_size"])
    missing = [s.name for s in expected if s.name not in set(names)]

    def scan(sub):
        paths = [str(run_dir / sub / f"{n}.parquet") for n in names]
        if not paths:
            return pl.LazyFrame()
        if sub == GAMES:
            return pl.scan_parquet(paths)
        first = _widened(pq.read_schema(paths[0]))
        return pl.scan_parquet(paths, schema=pl.from_arrow(first.empty_table()).schema,
                               cast_options=pl.ScanCastOptions(integer_cast="upcast"))

    return RunScan(scan(GAMES), scan(ROOMS) if has_rooms else None, manifest, missing)
