"""One place to configure Numba. NUMBA_DISABLE_JIT=1 runs the same code as plain Python.

Four settings here, each measured (see README, Performance):
- Calls between kernels are typed with plain (non-literal) argument types. By default Numba
  compiles a fresh copy of a kernel for every distinct constant passed to it (a decision kind,
  an event code): that recompiled the whole player once per call site, 300 s of compile time.
- No NRT (reference counting): kernels never allocate, and with NRT every call between kernels
  paid an atomic incref/decref for each of the ~60 arrays in the state and tables; removing
  it made games 6x faster.
- Calls are dear. Numba passes a NamedTuple of arrays flattened, by value: every call between
  kernels that takes the state and tables pushes ~500 words (4 KB) on the stack, ~160 ns.
  So cache checks sit in small wrappers that LLVM inlines, and a few kernels with a single
  caller are pasted into it by Numba (`@njit(inline=True)`).
- The on-disk cache lives in a folder named by a hash of every source file the kernels are
  built from. Numba only checks a function's own file for changes, so after an edit to, say,
  cards_nb.py, the cached callers would otherwise keep running the old code.
"""

import hashlib
import os
from pathlib import Path

from numba import config, types
from numba.core.registry import CPUDispatcher

_ROOT = Path(__file__).resolve().parents[2]
_SOURCES = sorted([*(_ROOT / "balance" / "engine").glob("*.py"),
                   *(_ROOT / "heuristics").glob("*.py"),
                   _ROOT / "balance" / "tables.py", _ROOT / "balance" / "ability.py"])


def source_hash() -> str:
    h = hashlib.sha256()
    for p in _SOURCES:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


if not os.environ.get("NUMBA_CACHE_DIR"):
    base = Path(os.environ.get("GEMRUSH_CACHE", _ROOT / ".numba_cache"))
    config.CACHE_DIR = str(base / source_hash())


class PlainArgsDispatcher(CPUDispatcher):
    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def njit(fn=None, *, inline=False):
    """`@njit`, or `@njit(inline=True)` for a kernel with one caller that Numba should paste
    into that caller (see "Calls are dear" above)."""
    if fn is None:
        return lambda f: njit(f, inline=inline)
    if config.DISABLE_JIT:
        return fn
    opts = {"nopython": True, "nogil": True, "_nrt": False}
    if inline:
        opts["inline"] = "always"
    disp = PlainArgsDispatcher(py_func=fn, locals={}, targetoptions=opts)
    disp.enable_caching()
    return disp
