"""A kernel's Python entry, compiled on its first call from Python and kept on disk.

Why: Numba compiles two wrappers beside every function: one that Python calls (it unboxes each
argument: for a kernel that takes the state and the tables, a hundred arrays' checks and
fields) and one for C callers. Kernels call each other directly, so only the few kernels that
Python calls use the first, and no one uses the second. Writing and optimising both for all
176 kernels of the first game's bench player was 46% of a cold compile (`balance bench
--compile-profile`: 120 s with them, 65 s without, one sitting; results/performance.md,
"Cold compile").

So jit.py compiles kernels without either (`no_cpython_wrapper`, `no_cfunc_wrapper`), and the
first call of a kernel from Python in a process builds its entry here: a library holding the
wrapper alone, which calls the kernel's code by its symbol. It is written to the kernel's cache
folder beside the kernel and read back by later processes, named for the kernel's symbol, so
that a kernel compiled again (another symbol) never meets the entry of its old code.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import tempfile
from pathlib import Path

from llvmlite import ir
from numba import _dynfunc
from numba.core import cgutils
from numba.core.callwrapper import PyCallWrapper
from numba.core.compiler_lock import global_compiler_lock

SUFFIX = ".nbentry"


def _path(cache, cres) -> Path | None:
    """Where the entry of `cres` is kept: the kernel's cache folder, or None without one."""
    folder = getattr(cache, "cache_path", None)
    impl = getattr(cache, "_impl", None)
    if folder is None or impl is None:
        return None
    sig = f"{cres.fndesc.mangled_name}|{cres.signature}".encode()
    return Path(folder) / f"{impl.filename_base}.{hashlib.sha256(sig).hexdigest()[:16]}{SUFFIX}"


def _build(targetctx, cres):
    """A library with the kernel's Python wrapper, calling the kernel's code by its symbol."""
    fndesc = cres.fndesc
    codegen = targetctx.codegen()
    library = codegen.create_library(f"{fndesc.qualname}.python_entry")
    library.enable_object_caching()  # so that _save can store its machine code
    module = targetctx.create_module("python_entry")
    envname = targetctx.get_env_name(fndesc)
    if codegen._engine.is_symbol_defined(envname):
        # The kernel's code defines its environment pointer: share it, so that the pointer
        # the wrapper checks is the one set below.
        ir.GlobalVariable(module, cgutils.voidptr_t, name=envname).linkage = "external"
    fnty = targetctx.call_conv.get_function_type(fndesc.restype, fndesc.argtypes)
    kernel = ir.Function(module, fnty, fndesc.llvm_func_name)
    PyCallWrapper(targetctx, module, kernel, fndesc, cres.environment, call_helper=None,
                  release_gil=True).build()
    library.add_ir_module(module)
    library.finalize()
    return library


def _load(targetctx, path: Path, name: str):
    try:
        stored_name, state = pickle.loads(path.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError):
        return None
    if stored_name != name:
        return None
    return targetctx.codegen().unserialize_library(state)


def _save(path: Path, name: str, library) -> None:
    """Write atomically; a folder that cannot be written keeps nothing (the next process
    builds the entry again). Not balance.files.write_atomic: the kernels import nothing of
    the rest of the toolkit (tests/test_layers.py)."""
    data = pickle.dumps((name, library.serialize_using_object_code()), protocol=5)
    with contextlib.suppress(OSError):
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def make(targetctx, cache, cres):
    """The callable Python calls for the compiled kernel `cres`: its entry loaded from the
    cache folder, or built (and stored there)."""
    fndesc = cres.fndesc
    name = fndesc.llvm_cpython_wrapper_name
    path = _path(cache, cres)
    with global_compiler_lock:
        library = _load(targetctx, path, name) if path is not None and path.exists() else None
        if library is None:
            library = _build(targetctx, cres)
            if path is not None:
                _save(path, name, library)
        pointer = library.get_pointer_to_function(name)
        if not pointer:
            raise RuntimeError(f"the Python entry of {fndesc.qualname} was not compiled")
        targetctx.codegen().set_env(targetctx.get_env_name(fndesc), cres.environment)
    return _dynfunc.make_function(fndesc.lookup_module(), fndesc.qualname.split(".")[-1],
                                  f"compiled wrapper for {fndesc.qualname!r}", pointer,
                                  cres.environment, (library, cres.library))
