"""Copying one array into another inside kernels, for the forward model's state and the
players' memory alike."""

from balance.kernels.jit import njit


@njit(inline=True)
def copy_array_nb(dst, src):
    """dst <- src, arrays of the same size and any shape. Element by element: a slice
    assignment may need a temporary, and kernels run without an allocator (jit.py)."""
    d = dst.reshape(dst.size)
    s = src.reshape(src.size)
    for i in range(s.shape[0]):
        d[i] = s[i]
