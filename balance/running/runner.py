"""Batch experiments: an experiment's variants split into shards, played in parallel.

A shard is one variant and a fixed range of game indices (balance.running.store.layout.Shard).
Workers play shards and return their tables; only the parent writes files, so a Dask cluster
needs no shared filesystem. Game seeds depend on the experiment seed and the game index alone
(balance.running.seeds), so results never depend on the number of workers or the backend.

Locally, joblib's loky backend runs the shards; with a scheduler address, joblib's dask
backend runs the same shards on a dask.distributed cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import BrokenExecutor, CancelledError
from dataclasses import dataclass, replace
from importlib.metadata import PackageNotFoundError, packages_distributions, version
from pathlib import Path

import numpy as np
import pyarrow

from balance.contract.experiment import Variant
from balance.contract.game import Game
from balance.errors import InputError, Problem
from balance.running.experiment import Experiment, check_game_count, check_shard_size
from balance.running.jobs import JOBS_PER_CORE, check_jobs, default_jobs  # noqa: F401 (API)
from balance.running.provenance import source_hash, source_hashes
from balance.running.seeds import game_seeds
from balance.running.store.check import check_shards
from balance.running.store.folder import check_folder, locked, open_run
from balance.running.store.layout import DIGESTS, Shard, plan, run_plan
from balance.running.store.write import done_shards, shard_meta, tidy, write_shard

THREAD_VARS = ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
               "MKL_NUM_THREADS")
# Recorded in the manifest with their versions, after the toolkit's own distribution.
PACKAGES = ("numba", "numpy", "polars", "pyarrow", "joblib", "dask", "distributed")


@dataclass(frozen=True)
class Job:
    """What a worker needs to play one shard; small and picklable. The game travels as its
    declaration (a frozen dataclass of strings), so a worker looks nothing up in the registry:
    a game a test registered reaches the workers too."""

    game: Game
    experiment: str
    seed: int
    variant: Variant
    shard: Shard
    # The hash of the code of the worker that plays it (provenance.source_hash), set there:
    # the game writes it into its games table.
    source_hash: str = ""
    # Not 0: the players' own stream of every game drawn anew, the game's stream kept
    # (balance/kernels/streams.py): a strength ladder's seed analysis replays each deal so.
    streams: int = 0

    def seeds(self) -> np.ndarray:
        """The shard's game seeds (balance.running.seeds)."""
        return game_seeds(self.seed, self.shard.start, self.shard.stop)


@dataclass
class ShardResult:
    shard: Shard
    engine_version: str
    tables: dict  # table name -> pyarrow.Table, as the game's play hook returned them
    source_hash: str = ""  # provenance.source_hash(game) of the worker that played it


# -- worker side --------------------------------------------------------------------------

def _limit_threads() -> None:
    # One Numba/BLAS thread per worker process, set before the engine is first imported there
    # (a Dask worker; loky workers get the same from joblib). A process that has already
    # loaded Numba (the parent, playing in-process) is left alone.
    if "numba" not in sys.modules:
        for var in THREAD_VARS:
            os.environ.setdefault(var, "1")


def play_shard(job: Job) -> ShardResult:
    """Play one shard with the game's play hook; runs in a worker (or in-process with one
    job)."""
    _limit_threads()
    job = replace(job, source_hash=source_hash(job.game))
    tables = job.game.hook("play")(job)
    return ShardResult(job.shard, job.game.version, tables, job.source_hash)


# -- parent side --------------------------------------------------------------------------

def jobs_for(exp: Experiment, shards: Iterable[Shard]) -> Iterator[Job]:
    # What a variant's games depend on beyond its settings (a designer's file's text) travels
    # in the variant, as read when the experiment was loaded: what the manifest's hashes
    # describe.
    for s in shards:
        yield Job(exp.game, exp.name, exp.seed, exp.variants[s.variant], s)


CONNECT_WAIT_S = 10.0  # how long an unreachable scheduler is tried before the run refuses
WORKER_WAIT_S = 30.0  # how long a cluster may take to show its first worker
WORKERLESS_S = 60.0  # how long a run waits once every worker is gone before it gives up
_cluster_lost = threading.Event()


