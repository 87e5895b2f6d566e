"""How a run's games played, setting by setting: every measure of a game's course
(balance/stats/course.py) with its 95% interval, the balance between the seats, the share of
games within the designer's ideal length, and the "when it is decided" curve. Nothing here
draws: the section (section.py) and the table across games (across.py) read these tables.

A setting is the report's (reports/tables/frame.py): a version of the rules and its players,
by player count. A race's measures count the games a seat won; a cooperative game's, the
team's games with a goal; each row says how many games it counts."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from balance.contract.game import Game
from balance.stats import course
from balance.stats.intervals import wilson
from balance.stats.measures import t_interval, undecided_of
from reports.tables import frame, pieces

ROW_SCHEMA = {"setting": pl.Utf8, "players": pl.Int64, "team": pl.Boolean, "games": pl.Int64,
              "key": pl.Utf8, "name": pl.Utf8, "kind": pl.Utf8, "n": pl.Int64,
              "value": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
CURVE_SCHEMA = {"setting": pl.Utf8, "players": pl.Int64, "team": pl.Boolean,
                "tenth": pl.Int64, "n": pl.Int64, "value": pl.Float64,
                "ci_low": pl.Float64, "ci_high": pl.Float64}
RACE = ("lead_changes", "comeback_quarter", "comeback_half", "comeback_three_quarters",
        "decided_at", "drama", "leader_wins_half")
TEAM = ("settled_at", "behind_pace_wins")
BOTH = ("completion", "draws", "branching", "decisions")
# The quantities of a setting beyond the course measures.
BALANCE, IDEAL = "balance", "ideal_length"
READ = ("variant", "players", "heuristic", "winner", "won", "turns", "end_reason", course.COURSE,
        "lead_changes", "branching", "decisions", course.GOAL)


@dataclass(frozen=True)
class Course:
    rows: pl.DataFrame  # ROW_SCHEMA: one row per setting, player count and quantity
    curve: pl.DataFrame  # CURVE_SCHEMA: the chance the leader at each tenth wins
    ideal: tuple[int, int] | None  # the designer's ideal length (the manifest's)
    unit: str  # the game's length unit


def games_of(data, manifest: dict, layout: frame.Layout) -> pl.DataFrame:
    """The columns the course reads, with each game's setting (the report's label)."""
    wanted = list(dict.fromkeys([*READ, *frame.setting_columns(
        pl.DataFrame(schema={c: pl.Utf8 for c in data.games.columns}), layout)]))
    parts = [frame.with_manifest_columns(p, manifest, layout)
             for p in pieces.of(data.games, wanted)]
    games = pl.concat(parts, how="diagonal_relaxed") if parts else pl.DataFrame()
    return frame.with_setting(games, layout) if games.height else games


def summarise(games: pl.DataFrame, game: Game, manifest: dict) -> Course | None:
    """The course of every setting of a run's games (`games_of`); None where the games
    record no course (a run played before it was recorded, or a game without one)."""
    ideal = manifest.get("ideal_length")
    ideal = tuple(ideal) if isinstance(ideal, list) and len(ideal) == 2 else None
    if games.height == 0 or course.COURSE not in games.columns:
        return None
    rows, curve = [], []
    info = {int(v["variant"]): v for v in manifest.get("variants", [])}
    for (setting, players), one in games.group_by("setting", "players", maintain_order=True):
        first = info.get(int(one["variant"][0]), {"players": int(players)})
        team = not game.competitive(first)
        head = (setting, int(players), team, one.height)
        rows += [(*head, *q) for q in _quantities(one, game, team, ideal)]
        curve += [(*head[:3], *c) for c in _curve(one, team)]
    return Course(pl.DataFrame(rows, schema=ROW_SCHEMA, orient="row"),
                  pl.DataFrame(curve, schema=CURVE_SCHEMA, orient="row"), ideal,
                  game.length_unit)


def _quantity(key: str, name: str, kind: str, x: np.ndarray) -> tuple:
    x = x[np.isfinite(x)]
    n = len(x)
    if kind == "rate":
        ci = wilson(int(x.sum()), n)
    else:
        ci = t_interval(x)
    lo, hi = ci or (None, None)
    return key, name, kind, n, float(x.mean()) if n else None, lo, hi


def _quantities(one: pl.DataFrame, game: Game, team: bool, ideal) -> list[tuple]:
    undecided = undecided_of(one, game.undecided_ends)
    out = []
    for key in (TEAM if team else RACE) + BOTH:
        m = course.find(game, key) or next(m for m in course.MEASURES if m.name == key)
        if m.column not in one.columns:
            continue
        x = course.values(one, key, game)
        if m.kind == "rate":
            x = np.where(undecided, np.nan, x)
        out.append(_quantity(key, m.title, m.kind, x))
    if not team:
        out.append(_balance(one, undecided))
    if ideal is not None:
        turns = one["turns"].cast(pl.Int64).to_numpy()
        inside = ((turns >= ideal[0]) & (turns <= ideal[1])).astype(float)
        out.append(_quantity(IDEAL, "Within the ideal length", "rate", inside))
    return out


def _balance(one: pl.DataFrame, undecided: np.ndarray) -> tuple:
    """The largest gap between two seats' shares of the decided games' wins, with no interval
    of its own (each seat's share has one, in Outcomes)."""
    decided = ~undecided
    winner = one["winner"].cast(pl.Int64).fill_null(0).to_numpy()[decided]
    seats = int(one["players"].max())
    n = len(winner)
    if n == 0 or seats < 2:
        return BALANCE, "Largest gap between seats", "gap", n, None, None, None
    shares = [(winner == s).sum() / n for s in range(1, seats + 1)]
    return BALANCE, "Largest gap between seats", "gap", n, float(max(shares) - min(shares)), \
        None, None


def _curve(one: pl.DataFrame, team: bool) -> list[tuple]:
    """At each tenth of the game: a race's chance that the seat alone ahead then wins, a team's
    that its pace then (ahead of or behind its goal's) foretells its outcome."""
    out = []
    arrays = course.course_arrays(one) if course.COURSE in one.columns else {}
    for tenth in course.TENTHS:
        hits = []
        for rows, prog in arrays.values():
            point = 2 * tenth
            if team:
                won = np.array([bool(w) for w in one["won"].to_numpy()[rows]])
                known = np.array([w is not None for w in one["won"].to_numpy()[rows]])
                ahead = course.pace(one, rows, prog)[:, point - 1]
                ok = known & np.isfinite(ahead)
                hits.append(((ahead == 1) == won)[ok])
            else:
                winner = one["winner"].cast(pl.Int64).fill_null(0).to_numpy()[rows] - 1
                lead = course.leader_at(prog, point)
                ok = (winner >= 0) & (lead >= 0)
                hits.append((lead == winner)[ok])
        x = np.concatenate(hits) if hits else np.zeros(0, bool)
        k, n = int(x.sum()), len(x)
        lo, hi = wilson(k, n) or (None, None)
        out.append((tenth, n, k / n if n else None, lo, hi))
    return out
