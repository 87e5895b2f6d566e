"""Run folders on disk: the manifest, the Parquet shards, and reading a run back.

Layout of a run folder (`runs/<experiment>/` by default):

    manifest.json                what was run: the experiment file, its game, hash, versions
    games/<shard>.parquet        one row per game
    <table>/<shard>.parquet      each of the game's other tables (Game.tables)

A shard is one variant and a range of games, named `v<variant>-g<start>-<stop>` with
zero-padded numbers, so that names sort in (variant, game) order. Files are written to a
temporary name and renamed, the other tables first and games last: a shard is done when its
games file exists, and only whole files ever exist. Every file is read through balance.files
(regular files of a stated size only), and nothing is written through a link. The engine never
imports this module.

A manifest that disagrees with its shards is refused, naming the manifest: shards of this
run (their provenance checked) that its plan has no place for, or every shard agreeing on a
seed or code the manifest does not record. A resume never deletes games: a short last shard
that a larger game count replaces is removed only once the longer shard holding its games is
written, and readers skip it meanwhile.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import json
import os
import re
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from balance import files
from balance.contract import compat, registry
from balance.contract.experiment import MAX_VARIANTS
from balance.contract.game import Game, Table
from balance.errors import InputError, Problem, Problems
from balance.running.experiment import MAX_GAMES, MAX_SHARD_SIZE, MAX_SHARDS
from balance.running.provenance import changed_sources
from balance.running.shard_table import ShardTable

MANIFEST = "manifest.json"
GAMES = "games"  # every game's first table (Game.games_table), the one that marks a shard done
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
# Keys of a shard file's Parquet metadata. Shards written before the keys were neutral carry
# them under the game's name instead of "balance" ("<game>.shard"), and still read (_meta).
SHARD_META = b"balance.shard"  # the shard's provenance
# The digest of a shard file's rows: the sha256 of its bytes before the Parquet footer (the
# row groups), added to the footer as the file is written. A manifest with DIGESTS was
# written by a runner that records one in every shard, so a shard without one is refused.
SHARD_DIGEST = b"balance.rows_sha256"
# Seats count from 1 in the tables (Table.seat_columns). A shard written before issue 26
# counted them from 0 and carries no SEATS_KEY: its seat columns are renumbered as it is
# read, so that an old run, or one resumed across the change, reads as one. (A column whose
# type was widened since, Table.widened, is read as the widest likewise.)
SEATS_KEY = b"balance.seats_from"
SEATS_FROM = b"1"
DIGESTS = "shard_digests"
SHARD_RE = re.compile(r"^v(\d{5})-g(\d{12})-(\d{12})$")
# The largest files a run folder can hold. A manifest carries the experiment file's text and
# each variant's description; a patched variant carries its content file's text too (the
# shipped box is 40 KB). A shard's bytes grow with its games: 40 to 80 bytes a game today,
# and the longest game a game's rules allow stays far within GAME_BYTES.
VARIANT_BYTES = 64 * 2**10
MANIFEST_LIMIT = 64 * files.MiB + MAX_VARIANTS * VARIANT_BYTES
GAME_BYTES = 64 * 2**10
SHARD_BYTES = 16 * files.MiB
REPLAY = "delete it and rerun `balance run` to replay it"
# A reader that lists a short shard a resume then replaces lists the run again this often
# before it gives up: each time a longer shard replaced a shorter one, which only happens
# once per variant for each larger game count asked for.
RELISTS = 5


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

    @property
    def limit(self) -> int:
        """The most bytes a shard file of these games can hold."""
        return SHARD_BYTES + self.games * GAME_BYTES

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


# -- the run's game ------------------------------------------------------------------------

def run_game(manifest: dict) -> Game:
    """The game a run's manifest names (one that names none: balance/contract/compat.py)."""
    return registry.get(compat.manifest_game(manifest), MANIFEST, "", "game")


def table_names(manifest: dict) -> tuple[str, ...]:
    """The run's tables in the order a shard writes them: the games table last."""
    return (*(t.name for t in run_game(manifest).tables[1:]), GAMES)


def _declared(manifest: dict, sub: str) -> Table:
    return run_game(manifest).table(sub)


