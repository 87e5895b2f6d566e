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

from balance.running.goal_seek import band_crossings, interpolate, nearest
from balance.stats.intervals import with_wilson
from reports.gemrush import tally
from reports.gemrush.frame import GROUP, crisis_games, named_difficulties

LEVELS = (0.9, 0.75, 0.5, 0.25, 0.1)
TO_EXHAUSTION = "to exhaustion"
TO_TARGET = "to the target"

_RATE_SCHEMA = {"games": pl.Int64, "wins": pl.Int64, "win_rate": pl.Float64,
                "ci_low": pl.Float64, "ci_high": pl.Float64, "turn_reached": pl.Float64}


def difficulty_curve(games, max_target: int | None = None) -> pl.DataFrame:
    """Win rate at every integer target from exhausted Crisis games (a games table or its
    tally.Tallies).

    One row per (setting, players, target) for target 1 .. max(best score + 1, max_target):
    games, wins (final score >= target), win_rate with its 95% Wilson interval, and
    turn_reached, the mean player turn (1-based) at which the team score first reached the
    target, over the games that reached it (null when none did).
    """
    t = tally.of(games)
    schema = {"setting": pl.Utf8, "players": pl.Int64, "target": pl.Int64, **_RATE_SCHEMA}
    scores = t.table("score", *GROUP)
    if scores.height == 0:
        return pl.DataFrame(schema=schema)
    top = max(int(scores["score"].max() or 0) + 1, int(max_target or 0))
    targets = np.arange(1, top + 1)
    finals = t.table("final", *GROUP)
    turn_scores = t.table("turn_score", *GROUP)
    parts = []
    for (setting, players), g in sorted(scores.group_by(list(GROUP)), key=lambda kv: kv[0]):
        mine = (pl.col("setting") == setting) & (pl.col("players") == players)
        wins = _at_least(g["score"].fill_null(0).to_numpy(), g["n"].to_numpy(), top)[1:]
        parts.append(pl.DataFrame({
            "setting": setting, "players": int(players), "target": targets,
            "games": np.full(top, int(g["n"].sum())), "wins": wins,
            "turn_reached": _mean_turn_reached(turn_scores.filter(mine), finals.filter(mine),
                                               top),
        }))
    curve = (pl.concat(parts).cast({k: schema[k] for k in ("players", "target", "games", "wins")})
             .with_columns(pl.col("turn_reached").fill_nan(None)))
    return with_wilson(curve).select(list(schema)).sort("setting", "players", "target")


def _at_least(values: np.ndarray, n: np.ndarray, top: int) -> np.ndarray:
    """count[v] = how many games have a value >= v, for v = 0 .. top (values above top count
    as top), from the values and how many games had each."""
    hist = np.bincount(np.clip(values.astype(np.int64), 0, top), weights=n.astype(np.int64),
                       minlength=top + 1).astype(np.int64)
    return hist[::-1].cumsum()[::-1]


