"""Engine speed, measured the way the guide reports it (results/performance.md; never asserted
in tests): games per second of a game's bench case (its `bench` hook, balance/contract/
experiment.py BenchCase) on one core with a warm cache; the same without the JIT; compile time
with a cold cache; start-up with a warm one."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from balance.contract.experiment import BenchCase
from balance.contract.game import Game
from balance.errors import InputError, Problem
from balance.running.experiment import parse_experiment
from balance.running.runner import run_experiment, warm

ROOT = Path(__file__).resolve().parents[2]
# In a new process: the game's bench player, made and first played (compiled or loaded).
FIRST_GAME = ("import time; t = time.perf_counter();"
              "from balance.contract import registry;"
              "play = registry.get({game!r}).hook('bench')().player(); play([0]);"
              "print(time.perf_counter() - t)")
NO_JIT = ("import time; from balance.contract import registry;"
          "play = registry.get({game!r}).hook('bench')().player(); n = {n};"
          "t = time.perf_counter(); play(range(n)); print(n / (time.perf_counter() - t))")


def bench_case(game: Game) -> BenchCase:
    """The game's bench case; InputError when it declares none."""
    if not game.bench:
        raise InputError([Problem("--game", "", "", f"game {game.name} declares no bench "
                                  "case")])
    return game.hook("bench")()


def bench_experiment(game: Game, games: int, seed: int, shard_size: int | None = None):
    """The bench case as a one-variant experiment named "bench"."""
    head = {**bench_case(game).experiment, "name": "bench", "description": "balance bench",
            "game": game.name, "games": games, "seed": seed}
    if shard_size is not None:
        head["shard_size"] = shard_size
    return parse_experiment({"experiment": head}, "", "balance bench")


@dataclass
class EngineBench:
    games_per_s: float
    no_jit_games_per_s: float
    cold_compile_s: float
    warm_start_s: float

    @property
    def speedup(self) -> float:
        return self.games_per_s / self.no_jit_games_per_s


# A timed child plays on one thread: no library's idle thread pool beside it.
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"}


def python_path(root: Path = ROOT) -> str:
    """PYTHONPATH for a child Python process: the project's root (or another checkout's) first,
    then the caller's own (packages installed by PYTHONPATH, not into the interpreter, must
    stay importable)."""
    return os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p)


def child_line(code: str, env: dict, option: str, what: str) -> str:
    """The last line printed by a new Python process that runs `code` in the project's root
    with `env` (PYTHONPATH set by python_path). If it fails: InputError naming `option`,
    "`what` failed" and the child's last line of error."""
    out = subprocess.run([sys.executable, "-c", code], env=dict(env, PYTHONPATH=python_path()),
                         cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        raise InputError([Problem(option, "", "", f"{what} failed: "
                                  + (out.stderr.strip().splitlines() or ["no message"])[-1])])
    return out.stdout.strip().splitlines()[-1]


def _python(code: str, env_extra: dict) -> float:
    env = dict(os.environ, **ONE_THREAD, **env_extra)
    return float(child_line(code, env, "bench", "the timed process"))


def games_per_second(game: Game, seconds: float = 5.0, batch: int = 2000) -> float:
    play = bench_case(game).player()
    play([0])  # warm
    done, start, seed = 0, time.perf_counter(), 1
    while time.perf_counter() - start < seconds:
        play(np.arange(seed, seed + batch))
        seed += batch
        done += batch
    return done / (time.perf_counter() - start)


def engine_bench(game: Game, seconds: float = 5.0, cold: bool = True, no_jit_games: int = 40,
                 say=print) -> EngineBench:
    first_game = FIRST_GAME.format(game=game.name)
    # Fill the cache first (after an edit to the engine it is cold), so that the start-up
    # measured next is a warm one.
    say("warming the cache...")
    bench_case(game).player()([0])
    say("warm start-up (new process, cached code, first game)...")
    warm = _python(first_game, {})
    say(f"  {warm:.2f} s")
    say(f"games per second, one core, warm cache ({seconds:.0f} s)...")
    gps = games_per_second(game, seconds)
    say(f"  {gps:,.0f} games/s")
    say(f"the same with NUMBA_DISABLE_JIT=1 ({no_jit_games} games)...")
    slow = _python(NO_JIT.format(game=game.name, n=no_jit_games), {"NUMBA_DISABLE_JIT": "1"})
    say(f"  {slow:,.1f} games/s")
    compile_s = float("nan")
    if cold:
        say("cold compile (empty cache, first game; the compile helper on unless "
            "BALANCE_COMPILE_HELPER=0)...")
        with tempfile.TemporaryDirectory() as tmp:
            compile_s = _python(first_game, {"NUMBA_CACHE_DIR": tmp})
        say(f"  {compile_s:.0f} s")
    return EngineBench(gps, slow, compile_s, warm)


@dataclass
class RunnerBench:
    games: int
    games_per_s: dict  # workers -> games per second
    parent_peak_mb: float
    worker_peak_mb: float
    busy_cores: float  # cores other processes kept busy just before the measurement

    @property
    def scaling(self) -> float:
        return self.games_per_s[2] / self.games_per_s[1]


def _peak_mb(pid: int) -> float:
    """Peak resident memory of a live process (Linux), in MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def busy_cores(say=print) -> float:
    """How many cores other processes keep busy now (a second's average)."""
    import psutil  # lazy: only the runner's benches read other processes' load

    busy = psutil.cpu_percent(interval=1.0) * (os.cpu_count() or 1) / 100
    say(f"other processes keep {busy:.1f} of {os.cpu_count()} cores busy")
    return busy


def runner_bench(game: Game, games: int = 40_000, workers=(1, 2), say=print,
                 shard_size: int | None = None) -> RunnerBench:
    """`balance run` throughput on the bench case, with the files written as a real run writes
    them (in shards of `shard_size`, by default the experiment's). Workers are started and the
    engine loaded first, so the figures are steady rates; games per second count every game
    from the first dispatch to the last file written (RunReport.seconds)."""
    import psutil  # lazy: only the runner's bench reads its workers' memory

    exp = bench_experiment(game, games, 0, shard_size)
    say("loading the engine (compiling it if the cache is cold)...")
    warm(exp)
    busy = busy_cores(say)
    rates = {}
    worker_peak = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for n in workers:
            if n > 1:  # start the pool and load the engine in every worker
                say(f"starting {n} workers and loading the engine in each...")
                tiny = bench_experiment(game, 8 * n, 1, shard_size=1)
                run_experiment(tiny, Path(tmp) / f"warm{n}", jobs=n)
            say(f"{games:,} games with {n} worker{'s' if n > 1 else ''}...")
            rates[n] = run_experiment(exp, Path(tmp) / f"jobs{n}", jobs=n).games_per_s
            say(f"  {rates[n]:,.0f} games/s")
            for child in psutil.Process().children(recursive=True):
                worker_peak = max(worker_peak, _peak_mb(child.pid))
    parent_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return RunnerBench(games, rates, parent_peak, worker_peak, busy)
