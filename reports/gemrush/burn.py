"""Deck burn timing in Crisis: when the gem deck first runs out, how many reshuffles, the slack
on the clock when a target is reached, and the turn at which the burn ends the game.

Timings come from games played to exhaustion, which run the whole clock. A (setting, players)
with none falls back on its games played to a target, which stop at the target and so cut late
events short; the `source` column says which was used.

*Slack on the clock* at a target T: the player turns the game still had to run when the team
score first reached T (turns - the turn T was reached), from exhausted games that reached T.
`cards_left` converts it to cards: the cards the clock burnt in the whole game minus
burn_per_turn cards for every turn up to and including the one T was reached in (at least 0).

Every function takes a games table or its tally.Tallies; the `*_counts` tables (one row per
value with `n` games) are what the figures draw.
"""

from __future__ import annotations

import polars as pl

from reports.gemrush import tally
from reports.gemrush.crisis import TO_EXHAUSTION, TO_TARGET
from reports.gemrush.frame import CLOCK_END_REASONS, GROUP, crisis_games, named_difficulties
from reports.tables import counts

SLACK_KEYS = ["setting", "players", "difficulty", "target"]


def _timed(t: tally.Tallies) -> pl.DataFrame:
    """kid and source of the Crisis keys timing is read from (see the module doc)."""
    keys = t.keys.filter(pl.col("mode") == "crisis").cast({"players": pl.Int64})
    ex = pl.col("exhaust").fill_null(False)
    return (keys.with_columns(ex.any().over(list(GROUP)).alias("_has_ex"))
            .filter(ex == pl.col("_has_ex"))
            .select("kid", *GROUP, pl.when(pl.col("_has_ex")).then(pl.lit(TO_EXHAUSTION))
                    .otherwise(pl.lit(TO_TARGET)).alias("source")))


def _timing_counts(t: tally.Tallies, name: str) -> pl.DataFrame:
    timed = _timed(t)
    return t.tables[name].join(timed, on="kid")


def _with_source(summary: pl.DataFrame, timed: pl.DataFrame) -> pl.DataFrame:
    src = timed.select(*GROUP, "source").unique()
    return summary.join(src, on=list(GROUP), how="left").sort(list(GROUP))


def deck_out_counts(games) -> pl.DataFrame:
    """setting, players, deck_out_turn (null: never ran out), n, over the games timed."""
    c = _timing_counts(tally.of(games), "deck_out")
    return counts.added([c.select(*GROUP, "deck_out_turn", "n")], [*GROUP, "deck_out_turn"]) \
        .sort(*GROUP, "deck_out_turn")


def deck_out(games) -> pl.DataFrame:
    """The first turn the gem deck ran out, per (setting, players): quantiles over the games
    where it did; `missing` is the share of games where it never ran out."""
    t = tally.of(games)
    return _with_source(counts.distribution(deck_out_counts(t), "deck_out_turn", GROUP),
                        _timed(t))


def reshuffles(games) -> pl.DataFrame:
    """How many reshuffles, per (setting, players): one row per count with games and share."""
    c = _timing_counts(tally.of(games), "reshuffles")
    schema = {"setting": pl.Utf8, "players": pl.Int64, "reshuffles": pl.Int64,
              "games": pl.Int64, "share": pl.Float64, "source": pl.Utf8}
    if c.height == 0:
        return pl.DataFrame(schema=schema)
    out = (c.group_by(*GROUP, "reshuffles", "source").agg(pl.col("n").sum().alias("games"))
           .with_columns((pl.col("games") / pl.col("games").sum().over(list(GROUP)))
                         .alias("share")))
    return out.cast(schema).select(list(schema)).sort(*GROUP, "reshuffles")


