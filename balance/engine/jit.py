"""One place to configure Numba. Every kernel is compiled without Python objects and cached on
disk; NUMBA_DISABLE_JIT=1 runs the same code as plain Python for debugging and coverage.

Calls between kernels are typed with plain (non-literal) argument types. By default Numba
compiles a fresh copy of a kernel for every distinct constant passed to it (a decision kind,
an event code), and that recompiled the whole player once per call site: 300 s of compile
time instead of about 30.
"""

from numba import config, types
from numba.core.registry import CPUDispatcher


class PlainArgsDispatcher(CPUDispatcher):
    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def njit(fn):
    if config.DISABLE_JIT:
        return fn
    disp = PlainArgsDispatcher(py_func=fn, locals={},
                               targetoptions={"nopython": True, "nogil": True})
    disp.enable_caching()
    return disp
