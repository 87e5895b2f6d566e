"""Kernels are compiled without the wrapper Python calls them through (jit.py); the first call
from Python builds it (balance/kernels/python_entry.py) and keeps it beside the kernel in the
cache, so that a later process reads it back. These run toy kernels in new processes, each in
a cache of its own (toy modules outside the project are cached in their __pycache__)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

TOY = textwrap.dedent("""\
    from balance.kernels.jit import njit


    @njit
    def other(k):  # compiled first, it shifts the numbers in the names of later kernels
        return k + 1


    @njit
    def inner(x, k):
        if k < 0:
            raise ValueError("k must not be negative")
        s = 0.0
        for i in range(x.shape[0]):
            s += x[i] * k
        return s


    @njit
    def outer(x, k):
        return inner(x, k) + 1.0
""")

# Prints outer's and inner's results, then whether each entry was built in this process.
RUN = textwrap.dedent("""\
    import sys, numpy as np
    sys.path.insert(0, {folder!r})
    from balance.kernels import python_entry
    built = []
    _build = python_entry._build
    python_entry._build = lambda ctx, cres: built.append(cres.fndesc.qualname) or _build(ctx, cres)
    import toy_entry as t
    {first}
    x = np.arange(5.0)
    first = t.outer(x, 2.0), {call_inner} and t.inner(x, 2.0), t.outer(x, 3.0)
    print(*first, ",".join(built) or "-")
""")


def _own_cache(env: dict | None = None) -> dict:
    """The environment with Numba's own place for toy modules, their __pycache__, whatever
    cache folder the suite was run with."""
    env = dict(os.environ if env is None else env)
    env.pop("NUMBA_CACHE_DIR", None)
    return env


def _run(folder: Path, call_inner: bool = True, env: dict | None = None,
         first: str = "") -> list[str]:
    code = RUN.format(folder=str(folder), call_inner=call_inner, first=first)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env=_own_cache(env), timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split()


def _entries(folder: Path) -> list[str]:
    return sorted(p.name.split(".")[1] for p in (folder / "__pycache__").glob("*.nbentry"))


@pytest.fixture
def toy(tmp_path):
    (tmp_path / "toy_entry.py").write_text(TOY)
    return tmp_path


def test_only_a_kernel_python_calls_gets_an_entry_and_the_next_process_reads_it(toy):
    # inner is called by outer alone: no entry of its own.
    assert _run(toy, call_inner=False) == ["21.0", "False", "31.0", "outer"]
    assert _entries(toy) == ["outer-19"]
    # Called from Python too, it gets one; outer's is read back from the cache.
    assert _run(toy) == ["21.0", "20.0", "31.0", "inner"]
    assert _entries(toy) == ["inner-9", "outer-19"]
    assert _run(toy) == ["21.0", "20.0", "31.0", "-"]


def test_an_entry_for_other_code_is_never_used(toy):
    """An entry names the kernel's symbol. A kernel compiled again in another order (here: its
    cached code removed, and another kernel compiled first) has another symbol, and a new
    entry is built for it."""
    assert _run(toy, call_inner=False)[-1] == "outer"
    for f in (toy / "__pycache__").iterdir():
        if not f.name.endswith(".nbentry"):
            f.unlink()
    assert _run(toy, call_inner=False, first="t.other(1)") == ["21.0", "False", "31.0",
                                                             "other,outer"]
    assert _entries(toy) == ["other-4", "outer-19", "outer-19"]  # the old one is never read


def test_a_damaged_entry_is_built_again(toy):
    assert _run(toy, call_inner=False)[-1] == "outer"
    for f in (toy / "__pycache__").glob("*.nbentry"):
        f.write_bytes(b"not an entry")
    assert _run(toy, call_inner=False) == ["21.0", "False", "31.0", "outer"]
    assert _run(toy, call_inner=False)[-1] == "-"


def test_an_error_inside_a_kernel_reaches_python_through_the_entry(toy):
    code = (f"import sys, numpy as np; sys.path.insert(0, {str(toy)!r}); import toy_entry as t\n"
            "try:\n    t.outer(np.arange(3.0), -1.0)\n"
            "except ValueError as e:\n    print('ValueError:', e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env=_own_cache(), timeout=300)
    assert out.stdout.strip() == "ValueError: k must not be negative", out.stderr[-2000:]


def test_without_the_jit_the_kernels_are_plain_python(toy):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    assert _run(toy, env=env) == ["21.0", "20.0", "31.0", "-"]
    assert not (toy / "__pycache__").exists() or not _entries(toy)
