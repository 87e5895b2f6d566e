"""Gem Mountain's measures whose game values are more than a column's (Measure.outcome), for
`balance tune --goal`:

    first=25%    the start player's (seat 1's) share of the games one player won

A shared win (every player's most tied on the final score, 3 to 14% of games with majority
players, more at more players) is no seat's, so the fair share of a seat is 1/players of the
games one player won, as the report's First seat section reads it; over every game it would
be lower by the share of shared wins, and a goal of 25% at 4 players would ask for more than
fair. `balance tune first-seat-compensation --lever ... --goal first=25%` seeks it."""

from __future__ import annotations

import numpy as np
import polars as pl


def first(games: pl.DataFrame, variant: dict, goal) -> np.ndarray:
    """1 where seat 1 won alone, 0 where another seat did, NaN where no one player won (a
    shared win, or a game stopped undecided: no winner either way)."""
    winner = games["winner"]
    return np.where(winner.is_null().to_numpy(), np.nan,
                    (winner.fill_null(0) == 1).cast(pl.Float64).to_numpy())
