"""Compile every registered game's engine into Numba's cache, or load it from there:
`python -m balance.compile.all`, which `make test` runs before the suite.

Why: the suite's two workers start on tests that play games, so on a fresh clone both compiled
the same kernels at once, for about a minute and a half each, one of them for nothing. Run
first, this compiles each game's bench case (a game with a compile plan with its helper process,
balance/kernels/compile_plan.py) and the workers load it. With the cache warm it costs each
game's load, about a second.

The games compile in lanes, two at once on a machine of two cores or more, balanced by each
game's compiled source (the lines of its `*_nb.py` modules and its players'): a game's cold
compile grows with it, about 30 ms a line on a 2-core machine (a fresh clone of 0bfd1e2: Gem
Rush 2,624 lines 71.6 s, Gem Mountain 2,300 lines 74.8 s, Gem Runner 1,480 lines 41.4 s, Rusship
903 lines 20.3 s, the test games 250 to 480 lines 6 to 10 s). All the kit's games in one lane,
as before Gem Mountain's expansions and Gem Runner, made that lane 160 s beside Gem Rush's 72:
the kit's kernels are typed by each game's own state, so two processes compile little twice.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from pathlib import Path

from balance.contract import registry

ROOT = Path(__file__).resolve().parents[2]


def compiled_lines(game) -> int:
    """The lines (not blank, not comments) of the game's `*_nb.py` modules and its players':
    what its cold compile grows with. A game whose folder is not found here (one of another
    package) counts one line."""
    module = game.bench.partition(":")[0]
    parts = module.split(".")
    folder = ROOT.joinpath(*parts[:3]) if len(parts) > 3 else ROOT.joinpath(*parts[:-1])
    folders = [folder, ROOT / "heuristics" / game.name]
    lines = 0
    for f in folders:
        for path in sorted(f.rglob("*_nb.py")) if f.is_dir() else []:
            lines += sum(1 for line in path.read_text(encoding="utf-8").splitlines()
                         if line.strip() and not line.lstrip().startswith("#"))
    return max(lines, 1)


def lanes(games, count: int = 2) -> list[list]:
    """The games with a bench case, in at most `count` lanes that may compile at once, each
    game given to the lane with the fewest compiled lines so far, the largest game first;
    the heaviest lane first."""
    work = sorted((g for g in games if g.bench), key=lambda g: (-compiled_lines(g), g.name))
    out: list[list] = [[] for _ in range(max(1, min(count, len(work))))]
    load = [0] * len(out)
    for g in work:
        i = load.index(min(load))
        out[i].append(g)
        load[i] += compiled_lines(g)
    return [lane for _, lane in sorted(zip(load, out, strict=True), key=lambda x: -x[0])
            if lane]


def _compile(names: list[str]) -> None:
    for name in names:
        game = registry.get(name)
        t = time.perf_counter()
        print(f"loading {game.name}'s engine (compiling it on a fresh clone: a minute or two)...",
              file=sys.stderr, flush=True)
        game.hook("bench")().player()([0])
        print(f"  {game.name}: {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)


def main(jobs: int | None = None) -> int:
    jobs = jobs or min(2, os.cpu_count() or 1)
    work = [[g.name for g in lane] for lane in lanes(registry.games(), jobs)]
    jobs = min(jobs, len(work))
    if jobs <= 1:
        for names in work:
            _compile(names)
        return 0
    # Forked, so that each lane sees the games registered here (the tests' games too) without
    # importing what registered them; nothing is compiled yet, so nothing compiled is copied.
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        pool.map(_compile, work, chunksize=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