def _watch_workers(client, stop: threading.Event) -> None:
    """Every Dask worker gone means a progress bar frozen for ever: after WORKERLESS_S with
    none, close the client, which fails the pending shards (RunFailed says why)."""
    since = None
    while not stop.wait(min(5.0, WORKERLESS_S / 4)):
        try:
            n = len(client.scheduler_info().get("workers", {}))
        except Exception:  # the scheduler itself is gone: the pending shards fail anyway
            return
        if n:
            since = None
            continue
        since = since or time.monotonic()
        if time.monotonic() - since >= WORKERLESS_S:
            _cluster_lost.set()
            client.close()
            return


@contextlib.contextmanager
def connected(scheduler: str | None) -> Iterator[None]:
    """Connect to a Dask scheduler for the duration (no-op without one); a clear error if it
    cannot be reached or has no worker, and RunFailed if every worker goes away."""
    if scheduler is None:
        yield
        return
    from dask.distributed import Client  # lazy: dask only for a run on a cluster

    try:
        client = Client(scheduler, timeout=f"{CONNECT_WAIT_S}s")
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        raise InputError([Problem("--scheduler", "", "", f"cannot reach the Dask scheduler at "
                                  f"{scheduler} ({e})")]) from None
    # Quiet until the client is closed: a lost scheduler is named by the run (_collect), and
    # stopped early (Ctrl-C, SIGTERM, a failure) the client closes with shards in flight,
    # whose gathers fail on the closed connection as tracebacks in its event loop's log.
    with _quiet_connection_loss(scheduler), client:
        try:
            client.wait_for_workers(1, timeout=WORKER_WAIT_S)
        except (TimeoutError, OSError):
            raise InputError([Problem("--scheduler", "", "", f"the Dask scheduler at "
                                      f"{scheduler} has no workers (waited "
                                      f"{WORKER_WAIT_S:.0f} s); start some with `dask "
                                      "worker` (README, On a Dask cluster)")]) from None
        _cluster_lost.clear()
        stop = threading.Event()
        watch = threading.Thread(target=_watch_workers, args=(client, stop), daemon=True)
        watch.start()
        try:
            yield
        finally:
            stop.set()


def execute(jobs: Iterable[Job], n_jobs: int = 1, scheduler: str | None = None,
            warm: list[Job] | None = None,
            dask_workers: tuple[str, ...] | None = None) -> Iterator[ShardResult]:
    """Play jobs, yielding results as shards finish (in any order). One job: in-process;
    several: joblib's loky processes; a scheduler address: joblib's dask backend (connecting
    to it here unless the caller already has, see `connected`), on every worker of the
    cluster or only on `dask_workers` (their addresses). In a pool, one worker loads the
    engine first (warm_shard, with a game of each of `warm`, by default the first job), and
    the others then load it from Numba's cache."""
    jobs = iter(jobs)
    if scheduler is None and n_jobs == 1:
        for job in jobs:
            yield play_shard(job)
        return
    first = next(jobs, None)
    if first is None:
        return
    import joblib  # lazy: a run of one job plays in this process, with no pool

    # In loky's workers Ctrl-C is left to this process (_in_pool); Dask runs tasks in
    # threads, where signals cannot be set, and its workers are no children of this one.
    local = scheduler is None
    task = functools.partial(_in_pool, play_shard) if local else play_shard
    warmer = functools.partial(_in_pool, warm_shard) if local else warm_shard
    tasks = (joblib.delayed(task)(job) for job in itertools.chain([first], jobs))
    with contextlib.ExitStack() as stack:
        if scheduler is not None:
            from dask.distributed import default_client  # lazy: a cluster's run only

            try:
                default_client()
            except ValueError:
                stack.enter_context(connected(scheduler))
            # joblib's dask backend ignores n_jobs (it counts every thread of the cluster):
            # fewer workers can only be had by restricting the tasks to them.
            only = {"workers": list(dask_workers)} if dask_workers else {}
            stack.enter_context(joblib.parallel_config(backend="dask", **only))
            n = -1
        else:
            stack.enter_context(joblib.parallel_config(backend="loky",
                                                       inner_max_num_threads=1))
            n = n_jobs
            quiet_pool_teardown()
        warmers = warm or [first]
        joblib.Parallel(n_jobs=n, batch_size=1)([joblib.delayed(warmer)(*warmers)])
        parallel = joblib.Parallel(n_jobs=n, return_as="generator_unordered", batch_size=1,
                                   pre_dispatch="2*n_jobs")
        # Stopped early (Ctrl-C, SIGTERM), joblib warns that the shards in flight were
        # cancelled, or played and not used; the command's own message says what is kept,
        # and a designer should not meet an unexplained warning.
        stack.enter_context(warnings.catch_warnings())
        warnings.filterwarnings("ignore", message=r".*(tasks which were still being processed"
                                r"|tasks have been successfully executed +but not used)")
        yield from parallel(tasks)


