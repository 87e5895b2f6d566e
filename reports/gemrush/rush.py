"""Rush: game length in rounds, win rate by seat (first-player advantage), the score margin, and
how the games ended: a player reached the target, the mine sealed, the room deck ran out, or
the round cap stopped the game.

A round is one turn of every player: rounds = ceil(player turns / players). Seats count from 1,
as in the games table (balance/games/gemrush/records.py): seat 1 plays first. A tied game (winner
-1) is won
by no seat.

Whether a seat wins its fair share: in a game that one seat won, a seat that did not matter
would be the winner one time in `players`. Each seat's wins among those games are tested
against 1/players with the exact binomial test, and Holm's correction runs over every seat
tested together (fair_share_p, off_fair_share); fewer than paired.MIN_PAIRS such games are
too few to test, as for every comparison.

Every function takes a games table or its tally.Tallies; the `*_counts` tables (one row per
value with `n` games) are what the figures draw.
"""

from __future__ import annotations

import math

import polars as pl

from balance.stats.intervals import with_wilson
from balance.stats.paired import holm, too_few
from reports import counts, tally
from reports.frame import GROUP, rush_games

# How a Rush game can end (balance/games/gemrush/engine/state.py END_NAMES), in the order the page
# shows.
RUSH_ENDINGS = ("rush_target", "sealed", "rooms_out", "turn_cap")


def _rush(t: tally.Tallies, name: str) -> pl.DataFrame:
    """A count table of the Rush games, with setting and players (Int64)."""
    keys = t.keys.filter(pl.col("mode") == "rush").select("kid", *GROUP).cast(
        {"players": pl.Int64})
    return t.tables[name].join(keys, on="kid")


