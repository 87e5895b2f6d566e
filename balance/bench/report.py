"""`balance bench --report`: peak memory and time of `balance report` at growing run sizes.

A base run of the game's bench case (balance/bench/speed.py) is played once; larger runs
are made from it by replicating its shards under new game indices (each copy rewritten with
its own game numbers, name and provenance, so it is a valid run that read_run and the report
accept). The games repeat, so the figures measure the report's cost, not new
information. Each report runs in a fresh process, timed from start to exit; its peak memory is
the kernel's high-water mark of that process (wait4's ru_maxrss).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from balance.bench.speed import bench_experiment
from balance.contract.game import Game
from balance.errors import InputError
from balance.running.experiment import DEFAULT_SHARD_SIZE
from balance.running.runner import run_experiment
from balance.running.store.layout import GAMES, MANIFEST, SHARD_META, Shard, table_names
from balance.running.store.manifest import read_manifest, write_manifest
from balance.running.store.write import write_parquet

SIZES = (200_000, 1_000_000, 10_000_000)
BASE_GAMES = 200_000
BASE_UNIT = 1_000  # the base run's games are a multiple of this (its shards, of equal size)


@dataclass
class ReportBench:
    games: int
    seconds: float
    peak_mib: float
    disk_mb: float


def play_base(game: Game, folder: Path, games: int, jobs: int, say=print) -> Path:
    """The bench case played for real (resumed if already there), in shards of equal size,
    so that its copies are whole shards of the larger runs."""
    exp = bench_experiment(game, games, 1, shard_size=math.gcd(games, DEFAULT_SHARD_SIZE))
    say(f"playing the base run: {games:,} games ({jobs} workers)...")
    try:
        r = run_experiment(exp, folder, jobs=jobs)
    except InputError as e:
        # The run folder's refusals advise `balance run`'s --out; the bench's is --folder.
        raise InputError([replace(p, field=_folder(p.field), message=_folder(p.message))
                          for p in e.problems]) from None
    return r.run_dir


def _folder(text: str) -> str:
    return re.sub(r"--out\b", "--folder", text)


def replicate(base: Path, dest: Path, games: int, say=print) -> Path:
    """A run of `games` games made of copies of `base`'s shards (a whole number of copies
    of the base: `games` must be a multiple of its game count)."""
    import pyarrow as pa  # lazy: only the report's bench rewrites shards
    import pyarrow.parquet as pq

    m = read_manifest(base)
    per = m["games_per_variant"]
    if games % per or len(m["variants"]) != 1:
        raise ValueError(f"{games} is not a multiple of the base run's {per} games")
    # The copy names the base it was made of: a bench folder whose base was played again at
    # another size makes its copies again.
    want = dict(m, games_per_variant=games, replicated_from=per)
    if (dest / MANIFEST).exists() and read_manifest(dest) == want:
        return dest  # made by an earlier bench
    shutil.rmtree(dest, ignore_errors=True)
    tables = table_names(m)
    for sub in tables:
        (dest / sub).mkdir(parents=True)
    copies = games // per
    shards = sorted((base / GAMES).glob("*.parquet"))
    for k in range(copies):
        if k % max(1, copies // 10) == 0:
            say(f"  copy {k + 1} of {copies}...")
        offset = k * per
        for f in shards:
            s = Shard.parse(f.stem)
            new = Shard(s.variant, s.start + offset, s.stop + offset)
            for sub in tables:
                src = base / sub / f.name
                out = dest / sub / f"{new.name}.parquet"
                if k == 0:
                    os.link(src, out) if src.stat().st_dev == dest.stat().st_dev \
                        else shutil.copy(src, out)
                    continue
                t = pq.read_table(src)
                meta = json.loads(t.schema.metadata[SHARD_META])
                meta.update(start=new.start, stop=new.stop)
                i = t.schema.get_field_index("game")
                t = t.set_column(i, "game", pa.compute.add(t.column("game"), offset))
                t = t.replace_schema_metadata({**t.schema.metadata,
                                               SHARD_META: json.dumps(meta,
                                                                            sort_keys=True)})
                write_parquet(t, out)
    write_manifest(dest, want)
    return dest


def _measure(cmd: list[str]) -> tuple[float, float]:
    """(seconds, peak MiB) of one process run to its end."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {err[-500:]}")
    return seconds, usage.ru_maxrss / 1024


def _disk_mb(run: Path) -> float:
    return sum(p.stat().st_size for p in run.rglob("*.parquet")) / 1e6


def report_bench(game: Game, folder: Path, sizes=SIZES, jobs: int = 2, say=print,
                 base_games: int = BASE_GAMES) -> list[ReportBench]:
    """Each size's report, timed in a fresh process; `sizes` are multiples of `base_games`,
    the games of the run played for real."""
    folder = Path(folder)
    base = play_base(game, folder / "base", base_games, jobs, say)
    out = []
    for n in sizes:
        run = base if n == base_games else replicate(base, folder / f"x{n}" / base.name, n,
                                                     say)
        say(f"balance report on {n:,} games...")
        cmd = [sys.executable, "-c", "from balance.cli.app import app; app()", "report", str(run),
               "--out", str(folder / f"report-{n}")]
        seconds, peak = _measure(cmd)
        out.append(ReportBench(n, seconds, peak, _disk_mb(run)))
        say(f"  {seconds:.1f} s, peak {peak:,.0f} MiB")
    return out