def slack_counts(games, diffs: pl.DataFrame | None = None) -> pl.DataFrame:
    """setting, players, difficulty, target, slack_turns, cards_left, n: the games played to
    exhaustion that reached each named difficulty of their setting and player count."""
    t = tally.of(games, diffs=diffs)
    per_key = _named_per_key(t, t.diffs if diffs is None else diffs)
    schema = {"setting": pl.Utf8, "players": pl.Int64, "difficulty": pl.Utf8,
              "target": pl.Int64, "slack_turns": pl.Int64, "cards_left": pl.Int64,
              "n": pl.Int64}
    hits = t.tables["slack"].join(per_key, on=["kid", "target"])
    if hits.height == 0:
        return pl.DataFrame(schema=schema)
    return (counts.added([hits.select(*SLACK_KEYS, "slack_turns", "cards_left", "n")],
                         [*SLACK_KEYS, "slack_turns", "cards_left"])
            .cast(schema).select(list(schema))
            .sort("setting", "players", "target", "difficulty", "slack_turns", "cards_left"))


def _named_per_key(t: tally.Tallies, diffs: pl.DataFrame) -> pl.DataFrame:
    """kid, setting, players, difficulty, target: the named difficulties of each key played
    to exhaustion (those of its setting and player count)."""
    ex = crisis_games(t.kinds()).filter(pl.col("exhaust").fill_null(False))
    named = named_difficulties(ex, diffs)
    keys = t.keys.filter((pl.col("mode") == "crisis") & pl.col("exhaust").fill_null(False))
    return keys.select("kid", *GROUP).join(named.cast({"players": keys.schema["players"]}),
                                           on=list(GROUP))


def slack_games(games: pl.DataFrame, diffs: pl.DataFrame, manifest: dict | None = None
                ) -> pl.DataFrame:
    """One row per (exhausted Crisis game, named difficulty it reached): setting, players,
    difficulty, target, reached_turn, slack_turns, cards_left (see the module doc)."""
    t = tally.of(games, manifest, diffs)
    schema = {"setting": pl.Utf8, "players": pl.Int64, "difficulty": pl.Utf8,
              "target": pl.Int64, "reached_turn": pl.Int64, "slack_turns": pl.Int64,
              "cards_left": pl.Int64}
    g = tally.with_kid(t, games, manifest).filter(
        (pl.col("mode") == "crisis") & pl.col("exhaust").fill_null(False))
    per_key = _named_per_key(t, diffs)
    rows = tally.slack_rows(g, sorted(set(per_key["target"].to_list())))
    out = (rows.join(per_key, on=["kid", "target"])
           .select("setting", "players", "difficulty", "target", "reached_turn", "slack_turns",
                   "cards_left"))
    return out.cast(schema).sort("setting", "players", "target", "reached_turn",
                                 "slack_turns", "cards_left")


def slack(games, diffs: pl.DataFrame, manifest: dict | None = None) -> pl.DataFrame:
    """Slack on the clock per (setting, players, difficulty): the distribution of slack_turns
    over the games that reached the target, and the median and mean cards left."""
    return slack_of(slack_counts(tally.of(games, manifest, diffs), diffs))


def slack_of(sc: pl.DataFrame) -> pl.DataFrame:
    """`slack` from slack_counts' table (so that a report counts once)."""
    dist = counts.distribution(sc, "slack_turns", SLACK_KEYS)
    cards = counts.distribution(sc, "cards_left", SLACK_KEYS).select(
        *SLACK_KEYS, pl.col("q50").alias("cards_median"), pl.col("mean").alias("cards_mean"))
    return dist.join(cards, on=SLACK_KEYS, how="left").sort("setting", "players", "target")


def clock_end_counts(games) -> pl.DataFrame:
    """setting, players, turns, n: the games timed that the burn ended (end_reason
    cannot_burn or exhausted)."""
    c = _timing_counts(tally.of(games), "end").filter(
        pl.col("end_reason").is_in(list(CLOCK_END_REASONS)))
    return counts.added([c.select(*GROUP, "turns", "n")], [*GROUP, "turns"]).sort(*GROUP,
                                                                                  "turns")


def clock_end(games) -> pl.DataFrame:
    """The player turn at which the burn ended the game (end_reason cannot_burn or exhausted),
    per (setting, players). In the 1st edition that is the turn a full burn became
    impossible; in the 2nd the turn the last card was burnt."""
    t = tally.of(games)
    return _with_source(counts.distribution(clock_end_counts(t), "turns", GROUP), _timed(t))
