"""Crisis difficulty: win rate against target, the named difficulties, and the targets that give
chosen win rates.

Played to exhaustion, a game's team score after every player turn is known, and the score never
falls, so one game answers "won at T?" for every target T at once (RULINGS.md, ruling 1): it is
won at T when its final score is at least T. Games played to a fixed target answer for their own
target only (the `won` column).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from reports.frame import GROUP, crisis_games, named_difficulties
from reports.intervals import with_wilson

LEVELS = (0.9, 0.75, 0.5, 0.25, 0.1)
TO_EXHAUSTION = "to exhaustion"
TO_TARGET = "to the target"

_RATE_SCHEMA = {"games": pl.Int64, "wins": pl.Int64, "win_rate": pl.Float64,
                "ci_low": pl.Float64, "ci_high": pl.Float64, "turn_reached": pl.Float64}


def difficulty_curve(games: pl.DataFrame, max_target: int | None = None) -> pl.DataFrame:
    """Win rate at every integer target from exhausted Crisis games.

    One row per (setting, players, target) for target 1 .. max(best score + 1, max_target):
    games, wins (final score >= target), win_rate with its 95% Wilson interval, and
    turn_reached, the mean player turn (1-based) at which the team score first reached the
    target, over the games that reached it (null when none did).
    """
    schema = {"setting": pl.Utf8, "players": pl.Int64, "target": pl.Int64, **_RATE_SCHEMA}
    # Only the columns read here: a filter copies every column it keeps.
    ex = (crisis_games(games).select(*GROUP, "exhaust", "score", "score_by_turn")
          .filter(pl.col("exhaust").fill_null(False)))
    if ex.height == 0:
        return pl.DataFrame(schema=schema)
    top = max(int(ex["score"].max() or 0) + 1, int(max_target or 0))
    targets = np.arange(1, top + 1)
    parts = []
    for (setting, players), g in sorted(ex.group_by(list(GROUP)), key=lambda kv: kv[0]):
        wins = _at_least(g["score"].fill_null(0).to_numpy(), top)[1:]
        parts.append(pl.DataFrame({
            "setting": setting, "players": int(players), "target": targets,
            "games": np.full(top, g.height), "wins": wins,
            "turn_reached": _mean_turn_reached(g["score_by_turn"], top),
        }))
    curve = (pl.concat(parts).cast({k: schema[k] for k in ("players", "target", "games", "wins")})
             .with_columns(pl.col("turn_reached").fill_nan(None)))
    return with_wilson(curve).select(list(schema)).sort("setting", "players", "target")


def _at_least(values: np.ndarray, top: int) -> np.ndarray:
    """count[v] = how many values are >= v, for v = 0 .. top (values above top count as top)."""
    hist = np.bincount(np.clip(values.astype(np.int64), 0, top), minlength=top + 1)
    return hist[::-1].cumsum()[::-1]


TURN_SLICE = 50_000  # games per slice in _mean_turn_reached


def _mean_turn_reached(score_by_turn: pl.Series, top: int) -> np.ndarray:
    """Mean first turn at which each target 1..top was reached, NaN where no game reached it.

    A game whose score after turn i is s_i (i = 1..n) and whose final score is F reaches target
    T at turn 1 + #{i : s_i < T}, for T <= F. Summed over games, turn i of game g adds 1 to every
    T in s_i + 1 .. F_g: a difference array over targets, one pass over all turns.
    """
    delta = np.zeros(top + 2, np.float64)
    reached = np.zeros(top, np.int64)
    # In slices of games: a million games have 27 million turns, and their int64 copies
    # would cost more than the games themselves.
    for start in range(0, len(score_by_turn), TURN_SLICE):
        part = score_by_turn.slice(start, TURN_SLICE)
        final = part.list.max().fill_null(0).to_numpy().astype(np.int64)
        lengths = part.list.len().fill_null(0).to_numpy()
        flat = part.explode().drop_nulls().to_numpy().astype(np.int64)
        # Index top + 1 collects everything beyond the targets asked for; it is never read.
        delta += np.bincount(np.clip(flat + 1, 0, top + 1), minlength=top + 2)
        delta -= np.bincount(np.clip(final + 1, 0, top + 1), weights=lengths,
                             minlength=top + 2)
        reached += _at_least(final, top)[1:]
    turns_before = np.cumsum(delta)[1:top + 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (reached + turns_before) / reached
    return np.where(reached > 0, mean, np.nan)


def fixed_target_rates(games: pl.DataFrame) -> pl.DataFrame:
    """Win rate of Crisis games played to a fixed target, per (setting, players, target), with
    the 95% Wilson interval and the mean turn the target was reached in the games won."""
    schema = {"setting": pl.Utf8, "players": pl.Int64, "target": pl.Int64, **_RATE_SCHEMA}
    fixed = crisis_games(games).filter(~pl.col("exhaust").fill_null(False)
                                       & pl.col("target").is_not_null())
    if fixed.height == 0:
        return pl.DataFrame(schema=schema)
    out = fixed.group_by("setting", "players", "target").agg(
        pl.len().alias("games"),
        pl.col("won").fill_null(False).sum().alias("wins"),
        pl.col("target_turn").filter(pl.col("won").fill_null(False)).mean()
        .alias("turn_reached"),
    ).cast({k: schema[k] for k in ("players", "target", "games", "wins")})
    return with_wilson(out).select(list(schema)).sort("setting", "players", "target")


def difficulty_table(games: pl.DataFrame, diffs: pl.DataFrame,
                     curve: pl.DataFrame | None = None) -> pl.DataFrame:
    """Win rate ± interval for each named difficulty × player count, from each source.

    `diffs` is `frame.difficulties(...)`. Rows: setting, players, difficulty, target, source
    ("to exhaustion": read off the curve; "to the target": games played to that target),
    games, wins, win_rate, ci_low, ci_high, turn_reached. Fixed-target games at an unnamed
    target keep their row with difficulty null. `curve` is difficulty_curve's table when the
    caller has it (it is the costly part); otherwise it is computed from `games`.
    """
    named = named_difficulties(crisis_games(games), diffs).cast({"players": pl.Int64})
    max_named = int(named["target"].max()) if named.height else None
    if curve is None:
        curve = difficulty_curve(games, max_named)
    cols = ["setting", "players", "difficulty", "target", "source", *_RATE_SCHEMA]
    ex = (named.join(curve, on=["setting", "players", "target"], how="inner")
          .with_columns(pl.lit(TO_EXHAUSTION).alias("source")).select(cols))
    fx = (fixed_target_rates(games).join(named, on=["setting", "players", "target"], how="left")
          .with_columns(pl.lit(TO_TARGET).alias("source")).select(cols))
    return pl.concat([ex, fx]).sort("setting", "players", "target", "source")


def targets_for_win_rates(curve: pl.DataFrame, levels: tuple[float, ...] = LEVELS
                          ) -> pl.DataFrame:
    """For each (setting, players) and win rate p: the target a designer could print.

    `target` is the largest T whose observed win rate is at least p (null if even target 1 is
    won less often). `low`..`high` is its uncertainty: every T whose 95% interval contains p,
    together with `target` itself; when the curve crosses p between two targets with intervals
    too narrow to contain p, the range is that one target.
    """
    schema = {"setting": pl.Utf8, "players": pl.Int64, "level": pl.Float64,
              "target": pl.Int64, "win_rate": pl.Float64, "low": pl.Int64, "high": pl.Int64,
              "games": pl.Int64}
    rows = []
    for (setting, players), g in sorted(curve.group_by("setting", "players"),
                                        key=lambda kv: kv[0]):
        g = g.sort("target")
        t = g["target"].to_numpy()
        rate = g["win_rate"].to_numpy()
        lo, hi = g["ci_low"].to_numpy(), g["ci_high"].to_numpy()
        for p in levels:
            ok = np.flatnonzero(rate >= p)
            best = int(t[ok.max()]) if ok.size else None
            best_rate = float(rate[ok.max()]) if ok.size else None
            plausible = [int(x) for x in t[(lo <= p) & (p <= hi)]]
            if best is not None:
                plausible.append(best)
            rows.append((setting, int(players), p, best, best_rate,
                         min(plausible) if plausible else None,
                         max(plausible) if plausible else None, int(g["games"].max())))
    return pl.DataFrame(rows, schema=schema, orient="row").sort("setting", "players",
                                                                pl.col("level"),
                                                                descending=[False, False, True])
