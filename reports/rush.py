"""Rush: game length in rounds, win rate by seat (first-player advantage), the score margin, and
how the games ended: a player reached the target, the mine sealed, the room deck ran out, or
the round cap stopped the game.

A round is one turn of every player: rounds = ceil(player turns / players). Seat 0 plays first.
A tied game (winner -1) is won by no seat.
"""

from __future__ import annotations

import polars as pl

from reports.frame import GROUP, distribution, rush_games
from reports.intervals import with_wilson


def with_rounds(games: pl.DataFrame) -> pl.DataFrame:
    """The Rush games, with `rounds` added."""
    return rush_games(games).cast({"players": pl.Int64}).with_columns(
        ((pl.col("turns").cast(pl.Int64) + pl.col("players") - 1) // pl.col("players"))
        .alias("rounds"))


def rounds(games: pl.DataFrame) -> pl.DataFrame:
    """Distribution of game length in rounds per (setting, players)."""
    return distribution(with_rounds(games), "rounds")


def turn_cap(games: pl.DataFrame) -> pl.DataFrame:
    """How often the round cap stopped a game: games, wins = capped games, the share as
    win_rate with its 95% Wilson interval (the names follow `with_wilson`)."""
    r = with_rounds(games)
    schema = {"setting": pl.Utf8, "players": pl.Int64, "games": pl.Int64, "wins": pl.Int64}
    if r.height == 0:
        return with_wilson(pl.DataFrame(schema=schema))
    out = r.group_by(*GROUP).agg(pl.len().alias("games"),
                                 (pl.col("end_reason") == "turn_cap").sum().alias("wins"))
    return with_wilson(out.cast(schema)).sort(*GROUP)


# How a Rush game can end (balance/engine/state.py END_NAMES), in the order the page shows.
RUSH_ENDINGS = ("rush_target", "sealed", "rooms_out", "turn_cap")


def endings(games: pl.DataFrame) -> pl.DataFrame:
    """How Rush games ended, per (setting, players): a row for each reason of RUSH_ENDINGS,
    with games, wins = the games that ended so, and their share as win_rate with its 95%
    Wilson interval (the names follow `with_wilson`)."""
    r = with_rounds(games)
    schema = {"setting": pl.Utf8, "players": pl.Int64, "end_reason": pl.Utf8,
              "games": pl.Int64, "wins": pl.Int64}
    if r.height == 0:
        return with_wilson(pl.DataFrame(schema=schema))
    r = r.with_columns(pl.col("end_reason").cast(pl.Utf8))  # a read may give categories
    totals = r.group_by(*GROUP).agg(pl.len().alias("games"))
    counts = r.group_by(*GROUP, "end_reason").agg(pl.len().alias("wins"))
    out = (totals.join(pl.DataFrame({"end_reason": list(RUSH_ENDINGS)}), how="cross")
           .join(counts, on=[*GROUP, "end_reason"], how="left")
           .with_columns(pl.col("wins").fill_null(0)))
    return with_wilson(out.cast(schema).select(list(schema))).sort(*GROUP, "end_reason")


def seat_wins(games: pl.DataFrame) -> pl.DataFrame:
    """Win rate by seat per (setting, players): games, wins, win_rate with its 95% Wilson
    interval, ties (share of tied games) and fair_share = (1 - ties) / players, what every
    seat would win if the seat did not matter."""
    r = with_rounds(games)
    schema = {"setting": pl.Utf8, "players": pl.Int64, "seat": pl.Int64, "games": pl.Int64,
              "wins": pl.Int64, "ties": pl.Float64, "fair_share": pl.Float64}
    if r.height == 0:
        return with_wilson(pl.DataFrame(schema=schema))
    per_game = r.with_columns(pl.int_ranges(0, pl.col("players"), dtype=pl.Int64).alias("seat"))
    out = (per_game.explode("seat").group_by(*GROUP, "seat").agg(
        pl.len().alias("games"),
        (pl.col("winner").cast(pl.Int64) == pl.col("seat")).fill_null(False).sum()
        .alias("wins"),
        (pl.col("winner") == -1).fill_null(False).mean().alias("ties"))
        .with_columns(((1 - pl.col("ties")) / pl.col("players")).alias("fair_share")))
    return with_wilson(out.cast(schema).select(list(schema))).sort(*GROUP, "seat")


def margins(games: pl.DataFrame) -> pl.DataFrame:
    """Per game: setting, players, margin = top score minus the next best (0 for a tie).
    One-player games have no margin and are left out."""
    r = rush_games(games).select(*GROUP, "scores").cast({"players": pl.Int64}).filter(
        pl.col("players") >= 2)
    ranked = pl.col("scores").list.sort(descending=True)
    return r.select(*GROUP, (ranked.list.get(0, null_on_oob=True)
                             - ranked.list.get(1, null_on_oob=True))
                    .cast(pl.Int64).alias("margin"))


def score_margin(games: pl.DataFrame) -> pl.DataFrame:
    """Distribution of the winning margin per (setting, players)."""
    return distribution(margins(games), "margin")