def _meta(md, key: bytes, manifest: dict):
    """A shard file's metadata value under `key`, or under the key as shards written before
    the keys were neutral named it (the game's name for "balance"); None if it has none."""
    md = md or {}
    if key in md:
        return md[key]
    game = str(compat.manifest_game(manifest)).encode()
    return md.get(game + key[len(b"balance"):])


# -- manifest -----------------------------------------------------------------------------

def manifest_text(manifest: dict) -> str:
    """Deterministic JSON: sorted keys, no timestamps, so a report of it is reproducible."""
    return json.dumps(manifest, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_manifest(run_dir: Path, manifest: dict) -> None:
    files.write_atomic(Path(run_dir) / MANIFEST, manifest_text(manifest).encode("utf-8"))


def read_manifest(run_dir: str | Path) -> dict:
    run_dir = Path(run_dir)
    path = run_dir / MANIFEST
    probs = Problems(str(run_dir))
    if not os.path.lexists(path):
        probs.add("", "", f"no {MANIFEST}: not a run folder (make one with `balance run`)")
        probs.raise_if_any()
    raw = files.read_bytes(path, "run manifest", MANIFEST_LIMIT)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        probs.add("", MANIFEST, f"cannot be read ({str(e)[:160] or 'nested too deeply'})")
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
                      f"{' >= 1' if kind is int and key != 'seed' else ''}, got "
                      f"{_short(value)}: the manifest is damaged")
    probs.raise_if_any()
    _manifest_bounds(data, probs)
    probs.raise_if_any()
    return data


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 120 else f"{text[:120]}... ({len(text):,} characters)"


