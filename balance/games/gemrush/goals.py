"""Gem Rush's `balance tune --goal` names beyond its measures' own (balance/contract/game.py,
Game.goals), and the measures whose game values are more than a column's (Measure.outcome):

    Journeyman=50%    the win rate at a named Crisis difficulty (or `35=50%`: at 35 points;
                      `win=50%`: at the variant's own target)
    seat1=19%         Rush: the share of the games seat 1 wins outright (seats count from 1)
    rounds=12         the mean length of a Rush game in rounds

Each outcome function takes the games table of one variant, the variant as the manifest
records it, and the goal (.at, .text)."""

from __future__ import annotations

import re

import numpy as np
import polars as pl

from balance.errors import InputError, Problem

_SEAT = re.compile(r"^seat([0-9]+)$")


def goal(name: str) -> tuple[str, str | int] | None:
    """(measure, at) for a goal name that is no measure's: seat<k>, points, a difficulty."""
    seat = _SEAT.match(name)
    if seat:
        if int(seat.group(1)) < 1:
            raise ValueError("seats count from 1 (seat 1 plays first)")
        return "seat", int(seat.group(1))
    return "win", int(name) if name.isdigit() else name


def _refuse(goal, why: str) -> InputError:
    return InputError([Problem("--goal", "", "", f"{goal.text!r}: {why}")])


def rounds(games: pl.DataFrame, variant: dict, goal) -> np.ndarray:
    """A game's length in rounds: its turns over the seats, rounded up."""
    p = int(variant["players"])
    return ((games["turns"].cast(pl.Int64) + p - 1) // p).cast(pl.Float64).to_numpy()


def seat(games: pl.DataFrame, variant: dict, goal) -> np.ndarray:
    """1 where seat `goal.at` won the race outright."""
    if variant["mode"] != "rush" or goal.at > variant["players"]:
        raise _refuse(goal, "a seat's share of the wins is a Rush goal"
                      if variant["mode"] != "rush" else f"the variant has {variant['players']} "
                      "seats")
    # The games table counts seats from 1, as the goal does (winner -1: a tie).
    return (games["winner"].cast(pl.Int64) == goal.at).fill_null(False) \
        .cast(pl.Float64).to_numpy()


def win(games: pl.DataFrame, variant: dict, goal) -> np.ndarray:
    """1 where the team reached the goal's target: the variant's own (goal.at None), a
    number of points, or a named difficulty's."""
    target = variant["target"]
    if goal.at is None:
        if target is None:
            raise _refuse(goal, "the experiment has no target; name a difficulty or points, "
                          "e.g. Journeyman=50%")
        t = int(target)
    elif isinstance(goal.at, int):
        t = goal.at
    else:
        difficulties = variant["difficulties"]
        if goal.at not in difficulties:
            raise _refuse(goal, f"no difficulty {goal.at!r} (this profile has: "
                          f"{', '.join(difficulties)})")
        t = int(difficulties[goal.at])
    if variant["exhaust"]:
        return (games["score"].cast(pl.Int64) >= t).cast(pl.Float64).to_numpy()
    if target is not None and t != int(target):
        raise _refuse(goal, f"games stop at the target ({target} points), so only win=P% can "
                      "be measured; set exhaust = true to measure any target")
    return games["won"].fill_null(False).cast(pl.Float64).to_numpy()
