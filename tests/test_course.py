"""The course of a game: the kit's record of each seat's progress (balance/kit/course_nb.py),
the same record from an engine that keeps every turn (balance/kit/table.py,
course_of_turns), and the measures over it (balance/stats/course.py), each on games whose
answer is known."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from balance.contract import registry
from balance.kit import nb as kit_nb
from balance.kit.records import Records, width
from balance.kit.state import COURSE_KEEP, COURSE_POINTS, new_kit
from balance.kit.table import course_columns, course_of_turns
from balance.stats import course
from balance.stats.measures import aggregate
from heuristics.seats import new_seats


def played_kit(steps, seats: int = 2, progress: int = -1, tallies: int = 0):
    """A kit that played `steps`, one list of each seat's points gained a turn, the last
    seat with the most points winning; returns (its record, each seat's progress after every
    turn, the start included)."""
    kit = new_kit(seats, tallies, progress=progress)
    kit_nb.reset_kit_nb(kit, new_seats([0] * seats, [[]] * seats, ()),
                        np.arange(8, dtype=np.int64), 0, 0)
    trail = [np.zeros(seats, np.int64)]
    for turn, gains in enumerate(steps):
        kit_nb.turn_nb(kit, turn % seats)
        for s, g in enumerate(gains):
            if progress < 0:
                kit.score[s] += g
            else:
                kit.tally[s, progress] += g
        trail.append(trail[-1] + np.asarray(gains))
    kit_nb.win_nb(kit, int(np.argmax(trail[-1])), 0)
    out = np.zeros((1, width(seats, tallies, 0)), np.int64)
    kit_nb.write_record_nb(kit, out[0])
    return Records(out, seats, tallies, 0), np.array(trail)


def expected_points(trail: np.ndarray) -> np.ndarray:
    turns = len(trail) - 1
    at = [(k * turns + COURSE_POINTS // 2) // COURSE_POINTS for k in range(1, COURSE_POINTS + 1)]
    return trail[at]


# -- the record -------------------------------------------------------------------------------

def test_a_short_game_is_kept_turn_by_turn_and_sampled_at_each_twentieth():
    steps = [(1, 0), (0, 2), (3, 0), (0, 0), (0, 5), (1, 0), (0, 1), (4, 0)]
    rec, trail = played_kit(steps)
    assert rec.course[0].tolist() == expected_points(trail).tolist()
    # seat 1 ahead, seat 2 ahead (2 > 1), seat 1 (4 > 2), seat 2 (7 > 4), seat 1 (9 > 8)
    assert rec.lead_changes[0] == 4


def test_a_long_game_keeps_its_course_within_the_stride():
    """Past COURSE_KEEP turns the kit keeps every other turn: each point is the last kept
    turn at or before it, never further than the stride."""
    turns = 3 * COURSE_KEEP + 7
    steps = [(1, 0)] * turns  # seat 1's progress is the turn itself
    rec, trail = played_kit(steps)
    got = rec.course[0, :, 0]
    want = expected_points(trail)[:, 0]
    stride = 4  # 3 * COURSE_KEEP turns need two doublings
    assert got[-1] == want[-1] == turns
    assert ((want - got >= 0) & (want - got < stride)).all(), (got, want)
    assert rec.lead_changes[0] == 0


def test_a_declared_tally_is_the_progress_and_the_score_is_not():
    steps = [(0, 1), (2, 0), (0, 0)]
    rec, trail = played_kit(steps, progress=0, tallies=1)
    assert rec.course[0, -1].tolist() == [2, 1]
    assert rec.scores[0].tolist() == [0, 0]
    assert rec.lead_changes[0] == 1


def test_an_engine_that_keeps_every_turn_records_what_the_kit_records():
    rng = np.random.default_rng(5)
    for turns in (0, 3, 19, 20, 57, 100):
        steps = [tuple(rng.integers(0, 3, 3)) for _ in range(turns)]
        rec, trail = played_kit(steps, seats=3)
        got, changes = course_of_turns(trail[None], np.array([turns]))
        assert got[0].tolist() == rec.course[0].tolist()
        assert changes[0] == rec.lead_changes[0]


def test_the_course_columns_round_trip_through_the_table():
    rec, trail = played_kit([(1, 0), (0, 3), (2, 0)])
    cols = course_columns(rec.course, rec.lead_changes)
    games = pl.DataFrame({"course": pl.Series(cols["course"].to_pylist()),
                          "players": [2]})
    (rows, prog), = course.course_arrays(games).values()
    assert prog[0].tolist() == rec.course[0].tolist()


def test_every_game_on_the_kit_records_its_course():
    """The dice race, as played: the course ends on the final scores."""
    from balance.kit.play import play, prepare

    kit = registry.get("dice").kit
    from balance.contract.game import resolve
    rec = play(prepare(resolve(kit), names=("stopper", "stopper")), range(20))
    assert (rec.course[:, -1, :] == rec.scores).all()
    assert (rec.lead_changes >= 0).all()


# -- the measures, on games whose answer is known -------------------------------------------------

def game_row(points, winner=None, won=None, end="target", players=None, goal=None, turns=20,
             lead_changes=0):
    """One game: `points` each seat's progress at each twentieth (POINTS lists)."""
    points = np.asarray(points)
    assert points.shape[0] == course.POINTS
    return {"course": points.ravel().tolist(), "players": players or points.shape[1],
            "winner": winner, "won": won, "end_reason": end, "turns": turns,
            "lead_changes": lead_changes, "course_goal": goal, "branching": 2.0,
            "decisions": 10, "variant": 0}


