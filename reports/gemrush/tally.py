"""Gem Rush's counts of a run, in the same pass as the neutral ones (reports/tables/tally.py): the
keys tell editions, modes, targets and exhausted play apart (frame.LAYOUT), and these tables are
added, each with `kid`, the value columns and `n`:

    won         kid, won, target_turn             Crisis games played to a target
    score       kid, score                        Crisis games played to exhaustion (below too)
    final       kid, final, n, turns              final = best score in score_by_turn, turns =
                                                  the turns those games recorded, summed
    turn_score  kid, score                        every turn's team score (one per turn)
    slack       kid, target, slack_turns, cards_left   per target reached (burn.py)
    deck_out    kid, deck_out_turn                Crisis games
    reshuffles  kid, reshuffles                   Crisis games

Rush games are counted in the neutral `winner` and `margin` tables (no Crisis game has a
winning seat), and every game in `end`. Each key also carries `_burn`, the cards the clock
burns a turn, and the Tallies the named difficulties of the run (`diffs`).

One table is kept game by game, `seeded` (kid, seed, score: the Crisis games played to
exhaustion), so that two players' scores can be paired by the deal across runs
(reports/gemrush/players.py). It is the only table that grows with the run, so past
SEEDED_MAX games it is dropped (None) and players are compared by their means alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from reports.gemrush import frame
from reports.tables import counts, tally

# 4 million games are 56 MB kept one by one; past that, a comparison of means is tight anyway
# (a paired interval would gain a few hundredths of a point).
SEEDED_MAX = 4_000_000
SEEDED = {"kid": pl.UInt32, "seed": pl.Int64, "score": pl.Int16}


@dataclass
class Tallies(tally.Tallies):
    diffs: pl.DataFrame = field(default_factory=pl.DataFrame)  # frame.difficulties of the run
    seeded: pl.DataFrame | None = None  # SEEDED, or None past SEEDED_MAX games


def of(games, manifest: dict | None = None, diffs: pl.DataFrame | None = None) -> Tallies:
    return games if isinstance(games, Tallies) else count(games, manifest, diffs)


def count(games, manifest: dict | None = None, diffs: pl.DataFrame | None = None) -> Tallies:
    """The counts of a games table (see the module doc). `diffs` (frame.difficulties) names
    the targets the slack on the clock is counted at; by default the manifest's and the
    editions'."""
    return tally.count(games, manifest, frame.LAYOUT, Counter, diffs=diffs)


