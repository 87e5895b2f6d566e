"""Deck burn timing in Crisis: when the gem deck first runs out, how many reshuffles, the slack
on the clock when a target is reached, and the turn at which the burn ends the game.

Timings come from games played to exhaustion, which run the whole clock. A (setting, players)
with none falls back on its games played to a target, which stop at the target and so cut late
events short; the `source` column says which was used.

*Slack on the clock* at a target T: the player turns the game still had to run when the team
score first reached T (turns - the turn T was reached), from exhausted games that reached T.
`cards_left` converts it to cards: the cards the clock burnt in the whole game minus
burn_per_turn cards for every turn up to and including the one T was reached in (at least 0).
"""

from __future__ import annotations

import polars as pl

from reports.crisis import TO_EXHAUSTION, TO_TARGET
from reports.frame import (
    CLOCK_END_REASONS,
    GROUP,
    crisis_games,
    distribution,
    named_difficulties,
    rule_value,
)


def burn_games(games: pl.DataFrame) -> pl.DataFrame:
    """The Crisis games timing is read from, with a `source` column (see the module doc)."""
    cg = crisis_games(games).cast({"players": pl.Int64})
    ex = pl.col("exhaust").fill_null(False)
    return (cg.with_columns(ex.any().over(list(GROUP)).alias("_has_ex"))
            .filter(ex == pl.col("_has_ex"))
            .with_columns(pl.when(pl.col("_has_ex")).then(pl.lit(TO_EXHAUSTION))
                          .otherwise(pl.lit(TO_TARGET)).alias("source"))
            .drop("_has_ex"))


def _with_source(summary: pl.DataFrame, bg: pl.DataFrame) -> pl.DataFrame:
    src = bg.select(*GROUP, "source").unique()
    return summary.join(src, on=list(GROUP), how="left").sort(list(GROUP))


def deck_out(games: pl.DataFrame) -> pl.DataFrame:
    """The first turn the gem deck ran out, per (setting, players): quantiles over the games
    where it did; `missing` is the share of games where it never ran out."""
    bg = burn_games(games)
    return _with_source(distribution(bg, "deck_out_turn"), bg)


def reshuffles(games: pl.DataFrame) -> pl.DataFrame:
    """How many reshuffles, per (setting, players): one row per count with games and share."""
    bg = burn_games(games)
    schema = {"setting": pl.Utf8, "players": pl.Int64, "reshuffles": pl.Int64,
              "games": pl.Int64, "share": pl.Float64, "source": pl.Utf8}
    if bg.height == 0:
        return pl.DataFrame(schema=schema)
    out = (bg.group_by(*GROUP, "reshuffles", "source").agg(pl.len().alias("games"))
           .with_columns((pl.col("games") / pl.col("games").sum().over(list(GROUP)))
                         .alias("share")))
    return out.cast({k: v for k, v in schema.items()}).select(list(schema)).sort(
        *GROUP, "reshuffles")


def slack_games(games: pl.DataFrame, diffs: pl.DataFrame, manifest: dict | None = None
                ) -> pl.DataFrame:
    """One row per (exhausted Crisis game, named difficulty it reached): setting, players,
    difficulty, target, reached_turn, slack_turns, cards_left (see the module doc)."""
    cg = crisis_games(games)
    # Only the columns read here: every join below copies what it keeps, lists included.
    ex = (cg.select(*GROUP, "variant", "edition", "exhaust", "turns", "cards_burned",
                    "score_by_turn", *[c for c in ("burn_per_turn",) if c in cg.columns])
          .filter(pl.col("exhaust").fill_null(False)))
    schema = {"setting": pl.Utf8, "players": pl.Int64, "difficulty": pl.Utf8,
              "target": pl.Int64, "reached_turn": pl.Int64, "slack_turns": pl.Int64,
              "cards_left": pl.Int64}
    if ex.height == 0:
        return pl.DataFrame(schema=schema)
    ex = ex.with_columns(rule_value(ex, manifest, "burn_per_turn").alias("_burn"))
    named = named_difficulties(ex, diffs).cast({"players": ex.schema["players"]})
    parts = []
    for t in sorted(set(named["target"].to_list())):
        hit = (ex.join(named.filter(pl.col("target") == t), on=["setting", "players"])
               .filter(pl.col("score_by_turn").list.max() >= t)
               .with_columns((pl.col("score_by_turn").list.eval(pl.element() < t).list.sum()
                              + 1).alias("reached_turn")))
        parts.append(hit.select(
            "setting", "players", "difficulty", "target", "reached_turn",
            (pl.col("turns").cast(pl.Int64) - pl.col("reached_turn")).alias("slack_turns"),
            (pl.col("cards_burned").cast(pl.Int64) - pl.col("_burn") * pl.col("reached_turn"))
            .clip(lower_bound=0).alias("cards_left")).cast(schema))
    if not parts:
        return pl.DataFrame(schema=schema)
    return pl.concat(parts).sort("setting", "players", "target", "reached_turn",
                                 "slack_turns", "cards_left")


def slack(games: pl.DataFrame, diffs: pl.DataFrame, manifest: dict | None = None
          ) -> pl.DataFrame:
    """Slack on the clock per (setting, players, difficulty): the distribution of slack_turns
    over the games that reached the target, and the median and mean cards left."""
    return slack_of(slack_games(games, diffs, manifest))


def slack_of(sg: pl.DataFrame) -> pl.DataFrame:
    """`slack` from slack_games' rows (so that a report computes those once)."""
    by = ["setting", "players", "difficulty", "target"]
    dist = distribution(sg, "slack_turns", by)
    cards = sg.group_by(by).agg(pl.col("cards_left").median().alias("cards_median"),
                                pl.col("cards_left").mean().alias("cards_mean"))
    return dist.join(cards, on=by, how="left").sort("setting", "players", "target")


def clock_end(games: pl.DataFrame) -> pl.DataFrame:
    """The player turn at which the burn ended the game (end_reason cannot_burn or exhausted),
    per (setting, players). In the 1st edition that is the turn a full burn became
    impossible; in the 2nd the turn the last card was burnt."""
    bg = burn_games(games).filter(pl.col("end_reason").is_in(list(CLOCK_END_REASONS)))
    return _with_source(distribution(bg, "turns"), bg)
