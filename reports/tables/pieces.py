"""A run's tables as pieces of whole games, so that the analyses hold one piece at a time.

A table is a polars DataFrame (one piece) or a balance.running.store ShardTable (one piece per shard
file, read only when reached, only the columns asked for). The games and the rows of another
table of the same games (one row per event of a game, say) are always in pieces that are handed
over together (`paired`).
"""

from __future__ import annotations

from collections.abc import Iterator

import polars as pl

UNIT_KEYS = ["variant", "game"]


def of(table, wanted: list[str]) -> Iterator[pl.DataFrame]:
    """The pieces of `table` with the columns of `wanted` that it has."""
    if isinstance(table, pl.DataFrame):
        yield table.select([c for c in wanted if c in table.columns])
        return
    yield from table.select(wanted)


def paired(games, other, game_columns: list[str], other_columns: list[str]
           ) -> Iterator[tuple[pl.DataFrame, pl.DataFrame]]:
    """(games, other) pieces in which every game of `games` comes once, with all its rows of
    `other`, a table of the same games.

    Two ShardTables of one run pair shard by shard. Games held whole against `other` in pieces
    (a notebook's choice) are handed out with the piece of `other` of each game, then the games
    that have no row in it with an empty piece.
    """
    if isinstance(other, pl.DataFrame):
        other_pieces = of(other, other_columns)
    else:
        other_pieces = iter(other.select(other_columns))
    if not isinstance(games, pl.DataFrame):
        if games.names != other.names:
            raise ValueError("the games and the other table's pieces are not the same shards")
        yield from zip(of(games, game_columns), other_pieces, strict=True)
        return
    whole = games.select([c for c in game_columns if c in games.columns])
    if isinstance(other, pl.DataFrame):
        yield whole, next(other_pieces)
        return
    keys = whole.select(pl.col(UNIT_KEYS).cast(pl.Int64)).with_row_index("_row")
    left = pl.Series([True] * whole.height)
    empty = None
    for piece in other_pieces:
        hit = keys.join(piece.select(pl.col(UNIT_KEYS).cast(pl.Int64)).unique(), on=UNIT_KEYS,
                        how="semi")["_row"]
        mine = pl.Series([False] * whole.height).scatter(hit, True) & left
        left = left & ~mine
        empty = piece.clear()
        yield whole.filter(mine), piece
    if empty is not None and left.any():
        yield whole.filter(left), empty
