"""Two checkouts' engine speed on one machine, paired: `balance bench --against PATH`.

A machine whose speed moves (a shared or virtual one: this project's moved between about 2,300
and 3,300 games a second within a minute, in every process alike) hides a change of a few
percent in figures taken one after the other, and even in two processes run at once, one on
each core. Here one process of each checkout plays the game's bench case on the same core, the
two taking turns batch by batch on the same seeds (which goes first alternates), so that the
two batches of a pair meet the same machine. The ratio of a pair's times is then steady; its
median over the pairs, with a bootstrap interval, is the figure. Checked on the default
game's bench case: a checkout against itself read 1.001 (0.999 to 1.002) over 230 pairs, and
a change whose saving was computed at 1.8% read 1.5% (1.2% to 1.7%) over 395 pairs and 1.7%
(1.4% to 1.9%) over 292.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from balance.bench.speed import ONE_THREAD, ROOT, bench_case, python_path
from balance.contract.game import Game
from balance.errors import InputError, Problem

BATCH_S = 0.08  # a batch's length: long against a pipe's round trip, short against the
#                 machine's changes of speed
MIN_PAIRS = 10
BOOTSTRAP = 2000

# One checkout's player: the bench case, compiled or loaded, then pinned to one core, playing
# the seeds it is sent ("first count" on a line) and answering with the seconds they took.
WORKER = """
import os, sys, time
from balance.contract import registry
play = registry.get(sys.argv[1]).hook("bench")().player()
play([0])
cpu = int(sys.argv[2])
if cpu >= 0:  # after the first game: a compile (and its helper) may use every core
    os.sched_setaffinity(0, {cpu})
print("ready", flush=True)
for line in sys.stdin:
    first, count = map(int, line.split())
    t = time.perf_counter()
    play(range(first, first + count))
    print(time.perf_counter() - t, flush=True)
"""


@dataclass
class PairBench:
    this: Path
    other: Path
    batch: int  # games a batch
    this_s: np.ndarray  # seconds of each pair's batch, this checkout
    other_s: np.ndarray  # the same, the other checkout

    @property
    def pairs(self) -> int:
        return len(self.this_s)

    def games_per_s(self, times: np.ndarray) -> float:
        return self.batch / float(np.median(times))

    def speed(self) -> tuple[float, float, float]:
        """This checkout's speed over the other's (above 1: this one is faster): the median of
        the pairs' ratios, and a 95% bootstrap interval of that median."""
        return speed_ratio(self.this_s, self.other_s)


def speed_ratio(this_s: np.ndarray, other_s: np.ndarray, seed: int = 0
                ) -> tuple[float, float, float]:
    """Median of other_s / this_s over the pairs, and its 95% percentile bootstrap interval
    (resampling pairs; seeded, so a result reads the same twice)."""
    r = np.asarray(other_s, float) / np.asarray(this_s, float)
    rng = np.random.default_rng(seed)
    boots = np.median(r[rng.integers(0, len(r), (BOOTSTRAP, len(r)))], axis=1)
    return float(np.median(r)), float(np.percentile(boots, 2.5)), float(np.percentile(boots,
                                                                                        97.5))


def checkout(path: Path) -> Path:
    """The root of another checkout of this project; InputError naming --against if it is
    none."""
    if not path.is_dir():
        raise InputError([Problem("--against", str(path), "", "no such folder: give the root "
                                  "of another checkout (e.g. a `git worktree add` of the commit "
                                  "to compare with)")])
    if not (path / "balance" / "__init__.py").is_file():
        raise InputError([Problem("--against", str(path), "", "is not a checkout of this "
                                  "project: it has no balance/ package")])
    return path.resolve()


def _core() -> int:
    """The core both players share: the last this process may use (-1: no pinning here)."""
    try:
        return max(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return -1


class _Player:
    """A worker process playing one checkout's bench case."""

    def __init__(self, root: Path, game: str, core: int, label: str):
        self.root, self.label = root, label
        env = dict(os.environ, **ONE_THREAD, PYTHONPATH=python_path(root))
        env.pop("NUMBA_CACHE_DIR", None)  # each checkout's own cache (.numba_cache in it)
        # Its messages, read if it fails; open as long as the player runs (closed in stop).
        self.err = tempfile.TemporaryFile("w+")  # noqa: SIM115
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, game, str(core)], cwd=root,
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err, text=True)
        try:
            while self._line() != "ready":  # what the game prints as it loads
                pass
        except BaseException:  # a failed start or Ctrl-C during a compile: no process left
            self.stop()
            raise

    def _line(self) -> str:
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            self.err.seek(0)
            last = (self.err.read().strip().splitlines() or ["no message"])[-1]
            raise InputError([Problem("--against", str(self.root), "",
                                      f"{self.label}'s bench player failed: {last}")])
        return line.strip()

    def play(self, first: int, count: int) -> float:
        self.proc.stdin.write(f"{first} {count}\n")
        self.proc.stdin.flush()
        return float(self._line())

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except (subprocess.TimeoutExpired, KeyboardInterrupt):
            self.proc.kill()
            self.proc.wait()
        self.err.close()


def pair_bench(game: Game, other: Path, seconds: float = 30.0, say=print) -> PairBench:
    """This checkout's and `other`'s bench case of `game`, taking turns on one core for
    `seconds` (at least MIN_PAIRS pairs)."""
    bench_case(game)  # InputError if the game declares none
    other = checkout(other)
    core = _core()
    players = []
    try:
        for root, label in ((ROOT, "this checkout"), (other, "the other checkout")):
            say(f"starting {label}'s bench player ({root}; a cold cache compiles first: "
                "a minute or two)...")
            players.append(_Player(root, game.name, core, label))
        this, that = players
        t = this.play(1, 20)
        batch = max(1, int(20 * BATCH_S / max(t, 1e-6)))
        say(f"taking turns on core {core if core >= 0 else 'any'}, {batch:,} games a batch, "
            f"{seconds:.0f} s...")
        this_s, other_s = [], []
        start = last_say = time.monotonic()
        first = 1
        while time.monotonic() - start < seconds or len(this_s) < MIN_PAIRS:
            order = (this, that) if len(this_s) % 2 == 0 else (that, this)
            times = {id(p): p.play(first, batch) for p in order}
            this_s.append(times[id(this)])
            other_s.append(times[id(that)])
            first += batch
            if time.monotonic() - last_say >= 10:
                last_say = time.monotonic()
                ratio = float(np.median(np.array(other_s) / np.array(this_s)))
                say(f"  {len(this_s)} pairs: this checkout {ratio - 1:+.1%} so far")
    finally:
        for p in players:
            p.stop()
    return PairBench(ROOT, other, batch, np.array(this_s), np.array(other_s))
