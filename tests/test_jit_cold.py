"""`@njit(cold=True)` (balance/kernels/jit.py): a kernel off the hot path, which LLVM must never
paste into its callers. Pasted, a switched-off expansion's code changed how LLVM compiled Gem
Mountain's game loop around it, and the base game ran up to a seventh slower."""

from balance.kernels.jit import njit


@njit(cold=True)
def _cold(x):
    return x * 3 + 1


@njit
def _plain(x):
    return x * 3 + 1


@njit
def _calls_both(x):
    return _cold(x) + _plain(x)


def _entry(kernel):
    [cres] = kernel.overloads.values()
    mod = cres.library._get_module_for_linking()
    return str(mod.get_function(cres.fndesc.mangled_name)).splitlines()[0]


def test_a_cold_kernel_is_linked_noinline_and_a_plain_one_is_not():
    assert _calls_both(2) == 14
    assert "noinline" in _entry(_cold)
    assert "noinline" not in _entry(_plain) and "alwaysinline" not in _entry(_plain)