def quiet_pool_teardown() -> None:
    """From now on, this process ignores one exception: the KeyError that loky's manager
    thread can raise while a pool stopped early is shut down (Ctrl-C, SIGTERM, a notebook's
    interrupt). The shards cancelled by the stop leave their ids in the thread's queue after
    their work items are dropped, and the thread, shutting down anyway, trips on one of them.
    Nothing is lost, but Python prints the thread's traceback on the designer's terminal after
    the command's own message (seen under load in the test suite). Every other exception of
    every thread is printed as before."""
    if getattr(threading.excepthook, "quiets_pool_teardown", False):
        return
    from joblib.externals.loky import process_executor  # lazy: a run with a pool only

    manager = getattr(process_executor, "_ExecutorManagerThread", None)
    if manager is None:  # another loky, which may not have the race: print everything
        return
    previous = threading.excepthook

    def hook(args):
        thread = args.thread
        if not (args.exc_type is KeyError and isinstance(thread, manager)
                and getattr(getattr(thread, "executor_flags", None), "shutdown", False)):
            previous(args)

    hook.quiets_pool_teardown = True
    threading.excepthook = hook


def _in_pool(fn, *args):
    """A task in a worker process of this machine's pool. Ctrl-C reaches every process of the
    terminal's group: a worker that took it died mid-task (while compiling, most often, in
    the first minute of a fresh clone), and the run ended as "a worker process died" instead
    of as interrupted. The parent alone handles it: it stops the pool and says what is kept."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return fn(*args)


@functools.cache
def package_versions() -> dict:
    out = {}
    for name in (*packages_distributions().get("balance", []), *PACKAGES):
        with contextlib.suppress(PackageNotFoundError):
            out[name] = version(name)
    return out


def manifest_for(exp: Experiment, games: int) -> dict:
    return {"experiment": exp.name, "description": exp.description, "file": exp.file,
            "text": exp.text, "hash": exp.hash, "experiment_hash": exp.identity,
            "game": exp.game.name,
            "engine_version": exp.game.version, "source_hash": source_hash(exp.game),
            DIGESTS: "sha256",
            "sources": source_hashes(exp.game),
            "packages": dict(package_versions()), "inputs": dict(exp.inputs), "seed": exp.seed,
            "games_per_variant": games, "shard_size": exp.shard_size,
            "swept": list(exp.grid), "variants": [v.describe() for v in exp.variants],
            **({"ideal_length": list(exp.ideal_length)} if exp.ideal_length else {})}


def warm(exp: Experiment) -> None:
    """Compile the engine, or load it from Numba's cache, in this process."""
    play_shard(_one_game(next(jobs_for(exp, [Shard(0, 0, 1)]))))


def _one_game(job: Job) -> Job:
    return replace(job, shard=Shard(job.shard.variant, job.shard.start, job.shard.start + 1))


def warm_shard(*jobs: Job) -> str:
    """A worker's first task: load (or compile) the engine and play one game of each job's
    variant (warm_jobs: one for each set of players the run holds). Run alone before any
    shard, so that one process fills Numba's cache and the others load it instead of all
    compiling at once. A player's kernels may be compiled at its first decision, not with
    the game (a search player's are): warmed with another player
    alone, every worker compiled them in the middle of a shard, and loky, seeing a worker grow
    by some 750 MB after its first task, took it for a memory leak, replaced it, and printed
    "A worker stopped while some jobs were given to the executor". Returns the worker's
    engine version."""
    for job in jobs:
        play_shard(_one_game(job))
    return jobs[0].game.version if jobs else ""


