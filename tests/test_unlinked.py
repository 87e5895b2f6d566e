"""Calls between kernels whose callee's code is not compiled into the caller: unlinked calls
(balance/kernels/unlinked.py), by the callee's symbol, and linked ones (jit.py,
`_module_for_linking`), whose callee's code the caller links available_externally so that what
LLVM does not paste in is a call to the callee's own code. A caller loaded from the on-disk
cache loads those callees first, under the names it was compiled against; without that, its
call would jump to address 0, or LLVM could not resolve it, and the process would die."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from balance.kernels import unlinked

ROOT = Path(__file__).resolve().parents[1]

TOY = textwrap.dedent("""\
    import numpy as np

    from balance.kernels.jit import njit
    from balance.kernels.unlinked import unlinked


    @njit
    def other(k):  # compiled first, it shifts the numbers in the names of later kernels
        return k + 1


    @njit
    def weigh(x, k):
        s = 0.0
        for i in range(x.shape[0]):
            s += x[i] * k
        return s


    _weigh = unlinked(weigh)


    @njit
    def inner(x, k):
        return _weigh(x, k) + 1.0


    @njit
    def outer(x, k):  # links inner, which calls weigh unlinked
        return inner(x, k) * 2.0
""")

RUN = ("import sys, numpy as np; sys.path.insert(0, {folder!r}); import toy_kernels as t; "
       "hits = lambda f: sum(f.stats.cache_hits.values()) if hasattr(f, 'stats') else '-'; "
       "print(t.outer(np.arange(5.0), 2), hits(t.outer), hits(t.weigh))")


def _run(folder: Path, env: dict | None = None, code: str = RUN) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code.format(folder=str(folder))],
                         capture_output=True, text=True, cwd=ROOT, env=env,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split()


def test_a_caller_loaded_from_the_cache_loads_its_unlinked_callees_first(tmp_path):
    (tmp_path / "toy_kernels.py").write_text(TOY)
    # 2 * ((0 + 1 + 2 + 3 + 4) * 2 + 1) = 42
    assert _run(tmp_path) == ["42.0", "0", "0"]  # compiled
    # A new process loads outer from the cache, and weigh (never called here) before it.
    assert _run(tmp_path) == ["42.0", "1", "1"]


def test_a_callee_cached_by_another_process_is_found_under_the_caller_s_name(tmp_path):
    """Numba names a compiled kernel with a number drawn anew in each process, so a callee
    compiled by another process than its cached caller's has another name."""
    (tmp_path / "toy_kernels.py").write_text(TOY)
    assert _run(tmp_path) == ["42.0", "0", "0"]  # outer, inner and weigh cached together
    for f in (tmp_path / "__pycache__").glob("toy_kernels.weigh-*"):
        f.unlink()
    again = ("import sys, numpy as np; sys.path.insert(0, {folder!r}); import toy_kernels as t; "
             "t.other(1); print(t.weigh(np.arange(5.0), 2))")
    out = subprocess.run([sys.executable, "-c", again.format(folder=str(tmp_path))],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.stdout.split() == ["20.0"], out.stderr[-2000:]  # weigh cached anew, renamed
    assert _run(tmp_path) == ["42.0", "1", "1"]


def test_without_the_jit_it_is_the_kernel_itself(tmp_path):
    (tmp_path / "toy_kernels.py").write_text(TOY)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    assert _run(tmp_path, env) == ["42.0", "-", "-"]


class _Lib:
    def __init__(self, own=(), links=()):
        setattr(self, unlinked.REACHES, frozenset(own))
        self._linking_libraries = list(links)


def test_reached_gathers_the_callees_of_every_linked_library_deepest_first():
    a, b, c = ("m", "a", (), "sa"), ("m", "b", (), "sb"), ("m", "c", (), "sc")
    shared = _Lib([c])
    top = _Lib([a], [_Lib([b], [shared]), shared])
    # c is called by code that b's library holds, and b by top's: load() takes them so.
    assert unlinked.reached(top) == (c, b, a)
    assert unlinked.reached(_Lib()) == ()


def test_a_library_loaded_from_the_cache_keeps_the_order_it_was_stored_in():
    a, b, c = ("m", "a", (), "sa"), ("m", "b", (), "sb"), ("m", "c", (), "sc")
    loaded = _Lib()
    unlinked.mark(loaded, (c, a, b))
    assert unlinked.reached(_Lib([b], [loaded])) == (c, a, b)


LINKED = textwrap.dedent("""\
    from balance.kernels.jit import njit


    @njit
    def other(k):  # compiled first, it shifts the numbers in the names of later kernels
        return k + 1


    @njit
    def steps(n):  # recursive, so that no caller can paste all of it in: a call remains
        if n <= 0:
            return 0
        return 1 + steps(n - 1)


    @njit
    def outer(n):
        return steps(n) * 2
""")

LINKED_RUN = ("import sys; sys.path.insert(0, {folder!r}); import toy_linked as t; "
              "hits = lambda f: sum(f.stats.cache_hits.values()); "
              "print(t.outer(20), hits(t.outer), hits(t.steps))")


def test_a_caller_loaded_from_the_cache_loads_the_callees_it_links_first(tmp_path):
    (tmp_path / "toy_linked.py").write_text(LINKED)
    assert _run(tmp_path, code=LINKED_RUN) == ["40", "0", "0"]  # compiled
    # A new process loads outer from the cache, and steps (never called here) before it.
    assert _run(tmp_path, code=LINKED_RUN) == ["40", "1", "1"]


def test_a_linked_callee_cached_by_another_process_is_found_under_the_caller_s_name(tmp_path):
    (tmp_path / "toy_linked.py").write_text(LINKED)
    assert _run(tmp_path, code=LINKED_RUN) == ["40", "0", "0"]  # outer and steps cached together
    for f in (tmp_path / "__pycache__").glob("toy_linked.steps-*"):
        f.unlink()
    again = ("import sys; sys.path.insert(0, {folder!r}); import toy_linked as t; "
             "t.other(1); print(t.steps(7))")
    assert _run(tmp_path, code=again) == ["7"]  # steps cached anew, under another name
    assert _run(tmp_path, code=LINKED_RUN) == ["40", "1", "1"]


def test_a_callee_loaded_from_the_cache_gives_its_code_to_a_new_caller(tmp_path):
    """A library loaded from the cache leaves its code for callers unread (jit.py,
    _unserialize) until a caller compiled in this process links it: then its code is there,
    so that LLVM may paste it in, and the caller's call is right."""
    (tmp_path / "toy_linked.py").write_text(LINKED)
    assert _run(tmp_path, code=("import sys; sys.path.insert(0, {folder!r}); "
                                "import toy_linked as t; print(t.steps(7))")) == ["7"]
    code = ("import sys; sys.path.insert(0, {folder!r}); import toy_linked as t\n"
            "t.steps(7)\n"
            "(cres,) = t.steps.overloads.values()\n"
            "unread = hasattr(cres.library, '_balance_bitcode')\n"
            "print(unread, t.outer(20), sum(t.steps.stats.cache_hits.values()))\n"
            "fn = cres.library._get_module_for_linking().get_function(cres.fndesc.mangled_name)\n"
            "print(bool(fn.is_declaration), fn.linkage.name)\n")
    assert _run(tmp_path, code=code) == ["True", "40", "1", "False",
                                         "available_externally"]
