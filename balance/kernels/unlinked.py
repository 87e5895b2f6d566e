"""Calls that do not copy their callee into the caller: `unlinked(kernel)`.

Why: a caller links its callees' code into its own library (available_externally, jit.py),
so that LLVM can paste them in, and LLVM optimises that code again inside every caller
(`balance bench --compile-profile` shows it in the own times of kernels high in the call
graph): a game loop, and the players under every decision site, would be optimised again
inside each kernel above it, even one that calls it once a game.

An unlinked call declares the callee's symbol and calls the code that the callee's own library
compiled; the JIT's linker finds it when the caller's code is loaded. So that code must be
loaded first:
- a fresh compile of the caller types the call, and typing compiles (or loads) the callee;
- a caller loaded from the on-disk cache types nothing, so the cache (jit.py) stores with each
  function the unlinked callees its code reaches (`reached`) and loads them before it (`load`).
  Without that, the call would jump to address 0.

The cost is what LLVM can no longer do across the call: paste the callee into the caller, and
pass the state without pushing every array's fields. Use it where a call is rare (once a game,
or off the fast path), never on a hot one: unlinking the players' decision functions from the
decision sites took a further 23% off the cold compile but 15% off the games
(results/performance.md, "Cold compile").
"""

from __future__ import annotations

import importlib
import inspect

import llvmlite.binding as llvm
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

REACHES = "_balance_unlinked"  # attribute of a code library: the kernels its code calls (jit.py
# adds the linked ones), loaded before it
CALLEES = "_balance_unlinked_libraries"  # their libraries, where this process compiled it


def _key(disp, args: tuple, symbol: str) -> tuple:
    return (disp.py_func.__module__, disp.py_func.__qualname__, args, symbol)


def _typer(disp, given: tuple):
    """The intrinsic's typing: compile the callee for these (non-literal) argument types."""
    args = tuple(types.unliteral(a) for a in given)
    disp.compile(args)
    cres = disp.overloads[args]
    fndesc = cres.fndesc
    key = _key(disp, args, fndesc.mangled_name)

    def codegen(context, builder, signature, llargs):
        vals = [context.cast(builder, v, f, t) for v, f, t in zip(llargs, given, args,
                                                                    strict=True)]
        fnty = context.call_conv.get_function_type(fndesc.restype, fndesc.argtypes)
        fn = cgutils.get_or_insert_function(builder.module, fnty, fndesc.mangled_name)
        status, res = context.call_conv.call_function(builder, fn, fndesc.restype,
                                                      fndesc.argtypes, vals)
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        add_reach(context.active_code_library, key, cres.library)
        return res

    return cres.signature.return_type(*given), codegen


def unlinked(disp):
    """A callable for kernels that calls `disp` (a kernel) without linking a copy of it.
    Without the JIT, `disp` itself."""
    if config.DISABLE_JIT:
        return disp
    names = list(inspect.signature(disp.py_func).parameters)
    params = ", ".join(f"a{i}" for i in range(len(names)))
    # Numba's intrinsics need a fixed positional signature (a *args one fails to lower), so
    # the wrapper is written with the callee's arity.
    scope: dict = {"_typer": _typer, "_disp": disp}
    exec(f"def call(typingctx, {params}):\n    return _typer(_disp, ({params},))\n", scope)
    call = scope["call"]
    call.__name__ = call.__qualname__ = f"unlinked_{disp.py_func.__name__}"
    return intrinsic(call)


def add_reach(library, key: tuple, callee=None) -> None:
    """Record that the code `library` is compiling calls the kernel `key` (_key's), whose
    own library is `callee` where it is not one of `library`'s linked libraries."""
    setattr(library, REACHES, getattr(library, REACHES, frozenset()) | {key})
    if callee is not None:
        setattr(library, CALLEES, (*getattr(library, CALLEES, ()), callee))


def reached(library) -> tuple:
    """The callees the code of `library` calls: its own, and those of every library linked
    into it. Each comes after the callees its own code calls, where this process knows them,
    so that load() finds those loaded already: a load inside a load inside a load costs
    Numba's events at every level, a third of a second a process for the bench player's 176
    kernels."""
    out: dict = {}  # an ordered set
    seen: set = set()

    def visit(lib) -> None:
        if id(lib) in seen:
            return
        seen.add(id(lib))
        for callee in (*getattr(lib, "_linking_libraries", ()), *getattr(lib, CALLEES, ())):
            visit(callee)
        own = getattr(lib, REACHES, ())
        for key in own if isinstance(own, tuple) else sorted(own, key=_order):
            out.setdefault(key, None)

    visit(library)
    return tuple(out)


def _order(key: tuple) -> tuple:
    return key[0], key[1], key[3]


_LOADED: set = set()  # (module, qualname, symbol) of the keys load has made callable here


def load(keys) -> None:
    """Compile, or load from the cache, every callee in `keys` (reached's), and make the
    symbol each caller was compiled against name its code. A symbol holds a number Numba
    draws anew in every process: a callee compiled, or cached, by another process than the
    caller's carries another name, and the caller's would not be found."""
    for key in keys:
        module, qualname, args, symbol = key
        # Not the key itself: hashing its argument types (the state's, field by field) for
        # every callee of every kernel loaded was a fifth of a process's start.
        done = (module, qualname, symbol)
        if done in _LOADED:
            continue
        disp = importlib.import_module(module)
        for part in qualname.split("."):
            disp = getattr(disp, part)
        disp.compile(args)
        cres = disp.overloads[args]
        if cres.fndesc.mangled_name != symbol:
            llvm.add_symbol(symbol, cres.library.get_pointer_to_function(
                cres.fndesc.mangled_name))
        _LOADED.add(done)


def mark(library, keys) -> None:
    """Record on a library loaded from the cache the callees its code calls, in reached's
    order."""
    setattr(library, REACHES, tuple(keys))
