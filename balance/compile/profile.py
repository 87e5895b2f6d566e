"""Where a cold compile's time goes (`balance bench --compile-profile`): each kernel's compile
time, read from Numba's compile events in a new process with an empty cache, while it makes the
game's bench player and plays its first game.

A kernel's *own* time is its compile less that of the kernels compiled while it was (its
callees, compiled on first sight). It still includes what LLVM does with the code of its
callees linked into its library (available_externally, balance/kernels/jit.py): it optimises
again there what it pastes in. So a kernel high in the call graph, such as the game loop, has
a large own time even when its own code is short, and the sum of the own times is the whole
compile. `llvm` is the share of the compile spent inside LLVM.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass

from balance.bench.speed import child_line


@dataclass(frozen=True)
class KernelTime:
    kernel: str  # module.function
    own_s: float
    with_callees_s: float
    compiles: int  # signatures compiled


@dataclass(frozen=True)
class CompileProfile:
    total_s: float  # from the first import to the first game played
    llvm_s: float  # inside LLVM (Numba's llvm lock)
    kernels: list[KernelTime]  # by own time, largest first


def kernel_times(events: list[tuple[float, bool, str]]) -> list[KernelTime]:
    """Own and inclusive compile time per kernel from (time, is_start, kernel) events, in
    order; compiles nest (a callee compiles inside its caller's compile)."""
    stack: list[list] = []
    own: dict[str, float] = {}
    incl: dict[str, float] = {}
    count: dict[str, int] = {}
    for ts, start, name in events:
        if start:
            stack.append([name, ts, 0.0])
            continue
        if not stack or stack[-1][0] != name:
            raise ValueError(f"compile events out of order at the end of {name}")
        _, t0, inner = stack.pop()
        took = ts - t0
        own[name] = own.get(name, 0.0) + took - inner
        incl[name] = incl.get(name, 0.0) + took
        count[name] = count.get(name, 0) + 1
        if stack:
            stack[-1][2] += took
    rows = [KernelTime(k, own[k], incl[k], count[k]) for k in own]
    return sorted(rows, key=lambda r: (-r.own_s, r.kernel))


def outer_time(events: list[tuple[float, bool]]) -> float:
    """Time inside the outermost of nested (time, is_start) intervals."""
    depth, start, total = 0, 0.0, 0.0
    for ts, is_start in events:
        if is_start:
            if depth == 0:
                start = ts
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                total += ts - start
    return total


def _child(game: str) -> None:
    """In the new process: compile and play, print the events as JSON."""
    import time  # only the child times

    from numba.core import event  # the child alone records Numba's events

    t0 = time.perf_counter()
    with event.install_recorder("numba:compile") as rec, \
            event.install_recorder("numba:llvm_lock") as llvm:
        from balance.contract import registry  # imported inside the recording on purpose

        registry.get(game).hook("bench")().player()([0])
    total = time.perf_counter() - t0

    def name(ev) -> str:
        d = ev.data.get("dispatcher")
        f = getattr(d, "py_func", None)
        return f"{f.__module__}.{f.__qualname__}" if f is not None else "?"

    print(json.dumps({
        "total": total,
        "compile": [(ts, ev.is_start, name(ev)) for ts, ev in rec.buffer],
        "llvm": [(ts, ev.is_start) for ts, ev in llvm.buffer]}))


def cold_child(code: str, option: str, what: str) -> str:
    """The last line `code` prints in a new process that compiles into an empty cache, on one
    thread, the compile helper off (balance/kernels/compile_plan.py): one process's compile
    of everything. Failing: child_line's InputError naming `option` and `what`."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp, NUMBA_NUM_THREADS="1",
                   BALANCE_COMPILE_HELPER="0")
        env.pop("NUMBA_DISABLE_JIT", None)
        return child_line(code, env, option, what)


def profile(game: str, prelude: str = "") -> CompileProfile:
    """Compile the game's bench player in a new process with an empty cache. `prelude`: code
    the new process runs first (a test registers its toy game there)."""
    code = (f"{prelude}\nfrom balance.compile.profile import _child; "
            f"_child({game!r})")
    data = json.loads(cold_child(code, "--compile-profile", "the compile"))
    events = [(float(t), bool(s), str(n)) for t, s, n in data["compile"]]
    return CompileProfile(float(data["total"]),
                          outer_time([(float(t), bool(s)) for t, s in data["llvm"]]),
                          kernel_times(events))