def _mean_turn_reached(turn_scores: pl.DataFrame, finals: pl.DataFrame, top: int
                       ) -> np.ndarray:
    """Mean first turn at which each target 1..top was reached, NaN where no game reached it.

    A game whose score after turn i is s_i (i = 1..n) and whose final score is F reaches target
    T at turn 1 + #{i : s_i < T}, for T <= F. Summed over games, turn i of game g adds 1 to every
    T in s_i + 1 .. F_g: a difference array over targets, from the counts of each turn's score
    and of each final score with the turns of those games.
    """
    # Index top + 1 collects everything beyond the targets asked for; it is never read.
    delta = np.bincount(np.clip(turn_scores["score"].to_numpy() + 1, 0, top + 1),
                        weights=turn_scores["n"].to_numpy(), minlength=top + 2)
    final = finals["final"].to_numpy()
    delta -= np.bincount(np.clip(final + 1, 0, top + 1), weights=finals["turns"].to_numpy(),
                         minlength=top + 2)
    reached = _at_least(final, finals["n"].to_numpy(), top)[1:]
    turns_before = np.cumsum(delta)[1:top + 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (reached + turns_before) / reached
    return np.where(reached > 0, mean, np.nan)


def fixed_target_rates(games) -> pl.DataFrame:
    """Win rate of Crisis games played to a fixed target, per (setting, players, target), with
    the 95% Wilson interval and the mean turn the target was reached in the games won."""
    t = tally.of(games)
    schema = {"setting": pl.Utf8, "players": pl.Int64, "target": pl.Int64, **_RATE_SCHEMA}
    fixed = t.table("won", *GROUP, "target")
    if fixed.height == 0:
        return pl.DataFrame(schema=schema)
    won = pl.col("won")
    turned = won & pl.col("target_turn").is_not_null()
    out = fixed.group_by("setting", "players", "target").agg(
        pl.col("n").sum().alias("games"),
        pl.col("n").filter(won).sum().alias("wins"),
        (pl.col("target_turn") * pl.col("n")).filter(turned).sum().alias("_turns"),
        pl.col("n").filter(turned).sum().alias("_won"),
    ).with_columns(  # the mean over the games won: their sum over their count
        pl.when(pl.col("_won") > 0)
        .then(pl.col("_turns").cast(pl.Float64) / pl.col("_won").cast(pl.Float64))
        .alias("turn_reached"),
    ).cast({k: schema[k] for k in ("players", "target", "games", "wins")})
    return with_wilson(out).select(list(schema)).sort("setting", "players", "target")


def difficulty_table(games, diffs: pl.DataFrame, curve: pl.DataFrame | None = None
                     ) -> pl.DataFrame:
    """Win rate ± interval for each named difficulty × player count, from each source.

    `games` is a games table or its tally.Tallies, `diffs` `frame.difficulties(...)`. Rows:
    setting, players, difficulty, target, source ("to exhaustion": read off the curve; "to
    the target": games played to that target), games, wins, win_rate, ci_low, ci_high,
    turn_reached. Fixed-target games at an unnamed
    target keep their row with difficulty null. `curve` is difficulty_curve's table when the
    caller has it; otherwise it is computed from `games`.
    """
    t = tally.of(games)
    named = named_difficulties(crisis_games(t.kinds()), diffs).cast({"players": pl.Int64})
    max_named = int(named["target"].max()) if named.height else None
    if curve is None:
        curve = difficulty_curve(t, max_named)
    cols = ["setting", "players", "difficulty", "target", "source", *_RATE_SCHEMA]
    ex = (named.join(curve, on=["setting", "players", "target"], how="inner")
          .with_columns(pl.lit(TO_EXHAUSTION).alias("source")).select(cols))
    fx = (fixed_target_rates(t).join(named, on=["setting", "players", "target"], how="left")
          .with_columns(pl.lit(TO_TARGET).alias("source")).select(cols))
    return pl.concat([ex, fx]).sort("setting", "players", "target", "source")


def targets_for_win_rates(curve: pl.DataFrame, levels: tuple[float, ...] = LEVELS
                          ) -> pl.DataFrame:
    """For each (setting, players) and win rate p: the target a designer could print, by
    `balance tune`'s method (balance/running/goal_seek.py), so that on the same games the two agree.

    `target` is the T whose observed win rate is closest to p (on a tie, the largest won at
    least p of the time), printed with that rate (`win_rate`) and its 95% interval
    (`rate_low`, `rate_high`). `crossing` is where the curve crosses p, interpolated between
    the two targets either side, and `crossing_low`..`crossing_high` its 95% interval: where
    the curve's Wilson bands cross p. The crossing is null where the curve never crosses p
    (every target is won more often, or less often, than p); `target` is then the end
    closest to p.
    """
    schema = {"setting": pl.Utf8, "players": pl.Int64, "level": pl.Float64,
              "target": pl.Int64, "win_rate": pl.Float64, "rate_low": pl.Float64,
              "rate_high": pl.Float64, "crossing": pl.Float64, "crossing_low": pl.Float64,
              "crossing_high": pl.Float64, "games": pl.Int64}
    rows = []
    for (setting, players), g in sorted(curve.group_by("setting", "players"),
                                        key=lambda kv: kv[0]):
        g = g.sort("target")
        t = [int(x) for x in g["target"].to_list()]
        rate = g["win_rate"].to_list()
        bands = list(zip(rate, g["ci_low"].to_list(), g["ci_high"].to_list(), strict=True))
        for p in levels:
            if not t:
                rows.append((setting, int(players), p, *[None] * 8))
                continue
            best = nearest(t, rate, p)
            i = t.index(best)
            # The win rate falls as the target rises: the first target won at most p of the
            # time, after one won more often, brackets the crossing (balance tune's a and b).
            past = next((k for k, r in enumerate(rate) if r <= p), None)
            crossing = low = high = None
            if past:
                crossing = interpolate(t[past - 1], rate[past - 1], t[past], rate[past], p)
                low, high = band_crossings(t, bands, p, -1.0, t[0], t[-1])
            rows.append((setting, int(players), p, best, float(rate[i]), float(bands[i][1]),
                         float(bands[i][2]), crossing, low, high, int(g["games"].max())))
    return pl.DataFrame(rows, schema=schema, orient="row").sort("setting", "players",
                                                                pl.col("level"),
                                                                descending=[False, False, True])
