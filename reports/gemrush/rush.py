"""Rush: the outcomes of the Rush games (reports/outcomes/outcomes.py reads them for any game): win
rate by seat against the fair share (first-player advantage), game length in rounds, the score
margin, and how the games ended: a player reached the target, the mine sealed, the room deck ran
out, or the round cap stopped the game.

A round is one turn of every player: rounds = ceil(player turns / players). Seats count from 1,
as in the games table (balance/games/gemrush/records.py): seat 1 plays first. A tied game
(winner -1) is won by no seat.

Every function takes a games table or its tally.Tallies; the `*_counts` tables (one row per
value with `n` games) are what the figures draw.
"""

from __future__ import annotations

import polars as pl

from reports.gemrush import tally
from reports.gemrush.frame import GROUP, rush_games
from reports.outcomes import outcomes
from reports.tables.tally import margin

# How a Rush game can end (balance/games/gemrush/engine/state.py END_NAMES), in the order the
# page shows.
RUSH_ENDINGS = ("rush_target", "sealed", "rooms_out", "turn_cap")
RUSH = pl.col("mode") == "rush"  # the Rush games, among a tally's keys


def of(games) -> outcomes.Outcomes:
    """Every outcome of the Rush games, lengths in rounds."""
    return outcomes.outcomes(tally.of(games), RUSH, rounds=True, reasons=RUSH_ENDINGS)


def rounds_counts(games) -> pl.DataFrame:
    """setting, players, rounds, n: game length in rounds of every Rush game."""
    return outcomes.length_counts(tally.of(games), RUSH, rounds=True).rename(
        {"length": "rounds"})


def rounds(games) -> pl.DataFrame:
    """Distribution of game length in rounds per (setting, players)."""
    return outcomes.lengths(tally.of(games), RUSH, rounds=True)


def endings(games) -> pl.DataFrame:
    """How Rush games ended, per (setting, players): a row for each reason of RUSH_ENDINGS,
    with games, wins = the games that ended so, and their share as win_rate with its 95%
    Wilson interval (the names follow `with_wilson`)."""
    return outcomes.endings(tally.of(games), RUSH, RUSH_ENDINGS)


def turn_cap(games) -> pl.DataFrame:
    """How often the round cap stopped a game: games, wins = capped games, the share as
    win_rate with its 95% Wilson interval (the names follow `with_wilson`)."""
    return endings(games).filter(pl.col("end_reason") == "turn_cap").drop("end_reason")


def seat_wins(games) -> pl.DataFrame:
    """Win rate by seat per (setting, players) of the Rush games (outcomes.seat_wins)."""
    return outcomes.seat_wins(tally.of(games), RUSH)


def margin_counts(games) -> pl.DataFrame:
    """setting, players, margin, n: the winner's lead over the second score (0 for a tie) in
    Rush games of two players or more."""
    return outcomes.margin_counts(tally.of(games), RUSH)


def margins(games: pl.DataFrame) -> pl.DataFrame:
    """Per game: setting, players, margin = top score minus the next best (0 for a tie).
    One-player games have no margin and are left out."""
    r = rush_games(games).select(*GROUP, "scores").cast({"players": pl.Int64})
    return r.filter(pl.col("players") >= 2).select(*GROUP, margin())


def score_margin(games) -> pl.DataFrame:
    """Distribution of the winning margin per (setting, players)."""
    return outcomes.margins(tally.of(games), RUSH)
