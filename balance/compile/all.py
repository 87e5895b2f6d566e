"""Compile every registered game's engine into Numba's cache, or load it from there:
`python -m balance.compile.all`, which `make test` runs before the suite.

Why: the suite's two workers start on tests that play games, so on a fresh clone both compiled
the same kernels at once, for about a minute and a half each, one of them for nothing. Run
first, one process compiles each game's bench case with its helper process (balance/kernels/
compile_plan.py), both cores on one compile, and the workers load it. With the cache warm it
costs each game's load, about a second.
"""

from __future__ import annotations

import sys
import time

from balance.contract import registry


def main() -> int:
    for game in registry.games():
        if not game.bench:
            continue
        t = time.perf_counter()
        print(f"loading {game.name}'s engine (compiling it on a fresh clone: a minute or two)...",
              file=sys.stderr, flush=True)
        game.hook("bench")().player()([0])
        print(f"  {game.name}: {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
