"""One place to configure Numba. NUMBA_DISABLE_JIT=1 runs the same code as plain Python.

Five settings here, each measured (see README, Performance):
- Calls between kernels are typed with plain (non-literal) argument types. By default Numba
  compiles a fresh copy of a kernel for every distinct constant passed to it (a decision kind,
  an event code): that recompiled the whole player once per call site, 300 s of compile time.
- No NRT (reference counting): kernels never allocate, and with NRT every call between kernels
  paid an atomic incref/decref for each of the ~60 arrays in the state and tables; removing
  it made games 6x faster.
- Calls are dear. Numba passes a NamedTuple of arrays flattened, by value: every call between
  kernels that takes the state and tables pushed ~500 words (4 KB) on the stack, ~160 ns,
  before the state's arrays were grouped (state.py); ~300 words now. So small kernels (cache
  checks, the decision dispatch) and kernels with a single caller are pasted into their
  callers by Numba: `@njit(inline=True)`. LLVM inlines only small callees on its own.
- LLVM's inliner may paste callees up to a cost of INLINE_THRESHOLD (LLVM's default is 225).
  Numba links a copy of every kernel a kernel calls into its library, and LLVM optimises each
  copy again there; with the default, how the copy of greedy inside the game loop came out
  moved by up to 25% with small edits, and which copy a process ran depended on whether it
  compiled or loaded from the cache. At 3,000 every game runs about 18% faster, the same
  games (1,500: 10%; 600: 20% slower), and the cold compile takes about as long. The setting
  is process-wide: Numba code of your own in the same process is compiled with it too.
- The on-disk cache lives in a folder named by a hash of every source file the kernels are
  built from. Numba only checks a function's own file for changes, so after an edit to, say,
  cards_nb.py, the cached callers would otherwise keep running the old code. Folders of
  older sources are removed after a week unused (prune_cache).
"""

import hashlib
import os
import shutil
import time
from pathlib import Path

import llvmlite.binding as llvm
from numba import config, types
from numba.core.registry import CPUDispatcher

INLINE_THRESHOLD = 3000
# An option of LLVM's own, read by every later compile in this process. It is not part of
# Numba's cache key; the source hash below is, and this file is one of its sources.
llvm.set_option("gemrush", f"-inline-threshold={INLINE_THRESHOLD}")

_ROOT = Path(__file__).resolve().parents[2]
_GAME = _ROOT / "balance" / "games" / "gemrush"
_SOURCES = sorted([*(_ROOT / "balance" / "kernels").glob("*.py"),
                   *(_GAME / "engine").glob("*.py"),
                   *(_ROOT / "heuristics").glob("*.py"),
                   *(_ROOT / "heuristics" / "gemrush").glob("*.py"),
                   _GAME / "tables.py", _GAME / "ability.py", _GAME / "skill.py"])


def source_hash() -> str:
    h = hashlib.sha256()
    for p in _SOURCES:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


STALE_DAYS = 7  # a cache folder of other sources unused this long is removed...
KEEP_FOLDERS = 3  # ...unless it is among the most recently used


def prune_cache(base: Path, current: Path, now: float | None = None) -> list[Path]:
    """Remove compiled code of older engine sources: every edit of the engine, and every
    update of the toolkit, leaves a ~30 MB folder behind. A folder counts as used when a
    process last started with it (its `.last_used` file). Returns the folders removed."""
    now = time.time() if now is None else now
    folders = []
    for d in base.iterdir() if base.is_dir() else ():
        if d.is_dir() and d != current and len(d.name) == 16 and all(
                c in "0123456789abcdef" for c in d.name):
            mark = d / ".last_used"
            folders.append((mark.stat().st_mtime if mark.exists() else d.stat().st_mtime, d))
    folders.sort(reverse=True)
    removed = []
    for used, d in folders[KEEP_FOLDERS:]:
        if now - used > STALE_DAYS * 86400:
            shutil.rmtree(d, ignore_errors=True)
            removed.append(d)
    return removed


if not os.environ.get("NUMBA_CACHE_DIR"):
    _base = Path(os.environ.get("GEMRUSH_CACHE", _ROOT / ".numba_cache"))
    _current = _base / source_hash()
    config.CACHE_DIR = str(_current)
    try:
        _current.mkdir(parents=True, exist_ok=True)
        (_current / ".last_used").touch()
        prune_cache(_base, _current)
    except OSError:
        pass  # a read-only or shared cache: Numba reports what matters when it writes there


class PlainArgsDispatcher(CPUDispatcher):
    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def njit(fn=None, *, inline=False):
    """`@njit`, or `@njit(inline=True)` for a small kernel, or one with a single caller, that
    Numba should paste into its callers (see "Calls are dear" above)."""
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
