"""Calls between kernels (balance/kernels/jit.py, `_module_for_linking`): a caller links its
callee's code available_externally, so what LLVM does not paste into the caller is a call to
the callee's own compiled code. A caller loaded from the on-disk cache therefore loads its
callees first, under the names it was compiled against; without that the call could not be
resolved and LLVM would end the process."""

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TOY = textwrap.dedent("""\
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

RUN = ("import sys; sys.path.insert(0, {folder!r}); import toy_linked as t; "
       "hits = lambda f: sum(f.stats.cache_hits.values()); "
       "print(t.outer(20), hits(t.outer), hits(t.steps))")


def _run(folder: Path, code: str = RUN) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code.format(folder=str(folder))],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split()


def test_a_caller_loaded_from_the_cache_loads_the_callees_it_links_first(tmp_path):
    (tmp_path / "toy_linked.py").write_text(TOY)
    assert _run(tmp_path) == ["40", "0", "0"]  # compiled
    # A new process loads outer from the cache, and steps (never called here) before it.
    assert _run(tmp_path) == ["40", "1", "1"]


def test_a_linked_callee_cached_by_another_process_is_found_under_the_caller_s_name(tmp_path):
    (tmp_path / "toy_linked.py").write_text(TOY)
    assert _run(tmp_path) == ["40", "0", "0"]  # outer and steps cached together
    for f in (tmp_path / "__pycache__").glob("toy_linked.steps-*"):
        f.unlink()
    again = ("import sys; sys.path.insert(0, {folder!r}); import toy_linked as t; "
             "t.other(1); print(t.steps(7))")
    assert _run(tmp_path, again) == ["7"]  # steps cached anew, under another name
    assert _run(tmp_path) == ["40", "1", "1"]
