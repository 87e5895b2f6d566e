"""Each game's result for the seats that played it, the one scoring every part of a ladder
reads: a seat's share of the game is 1 for the seat that won and 0 for the others; a tie or
a game stopped undecided gives every seat its fair share, 1/players (never a loss: the
toolkit counts an undecided game as no one's, balance/stats/measures.py); a win of the
rules' own opponent (the automa) gives every seat 0. A team's result is 1 won, 0 lost, a
half for a game stopped undecided."""

from __future__ import annotations

import numpy as np
import polars as pl


def seat_shares(g: pl.DataFrame, players: int) -> np.ndarray:
    """(games, players): each listed seat's share of each game."""
    n = g.height
    winner = g["winner"].to_numpy()
    lost_to_rules = (g["won"].fill_null(True).to_numpy() == False)  # noqa: E712 (null-safe)
    out = np.zeros((n, players))
    won = winner >= 0
    out[np.flatnonzero(won), winner[won]] = 1.0
    shared = ~won & ~lost_to_rules
    out[shared] = 1.0 / players
    return out


def team_result(g: pl.DataFrame) -> np.ndarray:
    """(games,): the team's result, or a lone seat's against the rules."""
    won = g["won"].to_numpy()
    winner = g["winner"].to_numpy()
    undecided = g["undecided"].to_numpy()
    out = np.where(won == True, 1.0, 0.0)  # noqa: E712 (won holds nulls)
    out[winner >= 0] = 1.0  # a lone seat that won (its game records a winner, not `won`)
    out[undecided] = 0.5
    return out
