"""A run's games as counts: one pass over the games table, piece by piece, keeps for every kind
of game (a *key*: the variant, the player count, the players, the game's own key columns
(reports/tables/frame.py, Layout.keys), the columns the report adds and every swept rule) how many
games had each value of what the analyses read. Scores, turns and seats are small integers, so
these tables hold the run exactly in a few thousand rows, and every analysis works from them as
it would from the games (reports/tables/counts.py).

`count(games, manifest)` makes them from a DataFrame or a balance.running.store ShardTable; `of(x)`
takes either, or Tallies already made. The neutral count tables are drawn from the core columns
every game's table starts with (balance/contract/game.py, CORE_COLUMNS), each with `kid` (the
key's number), the value columns and `n` (games):

    games    kid                              every game
    end      kid, end_reason, turns           every game
    result   kid, score                       every game: the team's score, or the winner's
    winner   kid, winner                      games a seat wins (winner set; -1: a tie)
    margin   kid, margin                      those, of two players or more: the top score
                                              minus the next best
    team     kid, won                         games the team wins or loses (won set, no winner)
    seats    kid, seat, player, score, won    every seat of every game: the listed player who
                                              sat there (from 1), its score, and whether it won

A game's report counts its own tables in the same pass: its Counter (a subclass, in the game's
report package) adds them in `piece_counts`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from balance.contract import compat, registry
from reports.tables import counts, frame, pieces

KEY_FIXED = ("variant", "players", "heuristic")
# The types of the key columns in a run without a single piece of games.
KEY_TYPES = {"variant": pl.Int32, "players": pl.Int16}


@dataclass
class Tallies:
    keys: pl.DataFrame              # kid, the key columns, setting, games
    key_cols: list[str]
    tables: dict[str, pl.DataFrame]
    versions: list[str] = field(default_factory=list)  # engine versions of the games

    def table(self, name: str, *cols: str) -> pl.DataFrame:
        """A count table with the key columns `cols` joined (kid kept)."""
        return self.tables[name].join(self.keys.select("kid", *cols), on="kid")

    def kinds(self) -> pl.DataFrame:
        """The keys as a games table would show them, one row per kind of game: what the
        functions that read only these columns take."""
        return self.keys.select(*self.key_cols, *[c for c in ("setting",)
                                                   if c not in self.key_cols])


def of(games, manifest: dict | None = None, layout: frame.Layout | None = None) -> Tallies:
    return games if isinstance(games, Tallies) else count(games, manifest, layout)


def key_columns(columns: list[str], layout: frame.Layout = frame.NEUTRAL) -> list[str]:
    """The columns of a key: the fixed ones, the layout's, those the report derives when
    present, and every swept rule field."""
    own = [c for c in layout.keys if c not in KEY_FIXED]
    derived = [c for c in layout.added if c in columns]
    rules = sorted(c for c in columns if c not in layout.columns and c not in layout.added)
    return [*KEY_FIXED, *own, *derived, *rules]


def count(games, manifest: dict | None = None, layout: frame.Layout | None = None,
          counter: type | None = None, **kw) -> Tallies:
    """The counts of a games table (see the module doc): the neutral tables, and those of
    `counter` (a Counter subclass; its extra arguments in `kw`). `layout` says how to read the
    table; by default, as the manifest's game declares it (its columns, no kinds)."""
    manifest = manifest or {}
    if layout is None:
        game = registry.get(compat.manifest_game(manifest))
        layout = frame.Layout.of_table(game.games_table.columns, game=game)
    added = [c for c in layout.derived if c not in games.columns
             and frame.by_variant(manifest, c)]
    if frame.run_by_variant(manifest) and "run" not in games.columns:
        added.append("run")
    c = (counter or Counter)(key_columns(list(games.columns) + added, layout), manifest,
                             layout, **kw)
    # Every column is read, the unused ones too: reading is what checks each page's checksum.
    for piece in pieces.of(games, list(games.columns)):
        c.add(frame.with_manifest_columns(piece, manifest, layout))
    return c.tallies()


