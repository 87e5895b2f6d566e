"""A table read shard file by shard file (balance.running.store.read_run with lazy_tables or
lazy_games).

Iterating a ShardTable yields one polars DataFrame per file, each holding whole games, so that
an analysis can aggregate a table far larger than memory. `select` reads only some columns of
every file (a column not in a file is left out of its piece); `names` are the shard names, so
that the pieces of one shard's games and other tables can be paired.

A loader is any callable returning a DataFrame; one that also has `select(columns)` (a shard
file's reader) reads only those columns from disk, any other is cut after reading.
"""

from __future__ import annotations


class ShardTable:
    """Pieces of one table. `height` and `columns` come from the files' footers."""

    def __init__(self, loaders: list, height: int, columns: list[str],
                 names: list[str] | None = None):
        self._loaders = list(loaders)
        self.height = height
        self.columns = list(columns)
        self.names = list(names) if names is not None else [None] * len(self._loaders)

    def __iter__(self):
        for load in self._loaders:
            yield load()

    def __len__(self) -> int:
        return len(self._loaders)

    def select(self, columns: list[str]) -> ShardTable:
        """The same pieces with only `columns` (those each file has), read from disk alone."""
        return ShardTable([_selected(ld, columns) for ld in self._loaders], self.height,
                          [c for c in self.columns if c in columns], self.names)

    def map(self, fn) -> ShardTable:
        """The same pieces, each passed through fn (a DataFrame -> DataFrame) when read."""
        return ShardTable([_Mapped(ld, fn) for ld in self._loaders], self.height, self.columns,
                          self.names)

    @staticmethod
    def concat(tables: list[ShardTable]) -> ShardTable:
        """One table of several tables' pieces; its columns are every table's, in order."""
        cols = list(dict.fromkeys(c for t in tables for c in t.columns))
        return ShardTable([ld for t in tables for ld in t._loaders],
                          sum(t.height for t in tables), cols,
                          [n for t in tables for n in t.names])


class _Mapped:
    def __init__(self, load, fn):
        self.load, self.fn = load, fn

    def __call__(self):
        return self.fn(self.load())

    def select(self, columns: list[str]) -> _Mapped:
        return _Mapped(_selected(self.load, columns), self.fn)


def _selected(load, columns: list[str]):
    if hasattr(load, "select"):
        return load.select(columns)

    def cut():
        df = load()
        return df.select([c for c in columns if c in df.columns])
    return cut
