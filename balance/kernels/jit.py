"""One place to configure Numba. NUMBA_DISABLE_JIT=1 runs the same code as plain Python.

Eight settings here, each measured (results/performance.md):
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
  callers: `@njit(inline=True)`. LLVM pastes them (its `alwaysinline`, set on the code their
  callers link). Numba's own `inline="always"` did it by copying and typing their Python IR
  again in every caller: 22% of a cold compile more, the games as fast.
- LLVM's inliner may paste callees up to a cost of INLINE_THRESHOLD (LLVM's default is 225).
  With the default, how greedy pasted inside the game loop came out moved by up to 25% with
  small edits. At 3,000 every game ran about 18% faster, the same games (1,500: 10%; 600:
  20% slower). With today's callees linked rather than copied, 8,000 plays about 10% faster
  again than 3,000 (20,000 no faster still), for a cold compile about 25% longer (about 10 s
  more on 2 cores): a compile is once, the games are millions. The setting is process-wide:
  Numba code of your own in the same process is compiled with it too.
- A caller links its callees' code available_externally (`_module_for_linking`), where
  Numba makes it linkonce_odr: LLVM may still paste a callee in, but what it does not paste
  is a call to the callee's own compiled code, not a copy compiled again in every caller (and
  again in theirs). That took 28% off a cold compile, the games as fast (results/
  performance.md, "Cold compile"), and ended the two speeds of one code that came from a
  process binding its calls to whichever copy it loaded first. The price: a caller's code
  needs its callees loaded. A fresh compile has them (typing a call compiles the callee);
  the cache stores with each function every kernel its code calls, and loads them first,
  under the names the caller was compiled against. A cached library's code for callers is
  read only when a caller compiled in this process links it (`_unserialize`), so a cached
  process starts in about 1.1 s to its first game. Numba code of your own that calls these
  kernels must be decorated with this module's `njit`: Numba's own `cache=True` would not
  load them.
- No wrappers: Numba writes beside every function one that Python calls (it unboxes every
  argument, a hundred arrays' for a kernel that takes the state and the tables) and one for C.
  Kernels call each other directly, so only a few kernels need the first and none the second;
  compiling both for every kernel was 46% of a cold compile. A kernel's Python entry is built
  on its first call from Python and kept in the cache (python_entry.py).
- Calls made once a game, or off the fast path, are unlinked (balance/kernels/unlinked.py):
  by symbol, without even the callee's code to optimise inside the caller.
- Each module's compiled code lives in a folder of the on-disk cache named by a hash of the
  module's import closure (balance/kernels/sources.py): the module and every module of the
  project it imports, to the end. Numba only checks a function's own file, so after an edit
  to, say, cards_nb.py, the cached callers would otherwise keep running the old code; a
  folder per module (rather than one for every game's sources together) means an edit to one
  game's engine recompiles nothing of another game's, nor the neutral kernels, and covers a
  game the registry does not list (a test's toy game) without asking the registry, which
  cannot be read before Numba is configured. Folders unused for a week of use are removed
  (prune_cache). Several processes may save into one folder at once (cache_file.py).
"""

import contextlib
import os
import shutil
import warnings
from functools import cache
from pathlib import Path

import llvmlite.binding as llvm
from numba import config, types
from numba.core.caching import (
    CompileResultCacheImpl,
    FunctionCache,
    _CacheLocator,
    _SourceFileBackedLocatorMixin,
)
from numba.core.codegen import CPUCodeLibrary
from numba.core.registry import CPUDispatcher

from balance.kernels import cache_file, python_entry, sources, unlinked

INLINE_THRESHOLD = 8000
# An option of LLVM's own, read by every later compile in this process. It is not part of
# Numba's cache key; the cache folders' hash is, and this file is in every kernel's closure.
llvm.set_option("balance", f"-inline-threshold={INLINE_THRESHOLD}")

# $NUMBA_CACHE_DIR (an empty one times a cold compile: balance bench), else $BALANCE_CACHE.
CACHE_BASE = Path(os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("BALANCE_CACHE")
                  or sources.ROOT / ".numba_cache")
STALE_DAYS = 7  # a folder unused while others were used this long is removed


@cache
def cache_folder(py_file: str) -> Path | None:
    """The cache folder of a module's compiled code: CACHE_BASE / the hash of its import
    closure, the module's name mixed in so that two modules never share one. None for a file
    outside the project (Numba then caches it by its own rule). Marked used (`.last_used`)."""
    module = sources.module_name(Path(py_file))
    if module is None or sources.module_path(module) is None:
        return None
    folder = CACHE_BASE / sources.digest(sources.closure([module]), salt=module)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / ".last_used").touch()
    except OSError:
        pass  # read-only: the locator finds it unwritable and the code is compiled in memory
    return folder


