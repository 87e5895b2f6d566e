"""The integrity of a run's shards: each file's footer, provenance and the digest of its
rows, and the shards as a whole against their manifest (the manifest is named when it is
the damaged file). Readers list the run again when a resume extends it meanwhile."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from balance import files
from balance.errors import InputError, Problem, Problems
from balance.running.store.layout import (
    DIGESTS,
    GAMES,
    LAYOUT,
    MANIFEST,
    SHARD_DIGEST,
    SHARD_META,
    Shard,
    _meta,
    _superseded,
    run_plan,
    table_names,
)
from balance.running.store.manifest import (
    read_manifest,
)
from balance.running.store.write import (
    rows_digest,
    shard_meta,
)

REPLAY = "delete it and rerun `balance run` to replay it"
# A reader that lists a short shard a resume then replaces lists the run again this often
# before it gives up: each time a longer shard replaced a shorter one, which only happens
# once per variant for each larger game count asked for.
RELISTS = 5


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
    checked) has no place in the manifest's plan (layout.run_plan). A short shard at a planned
    start is a run's last shard before a rerun made before issue 50 asked for more games; its
    longer shard is not played yet."""
    n, games = len(manifest["variants"]), manifest["games_per_variant"]
    ends = {(s.variant, s.start): s.stop for s in run_plan(manifest)}
    odd = [s for s in shards if s.stop > ends.get((s.variant, s.start), -1)]
    if not odd:
        return
    s = odd[0]
    key, says = (("variants", f"lists {n:,} variant(s)") if s.variant >= n else
                 ("games_per_variant", f"says {games:,} games per variant") if s.stop > games
                 else (LAYOUT, f"lays its games out as {manifest[LAYOUT]}") if LAYOUT in manifest
                 else ("shard_size", f"says shards of {manifest['shard_size']:,} games"))
    more = f" (and {len(odd) - 1:,} other shard(s))" if len(odd) > 1 else ""
    raise InputError([Problem(str(run_dir), "", f"{MANIFEST}: {key}", f"{says}, but "
                              f"{_path(run_dir, GAMES, s)}{more}, a shard of this run, holds "
                              f"games {s.start:,} to {s.stop:,} of variant {s.variant}: the "
                              "manifest disagrees with its shards, so the manifest is the "
                              "damaged file; restore it (no shard was deleted)")])


def _missing(manifest: dict, shards: list[Shard]) -> list[str]:
    have = {s.name for s in shards}
    return [s.name for s in run_plan(manifest) if s.name not in have]


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
