"""Compile every registered game's engine into Numba's cache, or load it from there:
`python -m balance.compile.all`, which `make test` runs before the suite.

Why: the suite's two workers start on tests that play games, so on a fresh clone both compiled
the same kernels at once, for about a minute and a half each, one of them for nothing. Run
first, this compiles each game's bench case (a game with a compile plan with its helper process,
balance/kernels/compile_plan.py) and the workers load it. With the cache warm it costs each
game's load, about a second.

The games compile in lanes, two at once on a machine of two cores or more: the games on the
engine kit in one lane (they share the kit's kernels, which one process then compiles once),
every game with an engine of its own in a lane of its own. A game's compile with its helper
leaves a core idle part of the time; the kit's games have no plan and use one core. On a fresh
clone of six games (results/performance.md): 74.5 and 82.2 s in two lanes against 97.8 and
104.7 s one game after the other (empty caches, alternating).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time

from balance.contract import registry


def lanes(games) -> list[list]:
    """The games with a bench case, in lanes that may compile at once: the kit's games
    together, then each game of its own engine alone; the longest lane (most games) first."""
    kit = [g for g in games if g.bench and g.kit]
    own = [[g] for g in games if g.bench and not g.kit]
    return sorted(([kit] if kit else []) + own, key=len, reverse=True)


def _compile(names: list[str]) -> None:
    for name in names:
        game = registry.get(name)
        t = time.perf_counter()
        print(f"loading {game.name}'s engine (compiling it on a fresh clone: a minute or two)...",
              file=sys.stderr, flush=True)
        game.hook("bench")().player()([0])
        print(f"  {game.name}: {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)


def main(jobs: int | None = None) -> int:
    work = [[g.name for g in lane] for lane in lanes(registry.games())]
    jobs = min(jobs or min(2, os.cpu_count() or 1), len(work))
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
