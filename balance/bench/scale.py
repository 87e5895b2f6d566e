"""`balance run` across workers and backends, measured the way the guide reports it (figures,
never asserted in tests): `balance bench --scaling`, games per second of the bench case with
1, 2, 4, ... workers up to the cores present (or a Dask cluster's worker threads); and
`balance bench --runner --scheduler`, the bench batch through joblib on this machine's cores
and through a Dask cluster, timed, with both runs' tables compared.

Every figure is a steady rate: the workers are started and the engine loaded in each before
the clock starts, and a run is timed as `balance run` reports it, from the first shard
dispatched to the last file written (RunReport.seconds).
"""

from __future__ import annotations

import socket
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from balance.bench.speed import bench_experiment, busy_cores, runner_bench
from balance.contract.game import Game
from balance.running.experiment import Experiment
from balance.running.runner import (
    connected,
    default_jobs,
    jobs_for,
    run_experiment,
    warm,
    warm_shard,
)
from balance.running.store.layout import Shard
from balance.running.store.read import read_run

# Shards per worker at the largest count measured: with fewer, the last shards leave workers
# idle and the curve bends for that reason alone.
SHARDS_PER_WORKER = 4
KEY = ("variant", "game")  # a stable order of any game's tables, whatever played them
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def worker_counts(most: int) -> list[int]:
    """1, 2, 4, 8, ... below `most`, then `most` itself (a core count need not be one of
    them)."""
    counts, n = [], 1
    while n < most:
        counts.append(n)
        n *= 2
    return [*counts, max(most, 1)]


