"""Issue 30: a kernel's module goes through LLVM's O3 pipeline once (jit.py,
_optimize_final_module), not twice as Numba does it for code that counts references; code
that counts references (Numba's own functions with NRT) keeps Numba's two runs."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TOY = textwrap.dedent("""\
    import numba
    import numpy as np

    from balance.kernels.jit import njit


    @njit
    def doubled(x):
        return 2 * x


    @numba.njit
    def allocating(n):  # an array of its own: reference counting, so Numba's two runs
        return np.ones(n).sum()
""")

RUN = textwrap.dedent("""\
    import sys
    sys.path.insert(0, {folder!r})
    import toy_passes as t
    assert t.doubled(3) == 6 and t.allocating(4) == 4.0
    for f in (t.doubled, t.allocating):
        lib = f.overloads[f.signatures[0]].library
        names = [r.name for r in lib._recorded_timings._records]
        print(f.__name__, sum(n.startswith("Module passes") for n in names))
""")


def test_a_kernel_is_optimised_once_and_reference_counting_code_twice(tmp_path: Path):
    (tmp_path / "toy_passes.py").write_text(TOY)
    env = {**os.environ, "NUMBA_LLVM_PASS_TIMINGS": "1",
           "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", RUN.format(folder=str(tmp_path))],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["doubled", "1", "allocating", "2"]
