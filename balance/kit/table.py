"""A batch's records into the game's tables: the games table (the core columns, the kit's,
the game's own, then one column per swept key) and, for a game with tallies, the seats
table. Outcomes are written one way for every game on the kit:

| outcome | winner | won |
|---|---|---|
| a seat won | the seat, from 1 | null |
| a tie | null | null |
| the team won (a cooperative game) | null | true |
| the automa won (the seats lost together) | null | false |
| undecided (an end reason in undecided_ends) | null | null |
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from balance.contract.experiment import KNOB_PREFIX
from balance.kit.records import Records
from balance.kit.state import AUTOMA_WON, COURSE_POINTS, SEAT_WON, TEAM_WON


def heuristic(names) -> str:
    """The players column: the one player of every seat, or the seats' players in order."""
    return ",".join(names) if len(set(names)) > 1 else names[0]


def games_table(game, experiment: str, variant, start: int, seeds: np.ndarray,
                records: Records, names, source_hash: str, own: dict) -> pa.Table:
    """`game` the Game, `own` the values of the game's own columns (KitGame.values)."""
    n = len(seeds)
    r = records
    seat_won = r.outcome == SEAT_WON
    team = (r.outcome == TEAM_WON) | (r.outcome == AUTOMA_WON)
    scores = r.scores
    best = scores.max(axis=1) if scores.shape[1] else np.zeros(n, np.int64)
    winner_score = scores[np.arange(n), np.maximum(r.winner, 0)] if scores.shape[1] else best
    offsets, lead_turns, leaders = r.lead_lists()
    cols = {
        "experiment": [experiment] * n, "variant": np.full(n, variant.index, np.int32),
        "game": np.arange(start, start + n, dtype=np.int64), "seed": seeds.astype(np.int64),
        "players": np.full(n, len(names), np.int16), "heuristic": [heuristic(names)] * n,
        "went_first": np.ones(n, np.int8),
        "won": pa.array(r.outcome == TEAM_WON, pa.bool_(), mask=~team),
        "winner": pa.array((r.winner + 1).astype(np.int8), pa.int8(), mask=~seat_won),
        "score": np.where(seat_won, winner_score, best).astype(np.int16),
        "scores": pa.array(list(scores.astype(np.int16)), pa.list_(pa.int16())),
        "turns": r.turns.astype(np.int16),
        "end_reason": [game.end_reasons[e] for e in r.end],
        "engine_version": [game.version] * n, "source_hash": [source_hash] * n,
        **decision_columns(r.decisions, r.options),
        "lead_turns": pa.ListArray.from_arrays(offsets, (lead_turns + 1).astype(np.int16)),
        "leaders": pa.ListArray.from_arrays(offsets, (leaders + 1).astype(np.int8)),
        **course_columns(r.course, r.lead_changes),
        **own,
    }
    columns = game.games_table.columns
    schema = game.games_table.arrow_schema()
    table = pa.table({c: cols[c] if isinstance(cols[c], pa.Array)
                      else pa.array(cols[c], schema.field(c).type) for c in columns})
    for key, column in swept_columns(variant, n, columns).items():
        table = table.append_column(key, column)
    return table


def decision_columns(decisions: np.ndarray, options: np.ndarray) -> dict[str, pa.Array]:
    """The games table's decisions and branching (KIT_COLUMNS) from each game's decisions and
    the options they offered: a game with no decision has no branching (null)."""
    return {"decisions": pa.array(decisions.astype(np.int32)),
            "branching": pa.array(options / np.maximum(decisions, 1), pa.float32(),
                                  mask=decisions == 0)}


def course_columns(course: np.ndarray, lead_changes: np.ndarray) -> dict[str, pa.Array]:
    """The games table's course (KIT_COLUMNS) from each game's (points, seats) progress and
    its changes of sole leader: the points one list a game, point by point, seat 1 first
    within a point (balance/stats/course.py reads it back)."""
    n = len(course)
    flat = course.reshape(n, -1).astype(np.int16)
    offsets = np.arange(0, flat.size + 1, max(flat.shape[1], 1), dtype=np.int32)[: n + 1]
    return {"course": pa.ListArray.from_arrays(offsets, flat.ravel()),
            "lead_changes": pa.array(lead_changes.astype(np.int16))}


def course_of_turns(progress: np.ndarray, turns: np.ndarray,
                    points: int = COURSE_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """The record of a game's course (course_nb.py) from every turn of it, for an engine that
    keeps every turn: `progress` (games, turns + 1, seats) each seat's progress at the start
    (0) and after each turn, `turns` each game's length. Returns (course (games, points,
    seats), changes of sole leader), as the kit records them."""
    n, _, seats = progress.shape
    k = np.arange(1, points + 1)
    at = np.minimum((k[None, :] * turns[:, None] + points // 2) // points, progress.shape[1] - 1)
    course = progress[np.arange(n)[:, None], at]
    top = progress.max(axis=2)
    alone = (progress == top[:, :, None]).sum(axis=2) == 1
    sole = np.where(alone, progress.argmax(axis=2), -1)
    sole[np.arange(progress.shape[1])[None, :] > turns[:, None]] = -1  # after the end
    # the last sole leader so far, a shared lead changing nothing
    seen = np.where(sole >= 0, np.arange(sole.shape[1])[None, :], -1)
    last = np.maximum.accumulate(seen, axis=1)
    held = np.where(last >= 0, np.take_along_axis(sole, np.maximum(last, 0), axis=1), -1)
    changes = ((held[:, 1:] != held[:, :-1]) & (held[:, :-1] >= 0)).sum(axis=1)
    return course, changes


def swept_columns(variant, n: int, taken) -> dict[str, pa.Array]:
    """A column for each swept rule, knob or seats list of the variant that is not among
    `taken` (the columns the table has already), its value in each of the n games."""
    out = {}
    for key, value in variant.swept.items():
        if key not in taken:
            # A control has no grid value: a null, of the type the grid's values have.
            kind = swept_type(key, variant.swept_like.get(key) if value is None else value)
            out[key] = pa.nulls(n, kind) if value is None else pa.array([value] * n, kind)
    return out


def swept_type(key: str, value) -> pa.DataType:
    """One type per swept key in every shard: a knob is a number, seats and ablated parts are
    text, and a rule is a switch, a word or a whole number."""
    if key.startswith(KNOB_PREFIX) or isinstance(value, float):
        return pa.float64()
    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, str) or key in ("seats", "ablate"):
        return pa.string()
    return pa.int32()


def seats_table(game, tallies: tuple[str, ...], experiment: str, variant, start: int,
                records: Records) -> pa.Table:
    """One row per seat of each game: its score and its tallies."""
    n, p = records.scores.shape
    return pa.table({"experiment": [experiment] * (n * p),
                     "variant": np.full(n * p, variant.index, np.int32),
                     "game": np.repeat(np.arange(start, start + n, dtype=np.int64), p),
                     "seat": np.tile(np.arange(1, p + 1, dtype=np.int8), n),
                     "score": records.scores.ravel().astype(np.int16),
                     **{t: records.tallies[:, :, i].ravel().astype(np.int16)
                        for i, t in enumerate(tallies)}},
                    schema=game.table("seats").arrow_schema())
