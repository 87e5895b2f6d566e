"""A second process that compiles part of a game's kernels while the first compiles the rest.

Why: Numba compiles one kernel at a time, depth first from the kernel Python calls, so a cold
compile uses one core (and in `balance run`, one worker compiles while the others wait for
the cache). The kernels form a call graph with much work off its longest path: the engine's
rules that no player's code reaches, and the late branches of the turn (the action, the end
of the turn) that only need the players compiled. A helper process that compiles those into
the on-disk cache, while the first process works through the rest, leaves the first to load
them when it gets there (results/performance.md, "Cold compile").

A game's plan (PLAN_FILE beside the module of its bench case, made by `python -m
balance.compile.planner GAME` from a recorded cold compile) lists what the helper
does, in order: `compile` a kernel for a signature (skipped when the cache has it), or `wait`
until the first process has cached a kernel the next one calls (so that the helper does not
compile the players a second time). The signatures are written as text (`type_text`), the
state's and tables' named tuples once each as `type` lines.

A stale plan costs only time: a signature no longer used is compiled for nothing, and a wait
that never ends is cut short when the first process finishes its compile and stops the
helper. `tests/test_compile_plan.py` fails while a game's plan names a kernel or signature its
bench case does not compile. BALANCE_COMPILE_HELPER=0 turns the helper off.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from numba import typeof, types

from balance.kernels.sources import ROOT

PLAN_FILE = "compile_plan.txt"  # a game's plan, beside the module of its bench case
SWITCH = "BALANCE_COMPILE_HELPER"  # "0": no helper process
LOG = "BALANCE_COMPILE_HELPER_LOG"  # a file the helper writes its steps to, with their times
POLL_S = 0.05  # how often a wait looks at the cache again

_SCALARS = {str(t): t for t in (types.boolean, types.int8, types.int16, types.int32,
                                types.int64, types.uint8, types.uint16, types.uint32,
                                types.uint64, types.float32, types.float64)}
_ARRAY = re.compile(r"(readonly )?array\((\w+), (\d+)d, ([CFA])\)")
_WORD = re.compile(r"[\w.]+(:[\w.]+)?")  # a scalar, an alias, or module:Class


def type_text(t, aliases: dict | None = None) -> str | None:
    """A Numba type as plan text, or None for a type plans do not hold. Named tuples are
    written `module:Class(fields)`, or by their alias where `aliases` (type -> name) has one."""
    if aliases and t in aliases:
        return aliases[t]
    if str(t) in _SCALARS and _SCALARS[str(t)] == t:
        return str(t)
    if isinstance(t, types.Array):
        m = _ARRAY.fullmatch(str(t))
        return str(t) if m and t.aligned and str(t.dtype) in _SCALARS else None
    if isinstance(t, types.BaseTuple):
        fields = [type_text(x, aliases) for x in t.types]
        if None in fields:
            return None
        inner = ", ".join(fields)
        if isinstance(t, types.BaseNamedTuple):
            cls = t.instance_class
            return f"{cls.__module__}:{cls.__qualname__}({inner})"
        return f"({inner})"
    return None


class PlanError(ValueError):
    """A plan's text that does not read as a plan."""


class _Reader:
    """Plan type text back to Numba types (type_text's inverse)."""

    def __init__(self, text: str, aliases: dict):
        self.s, self.i, self.aliases = text, 0, aliases

    def done(self) -> bool:
        return self.i >= len(self.s)

    def _peek(self, lit: str) -> bool:
        return self.s.startswith(lit, self.i)

    def _eat(self, lit: str) -> None:
        if not self._peek(lit):
            raise PlanError(f"expected {lit!r} at {self.i} of {self.s[:80]!r}")
        self.i += len(lit)

    def _list(self) -> list:
        self._eat("(")
        out = []
        while not self._peek(")"):
            out.append(self.one())
            if self._peek(", "):
                self._eat(", ")
        self._eat(")")
        return out

    def one(self):
        m = _ARRAY.match(self.s, self.i)
        if m:
            self.i = m.end()
            dtype = _SCALARS.get(m.group(2))
            if dtype is None:
                raise PlanError(f"unknown element type {m.group(2)!r}")
            return types.Array(dtype, int(m.group(3)), m.group(4), readonly=bool(m.group(1)))
        if self._peek("("):
            return types.BaseTuple.from_types(self._list())
        m = _WORD.match(self.s, self.i)
        if not m:
            raise PlanError(f"no type at {self.i} of {self.s[:80]!r}")
        self.i = m.end()
        word = m.group(0)
        if word in self.aliases:
            return self.aliases[word]
        if word in _SCALARS:
            return _SCALARS[word]
        if m.group(1):
            return types.BaseTuple.from_types(self._list(), resolve(word))
        raise PlanError(f"unknown type {word!r}")


