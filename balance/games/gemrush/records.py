"""From the engine's per-game record arrays (balance.games.gemrush.play.Batch) to the games and
rooms tables.

The columns are a stable interface (the guide: balance/docs/guide/reference/tables.md); the
engine's own column layout (R_*, RM_* in balance/games/gemrush/engine/game_nb.py) stays private to
this module.

Seats count from 1 here, as everywhere a designer reads them (the report, `balance play`'s P1,
`balance compare`): `winner` and `builder` are 1 for the first seat, and -1 for no seat (a tie,
a setup tile). The engine counts from 0, and runs written before issue 26 did too: their
shards carry no mark of seats counted from 1 (the store writes one in every shard it writes),
and balance.running.store renumbers them as it reads them.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from balance.games.gemrush.engine.game_nb import (
    R_BURNT,
    R_DECISIONS,
    R_DECK_OUT_TURN,
    R_END_REASON,
    R_OPTIONS,
    R_RESHUFFLES,
    R_ROOMS_BUILT,
    R_TARGET_TURN,
    R_TEAM_SCORE,
    R_TOP_SCORE,
    R_TURNS,
    R_WINNER,
    R_WON,
    RM_BUILDER,
    RM_GAINED,
    RM_POINTS,
    RM_TURN,
    RM_TYPE,
    RM_USES,
)
from balance.games.gemrush.engine.state import END_NAMES
from balance.kit.table import course_columns, course_of_turns, decision_columns, swept_columns


def seat_numbers(engine_seats: np.ndarray) -> np.ndarray:
    """The engine's seats (0 for the first, -1 for none) as the tables number them."""
    return np.where(engine_seats >= 0, engine_seats + 1, -1)


def _const_str(value: str, n: int) -> pa.Array:
    return pa.repeat(pa.scalar(value, pa.string()), n)


def _codes(codes: np.ndarray, names) -> pa.Array:
    return pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int32)),
                                          pa.array(list(names), pa.string())).cast(pa.string())


def _maybe(values: np.ndarray, dtype) -> pa.Array:
    """Engine -1 means 'never': a null."""
    return pa.array(values.astype(dtype.to_pandas_dtype()), dtype, mask=values < 0)


def _lists(values: np.ndarray, lengths: np.ndarray) -> pa.Array:
    offsets = np.zeros(len(lengths) + 1, np.int32)
    np.cumsum(lengths, out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(values.astype(np.int16)))


def _skill_lists(skills: np.ndarray, names) -> pa.Array:
    """Each game's skills, a name per seat ("A + B" for Magic Circle's two); an empty list
    when the variant deals none."""
    if (skills < 0).all():
        return pa.ListArray.from_arrays(pa.array(np.zeros(len(skills) + 1, np.int32)),
                                        pa.array([], pa.string()))
    rows = []
    for game in skills:
        seats = [" + ".join(names[s] for s in slots if s >= 0) for slots in game]
        rows.append(seats if any(seats) else [])
    return pa.array(rows, pa.list_(pa.string()))


def course(sbt: np.ndarray, turns: np.ndarray, first: np.ndarray) -> tuple[np.ndarray,
                                                                            np.ndarray]:
    """Each seat's score at each twentieth of the game and the changes of sole leader, as
    the kit records them (balance/kit/course_nb.py), from the team's score after each turn
    (`sbt`, -1 past the end) and each seat's score at the start (`first`): a turn's points
    are its player's alone (engine/turn_nb.py), and seat t % players plays turn t."""
    n, p = len(turns), len(first)
    sbt = sbt[:, : int(turns.max(initial=0))]  # past the longest game, nothing to read
    cap = sbt.shape[1]
    team = np.concatenate([np.full((n, 1), first.sum()), sbt.astype(np.int64)], axis=1)
    past = np.arange(cap + 1)[None, :] > turns[:, None]
    team = np.where(past, 0, team)
    gained = np.diff(team, axis=1)
    gained[past[:, 1:]] = 0
    seat = np.arange(cap) % p
    progress = np.zeros((n, cap + 1, p), np.int64)
    progress[:, 0, :] = first
    for q in range(p):
        progress[:, 1:, q] = first[q] + np.cumsum(np.where(seat == q, gained, 0), axis=1)
    return course_of_turns(progress, turns)