def prune_cache(base: Path) -> list[Path]:
    """Remove compiled code of older sources: every edit of a kernel module, and every update
    of the toolkit, leaves folders behind. A folder counts as used when a process last
    decorated a kernel of its module (its `.last_used` file). A folder is removed once it was
    unused for STALE_DAYS while some folder was used, so that after a month away the code of
    the last week of work is still there. Returns the folders removed."""
    folders = []
    for d in base.iterdir() if base.is_dir() else ():
        if d.is_dir() and len(d.name) == 16 and all(c in "0123456789abcdef" for c in d.name):
            mark = d / ".last_used"
            folders.append((mark.stat().st_mtime if mark.exists() else d.stat().st_mtime, d))
    if not folders:
        return []
    newest = max(used for used, _ in folders)
    removed = []
    for used, d in sorted(folders):
        if newest - used > STALE_DAYS * 86400:
            shutil.rmtree(d, ignore_errors=True)
            removed.append(d)
    return removed


with contextlib.suppress(OSError):  # a read-only or shared cache: leave it as it is
    prune_cache(CACHE_BASE)


class _ClosureLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
    """Numba's locator for a source file, with the folder of cache_folder."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_folder(py_file))

    def get_cache_path(self):
        return self._cache_path


class _ReachesCacheImpl(CompileResultCacheImpl):
    """Numba's cache of compiled functions, with the unlinked callees each one's code calls
    stored beside it and loaded before it (balance/kernels/unlinked.py)."""

    def reduce(self, cres):
        return unlinked.reached(cres.library), super().reduce(cres)

    def rebuild(self, context, payload):
        reaches, inner = payload
        unlinked.load(reaches)
        cres = super().rebuild(context, inner)
        unlinked.mark(cres.library, reaches)
        return cres


class _ClosureCacheImpl(_ReachesCacheImpl):
    _locator_classes = [_ClosureLocator]


class _KeyedCache(FunctionCache):
    """Numba's cache of a function, its files safe to save from several processes at once
    (cache_file.py)."""

    def __init__(self, py_func):
        super().__init__(py_func)
        cache_file.keyed(self)


class _ClosureCache(_KeyedCache):
    _impl_class = _ClosureCacheImpl


class _ReachesCache(_KeyedCache):
    _impl_class = _ReachesCacheImpl


_UNCACHED: list[str] = []  # cache folders found unwritable, warned of once each


def _enable_caching(disp: CPUDispatcher, fn) -> None:
    folder = cache_folder(fn.__code__.co_filename)
    if folder is None:  # Numba's own place, and the unlinked callees stored
        disp._cache = _ReachesCache(fn)
        return
    try:
        disp._cache = _ClosureCache(fn)
    except RuntimeError:  # no locator: the folder cannot be written
        if str(folder) not in _UNCACHED:
            _UNCACHED.append(str(folder))
            warnings.warn(f"cannot write the Numba cache folder {folder}: {fn.__module__} is "
                          "compiled anew in every process", stacklevel=3)


ALWAYS_INLINE = "_balance_always_inline"  # a library whose callers must paste it in
NEVER_INLINE = "_balance_never_inline"  # a library no caller may paste in (njit(cold=True))
KEY = "_balance_kernel"  # attribute of a kernel's code library: unlinked.load's key for it

_numba_module_for_linking = CPUCodeLibrary._get_module_for_linking
_numba_add_linking_library = CPUCodeLibrary.add_linking_library
_numba_serialize = CPUCodeLibrary.serialize_using_object_code
_numba_unserialize = CPUCodeLibrary._unserialize.__func__
_numba_optimize_final_module = CPUCodeLibrary._optimize_final_module
STORED = "object, symbols"  # how _serialize stores a library


def _module_for_linking(self):
    """A kernel's code as its callers link it: Numba marks its functions linkonce_odr, so that
    every caller compiles a copy of what it does not inline. available_externally lets LLVM
    inline them as before, and makes a call it does not inline go to the kernel's own code.
    The entry of a kernel declared `inline=True` is marked alwaysinline: every caller pastes
    it in."""
    bitcode = self.__dict__.pop("_balance_bitcode", None)
    if bitcode is not None:  # loaded from the cache: _unserialize left its code unread
        self._shared_module = llvm.parse_bitcode(bitcode)
    key = getattr(self, KEY, None)
    if key is None:
        return _numba_module_for_linking(self)
    self._ensure_finalized()
    if self._shared_module is None:
        mod = self._final_module.clone()
        for fn in mod.functions:
            if not fn.is_declaration and fn.linkage == llvm.Linkage.external:
                fn.linkage = "available_externally"
                if getattr(self, ALWAYS_INLINE, False) and fn.name == key[3]:
                    fn.add_function_attribute("alwaysinline")
                if getattr(self, NEVER_INLINE, False) and fn.name == key[3]:
                    fn.add_function_attribute("noinline")
        self._shared_module = mod
    return self._shared_module


def _add_linking_library(self, library):
    _numba_add_linking_library(self, library)
    key = getattr(library, KEY, None)
    if key is not None:  # the caller's code now calls the kernel's: load it first
        unlinked.add_reach(self, key)


def _serialize(self):
    """Numba's cached form of a library (its machine code, and its code for callers to link),
    with the names of the symbols it defines, so that _unserialize need not read its code."""
    name, kind, (machine_code, bitcode) = _numba_serialize(self)
    mod = self._get_module_for_linking()
    symbols = tuple(v.name for defined in (mod.functions, mod.global_variables)
                    for v in defined if not v.is_declaration)
    return name, STORED, (machine_code, bitcode, symbols)


def _unserialize(cls, codegen, state):
    """A library from the cache, its code for callers to link left unread until a new
    caller links it (_module_for_linking): reading every kernel's code, and listing its
    symbols from it, was a third of a process's start."""
    name, kind, data = state
    if kind != STORED:
        return _numba_unserialize(cls, codegen, state)
    machine_code, bitcode, symbols = data
    self = codegen.create_library(name)
    self.enable_object_caching()
    self._set_compiled_object(machine_code)
    self._balance_bitcode = bitcode
    self._finalize_final_module()
    codegen._engine._defined_symbols.update(symbols)
    return self