def rounds_counts(games) -> pl.DataFrame:
    """setting, players, rounds, n: game length in rounds of every Rush game."""
    c = _rush(tally.of(games), "end").with_columns(
        ((pl.col("turns") + pl.col("players") - 1) // pl.col("players")).alias("rounds"))
    return counts.added([c.select(*GROUP, "rounds", "n")], [*GROUP, "rounds"]).sort(*GROUP,
                                                                                    "rounds")


def rounds(games) -> pl.DataFrame:
    """Distribution of game length in rounds per (setting, players)."""
    return counts.distribution(rounds_counts(games), "rounds", GROUP)


def turn_cap(games) -> pl.DataFrame:
    """How often the round cap stopped a game: games, wins = capped games, the share as
    win_rate with its 95% Wilson interval (the names follow `with_wilson`)."""
    c = _rush(tally.of(games), "end")
    schema = {"setting": pl.Utf8, "players": pl.Int64, "games": pl.Int64, "wins": pl.Int64}
    if c.height == 0:
        return with_wilson(pl.DataFrame(schema=schema))
    out = c.group_by(*GROUP).agg(pl.col("n").sum().alias("games"),
                                 pl.col("n").filter(pl.col("end_reason") == "turn_cap").sum()
                                 .alias("wins"))
    return with_wilson(out.cast(schema)).sort(*GROUP)


def endings(games) -> pl.DataFrame:
    """How Rush games ended, per (setting, players): a row for each reason of RUSH_ENDINGS,
    with games, wins = the games that ended so, and their share as win_rate with its 95%
    Wilson interval (the names follow `with_wilson`)."""
    c = _rush(tally.of(games), "end")
    schema = {"setting": pl.Utf8, "players": pl.Int64, "end_reason": pl.Utf8,
              "games": pl.Int64, "wins": pl.Int64}
    if c.height == 0:
        return with_wilson(pl.DataFrame(schema=schema))
    totals = c.group_by(*GROUP).agg(pl.col("n").sum().alias("games"))
    ended = c.group_by(*GROUP, "end_reason").agg(pl.col("n").sum().alias("wins"))
    out = (totals.join(pl.DataFrame({"end_reason": list(RUSH_ENDINGS)}), how="cross")
           .join(ended, on=[*GROUP, "end_reason"], how="left")
           .with_columns(pl.col("wins").fill_null(0)))
    return with_wilson(out.cast(schema).select(list(schema))).sort(*GROUP, "end_reason")


def fair_share_p(wins: int, decided: int, players: int) -> float:
    """The p-value of the exact binomial test of a seat's `wins` among the `decided` games
    (those one seat won) against 1/players; NaN for one player or too few games."""
    from scipy import stats

    if players < 2 or too_few(decided):
        return math.nan
    return float(stats.binomtest(int(wins), int(decided), 1 / players).pvalue)


def off_fair_share(p_values) -> list[bool]:
    """Which seats win more or less than their fair share beyond chance: Holm's correction
    over every p-value given (NaN: not tested, never off)."""
    return [bool(x) for x in holm(p_values)[0]]


def seat_wins(games) -> pl.DataFrame:
    """Win rate by seat per (setting, players): games, wins, win_rate with its 95% Wilson
    interval, ties (share of tied games) and fair_share = (1 - ties) / players, what every
    seat would win if the seat did not matter; decided (the games one seat won), p_fair (the
    exact binomial test of the seat's wins among them against 1/players) and off_fair (the
    test survives Holm over every seat of the table)."""
    c = _rush(tally.of(games), "winner")
    schema = {"setting": pl.Utf8, "players": pl.Int64, "seat": pl.Int64, "games": pl.Int64,
              "wins": pl.Int64, "ties": pl.Float64, "fair_share": pl.Float64,
              "decided": pl.Int64}
    tested = {"p_fair": pl.Float64, "off_fair": pl.Boolean}
    if c.height == 0:
        return with_wilson(pl.DataFrame(schema=schema)).with_columns(
            *(pl.lit(None, t).alias(k) for k, t in tested.items()))
    per_seat = c.with_columns(pl.int_ranges(1, pl.col("players") + 1, dtype=pl.Int64)
                              .alias("seat")).explode("seat")
    out = (per_seat.group_by(*GROUP, "seat").agg(
        pl.col("n").sum().alias("games"),
        pl.col("n").filter(pl.col("winner") == pl.col("seat")).sum().alias("wins"),
        pl.col("n").filter(pl.col("winner") == -1).sum().alias("_ties"))
        # the share of tied games, as a mean over the games: their count over all
        .with_columns((pl.col("_ties").cast(pl.Float64) / pl.col("games").cast(pl.Float64))
                      .alias("ties"))
        .with_columns(((1 - pl.col("ties")) / pl.col("players")).alias("fair_share"),
                      (pl.col("games") - pl.col("_ties")).alias("decided")))
    out = with_wilson(out.cast(schema).select(list(schema))).sort(*GROUP, "seat")
    p = [fair_share_p(k, d, n) for k, d, n in out.select("wins", "decided", "players").rows()]
    return out.with_columns(pl.Series("p_fair", p, pl.Float64),
                            pl.Series("off_fair", off_fair_share(p), pl.Boolean))


def margin_counts(games) -> pl.DataFrame:
    """setting, players, margin, n: the winner's lead over the second score (0 for a tie) in
    Rush games of two players or more."""
    c = _rush(tally.of(games), "margin")
    return counts.added([c.select(*GROUP, "margin", "n")], [*GROUP, "margin"]).sort(*GROUP,
                                                                                    "margin")


def margins(games: pl.DataFrame) -> pl.DataFrame:
    """Per game: setting, players, margin = top score minus the next best (0 for a tie).
    One-player games have no margin and are left out."""
    r = rush_games(games).select(*GROUP, "scores").cast({"players": pl.Int64})
    return r.filter(pl.col("players") >= 2).select(*GROUP, tally.margin())


def score_margin(games) -> pl.DataFrame:
    """Distribution of the winning margin per (setting, players)."""
    return counts.distribution(margin_counts(games), "margin", GROUP)