def warm_jobs(exp: Experiment, shards: Iterable[Shard]) -> list[Job]:
    """One job for each set of players among the shards' variants (the first shard of each),
    in the order they come: warm_shard plays a game of each, so that every kernel a shard can
    need is in Numba's cache before the pool plays."""
    seen: dict[tuple, Job] = {}
    for job in jobs_for(exp, shards):
        v = job.variant
        seen.setdefault(tuple(sorted(set(v.seats or (v.heuristic,)))), job)
    return list(seen.values())


class RunFailed(Exception):
    """The run stopped without playing every shard: a worker died or the cluster went away.
    Not bad input (exit 1, not 2); the finished shards are kept and a rerun resumes."""


def _backend_failure(e: BaseException) -> tuple[str, BaseException] | None:
    """What the machinery that runs the shards lost, as opposed to an error of the game code,
    found in `e` or the failures it was raised from: ("worker", cause) for a dead worker (a
    broken loky pool, a killed Dask worker), ("connection", cause) for a cancelled task or a
    closed connection (a Dask scheduler gone). Judged by class, so that a new way to lose one
    is caught by its base."""
    worker: tuple[type, ...] = (BrokenExecutor,)
    connection: tuple[type, ...] = (CancelledError, asyncio.CancelledError, ConnectionError)
    if "distributed" in sys.modules:  # its failures exist only once a cluster was used
        from distributed import KilledWorker
        from distributed.comm import CommClosedError

        worker += (KilledWorker,)
        connection += (CommClosedError,)
    seen: set[int] = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, worker):
            return "worker", e
        if isinstance(e, connection):
            return "connection", e
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return None


class _LostConnectionLog(logging.Filter):
    """Drops the tracebacks that distributed and tornado log, on their event loop, when the
    scheduler's connection is lost or the client closes while reconnecting: the run names the
    loss itself, once (_collect)."""

    LOGGERS = ("distributed.client", "tornado.application")
    GAVE_UP = "Failed to reconnect to scheduler"  # the client's own word for the loss

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        lost = _backend_failure(exc) if exc is not None else None
        if lost is not None and lost[0] == "connection":
            return False
        return not str(record.msg).startswith(self.GAVE_UP)


@contextlib.contextmanager
def _quiet_connection_loss(scheduler: str | None) -> Iterator[None]:
    loggers = [logging.getLogger(n) for n in _LostConnectionLog.LOGGERS] if scheduler else []
    quiet = _LostConnectionLog()
    for log in loggers:
        log.addFilter(quiet)
    try:
        yield
    finally:
        for log in loggers:
            log.removeFilter(quiet)


def _close_client() -> None:
    """Close the Dask client of a lost scheduler while its log is quiet: closing cancels its
    attempts to reconnect, which distributed logs as a traceback."""
    from distributed import default_client  # lazy: only a run on a cluster gets here

    with contextlib.suppress(Exception):  # already closed: the run has failed either way
        default_client().close(timeout=5)


def _collect(jobs: Iterable[Job], n_jobs: int, scheduler: str | None,
             warm: list[Job] | None = None,
             dask_workers: tuple[str, ...] | None = None) -> Iterator[ShardResult]:
    """execute(), with a lost worker or scheduler turned into RunFailed instead of a
    traceback (_backend_failure); an error of the game code itself stays a traceback. The
    run's `connected` keeps the lost connection's own log quiet meanwhile."""
    try:
        yield from execute(jobs, n_jobs, scheduler, warm, dask_workers)
    except (InputError, KeyboardInterrupt):
        raise
    except Exception as e:
        if _cluster_lost.is_set():
            raise RunFailed(f"every Dask worker was gone for {WORKERLESS_S:.0f} s") \
                from None
        lost = _backend_failure(e)
        if lost is None:
            raise
        kind, cause = lost
        first = str(cause).strip().splitlines()[0][:300] if str(cause).strip() else ""
        what = f"{type(cause).__name__}: {first}" if first else type(cause).__name__
        if kind == "connection" and scheduler is not None:
            _close_client()
            raise RunFailed(f"the connection to the Dask scheduler at {scheduler} was "
                            f"lost ({what})") from None
        raise RunFailed(f"a worker process died ({what})") from None