def _manifest_bounds(data: dict, probs: Problems) -> None:
    """The limits an experiment file is held to (balance.running.experiment), applied to the
    manifest
    read back: a damaged one must not plan 10^13 shards before anything is read."""
    variants, games, size = data["variants"], data["games_per_variant"], data["shard_size"]
    if not 1 <= len(variants) <= MAX_VARIANTS:
        probs.add("", f"{MANIFEST}: variants", f"lists {len(variants):,} variants, where a run "
                  f"has 1 to {MAX_VARIANTS:,}: the manifest is damaged")
        return
    for i, v in enumerate(variants):
        if not isinstance(v, dict) or v.get("variant") != i:
            got = v.get("variant") if isinstance(v, dict) else _short(v)
            probs.add("", f"{MANIFEST}: variants", f"entry {i} is variant {got}, not {i} (one "
                      "was dropped or moved): the manifest is damaged")
            return
    if games > MAX_GAMES or size > MAX_SHARD_SIZE:
        key, value, most = (("games_per_variant", games, MAX_GAMES) if games > MAX_GAMES
                            else ("shard_size", size, MAX_SHARD_SIZE))
        probs.add("", f"{MANIFEST}: {key}", f"is {value:,}, more than a run can have "
                  f"({most:,}): the manifest is damaged")
        return
    shards = len(variants) * -(-games // size)
    if shards > MAX_SHARDS:
        probs.add("", f"{MANIFEST}: games_per_variant", f"{games:,} games per variant x "
                  f"{len(variants):,} variant(s) in shards of {size:,} make {shards:,} shards, "
                  f"more than a run can have ({MAX_SHARDS:,}): the manifest is damaged")


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
        old = manifest
    elif manifest["games_per_variant"] > old["games_per_variant"]:
        old = dict(old, games_per_variant=manifest["games_per_variant"])
        write_manifest(run_dir, old)
    for name in table_names(old):
        files.owned_dir(run_dir, name)
    return old


def identity_refusal(old: dict, manifest: dict) -> str | None:
    """Why the games of `old` cannot be mixed with those `manifest` would play, or None."""
    if compat.manifest_game(old) != compat.manifest_game(manifest):
        return (f"it holds games of {compat.manifest_game(old)}, and this experiment "
                f"plays {compat.manifest_game(manifest)}")
    if "source_hash" not in old or "experiment_hash" not in old:
        return ("its games were played before runs recorded the hash of their code, so "
                "they cannot be told apart from this code's games")
    if old["experiment_hash"] != manifest["experiment_hash"]:
        return (f"it holds games of a different experiment file ({old['file']}); this one "
                f"({manifest['file']}) differs in more than comments or layout, and results "
                "are never mixed")
    if old["source_hash"] != manifest["source_hash"]:
        changed = changed_sources(old.get("sources", {}), manifest.get("sources", {}))
        return (f"its games were played by other engine or player code or data files "
                f"(sources {old['source_hash']}, now {manifest['source_hash']}; changed: "
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


# -- writing shards -----------------------------------------------------------------------

def done_shards(run_dir: str | Path) -> set[str]:
    return {p.stem for p in (Path(run_dir) / GAMES).glob("*.parquet")}


def _superseded(shards, done) -> set[Shard]:
    """The `shards` whose games a longer shard of `done` from the same start holds: a rerun
    that asked for more games played the longer one."""
    longest: dict[tuple[int, int], int] = {}
    for s in done:
        longest[s.variant, s.start] = max(longest.get((s.variant, s.start), 0), s.stop)
    return {s for s in shards if s.stop < longest.get((s.variant, s.start), 0)}


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


# -- checking shards ----------------------------------------------------------------------

class _Refused(Exception):
    """One shard file refused; `problem` names it."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem

    def __reduce__(self):
        # Rebuilt from its Problem, not from the text its args hold (see InputError).
        return type(self), (self.problem,)


class _Replaced(Exception):
    """A shard listed by a reader is gone, and a longer shard from the same start holds its
    games: a resume extended the run meanwhile."""


def _path(run_dir: Path, sub: str, shard: Shard) -> Path:
    return run_dir / sub / f"{shard.name}.parquet"


def _damaged(path: Path, e: BaseException) -> Problem:
    msg = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
    return Problem(str(path), "", "", f"damaged shard, cannot be read ({msg}); {REPLAY}")


def _replacement(run_dir: Path, shard: Shard) -> Shard | None:
    """The longest games shard from the shard's start, if it is longer than the shard."""
    found = [Shard.parse(p.stem) for p in
             (run_dir / GAMES).glob(f"v{shard.variant:05d}-g{shard.start:012d}-*.parquet")]
    longer = [s for s in found if s is not None and s.stop > shard.stop]
    return max(longer) if longer else None


def _gone(run_dir: Path, sub: str, shard: Shard, refusal: InputError) -> _Refused:
    """Why the one reader refused a shard file: the file is what it names (a pipe, too
    large) or, where it does not exist, what to do about it."""
    path = _path(run_dir, sub, shard)
    if os.path.lexists(path):
        return _Refused(Problem(str(path), "", "", f"{refusal.problems[0].message}; "
                                f"{REPLAY}"))
    if sub != GAMES:
        return _Refused(Problem(str(path), "", "", "missing: the games shard exists but its "
                                f"{sub} shard does not; delete {_path(run_dir, GAMES, shard)} "
                                "and rerun `balance run` to replay it"))
    return _Refused(Problem(str(path), "", "", "missing: deleted while the run was read; rerun "
                            "`balance run` to replay it"))


def _footer(run_dir: Path, sub: str, shard: Shard):
    """The Parquet footer of one shard file, read from the file the one reader opened."""

    path = _path(run_dir, sub, shard)
    try:
        with files.open_file(path, f"{sub} shard", shard.limit) as fh:
            return pq.read_metadata(fh)
    except InputError as e:
        if not os.path.lexists(path) and _replacement(run_dir, shard):
            raise _Replaced() from None
        raise _gone(run_dir, sub, shard, e) from None
    except (OSError, ValueError, pa.ArrowException) as e:
        raise _Refused(_damaged(path, e)) from None


def _contents(run_dir: Path, sub: str, shard: Shard):
    """(bytes, footer, shard) of one shard file read whole, once. A shard deleted since it
    was listed, whose games a longer shard now holds, is read from that shard (the third
    item), of which the caller keeps the listed games."""

    path = _path(run_dir, sub, shard)
    try:
        data = files.read_bytes(path, f"{sub} shard", shard.limit)
    except InputError as e:
        longer = None if os.path.lexists(path) else _replacement(run_dir, shard)
        if longer is None:
            raise _gone(run_dir, sub, shard, e) from None
        return _contents(run_dir, sub, longer)
    try:
        return data, pq.read_metadata(pa.BufferReader(data)), shard
    except (OSError, ValueError, pa.ArrowException) as e:
        raise _Refused(_damaged(path, e)) from None


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


def _footer_problem(md, manifest: dict, shard: Shard, sub: str) -> str | None:
    """Why a shard file's footer is not this run's at this name, or None."""
    if sub == GAMES and md.num_rows != shard.games:
        return f"damaged shard: {md.num_rows} rows, its name says {shard.games}"
    why = provenance_problem(_meta_of(md.metadata, manifest), manifest, shard, sub,
                             md.num_rows)
    if why is None and manifest.get(DIGESTS) and _meta(md.metadata, SHARD_DIGEST,
                                                       manifest) is None:
        why = "not a shard as this run wrote it: it carries no digest of its rows"
    return why


def _digest_problem(data: bytes, md, manifest: dict) -> str | None:
    """Why a shard file's rows are not those written (their digest differs), or None; a file
    written before shards carried a digest has none to check (see _footer_problem)."""
    want = _meta(md.metadata, SHARD_DIGEST, manifest)
    if want is not None and rows_digest(data) != want.decode("ascii", "replace"):
        return "damaged shard: its rows are not those written (their digest differs)"
    return None


def _check_whole(run_dir: Path, sub: str, shard: Shard, manifest: dict) -> None:
    """One shard file read whole: footer, provenance and the digest of its rows."""
    data, md, actual = _contents(run_dir, sub, shard)
    why = _footer_problem(md, manifest, actual, sub) or _digest_problem(data, md, manifest)
    if why:
        raise _Refused(Problem(str(_path(run_dir, sub, actual)), "", "", f"{why}; {REPLAY}"))


def _meta_of(md, manifest: dict) -> dict | None:
    raw = _meta(md, SHARD_META, manifest)
    if raw is None:
        return None
    try:
        meta = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return {}
    return meta if isinstance(meta, dict) else {}


# -- the shards against their manifest ----------------------------------------------------

def _listing(run_dir: Path, probs: Problems) -> list[Shard]:
    """The games shards on disk, in name order; a file not named as one is a problem."""
    shards = []
    for f in sorted((run_dir / GAMES).glob("*.parquet")):
        shard = Shard.parse(f.stem)
        if shard is None:
            probs.items.append(Problem(str(f), "", "", "not a shard file name "
                                       "(v<variant>-g<start>-<stop>.parquet)"))
        else:
            shards.append(shard)
    return shards


def _check_folders(run_dir: Path, manifest: dict) -> None:
    """The table folders as the manifest implies them, or InputError in one line: a file in
    their place would read as a run of no games, and a lost folder of another table as a run
    that never recorded it (only runs written before runs recorded their code lack one)."""
    names = table_names(manifest)
    for sub in (GAMES, *names[:-1]):
        path = run_dir / sub
        if os.path.lexists(path) and not path.is_dir():
            folders = " and ".join(f"{n}/" for n in (GAMES, *names[:-1]))
            raise InputError([Problem(str(path), "", "", "is not a folder: a run folder keeps "
                                      f"its shards in {folders} (restore the folder, or start "
                                      "the run again in a new --out)")])
    for sub in names[:-1]:
        if (run_dir / GAMES).is_dir() and not (run_dir / sub).exists() and \
                manifest.get("source_hash") and any((run_dir / GAMES).glob("*.parquet")):
            raise InputError([Problem(str(run_dir / sub), "", "", "missing: the run's games "
                                      f"shards have {sub} shards, which were in {sub}/; "
                                      f"restore it, or delete {run_dir / GAMES} and rerun "
                                      "`balance run`")])


def _survey(run_dir: Path, manifest: dict, probs: Problems) -> list[Shard]:
    """The run's games shards that count (a short one a longer one replaces does not), each
    one's footer checked; a shard that is not the run's is added to `probs`. Then the shards
    as a whole against the manifest: InputError naming the manifest, in one line, when they
    disagree with it."""
    _check_folders(run_dir, manifest)
    listed = _listing(run_dir, probs)
    old = _superseded(listed, listed)
    footers = {}
    for shard in (s for s in listed if s not in old):
        try:
            footers[shard] = _footer(run_dir, GAMES, shard)
        except _Refused as e:
            probs.items.append(e.problem)
    _all_disagree(run_dir, manifest, footers)
    good = []
    for shard, md in footers.items():
        why = _footer_problem(md, manifest, shard, GAMES)
        if why:
            probs.items.append(Problem(str(_path(run_dir, GAMES, shard)), "", "",
                                       f"{why}; {REPLAY}"))
        else:
            good.append(shard)
    if not probs.items:
        try:
            _outside_plan(run_dir, manifest, good)
        except InputError:
            if read_manifest(run_dir) != manifest:  # a resume asked for more games meanwhile
                raise _Replaced() from None
            raise
    return good


def _all_disagree(run_dir: Path, manifest: dict, footers: dict) -> None:
    """When every shard (two or more) disagrees with the manifest on the run's seed, name or
    code, and in the same way, the shards agree with each other and the manifest is the
    damaged file: one line naming it, rather than one per good shard."""
    want = shard_meta(manifest)
    seen = set()
    for md in footers.values():
        meta = _meta_of(md.metadata, manifest)
        if not meta:
            return
        seen.add(tuple((k, repr(meta.get(k))) for k in want if meta.get(k) != want[k]))
    if len(footers) < 2 or len(seen) != 1 or not next(iter(seen)):
        return
    diffs = next(iter(seen))
    says = "; ".join(f"{k} {want[k]!r}" for k, _ in diffs)
    played = "; ".join(f"{k} {v}" for k, v in diffs)
    raise InputError([Problem(str(run_dir), "", f"{MANIFEST}: {diffs[0][0]}", f"says {says}, "
                              f"but all {len(footers):,} shards were played with {played}: the "
                              "shards agree with each other, so the manifest is the damaged "
                              "file; restore it (the shards are good)")])


def _outside_plan(run_dir: Path, manifest: dict, shards: list[Shard]) -> None:
    """InputError naming the manifest, in one line, if a shard of this run (its provenance
    checked) has no place in the manifest's plan. A short shard at a planned start is a
    run's last shard before a rerun asked for more games; its longer shard is not played
    yet."""
    n, games, size = (len(manifest["variants"]), manifest["games_per_variant"],
                      manifest["shard_size"])
    odd = [s for s in shards if s.variant >= n or s.start % size
           or s.stop > min(s.start + size, games)]
    if not odd:
        return
    s = odd[0]
    key, says = (("variants", f"lists {n:,} variant(s)") if s.variant >= n else
                 ("games_per_variant", f"says {games:,} games per variant") if s.stop > games
                 else ("shard_size", f"says shards of {size:,} games"))
    more = f" (and {len(odd) - 1:,} other shard(s))" if len(odd) > 1 else ""
    raise InputError([Problem(str(run_dir), "", f"{MANIFEST}: {key}", f"{says}, but "
                              f"{_path(run_dir, GAMES, s)}{more}, a shard of this run, holds "
                              f"games {s.start:,} to {s.stop:,} of variant {s.variant}: the "
                              "manifest disagrees with its shards, so the manifest is the "
                              "damaged file; restore it (no shard was deleted)")])


def _missing(manifest: dict, shards: list[Shard]) -> list[str]:
    have = {s.name for s in shards}
    return [s.name for s in plan(len(manifest["variants"]), manifest["games_per_variant"],
                                 manifest["shard_size"]) if s.name not in have]


def _relisting(read: Callable[[], object], run_dir: Path):
    """read(), again when a shard it listed was replaced by a longer one meanwhile, or the
    manifest changed under it (a resume racing the reader): the new listing, and the manifest
    read again, see the run as it now is."""
    for _ in range(RELISTS):
        try:
            return read()
        except _Replaced:
            continue
    raise InputError([Problem(str(run_dir), "", "", f"its shards changed {RELISTS} times while "
                              "it was read (a `balance run` is extending it): read it again "
                              "when that run is done")])


def check_shards(run_dir: str | Path, manifest: dict) -> list[Shard]:
    """Before a resume: the shards against the manifest, and every finished shard read
    whole: a readable Parquet footer, the right number of games, its other tables' files,
    provenance matching this run and its name, and the digest of its rows; or the run stops
    naming the files (or the manifest). Returns the shards that count."""
    run_dir = Path(run_dir)
    return _relisting(lambda: _check_shards(run_dir, manifest), run_dir)


def _check_shards(run_dir: Path, manifest: dict) -> list[Shard]:
    probs = Problems(str(run_dir))
    shards = _survey(run_dir, manifest, probs)
    for shard in shards:
        for sub in table_names(manifest):
            try:
                _check_whole(run_dir, sub, shard, manifest)
            except _Refused as e:
                probs.items.append(e.problem)
    probs.raise_if_any()
    return shards


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
