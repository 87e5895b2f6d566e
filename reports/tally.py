"""A run's games as counts: one pass over the games table, piece by piece, keeps for every kind
of game (a *key*: variant, edition, content, player, swept rules, mode, player count, target,
exhaust) how many games had each value of what the analyses read. Scores, turns and counts of
cards are small integers, so these tables hold the run exactly in a few thousand rows, and
every analysis works from them as it would from the games (reports/counts.py).

`count(games, manifest)` makes them from a DataFrame or a balance.running.store ShardTable; `of(x)`
takes either, or Tallies already made. The count tables, each with `kid` (the key's number),
the value columns and `n` (games):

    games       kid                               every game
    won         kid, won, target_turn             Crisis games played to a target
    score       kid, score                        Crisis games played to exhaustion (below too)
    final       kid, final, n, turns              final = best score in score_by_turn, turns =
                                                  the turns those games recorded, summed
    turn_score  kid, score                        every turn's team score (one per turn)
    slack       kid, target, slack_turns, cards_left   per target reached (burn.py)
    deck_out    kid, deck_out_turn                Crisis games
    reshuffles  kid, reshuffles                   Crisis games
    end         kid, end_reason, turns            every game
    winner      kid, winner                       Rush games
    margin      kid, margin                       Rush games of 2 players or more
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from reports import counts, frame, pieces

KEY_FIXED = ("variant", "edition", "mode", "players", "heuristic", "target", "exhaust")
# The types of the key columns in a run without a single piece of games.
KEY_TYPES = {"variant": pl.Int32, "players": pl.Int16, "target": pl.Int32,
             "exhaust": pl.Boolean}


@dataclass
class Tallies:
    keys: pl.DataFrame              # kid, the key columns, setting, games, _burn
    key_cols: list[str]
    tables: dict[str, pl.DataFrame]
    diffs: pl.DataFrame             # frame.difficulties of the run
    versions: list[str] = field(default_factory=list)  # engine versions of the games

    def table(self, name: str, *cols: str) -> pl.DataFrame:
        """A count table with the key columns `cols` joined (kid kept)."""
        return self.tables[name].join(self.keys.select("kid", *cols), on="kid")

    def kinds(self) -> pl.DataFrame:
        """The keys as a games table would show them, one row per kind of game: what the
        functions that read only these columns (frame.named_difficulties, ...) take."""
        return self.keys.select(*self.key_cols, *[c for c in ("setting",)
                                                   if c not in self.key_cols])


def of(games, manifest: dict | None = None, diffs: pl.DataFrame | None = None) -> Tallies:
    return games if isinstance(games, Tallies) else count(games, manifest, diffs)


def key_columns(columns: list[str]) -> list[str]:
    """The columns of a key: the fixed ones, those the report derives when present, and every
    swept rule field."""
    derived = [c for c in frame.DERIVED_COLUMNS if c in columns]
    rules = sorted(c for c in columns
                   if c not in frame.GAME_COLUMNS and c not in frame.DERIVED_COLUMNS)
    return [*KEY_FIXED, *derived, *rules]


def count(games, manifest: dict | None = None, diffs: pl.DataFrame | None = None) -> Tallies:
    """The counts of a games table (see the module doc). `diffs` (frame.difficulties) names
    the targets the slack on the clock is counted at; by default the manifest's and the
    editions'."""
    manifest = manifest or {}
    added = [c for c, by_variant in (("content", frame.content_by_variant(manifest)),
                                     ("run", frame.run_by_variant(manifest)))
             if by_variant and c not in games.columns]
    counter = _Counter(key_columns(list(games.columns) + added), manifest, diffs)
    # Every column is read, the unused ones too: reading is what checks each page's checksum.
    for piece in pieces.of(games, list(games.columns)):
        counter.add(frame.with_manifest_columns(piece, manifest))
    return counter.tallies(diffs)