class Counter(tally.Counter):
    EMPTY = {
        **tally.Counter.EMPTY,
        "won": {"won": pl.Boolean, "target_turn": pl.Int64},
        "score": {"score": pl.Int64},
        "final": {"final": pl.Int64, "turns": pl.Int64},
        "turn_score": {"score": pl.Int64},
        "slack": {"target": pl.Int64, "slack_turns": pl.Int64, "cards_left": pl.Int64},
        "deck_out": {"deck_out_turn": pl.Int64},
        "reshuffles": {"reshuffles": pl.Int64},
    }
    SUMMED = {"final": ("turns",)}
    TALLIES = Tallies

    def __init__(self, key_cols: list[str], manifest: dict, layout, diffs=None):
        super().__init__(key_cols, manifest, layout)
        self.seeded: list[pl.DataFrame] | None = []  # None once past SEEDED_MAX games
        self.seeded_games = 0
        self.burn: dict[int, int | None] = {}
        self.diffs = diffs
        self.targets = (set(diffs["target"].to_list()) if diffs is not None
                        else _manifest_targets(manifest))
        self.profile_targets: dict[str, set[int]] = {}

    def key_added(self, kid: int, key: pl.DataFrame) -> None:
        burn = frame.rule_value(key, self.manifest, "burn_per_turn")
        self.burn[kid] = key.select(burn.alias("b"))["b"][0]

    def prepare(self, piece: pl.DataFrame) -> pl.DataFrame:
        return piece.with_columns(pl.col("kid").replace_strict(
            self.burn, default=None, return_dtype=pl.Int64).alias("_burn"))

    def finish(self, keys: pl.DataFrame) -> pl.DataFrame:
        return keys.with_columns(pl.col("kid").replace_strict(
            self.burn, default=None, return_dtype=pl.Int64).alias("_burn"))

    def tallies(self, **kw) -> Tallies:
        t = super().tallies(diffs=pl.DataFrame())
        if self.seeded is not None:
            t.seeded = (pl.concat(self.seeded) if self.seeded
                        else pl.DataFrame(schema=SEEDED))
        t.diffs = self.diffs if self.diffs is not None else frame.difficulties(self.manifest,
                                                                               t.keys)
        return t

    def _targets(self, piece: pl.DataFrame) -> list[int]:
        """Every target the slack may be asked at for these games (a superset: the named
        difficulties of a game's setting and player count are only known at the end)."""
        if self.diffs is not None:
            return sorted(self.targets)
        found = set(self.targets)
        for edition in piece["edition"].drop_nulls().cast(pl.Utf8).unique().to_list():
            if edition not in self.profile_targets:
                self.profile_targets[edition] = set(frame.profile_targets(edition).values())
            found |= self.profile_targets[edition]
        return sorted(found)

    def piece_counts(self, g: pl.DataFrame) -> dict[str, pl.DataFrame]:
        out = super().piece_counts(g)
        exhaust = pl.col("exhaust").fill_null(False)
        cg = g.filter(pl.col("mode") == "crisis")
        played = cg.filter(exhaust)
        self._keep_seeded(played)
        ex = played.select("kid", "score", "score_by_turn", "turns", "cards_burned", "_burn")
        fixed = cg.filter(~exhaust & pl.col("target").is_not_null())
        sbt = pl.col("score_by_turn")
        out.update({
            "won": counts.of_rows(fixed.select("kid", pl.col("won").fill_null(False),
                                               pl.col("target_turn").cast(pl.Int64)),
                                  ["kid"], ["won", "target_turn"]),
            "score": counts.of_rows(ex.select("kid", pl.col("score").cast(pl.Int64)), ["kid"],
                                    ["score"]),
            "final": (ex.select("kid",
                                sbt.list.max().fill_null(0).cast(pl.Int64).alias("final"),
                                sbt.list.len().fill_null(0).cast(pl.Int64).alias("turns"))
                      .group_by("kid", "final")
                      .agg(pl.len().cast(pl.Int64).alias("n"), pl.col("turns").sum())),
            "turn_score": counts.of_rows(ex.select("kid", sbt.alias("score")).explode("score")
                                         .drop_nulls("score")
                                         .with_columns(pl.col("score").cast(pl.Int64)),
                                         ["kid"], ["score"]),
            "slack": counts.of_rows(slack_rows(ex, self._targets(g)), ["kid"],
                                    ["target", "slack_turns", "cards_left"]),
            "deck_out": counts.of_rows(cg.select("kid",
                                                 pl.col("deck_out_turn").cast(pl.Int64)),
                                       ["kid"], ["deck_out_turn"]),
            "reshuffles": counts.of_rows(cg.select("kid", pl.col("reshuffles").cast(pl.Int64)),
                                         ["kid"], ["reshuffles"]),
        })
        return out

    def _keep_seeded(self, games: pl.DataFrame) -> None:
        """Keep the seed and score of Crisis games played to exhaustion. A table without
        seeds (an old run's) drops the seeded table, as SEEDED_MAX does."""
        if self.seeded is None or games.height == 0:
            return
        self.seeded_games += games.height
        if "seed" not in games.columns or self.seeded_games > SEEDED_MAX:
            self.seeded = None
            return
        self.seeded.append(games.select(pl.col("kid").cast(pl.UInt32),
                                        pl.col("seed").cast(pl.Int64),
                                        pl.col("score").cast(pl.Int16)))


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
