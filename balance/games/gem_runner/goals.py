"""Gem Runner's measures whose game values are more than a column's (Measure.outcome), for
`balance tune --goal`:

    won=50%    the share of the decided games the seats won against the Computer (a seat
               alone, or the team whose Stacks reached the target together)

With it the Computer's levers (computer_hand, computer_gem, computer_supers,
computer_repeats, decks) are tuned to a chosen win rate for the experiment's player:
`balance tune gem-runner-computer-tune --lever computer_hand --range 3:7 --goal won=50%`."""

from __future__ import annotations

import numpy as np
import polars as pl

from balance.errors import InputError, Problem
from balance.games.gem_runner.rules import DEFAULTS, against_computer


def won(games: pl.DataFrame, variant: dict, goal) -> np.ndarray:
    """1 where a seat's Stack (or the team's) reached the target before the Computer's, 0
    where the Computer's did. The kit records the seats' win as the seat whose Gem reached it
    (`winner`), the Computer's as `won` false."""
    rules = {**DEFAULTS, **(variant.get("rules") or {})}
    players = int(variant.get("players") or 0)
    if not against_computer(rules["play"], players):
        raise InputError([Problem("--goal", "", "", f"{goal.text!r}: a win against the "
                                  f"Computer, and the experiment's {players} seats play head "
                                  "to head; set play = \"computer\" in its [rules], or seek "
                                  "first=P% for the first seat's share")])
    return games["winner"].is_not_null().cast(pl.Float64).to_numpy()