class Counter:
    """Counts pieces of a games table into Tallies. A game's report subclasses it to count its
    own tables in the same pass: EMPTY and SUMMED name them, `piece_counts` adds them, and
    `key_added`, `prepare` and `finish` see each new key, each piece and the keys at the
    end."""

    # The value columns of each count table (an empty run still has every table).
    EMPTY: dict[str, dict] = {
        "end": {"end_reason": pl.Utf8, "turns": pl.Int64},
        "result": {"score": pl.Int64},
        "winner": {"winner": pl.Int64},
        "margin": {"margin": pl.Int64},
        "team": {"won": pl.Boolean},
        "seats": {"seat": pl.Int64, "player": pl.Int64, "score": pl.Int64, "won": pl.Boolean},
    }
    SUMMED: dict[str, tuple[str, ...]] = {}  # columns added up with n rather than told apart
    TALLIES: type = Tallies

    def __init__(self, key_cols: list[str], manifest: dict,
                 layout: frame.Layout = frame.NEUTRAL):
        self.key_cols = key_cols
        self.manifest = manifest
        self.layout = layout
        self.ids: dict[tuple, int] = {}
        self.key_rows: list[pl.DataFrame] = []
        self.sums = counts.Sums({name: ("n", *self.SUMMED.get(name, ())) for name in
                                 ("games", *self.EMPTY)})
        self.versions: set[str] = set()
        self.key_schema = None

    def add(self, piece: pl.DataFrame) -> None:
        piece = self.prepare(self._with_kid(piece))
        self.sums.add(self.piece_counts(piece))
        if "engine_version" in piece.columns:
            self.versions.update(piece["engine_version"].drop_nulls().cast(pl.Utf8).to_list())

    def key_added(self, kid: int, key: pl.DataFrame) -> None:
        """A key seen for the first time (one row of the key columns)."""

    def prepare(self, piece: pl.DataFrame) -> pl.DataFrame:
        """A piece with its kid, before it is counted."""
        return piece

    def finish(self, keys: pl.DataFrame) -> pl.DataFrame:
        """The keys of the whole run, with setting and games."""
        return keys

    def _with_kid(self, piece: pl.DataFrame) -> pl.DataFrame:
        for c in self.key_cols:
            if c not in piece.columns:  # a rule another run of a combined report swept
                piece = piece.with_columns(pl.lit(None).alias(c))
        local = piece.select(self.key_cols).unique(maintain_order=True)
        if self.key_schema is None:
            self.key_schema = local.with_columns(pl.col(pl.Categorical).cast(pl.Utf8)).schema
        ids = []
        for i, row in enumerate(local.rows()):
            if row not in self.ids:
                kid = self.ids[row] = len(self.ids)
                one = local.slice(i, 1)
                self.key_rows.append(one.with_columns(pl.col(pl.Categorical).cast(pl.Utf8),
                                                      pl.lit(kid, pl.UInt32).alias("kid")))
                self.key_added(kid, one)
            ids.append(self.ids[row])
        if len(ids) == 1:
            return piece.with_columns(pl.lit(ids[0], pl.UInt32).alias("kid"))
        local = local.with_columns(pl.Series("kid", ids, pl.UInt32))
        return piece.join(local, on=self.key_cols, how="left", nulls_equal=True,
                          maintain_order="left")

    def tallies(self, **kw) -> Tallies:
        if self.key_rows:
            keys = pl.concat(self.key_rows, how="diagonal_relaxed")
        else:
            schema = self.key_schema or {c: KEY_TYPES.get(c, self.layout.polars_type(c))
                                         for c in self.key_cols}
            keys = pl.DataFrame(schema={**schema, "kid": pl.UInt32})
        tables = {k: v for k in self.sums.parts if (v := self.sums.total(k)) is not None}
        per_key = tables.pop("games", None)
        keys = keys.join(per_key.rename({"n": "games"}), on="kid", how="left") \
            if per_key is not None else keys.with_columns(pl.lit(0, pl.Int64).alias("games"))
        if "setting" not in keys.columns:
            cols = frame.setting_columns(keys.select(self.key_cols), self.layout)
            keys = keys.with_columns(frame.setting_label(keys, cols, self.layout.setting,
                                                          self.layout.game)
                                     .alias("setting"))
        keys = self.finish(keys).sort("kid")
        for name, schema in self.EMPTY.items():
            if name not in tables:
                tables[name] = pl.DataFrame(schema={"kid": pl.UInt32, **schema, "n": pl.Int64})
        return self.TALLIES(keys, self.key_cols, tables, sorted(self.versions), **kw)

    def piece_counts(self, g: pl.DataFrame) -> dict[str, pl.DataFrame]:
        """The neutral count tables of a piece (the module doc)."""
        seat_won = pl.col("winner").is_not_null()
        decided = g.filter(seat_won)
        return {
            "games": counts.of_rows(g, ["kid"], []),
            "end": counts.of_rows(g.select("kid", pl.col("end_reason").cast(pl.Utf8),
                                           pl.col("turns").cast(pl.Int64)),
                                  ["kid"], ["end_reason", "turns"]),
            "result": counts.of_rows(g.select("kid", pl.col("score").cast(pl.Int64)), ["kid"],
                                     ["score"]),
            "winner": counts.of_rows(decided.select("kid", pl.col("winner").cast(pl.Int64)),
                                     ["kid"], ["winner"]),
            "margin": counts.of_rows(decided.filter(pl.col("players") >= 2)
                                     .select("kid", margin()), ["kid"], ["margin"]),
            "team": counts.of_rows(g.filter(~seat_won & pl.col("won").is_not_null())
                                   .select("kid", "won"), ["kid"], ["won"]),
            "seats": counts.of_rows(seat_rows(g), ["kid"], ["seat", "player", "score", "won"]),
        }


def margin() -> pl.Expr:
    """A game's margin: top score minus the next best (0 for a tie)."""
    ranked = pl.col("scores").list.sort(descending=True)
    return (ranked.list.get(0, null_on_oob=True) - ranked.list.get(1, null_on_oob=True)) \
        .cast(pl.Int64).alias("margin")


def seat_rows(g: pl.DataFrame) -> pl.DataFrame:
    """One row per seat of every game: kid, seat (from 1), player (the listed player who sat
    there, from 1: listed player i sits in seat (i - went_first) % players + 1), score, and
    won (the seat is the winner; in a game with no winner, the team won)."""
    n = pl.col("players").cast(pl.Int64)
    # Runs written before the first player was drawn have no went_first: seat 1 went first.
    first = (pl.col("went_first").cast(pl.Int64).fill_null(1) if "went_first" in g.columns
             else pl.lit(1, pl.Int64))
    seat = pl.col("seat")
    return (g.filter(pl.col("scores").is_not_null())
            .select("kid", n.alias("_n"), first.alias("_first"),
                    pl.col("winner").cast(pl.Int64).alias("_winner"), "won",
                    pl.col("scores").cast(pl.List(pl.Int64)).alias("score"),
                    pl.int_ranges(1, pl.col("scores").list.len() + 1, dtype=pl.Int64)
                    .alias("seat"))
            .explode("score", "seat")
            .select("kid", seat,
                    ((seat - 1 + pl.col("_first") - 1) % pl.col("_n") + 1).alias("player"),
                    "score",
                    pl.when(pl.col("_winner").is_not_null()).then(pl.col("_winner") == seat)
                    .otherwise(pl.col("won")).alias("won")))