@dataclass
class RunReport:
    run_dir: Path
    shards: int  # in the plan
    skipped: int  # already on disk
    played: int  # shards played now
    games: int  # games played now
    seconds: float
    reused: int = 0  # games already on disk, not played again

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


def run_experiment(exp: Experiment, out: str | Path = "runs", games: int | None = None,
                   jobs: int | None = None, scheduler: str | None = None,
                   on_start: Callable[[int, int], None] | None = None,
                   on_shard: Callable[[int], None] | None = None,
                   dask_workers: tuple[str, ...] | None = None,
                   shard_size: int | None = None) -> RunReport:
    """Play every game of the experiment not yet in out/<name>/, writing each shard as it
    finishes. Games already there are never played again, whatever the shards they were
    played in; new games go in shards of `shard_size` (default: the file's).

    on_start(total_games, games_already_done) and on_shard(games) report progress. Safe to
    interrupt at any point: finished shards stay, and the same call resumes. With a
    scheduler, `dask_workers` (addresses) plays on those workers alone (`balance bench
    --scaling` measures a cluster a few workers at a time).
    """
    games = exp.games if games is None else games
    if shard_size is not None:
        check_shard_size(shard_size, "--shard-size")
        exp = replace(exp, shard_size=shard_size)
    check_game_count(games, len(exp.variants), exp.shard_size, "--games", "")
    jobs = default_jobs() if jobs is None else jobs
    check_jobs(jobs)
    run_dir = Path(out) / exp.name
    wanted = manifest_for(exp, games)
    # Everything that can be refused is checked before the folder is touched: its identity,
    # then every finished shard, then the scheduler.
    old = check_folder(run_dir, wanted)
    if old is not None:
        check_shards(run_dir, old)
    with connected(scheduler), locked(run_dir):
        manifest = open_run(run_dir, wanted)
        # The manifest's plan, not one made from this call's shard size: the shards of games
        # played before stay as they were played (layout.grown).
        shards = run_plan(manifest)
        check_shards(run_dir, manifest)
        tidy(run_dir, manifest)
        done = done_shards(run_dir)
        todo = [s for s in shards if s.name not in done]
        reused = sum(s.games for s in shards if s.name in done)
        if on_start:
            on_start(len(exp.variants) * games, reused)
        start = time.perf_counter()
        played = n_games = 0
        version = exp.game.version
        for r in _collect(jobs_for(exp, todo), jobs, scheduler, warm_jobs(exp, todo),
                          dask_workers):
            if r.engine_version != version or r.source_hash != manifest["source_hash"]:
                raise InputError([Problem(scheduler or "worker", "", "", f"a worker runs "
                                          f"engine version {r.engine_version} with sources "
                                          f"{r.source_hash}, this is {version} with "
                                          f"sources {manifest['source_hash']}: check out the "
                                          "same commit everywhere")])
            write_shard(run_dir, r.shard, r.tables, shard_meta(manifest))
            played += 1
            n_games += r.shard.games
            if on_shard:
                on_shard(r.shard.games)
        # A short last shard goes only now that the longer one holding its games is written.
        tidy(run_dir, manifest)
        if played != len(todo):
            # A backend that loses a task without raising must not look like a finished run.
            raise RunFailed(f"only {played} of the {len(todo)} shards to play came back; "
                            "the others were lost with their worker")
        return RunReport(run_dir, len(shards), len(shards) - len(todo), played, n_games,
                         time.perf_counter() - start, reused)


def simulate_tables(exp: Experiment, jobs: int = 1) -> dict:
    """Play every shard in memory: each of the game's tables as a polars DataFrame, in game
    order."""
    import polars as pl  # lazy: the runner's workers never build DataFrames

    shards = plan(len(exp.variants), exp.games, exp.shard_size)
    results = sorted(execute(jobs_for(exp, shards), jobs, warm=warm_jobs(exp, shards)),
                     key=lambda r: r.shard)
    return {t.name: pl.from_arrow(pyarrow.concat_tables([r.tables[t.name] for r in results]))
            for t in exp.game.tables}