def frame(rows) -> pl.DataFrame:
    return pl.DataFrame(rows, schema={"course": pl.List(pl.Int16), "players": pl.Int16,
                                      "winner": pl.Int8, "won": pl.Boolean,
                                      "end_reason": pl.Utf8, "turns": pl.Int16,
                                      "lead_changes": pl.Int16, "course_goal": pl.Int16,
                                      "branching": pl.Float32, "decisions": pl.Int32,
                                      "variant": pl.Int32})


def steady(a, b):
    """Two seats, each gaining at its own pace: a and b a twentieth."""
    return [[a * k, b * k] for k in range(1, 21)]


# Seat 2 behind at points 1 to 12, ahead alone from point 13 on, and the winner.
TURNAROUND = [[10, k // 2] for k in range(1, 13)] + [[10, 20 + k] for k in range(8)]


def values(rows, name, game=None):
    return course.values(frame(rows), name, game).tolist()


def test_comebacks_count_the_winner_behind_at_each_quarter():
    rows = [game_row(TURNAROUND, winner=2), game_row(steady(1, 2), winner=2)]
    assert values(rows, "comeback_quarter") == [1.0, 0.0]
    assert values(rows, "comeback_half") == [1.0, 0.0]
    assert values(rows, "comeback_three_quarters") == [0.0, 0.0]  # point 15: 22 against 10


def test_decided_at_is_the_share_after_which_the_winner_leads_alone_for_good():
    rows = [game_row(TURNAROUND, winner=2), game_row(steady(1, 2), winner=2),
            game_row(steady(1, 1), winner=1)]  # level to the end: never ahead alone
    assert values(rows, "decided_at") == [12 / 20, 0.0, 1.0]


def test_drama_is_the_winner_deficit_averaged_over_the_game_over_its_final_progress():
    # seat 2 trails by 10 - k // 2 at points 1 to 12 and leads after: averaged over the 20
    # points, over its final 27
    deficit = sum(10 - k // 2 for k in range(1, 13))
    rows = [game_row(TURNAROUND, winner=2), game_row(steady(1, 2), winner=2)]
    assert values(rows, "drama") == pytest.approx([deficit / 20 / 27, 0.0])


def test_the_leader_at_half_wins_counts_only_a_lead_held_alone():
    rows = [game_row(TURNAROUND, winner=2), game_row(steady(1, 2), winner=2),
            game_row(steady(1, 1), winner=1)]
    got = values(rows, "leader_wins_half")
    assert got[:2] == [0.0, 1.0] and math.isnan(got[2])


def test_a_race_measure_does_not_apply_where_no_seat_won():
    rows = [game_row(TURNAROUND, winner=None, won=True)]
    for name in ("comeback_half", "decided_at", "drama", "leader_wins_half"):
        assert math.isnan(values(rows, name)[0]), name


def test_a_team_behind_its_pace_that_still_wins_is_counted():
    # goal 40: the pace at point k is 2k. Team one behind at half (5 < 20) and winning
    # late; team two on pace all along; team three behind and losing.
    late = [[k // 4, k // 4] for k in range(1, 17)] + [[20, 20]] * 4
    on_pace = [[k, k] for k in range(1, 21)]
    behind = [[k // 4, 0] for k in range(1, 21)]
    rows = [game_row(late, won=True, goal=40), game_row(on_pace, won=True, goal=40),
            game_row(behind, won=False, goal=40)]
    got = values(rows, "behind_pace_wins")
    assert got[0] == 1.0 and math.isnan(got[1]) and got[2] == 0.0
    # settled: the pace agrees with the outcome from point 17 on in the first, from the
    # start in the others
    assert values(rows, "settled_at") == [16 / 20, 0.0, 0.0]


def test_a_team_measure_needs_a_goal():
    rows = [game_row([[k, k] for k in range(1, 21)], won=True, goal=None)]
    assert math.isnan(values(rows, "settled_at")[0])


def test_completion_and_draws():
    game = registry.get("dice")
    rows = [game_row(steady(1, 2), winner=2), game_row(steady(1, 1), end="cap"),
            game_row(steady(1, 1), end="target")]
    assert values(rows, "completion", game) == [1.0, 0.0, 1.0]
    assert values(rows, "draws", game) == [0.0, 1.0, 1.0]


def test_a_course_measure_aggregates_as_any_measure():
    """The headline's machinery (aggregate) reads a course measure a game declares."""
    from dataclasses import replace

    dice = registry.get("dice")
    comeback = next(m for m in course.MEASURES if m.name == "comeback_half")
    game = replace(dice, measures=(comeback,))
    rows = [game_row(TURNAROUND, winner=2)] * 3 + [game_row(steady(1, 2), winner=2)]
    table = aggregate(frame(rows), {"variants": [{"variant": 0, "players": 2}]}, game)
    got = table.filter(pl.col("key") == "comeback_half").row(0, named=True)
    assert got["n"] == 4 and got["value"] == pytest.approx(0.75)


def test_the_course_measures_are_every_kit_game_s_goals():
    dice = registry.get("dice")
    assert course.find(dice, "comeback_half") is not None
    assert course.find(dice, "no_such") is None
