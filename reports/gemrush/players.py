"""Verdicts by player: the same setting played by different players (greedy, its tuned knobs,
the search-based reference, ...), to show how far a verdict moves with the strength of play.

A *base setting* is a setting without its player (frame.with_base_setting). Within a base
setting played by two players or more, the difficulty curves are set side by side and the
targets a designer would print for chosen win rates are compared player by player."""

from __future__ import annotations

import polars as pl

from reports.gemrush.frame import with_base_setting

SCHEMA = {"base_setting": pl.Utf8, "setting": pl.Utf8, "heuristic": pl.Utf8}


def settings_by_player(games: pl.DataFrame) -> pl.DataFrame:
    """(base_setting, setting, heuristic) of every setting whose base setting has more than one
    player in the run; empty when each setting has one player. `games` may be the kinds of
    a tally (tally.Tallies.kinds): the answer depends only on which kinds were played."""
    if games.height == 0:
        return pl.DataFrame(schema=SCHEMA)
    keys = (with_base_setting(games).select("base_setting", "setting",
                                            pl.col("heuristic").cast(pl.Utf8)).unique())
    multi = keys.group_by("base_setting").agg(pl.col("heuristic").n_unique().alias("n"))
    keep = multi.filter(pl.col("n") > 1)["base_setting"].to_list()
    return keys.filter(pl.col("base_setting").is_in(keep)).sort("base_setting", "heuristic")


def curves_by_player(curve: pl.DataFrame, keys: pl.DataFrame) -> pl.DataFrame:
    """The difficulty curve (crisis.difficulty_curve) of each player, labelled by base setting
    and player."""
    return curve.join(keys, on="setting").sort("base_setting", "players", "heuristic",
                                               "target")


def target_spread(targets: pl.DataFrame, keys: pl.DataFrame) -> pl.DataFrame:
    """Per base setting, player count and win rate, where two players or more played: each
    player's target for that rate (crisis.targets_for_win_rates) and `spread`, how far the
    target moves between players."""
    t = targets.join(keys, on="setting")
    if t.height == 0:
        return t.with_columns(pl.lit(None, pl.Int64).alias("spread"))
    spread = (t.group_by("base_setting", "players", "level")
              .agg((pl.col("target").max() - pl.col("target").min()).alias("spread"),
                   pl.col("heuristic").n_unique().alias("n_players"))
              .filter(pl.col("n_players") > 1).drop("n_players"))
    return t.join(spread, on=["base_setting", "players", "level"]).sort(
        "base_setting", "players", pl.col("level"), "heuristic", descending=[False, False,
                                                                              True, False])
