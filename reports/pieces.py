"""A run's tables as pieces of whole games, so that the analyses hold one piece at a time.

A table is a polars DataFrame (one piece) or a balance.running.store ShardTable (one piece per shard
file, read only when reached, only the columns asked for). The games and rooms of one game
are always in pieces that are handed over together (`paired`).
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


def paired(games, rooms, game_columns: list[str], room_columns: list[str]
           ) -> Iterator[tuple[pl.DataFrame, pl.DataFrame]]:
    """(games, rooms) pieces in which every game of `games` comes once, with all its rooms.

    Two ShardTables of one run pair shard by shard. Games held whole against rooms in pieces
    (a notebook's choice) are handed out with the rooms piece of each game, then the games
    that have no rooms at all with an empty piece.
    """
    if isinstance(rooms, pl.DataFrame):
        rooms_pieces = of(rooms, room_columns)
    else:
        rooms_pieces = iter(rooms.select(room_columns))
    if not isinstance(games, pl.DataFrame):
        if games.names != rooms.names:
            raise ValueError("the games and rooms pieces are not the same shards")
        yield from zip(of(games, game_columns), rooms_pieces, strict=True)
        return
    whole = games.select([c for c in game_columns if c in games.columns])
    if isinstance(rooms, pl.DataFrame):
        yield whole, next(rooms_pieces)
        return
    keys = whole.select(pl.col(UNIT_KEYS).cast(pl.Int64)).with_row_index("_row")
    left = pl.Series([True] * whole.height)
    empty = None
    for piece in rooms_pieces:
        hit = keys.join(piece.select(pl.col(UNIT_KEYS).cast(pl.Int64)).unique(), on=UNIT_KEYS,
                        how="semi")["_row"]
        mine = pl.Series([False] * whole.height).scatter(hit, True) & left
        left = left & ~mine
        empty = piece.clear()
        yield whole.filter(mine), piece
    if empty is not None and left.any():
        yield whole.filter(left), empty
