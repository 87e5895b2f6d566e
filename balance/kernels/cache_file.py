"""The on-disk cache's index and data files, safe when several processes save at once.

Numba names a function's data files by a counter (`name.1.nbc`, `name.2.nbc`, ...), the
next number its index lacks, and rewrites the whole index after reading it. Two processes
saving different signatures of one function at once (two workers of a run, the compile
helper, two commands started together on a fresh cache) could both read the same index,
both take number 1, and end with the index naming one signature and the file holding the
other's machine code: a later process would load code compiled for other types and run it
unchecked. (`copy_array_nb` is compiled for several signatures in every game.)

Here a data file is named by a hash of its key (signature, machine and the function's
bytecode), so different keys never share a file, and a save writes its data before the
index that names it. The index's read-modify-write runs under an exclusive lock on a file
beside it, so no save drops another's entry; where no lock can be had (a platform without
`fcntl`, a lock file that cannot be opened) the worst left is an entry lost, which costs
only a compile.

The price: Numba's numbering reused the files of a function's older source; named by key,
they stay. In the project's folders this costs nothing (an edit makes a new folder, and
jit.prune_cache removes old ones); beside a module outside the project, each edit of a kernel
leaves its old files in that module's __pycache__.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle

from numba.core.caching import IndexDataCacheFile

try:
    import fcntl
except ImportError:  # not POSIX: saves are unlocked (see the module docstring)
    fcntl = None

LOCK_SUFFIX = ".lock"


def data_name(filename_base: str, key) -> str:
    """The data file of one key: the same key always gets the same name (an overwrite then
    puts equal code in place), two keys never share one."""
    digest = hashlib.sha256(pickle.dumps(key, protocol=4)).hexdigest()[:16]
    return f"{filename_base}.{digest}.nbc"


class KeyedCacheFile(IndexDataCacheFile):
    """IndexDataCacheFile with data files named by their key and the index updated under a
    lock."""

    def __init__(self, cache_path, filename_base, source_stamp):
        super().__init__(cache_path, filename_base, source_stamp)
        self._filename_base = filename_base
        self._lock_path = self._index_path + LOCK_SUFFIX

    def save(self, key, data):
        name = data_name(self._filename_base, key)
        self._save_data(name, data)  # first: an index never names a file not yet written
        with self._locked():
            overloads = self._load_index()
            if overloads.get(key) != name:
                overloads[key] = name
                self._save_index(overloads)

    def _load_index(self):
        """Numba's, but an index whose keys name a module or class no longer there reads as
        empty, costing a compile, rather than failing every process that loads it: a game
        removed after it was played (one `balance new-game` wrote, say) leaves its types in
        the keys of the kit's kernels it shared with the other games."""
        try:
            return super()._load_index()
        except (ImportError, AttributeError):
            return {}

    @contextlib.contextmanager
    def _locked(self):
        if fcntl is None:
            yield
            return
        try:
            f = open(self._lock_path, "a+b")  # noqa: SIM115 (held across the yield)
        except OSError:  # a folder we may not add to: save unlocked
            yield
            return
        with f:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def keyed(cache) -> None:
    """Give a Numba FunctionCache, just built, the KeyedCacheFile for its files."""
    old = cache._cache_file
    cache._cache_file = KeyedCacheFile(old._cache_path, old._index_name[: -len(".nbi")],
                                       old._source_stamp)