def _optimize_final_module(self):
    """Numba optimises each library's module twice: a first O3 run, meant to bring reference
    counting operations together for its refprune pass, then the full O3 run. The kernels
    hold no reference counting (no NRT), so the first run only costs: code that declares no
    NRT function gets the full run alone."""
    if any(fn.name.startswith("NRT_") for fn in self._final_module.functions):
        return _numba_optimize_final_module(self)
    mpm, mpb = self._codegen._module_pass_manager()
    with self._recorded_timings.record("Module passes (full optimization)", mpb):
        mpm.run(self._final_module, mpb)


CPUCodeLibrary._get_module_for_linking = _module_for_linking
CPUCodeLibrary._optimize_final_module = _optimize_final_module
CPUCodeLibrary.add_linking_library = _add_linking_library
CPUCodeLibrary.serialize_using_object_code = _serialize
CPUCodeLibrary._unserialize = classmethod(_unserialize)


class PlainArgsDispatcher(CPUDispatcher):
    def add_overload(self, cres):
        # Numba's add_overload also enters the Python entry in its C dispatch table; kernels
        # are compiled without one (python_entry.py), so _compile_for_args enters it when
        # Python first calls the kernel.
        self.overloads[tuple(cres.signature.args)] = cres
        f = self.py_func
        setattr(cres.library, KEY, (f.__module__, f.__qualname__, tuple(cres.signature.args),
                                    cres.fndesc.mangled_name))
        if getattr(self, ALWAYS_INLINE, False):
            setattr(cres.library, ALWAYS_INLINE, True)
        if getattr(self, NEVER_INLINE, False):
            setattr(cres.library, NEVER_INLINE, True)

    def _compile_for_args(self, *args, **kws):
        """A call from Python that the C dispatch table did not match: compile (or load) the
        kernel for these arguments, and give it its Python entry."""
        compiled = super()._compile_for_args(*args, **kws)
        entries = self.__dict__.setdefault("_python_entries", set())
        for sig, cres in self.overloads.items():
            if cres.entry_point is compiled and sig not in entries:
                entry = python_entry.make(self.targetctx, self._cache, cres)
                self.targetctx.insert_user_function(entry, cres.fndesc, [cres.library])
                self.overloads[sig] = cres._replace(entry_point=entry)
                self._insert([a._code for a in sig], entry, cres.objectmode)
                entries.add(sig)
                return entry
        return compiled

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def njit(fn=None, *, inline=False, cold=False):
    """`@njit`, or `@njit(inline=True)` for a small kernel, or one with a single caller, that
    LLVM must paste into its callers (see "Calls are dear" above), or `@njit(cold=True)` for
    one off the hot path (a switched-off expansion's rules) that LLVM must never paste in:
    pasted, its code changes how LLVM compiles the hot loop around it."""
    if fn is None:
        return lambda f: njit(f, inline=inline, cold=cold)
    if config.DISABLE_JIT:
        return fn
    opts = {"nopython": True, "nogil": True, "_nrt": False,
            # Kernels call each other directly; Python's entry is made on demand
            # (python_entry.py), and C's is never used.
            "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
    disp = PlainArgsDispatcher(py_func=fn, locals={}, targetoptions=opts)
    if inline:
        setattr(disp, ALWAYS_INLINE, True)
    if cold:
        setattr(disp, NEVER_INLINE, True)
    _enable_caching(disp, fn)
    return disp