def read_type(text: str, aliases: dict | None = None):
    r = _Reader(text, aliases or {})
    t = r.one()
    if not r.done():
        raise PlanError(f"text after the type in {text[:80]!r}")
    return t


def resolve(ref: str):
    """`module:qualname` to the object."""
    module, _, qual = ref.partition(":")
    obj = importlib.import_module(module)
    for part in qual.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class Step:
    action: str  # "compile" or "wait"
    kernel: str  # module:qualname
    args: tuple  # Numba types


def read_plan(path: Path) -> list[Step]:
    """A plan file's steps. PlanError names the line that does not read."""
    aliases: dict = {}
    steps = []
    for no, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        try:
            if word == "type":
                name, _, text = rest.partition(" = ")
                aliases[name] = read_type(text, aliases)
            elif word in ("compile", "wait"):
                kernel, _, args = rest.partition("(")
                steps.append(Step(word, kernel, tuple(read_type(f"({args}", aliases))))
            else:
                raise PlanError(f"unknown step {word!r}")
        except (PlanError, ImportError, AttributeError) as e:
            raise PlanError(f"{path}, line {no}: {e}") from None
    return steps


def cached(disp, args: tuple) -> bool:
    """Whether the on-disk cache holds `disp` compiled for `args`, without loading it."""
    cache = getattr(disp, "_cache", None)
    if cache is None or not hasattr(cache, "_cache_file"):
        return False
    key = cache._index_key(args, disp.targetctx.codegen())
    return key in cache._cache_file._load_index()


def _wanted(disp, args) -> bool:
    """Whether a first call of `disp` with `args` would compile: nothing of it is loaded
    here and the cache lacks it."""
    if getattr(disp, "overloads", True) or not hasattr(getattr(disp, "_cache", None),
                                                        "_cache_file"):
        # loaded already (every call after the first), a plain function (the JIT is off), or
        # no cache on disk
        return False
    if os.environ.get(SWITCH) == "0" or (os.cpu_count() or 1) < 2:
        return False
    return not cached(disp, tuple(types.unliteral(typeof(a)) for a in args))


@contextlib.contextmanager
def helping(plan: Path, disp, args):
    """Around the first call of the kernel `disp` with `args`: if that call will compile,
    a helper process follows `plan` meanwhile; it is stopped when the call returns (what it
    left unfinished, the call compiled itself)."""
    if not _wanted(disp, args) or not plan.is_file():
        yield
        return
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p))
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "balance.kernels.compile_plan", str(plan)],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            cwd=ROOT, env=env)
    except OSError:  # no process to be had: the call compiles alone, as without a plan
        yield
        return
    try:
        yield
    finally:
        proc.kill()
        proc.wait()
        proc.stdin.close()


def follow(steps: list[Step], say=lambda line: None) -> None:
    """The helper's work: each step in order."""
    start = time.perf_counter()
    for step in steps:
        try:
            disp = resolve(step.kernel)
        except (ImportError, AttributeError):  # a stale step: renamed or gone
            continue
        if step.action == "wait":
            t = time.perf_counter()
            while not cached(disp, step.args):
                time.sleep(POLL_S)
            if time.perf_counter() - t > POLL_S:
                say(f"{t - start:6.2f} waited {time.perf_counter() - t:.2f} s for "
                    f"{step.kernel}")
        elif not cached(disp, step.args):
            t = time.perf_counter()
            try:
                disp.compile(step.args)
            except Exception as e:  # a stale step: the first process compiles what it needs
                say(f"failed {step.kernel}: {type(e).__name__}")
                continue
            say(f"{t - start:6.2f} compiled {step.kernel} in {time.perf_counter() - t:.2f} s")


def _exit_with_parent() -> None:
    """The parent holds our stdin open; end when it closes (the parent ended)."""
    sys.stdin.read()
    os._exit(0)


def main(argv: list[str]) -> None:
    threading.Thread(target=_exit_with_parent, daemon=True).start()
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: no os.nice here
        os.nice(5)  # the first process's compile comes first
    log = os.environ.get(LOG)
    with open(log, "a", buffering=1) if log else contextlib.nullcontext() as out:
        follow(read_plan(Path(argv[0])), say=(lambda line: print(line, file=out)) if out
               else lambda line: None)


if __name__ == "__main__":
    main(sys.argv[1:])