def games_table(experiment: str, variant, start: int, seeds: np.ndarray, batch,
                engine_version: str, source_hash: str = "", skill_names=(),
                first_scores: np.ndarray | None = None, goal: int | None = None) -> pa.Table:
    """One row per game. `variant` is a balance.contract.experiment.Variant; `source_hash` is
    balance.running.provenance.source_hash() of the process that played it; `skill_names` name the
    content's skills, in order; `first_scores` each seat's score at the start (none: 0) and
    `goal` the team's target the engine played to (Crisis), for the game's course."""
    out = batch.out
    n = len(seeds)
    settings = variant.settings
    crisis = settings["mode"] == "crisis"
    turns = out[:, R_TURNS]
    sbt = batch.score_by_turn
    played = np.arange(sbt.shape[1])[None, :] < turns[:, None]
    p = batch.scores.shape[1]
    cols = {
        "experiment": _const_str(experiment, n),
        "variant": pa.array(np.full(n, variant.index, np.int32)),
        "game": pa.array(np.arange(start, start + n, dtype=np.int64)),
        "seed": pa.array(np.asarray(seeds, np.int64)),
        "edition": _const_str(settings["edition"], n),
        "mode": _const_str(settings["mode"], n),
        "players": pa.array(np.full(n, variant.players, np.int16)),
        "heuristic": _const_str(variant.heuristic, n),
        # Which of the players listed in `heuristic` (counting from 1) sat in seat 1 and
        # played first (the rule first_player): listed player i sat in seat
        # (i - went_first) % players + 1.
        "went_first": pa.array(np.ones(n, np.int8) if batch.first is None
                                else (batch.first + 1).astype(np.int8)),
        "target": (pa.nulls(n, pa.int32()) if settings["target"] is None
                   else pa.array(np.full(n, settings["target"], np.int32))),
        "exhaust": pa.array(np.full(n, settings["exhaust"], np.bool_)),
    }
    # Gem Rush's swept columns stand before its outcome columns (the kit's stand last): a
    # swept key that names a later column (skills) keeps this place and takes that value.
    cols.update(swept_columns(variant, n, cols))
    # A game played to exhaustion without a target has no target to win: its wins at every
    # target are read from score_by_turn (`won` would otherwise mean the engine's default).
    open_ended = settings["exhaust"] and settings["target"] is None
    cols.update({
        "won": pa.nulls(n, pa.bool_()) if open_ended else pa.array(out[:, R_WON] != 0),
        "end_reason": _codes(out[:, R_END_REASON], END_NAMES),
        "turns": pa.array(turns.astype(np.int16)),
        "score": pa.array(out[:, R_TEAM_SCORE if crisis else R_TOP_SCORE].astype(np.int16)),
        "scores": _lists(batch.scores.ravel(), np.full(n, p)),
        "winner": (pa.nulls(n, pa.int8()) if crisis
                   else pa.array(seat_numbers(out[:, R_WINNER]).astype(np.int8))),
        "score_by_turn": _lists(sbt[played], turns),
        "target_turn": (pa.nulls(n, pa.int16()) if open_ended
                        else _maybe(out[:, R_TARGET_TURN], pa.int16())),
        "deck_out_turn": _maybe(out[:, R_DECK_OUT_TURN], pa.int16()),
        "reshuffles": pa.array(out[:, R_RESHUFFLES].astype(np.int16)),
        "cards_burned": pa.array(out[:, R_BURNT].astype(np.int16)),
        "rooms_built": pa.array(out[:, R_ROOMS_BUILT].astype(np.int16)),
        "skills": _skill_lists(batch.skills, skill_names),
        **decision_columns(out[:, R_DECISIONS], out[:, R_OPTIONS]),
        **course_columns(*course(sbt, turns, np.zeros(p, np.int64) if first_scores is None
                                 else np.asarray(first_scores, np.int64)[:p])),
        "course_goal": (pa.array(np.full(n, goal, np.int16)) if crisis and goal is not None
                        else pa.nulls(n, pa.int16())),
        "engine_version": _const_str(engine_version, n),
        "source_hash": _const_str(source_hash, n),
    })
    return pa.table(cols)


def rooms_table(experiment: str, variant, start: int, batch, room_names) -> pa.Table:
    """One row per placed tile (setup tiles included), in placement order within a game."""
    rooms = batch.rooms
    gi, ti = np.nonzero(rooms[:, :, RM_TYPE] >= 0)
    rows = rooms[gi, ti]
    n = len(gi)
    return pa.table({
        "experiment": _const_str(experiment, n),
        "variant": pa.array(np.full(n, variant.index, np.int32)),
        "game": pa.array(start + gi.astype(np.int64)),
        "room": _codes(rows[:, RM_TYPE], room_names),
        "turn": pa.array(rows[:, RM_TURN].astype(np.int16)),
        "builder": pa.array(seat_numbers(rows[:, RM_BUILDER]).astype(np.int8)),
        "points": pa.array(rows[:, RM_POINTS].astype(np.int16)),
        # Int32: a tile's uses in the longest game allowed overflow Int16
        # (balance/games/gemrush/limits.py).
        "uses": pa.array(rows[:, RM_USES].astype(np.int32)),
        "gained": pa.array(rows[:, RM_GAINED].astype(np.int32)),
    })
