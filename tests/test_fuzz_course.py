"""Issue 53: the designer's ideal length (`[experiment] ideal_length`), refused cleanly when it
is no range (tests/fuzz.py: exit 2, one message naming the file, the field and the problem,
nothing written), and recorded in the manifest when it is one; a course measure as a goal of
`balance tune` that the game cannot measure, refused the same way before anything is played."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from balance.running.experiment import load_experiment
from balance.running.runner import manifest_for
from tests.fuzz import Case, assert_refused_cleanly, exp

WHAT = "two whole numbers [shortest, longest]"


def _ideal(value: str) -> Case:
    return Case("experiment", exp("players = 2", f"players = 2\nideal_length = {value}"),
                ("fz.toml", "ideal_length", WHAT))


CASES: dict[str, Case] = {
    "a number": _ideal("30"),
    "a word": _ideal('"short"'),
    "one value": _ideal("[30]"),
    "three values": _ideal("[1, 2, 3]"),
    "reversed": _ideal("[40, 20]"),
    "zero": _ideal("[0, 20]"),
    "fractions": _ideal("[1.5, 20]"),
    "switches": _ideal("[true, 20]"),
    "past the turns column": _ideal("[1, 40000]"),
}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_a_bad_ideal_length_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)


def test_an_ideal_length_is_recorded_and_is_no_part_of_the_games(tmp_path):
    make = exp("players = 2", "players = 2\nideal_length = [20, 40]")
    path = make(tmp_path)[1]
    with_range = load_experiment(path)
    assert with_range.ideal_length == (20, 40)
    assert manifest_for(with_range, 10)["ideal_length"] == [20, 40]
    (tmp_path / "p").mkdir()
    plain = load_experiment(exp()(tmp_path / "p")[1])
    assert plain.ideal_length is None and "ideal_length" not in manifest_for(plain, 10)
    assert plain.identity == with_range.identity, "a run may gain a range without replaying"


TUNED = """\
[experiment]
name = "tn"
description = "Rusship, racer against racer"
game = "rusship"
heuristic = "racer"
players = 2
games = 100
seed = 3
"""


def _tune(goal: str) -> Callable[[Path], list[str]]:
    def make(tmp):
        path = tmp / "tn.toml"
        path.write_text(TUNED, encoding="utf-8")
        return ["tune", str(path), "--lever", "length", "--range", "8:16", "--goal", goal,
                "--jobs", "1"]
    return make


# A course measure as a goal of `balance tune`: a team's measure in a race was offered and then
# played, to say that "no game was decided"; a mean written as a percentage was called no goal.
GOALS: dict[str, Case] = {
    "a team's measure in a race": Case("cli", _tune("settled_at=0.5"), (
        "--goal", "settled_at", "a cooperative game's", "Rusship has no games of that kind")),
    "a team's rate in a race": Case("cli", _tune("behind_pace_wins=50%"), (
        "--goal", "behind_pace_wins", "Rusship has no games of that kind")),
    "a mean as a percentage": Case("cli", _tune("decided_at=80%"), (
        "--goal", "decided_at", "is a mean, not a rate", "without %")),
    "a rate as a number": Case("cli", _tune("comeback_half=0.25"), (
        "--goal", "comeback_half", "a rate goal is a percentage")),
}


@pytest.mark.parametrize("case_id", sorted(GOALS))
def test_a_course_goal_the_game_cannot_measure_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(GOALS[case_id], tmp_path, cli)