class _Counter:
    def __init__(self, key_cols: list[str], manifest: dict, diffs: pl.DataFrame | None):
        self.key_cols = key_cols
        self.manifest = manifest
        self.ids: dict[tuple, int] = {}
        self.key_rows: list[pl.DataFrame] = []
        self.burn: dict[int, int | None] = {}
        self.sums = counts.Sums({name: ("n", *SUMMED.get(name, ())) for name in
                                 ("games", *EMPTY)})
        self.versions: set[str] = set()
        self.targets = (set(diffs["target"].to_list()) if diffs is not None
                        else _manifest_targets(manifest))
        self.given_diffs = diffs is not None
        self.profile_targets: dict[str, set[int]] = {}
        self.key_schema = None

    def add(self, piece: pl.DataFrame) -> None:
        piece = self._with_kid(piece)
        piece = piece.with_columns(pl.col("kid").replace_strict(
            self.burn, default=None, return_dtype=pl.Int64).alias("_burn"))
        self.sums.add(_piece_counts(piece, self._targets(piece)))
        if "engine_version" in piece.columns:
            self.versions.update(piece["engine_version"].drop_nulls().cast(pl.Utf8).to_list())

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
                burn = frame.rule_value(one, self.manifest, "burn_per_turn")
                self.burn[kid] = one.select(burn.alias("b"))["b"][0]
            ids.append(self.ids[row])
        if len(ids) == 1:
            return piece.with_columns(pl.lit(ids[0], pl.UInt32).alias("kid"))
        local = local.with_columns(pl.Series("kid", ids, pl.UInt32))
        return piece.join(local, on=self.key_cols, how="left", nulls_equal=True,
                          maintain_order="left")

    def _targets(self, piece: pl.DataFrame) -> list[int]:
        """Every target the slack may be asked at for these games (a superset: the named
        difficulties of a game's setting and player count are only known at the end)."""
        if self.given_diffs:
            return sorted(self.targets)
        found = set(self.targets)
        for edition in piece["edition"].drop_nulls().cast(pl.Utf8).unique().to_list():
            if edition not in self.profile_targets:
                self.profile_targets[edition] = set(frame.profile_targets(edition).values())
            found |= self.profile_targets[edition]
        return sorted(found)

    def tallies(self, diffs: pl.DataFrame | None) -> Tallies:
        if self.key_rows:
            keys = pl.concat(self.key_rows, how="diagonal_relaxed")
        else:
            schema = self.key_schema or {c: KEY_TYPES.get(c, pl.Utf8) for c in self.key_cols}
            keys = pl.DataFrame(schema={**schema, "kid": pl.UInt32})
        tables = {k: v for k in self.sums.parts if (v := self.sums.total(k)) is not None}
        per_key = tables.pop("games", None)
        keys = keys.join(per_key.rename({"n": "games"}), on="kid", how="left") \
            if per_key is not None else keys.with_columns(pl.lit(0, pl.Int64).alias("games"))
        if "setting" not in keys.columns:
            label = frame.setting_label(keys, frame.setting_columns(keys.select(self.key_cols)))
            keys = keys.with_columns(label.alias("setting"))
        keys = keys.with_columns(pl.col("kid").replace_strict(
            self.burn, default=None, return_dtype=pl.Int64).alias("_burn")).sort("kid")
        for name, schema in EMPTY.items():
            if name not in tables:
                tables[name] = pl.DataFrame(schema={"kid": pl.UInt32, **schema, "n": pl.Int64})
        if diffs is None:
            diffs = frame.difficulties(self.manifest, keys)
        return Tallies(keys, self.key_cols, tables, diffs, sorted(self.versions))


SUMMED = {"final": ("turns",)}  # columns added up with n rather than told apart
# The value columns of each count table (an empty run still has every table).
EMPTY = {
    "won": {"won": pl.Boolean, "target_turn": pl.Int64},
    "score": {"score": pl.Int64},
    "final": {"final": pl.Int64, "turns": pl.Int64},
    "turn_score": {"score": pl.Int64},
    "slack": {"target": pl.Int64, "slack_turns": pl.Int64, "cards_left": pl.Int64},
    "deck_out": {"deck_out_turn": pl.Int64},
    "reshuffles": {"reshuffles": pl.Int64},
    "end": {"end_reason": pl.Utf8, "turns": pl.Int64},
    "winner": {"winner": pl.Int64},
    "margin": {"margin": pl.Int64},
}