def scaling_shard_size(game: Game, games: int, most: int) -> int:
    """The bench case's shard size, made smaller where the batch would otherwise give fewer
    than SHARDS_PER_WORKER shards to each of `most` workers."""
    usual = bench_experiment(game, games, 0).shard_size
    return max(1, min(usual, games // (SHARDS_PER_WORKER * most)))


@dataclass
class Scaling:
    games: int
    shard_size: int
    where: str  # what the workers were: this machine's cores, or a cluster's threads
    games_per_s: dict  # workers -> games per second
    busy_cores: float | None  # cores other processes kept busy here (None: a remote cluster)

    def speedup(self, n: int) -> float:
        return self.games_per_s[n] / self.games_per_s[1]

    def efficiency(self, n: int) -> float:
        return self.speedup(n) / n


def scaling_bench(game: Game, games: int, scheduler: str | None = None,
                  say: Callable[[str], None] = print) -> Scaling:
    """Games per second of `balance run` on the bench case for 1, 2, 4, ... workers: local
    processes up to os.cpu_count(), or with a scheduler, Dask workers up to the cluster's
    worker threads."""
    if scheduler is not None:
        return _dask_scaling(game, games, scheduler, say)
    most = default_jobs()
    size = scaling_shard_size(game, games, most)
    rb = runner_bench(game, games, worker_counts(most), say, shard_size=size)
    return Scaling(games, size, f"this machine's {most} cores", rb.games_per_s, rb.busy_cores)


# -- Dask -----------------------------------------------------------------------------------

def _client():
    """The client `connected` made, which execute() then uses too."""
    from distributed import default_client  # lazy: dask only for a cluster's bench

    return default_client()


def worker_threads(client) -> dict[str, int]:
    """Each worker's address -> its threads, in address order (one machine's workers
    together)."""
    return dict(sorted(client.nthreads().items()))


def first_workers(threads: dict[str, int], n: int) -> tuple[str, ...]:
    """The fewest workers, in address order, that hold at least n threads."""
    chosen, held = [], 0
    for address, k in threads.items():
        if held >= n:
            break
        chosen.append(address)
        held += k
    return tuple(chosen)


def _own_hosts() -> set[str]:
    name = socket.gethostname()
    try:
        return {*LOOPBACK, name, socket.gethostbyname(name)}
    except OSError:  # a host without a resolvable name: loopback is all it can be
        return {*LOOPBACK, name}


def _host(address: str) -> str:
    from distributed.comm import get_address_host  # lazy: dask only for a cluster's bench

    return get_address_host(address)


def on_this_machine(addresses: tuple[str, ...]) -> bool:
    """Every one of these workers runs on this machine."""
    return all(_host(a) in _own_hosts() for a in addresses)


def warm_workers(client, exp: Experiment, addresses: tuple[str, ...]) -> None:
    """Load the engine in each of the workers (one first, which fills Numba's cache where it
    was cold, then the rest from it), as the tiny run does for a local pool. As tasks, not
    client.run: a cold compile would otherwise block a worker's event loop for minutes."""
    job = next(jobs_for(exp, [Shard(0, 0, 1)]))

    def each(rest):
        # pure=False: the same job on every worker is otherwise one task, run once
        return client.gather([client.submit(warm_shard, job, workers=[a], pure=False)
                              for a in rest])

    each(addresses[:1])
    each(addresses[1:])


def _dask_scaling(game: Game, games: int, scheduler: str, say) -> Scaling:
    say(f"connecting to the Dask scheduler at {scheduler}...")
    with connected(scheduler), tempfile.TemporaryDirectory() as tmp:
        threads = worker_threads(_client())
        total = sum(threads.values())
        say(f"  {len(threads)} workers, {total} threads")
        # Other processes' load matters only where the workers share this machine's cores.
        busy = busy_cores(say) if on_this_machine(tuple(threads)) else None
        size = scaling_shard_size(game, games, total)
        exp = bench_experiment(game, games, 0, shard_size=size)
        rates: dict[int, float] = {}
        for n in worker_counts(total):
            chosen = first_workers(threads, n)
            held = sum(threads[a] for a in chosen)
            if held in rates:  # several threads a worker: this count was measured already
                continue
            say(f"loading the engine in {len(chosen)} Dask worker(s)...")
            warm_workers(_client(), exp, chosen)
            say(f"{games:,} games on {held} Dask worker thread(s)...")
            r = run_experiment(exp, Path(tmp) / f"dask{held}", scheduler=scheduler,
                               dask_workers=chosen)
            rates[held] = r.games_per_s
            say(f"  {rates[held]:,.0f} games/s")
    return Scaling(games, size, f"the Dask cluster at {scheduler}, {total} worker threads",
                   rates, busy)


# -- joblib against Dask --------------------------------------------------------------------

@dataclass
class BackendComparison:
    games: int
    joblib_workers: int  # loky processes on this machine
    joblib_s: float
    dask_workers: int  # worker processes of the cluster
    dask_threads: int
    dask_hosts: tuple[str, ...]
    dask_s: float
    connect_s: float  # connecting to the scheduler, not in dask_s
    difference: str | None  # None: the two runs' tables are identical
    busy_cores: float  # cores other processes kept busy here just before

    @property
    def ratio(self) -> float:
        return self.dask_s / self.joblib_s

    @property
    def same_cores(self) -> bool:
        """Both ran as many single-threaded workers on this machine's cores."""
        return (all(h in _own_hosts() for h in self.dask_hosts)
                and self.dask_workers == self.dask_threads == self.joblib_workers)


def _timed(exp: Experiment, folder: Path, say, what: str, **kw) -> float:
    say(f"{exp.games:,} games through {what}...")
    r = run_experiment(exp, folder, **kw)
    say(f"  {r.seconds:.1f} s, {r.games_per_s:,.0f} games/s")
    return r.seconds


def _warm_pool(game: Game, n: int, folder: Path) -> None:
    """Start n loky workers and load the engine in each (runner_bench's tiny run)."""
    run_experiment(bench_experiment(game, 8 * n, 1, shard_size=1), folder, jobs=n)


def compare_backends(game: Game, games: int, scheduler: str,
                     say: Callable[[str], None] = print) -> BackendComparison:
    """The bench batch through joblib on this machine's cores, then through the Dask
    cluster at `scheduler`: the time of each, and whether their tables are identical."""
    exp = bench_experiment(game, games, 0)
    jobs = default_jobs()
    # Connected first: an unreachable scheduler is refused before minutes of compiling.
    say(f"connecting to the Dask scheduler at {scheduler}...")
    t = time.perf_counter()
    with connected(scheduler), tempfile.TemporaryDirectory() as tmp:
        connect_s = time.perf_counter() - t
        threads = worker_threads(_client())
        say(f"  {len(threads)} workers, {sum(threads.values())} threads ({connect_s:.1f} s)")
        say("loading the engine here (compiling it if the cache is cold)...")
        warm(exp)
        busy = busy_cores(say)
        say(f"starting {jobs} joblib workers and loading the engine in each...")
        _warm_pool(game, jobs, Path(tmp) / "warm")
        joblib_s = _timed(exp, Path(tmp) / "joblib", say, f"joblib, {jobs} workers",
                          jobs=jobs)
        say(f"loading the engine in the {len(threads)} Dask workers...")
        warm_workers(_client(), exp, tuple(threads))
        dask_s = _timed(exp, Path(tmp) / "dask", say, f"Dask, {len(threads)} workers",
                        scheduler=scheduler)
        say("reading both runs' tables back...")
        difference = runs_difference(Path(tmp) / "joblib" / exp.name,
                                     Path(tmp) / "dask" / exp.name)
    return BackendComparison(games, jobs, joblib_s, len(threads), sum(threads.values()),
                             tuple(sorted({_host(a) for a in threads})), dask_s, connect_s,
                             difference, busy)


# -- the same tables ------------------------------------------------------------------------

def runs_difference(a: Path, b: Path) -> str | None:
    """None when the two run folders hold the same rows in every table (in KEY order);
    otherwise the first difference, in words."""
    x, y = read_run(a), read_run(b)
    names = sorted(set(x.tables) | set(y.tables))
    for name, p, q in [("games", x.games, y.games),
                       *((n, x.tables.get(n), y.tables.get(n)) for n in names)]:
        why = frame_difference(p, q)
        if why is not None:
            return f"the {name} table: {why}"
    return None


def _in_order(frame):
    key = [k for k in KEY if k in frame.columns]
    # Stable: rows of one game (a seat each, say) keep the order the game wrote them in.
    return frame.sort(key, maintain_order=True) if key else frame


def frame_difference(p, q) -> str | None:
    """None when the two polars frames hold the same rows (in KEY order), with the same
    columns of the same types; otherwise what differs first."""
    if p is None or q is None:
        return None if p is q else "in one run only"
    if p.schema != q.schema:
        return f"different columns: {dict(p.schema)} against {dict(q.schema)}"
    if p.height != q.height:
        return f"{p.height:,} rows against {q.height:,}"
    p, q = _in_order(p), _in_order(q)
    if p.equals(q):
        return None
    columns = [c for c in p.columns if not p[c].equals(q[c])]
    rows = (p.select(columns).hash_rows() != q.select(columns).hash_rows()).arg_true()
    if not len(rows):
        return f"column(s) {', '.join(columns)} differ"
    i = rows[0]
    at = ", ".join(f"{k} {p[k][i]}" for k in KEY if k in p.columns) or f"row {i:,}"
    which = [c for c in columns if not p[c].slice(i, 1).equals(q[c].slice(i, 1))]
    return f"{len(rows):,} row(s) differ, the first at {at}, in {', '.join(which)}"

