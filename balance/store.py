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

MANIFEST = "manifest.json"
GAMES = "games"
ROOMS = "rooms"
LOCK = ".lock"
# What makes two runs the same experiment. The game count is not part of it: a rerun may ask
# for more games per variant (new shards are added), never fewer.
IDENTITY = ("experiment", "hash", "engine_version", "inputs", "seed", "shard_size")
SHARD_RE = re.compile(r"^v(\d{5})-g(\d{12})-(\d{12})$")


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
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


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
    if not isinstance(data, dict) or any(k not in data for k in (*IDENTITY, "variants",
                                                                  "games_per_variant")):
        probs.add("", MANIFEST, "is not a run manifest (keys missing)")
        probs.raise_if_any()
    return data


def _refuse(run_dir: Path, what: str) -> InputError:
    return InputError([Problem(str(run_dir), "", "", f"{what}. The run there is kept; use "
                               "--out for another folder, or delete this one to start again")])


def open_run(run_dir: str | Path, manifest: dict) -> dict:
    """Create the run folder with its manifest, or check that an existing one holds the same
    experiment. More games per variant than before are allowed (the manifest is updated);
    anything else that differs is refused. Returns the manifest in force."""
    run_dir = Path(run_dir)
    if not (run_dir / MANIFEST).exists():
        if run_dir.exists() and any(p.name != LOCK for p in run_dir.iterdir()):
            raise _refuse(run_dir, "the folder exists and is not a run folder (no manifest)")
        (run_dir / GAMES).mkdir(parents=True, exist_ok=True)
        (run_dir / ROOMS).mkdir(parents=True, exist_ok=True)
        write_manifest(run_dir, manifest)
        return manifest
    old = read_manifest(run_dir)
    if old["hash"] != manifest["hash"]:
        raise _refuse(run_dir, f"it holds games of a different experiment file "
                      f"({old['file']}, sha256 {old['hash'][:12]}); this one "
                      f"({manifest['file']}, sha256 {manifest['hash'][:12]}) differs, and "
                      "results are never mixed")
    if old["engine_version"] != manifest["engine_version"]:
        raise _refuse(run_dir, f"its games were played by engine version "
                      f"{old['engine_version']}, this is engine version "
                      f"{manifest['engine_version']}, and results are never mixed")
    changed = sorted(k for k in set(old["inputs"]) | set(manifest["inputs"])
                     if old["inputs"].get(k) != manifest["inputs"].get(k))
    if changed:
        raise _refuse(run_dir, f"{', '.join(changed)} changed since its games were played, "
                      "and results are never mixed")
    for key in IDENTITY:
        if old[key] != manifest[key]:
            raise _refuse(run_dir, f"its manifest differs in {key!r}")
    if manifest["games_per_variant"] < old["games_per_variant"]:
        raise _refuse(run_dir, f"it holds {old['games_per_variant']:,} games per variant, "
                      f"more than the {manifest['games_per_variant']:,} asked for: ask for at "
                      "least as many")
    if manifest["games_per_variant"] > old["games_per_variant"]:
        old = dict(old, games_per_variant=manifest["games_per_variant"])
        write_manifest(run_dir, old)
    (run_dir / GAMES).mkdir(exist_ok=True)
    (run_dir / ROOMS).mkdir(exist_ok=True)
    return old


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


def check_shards(run_dir: str | Path, names: set[str]) -> None:
    """Before a resume: every finished shard must have a readable Parquet footer, the right
    number of games and its rooms file, or the run stops naming the damaged files (a full
    check of the data pages happens on read)."""
    import pyarrow.parquet as pq

    run_dir = Path(run_dir)
    probs = Problems(str(run_dir))
    for name in sorted(names):
        for sub in (ROOMS, GAMES):
            path = run_dir / sub / f"{name}.parquet"
            try:
                rows = pq.read_metadata(path).num_rows
            except (OSError, ValueError) as e:
                msg = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
                probs.items.append(Problem(str(path), "", "", f"damaged shard, cannot be read "
                                           f"({msg}); delete it and rerun to replay it"))
                continue
            expected = Shard.parse(name).games
            if sub == GAMES and rows != expected:
                probs.items.append(Problem(str(path), "", "", f"damaged shard: {rows} rows, "
                                           f"its name says {expected}; delete it and rerun"))
    probs.raise_if_any()


def write_parquet(table, path: Path) -> None:
    import pyarrow.parquet as pq

    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    pq.write_table(table, tmp, compression="zstd", write_page_checksum=True)
    os.replace(tmp, path)


def write_shard(run_dir: str | Path, shard: Shard, games, rooms) -> None:
    """Rooms first, games last: the games file marks the shard done."""
    run_dir = Path(run_dir)
    write_parquet(rooms, run_dir / ROOMS / f"{shard.name}.parquet")
    write_parquet(games, run_dir / GAMES / f"{shard.name}.parquet")


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


def _read_table(path: Path, rows: int | None, probs: Problems):
    """One shard file as a polars DataFrame, its page checksums verified; None if damaged."""
    import polars as pl
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        # Text columns are read as dictionaries (they are stored so): much faster to decode.
        text = [f.name for f in pq.read_schema(path) if pa.types.is_string(f.type)]
        t = pq.read_table(path, page_checksum_verification=True, read_dictionary=text)
    except (OSError, pa.ArrowException, ValueError) as e:
        msg = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
        probs.items.append(Problem(str(path), "", "", "damaged shard, cannot be read "
                                   f"({msg}); delete it and rerun `balance run` to replay it"))
        return None
    if rows is not None and t.num_rows != rows:
        probs.items.append(Problem(str(path), "", "", f"damaged shard: {t.num_rows} rows, its "
                                   f"name says {rows}; delete it and rerun `balance run`"))
        return None
    # File by file, so that the Arrow copy of only one is held at a time.
    return pl.from_arrow(t).with_columns(pl.col(text).cast(pl.String))


def read_run(run_dir: str | Path) -> RunData:
    """Every finished shard of a run, checked: InputError names each damaged shard file."""
    import polars as pl

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
        g = _read_table(f, shard.games, probs)
        if g is not None and games and g.schema != games[0].schema:
            probs.items.append(Problem(str(f), "", "", "damaged shard: its columns differ "
                                       "from the other shards'"))
            g = None
        if has_rooms:
            rf = run_dir / ROOMS / f.name
            if not rf.exists():
                probs.items.append(Problem(str(rf), "", "", "missing: the games shard exists "
                                           "but its rooms shard does not; delete "
                                           f"{f} and rerun `balance run`"))
                r = None
            else:
                r = _read_table(rf, None, probs)
                if r is not None and rooms and r.schema != rooms[0].schema:
                    probs.items.append(Problem(str(rf), "", "", "damaged shard: its columns "
                                               "differ from the other shards'"))
                    r = None
            if r is not None:
                rooms.append(r)
        if g is not None:
            games.append(g)
    probs.raise_if_any()
    expected = plan(len(manifest["variants"]), manifest["games_per_variant"],
                    manifest["shard_size"])
    done = {f.stem for f in files}
    missing = [s.name for s in expected if s.name not in done]
    g_df = pl.concat(games, rechunk=False) if games else pl.DataFrame()
    r_df = None
    if has_rooms:
        r_df = pl.concat(rooms, rechunk=False) if rooms else pl.DataFrame()
    return RunData(g_df, r_df, manifest, missing)