def _piece_counts(g: pl.DataFrame, targets: list[int]) -> dict[str, pl.DataFrame]:
    crisis = pl.col("mode") == "crisis"
    exhaust = pl.col("exhaust").fill_null(False)
    cg = g.filter(crisis)
    ex = cg.filter(exhaust).select("kid", "score", "score_by_turn", "turns", "cards_burned",
                                   "_burn")
    fixed = cg.filter(~exhaust & pl.col("target").is_not_null())
    rush = g.filter(pl.col("mode") == "rush")
    sbt = pl.col("score_by_turn")
    out = {
        "games": counts.of_rows(g, ["kid"], []),
        "won": counts.of_rows(fixed.select("kid", pl.col("won").fill_null(False),
                                           pl.col("target_turn").cast(pl.Int64)),
                              ["kid"], ["won", "target_turn"]),
        "score": counts.of_rows(ex.select("kid", pl.col("score").cast(pl.Int64)), ["kid"],
                                ["score"]),
        "final": (ex.select("kid", sbt.list.max().fill_null(0).cast(pl.Int64).alias("final"),
                            sbt.list.len().fill_null(0).cast(pl.Int64).alias("turns"))
                  .group_by("kid", "final")
                  .agg(pl.len().cast(pl.Int64).alias("n"), pl.col("turns").sum())),
        "turn_score": counts.of_rows(ex.select("kid", sbt.alias("score")).explode("score")
                                     .drop_nulls("score")
                                     .with_columns(pl.col("score").cast(pl.Int64)),
                                     ["kid"], ["score"]),
        "slack": _slack_counts(ex, targets),
        "deck_out": counts.of_rows(cg.select("kid", pl.col("deck_out_turn").cast(pl.Int64)),
                                   ["kid"], ["deck_out_turn"]),
        "reshuffles": counts.of_rows(cg.select("kid", pl.col("reshuffles").cast(pl.Int64)),
                                     ["kid"], ["reshuffles"]),
        "end": counts.of_rows(g.select("kid", pl.col("end_reason").cast(pl.Utf8),
                                       pl.col("turns").cast(pl.Int64)),
                              ["kid"], ["end_reason", "turns"]),
        "winner": counts.of_rows(rush.select("kid", pl.col("winner").cast(pl.Int64)), ["kid"],
                                 ["winner"]),
        "margin": counts.of_rows(_margins(rush), ["kid"], ["margin"]),
    }
    return out


def margin() -> pl.Expr:
    """A Rush game's margin: top score minus the next best (0 for a tie)."""
    ranked = pl.col("scores").list.sort(descending=True)
    return (ranked.list.get(0, null_on_oob=True) - ranked.list.get(1, null_on_oob=True)) \
        .cast(pl.Int64).alias("margin")


def _margins(rush: pl.DataFrame) -> pl.DataFrame:
    return rush.filter(pl.col("players") >= 2).select("kid", margin())


def slack_rows(ex: pl.DataFrame, targets: list[int]) -> pl.DataFrame:
    """One row per (game played to exhaustion, target it reached): target, reached_turn,
    slack_turns and cards_left (burn.py's module doc), with the game's kid. `ex` has kid,
    score_by_turn, turns, cards_burned and _burn (cards burnt per turn)."""
    parts = []
    sbt = pl.col("score_by_turn")
    for t in targets:
        hit = (ex.filter(sbt.list.max() >= t)
               .with_columns((sbt.list.eval(pl.element() < t).list.sum() + 1)
                             .cast(pl.Int64).alias("reached_turn")))
        parts.append(hit.select(
            "kid", pl.lit(t, pl.Int64).alias("target"), "reached_turn",
            (pl.col("turns").cast(pl.Int64) - pl.col("reached_turn")).alias("slack_turns"),
            (pl.col("cards_burned").cast(pl.Int64) - pl.col("_burn") * pl.col("reached_turn"))
            .clip(lower_bound=0).cast(pl.Int64).alias("cards_left")))
    schema = {"kid": pl.UInt32, "target": pl.Int64, "reached_turn": pl.Int64,
              "slack_turns": pl.Int64, "cards_left": pl.Int64}
    return pl.concat(parts) if parts else pl.DataFrame(schema=schema)


def _slack_counts(ex: pl.DataFrame, targets: list[int]) -> pl.DataFrame:
    return counts.of_rows(slack_rows(ex, targets), ["kid"],
                          ["target", "slack_turns", "cards_left"])


def _manifest_targets(manifest: dict) -> set[int]:
    found = set()
    for v in manifest.get("variants", []):
        for t in (v.get("difficulties") or {}).values():
            found.add(int(t))
    return found


def with_kid(t: Tallies, games: pl.DataFrame, manifest: dict | None = None) -> pl.DataFrame:
    """The games of a table `t` counted, each with its kid and _burn (cards burnt a turn)."""
    g = frame.with_manifest_columns(games, manifest)
    keys = t.keys.select(*t.key_cols, "kid", "_burn")
    g = g.with_columns(pl.col(c).cast(keys.schema[c]) if c in g.columns
                       else pl.lit(None, keys.schema[c]).alias(c) for c in t.key_cols)
    return g.join(keys, on=t.key_cols, how="left", nulls_equal=True, maintain_order="left")
