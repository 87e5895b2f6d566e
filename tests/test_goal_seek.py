"""Issue 11, goal seeking: `balance tune` finds a known value on a synthetic monotone problem
and a real one on a small run, with an interval that covers it."""

from __future__ import annotations

import numpy as np
import pytest

from balance.contract import registry
from balance.errors import InputError
from balance.running.goal_seek import outcomes, parse_goal, seek
from tests.games.dice.game import GAME as DICE

GEMRUSH = registry.get("gemrush")


def _synthetic(crossing: float, scale: float, rising: bool):
    """Bernoulli outcomes with P(v) logistic in v, meeting 50% at `crossing`; game i draws
    the same uniform at every value (common random numbers, as common seeds give)."""
    u = np.random.default_rng(1).random(1_000_000)

    def evaluate(v, start, stop):
        z = (v - crossing) / scale
        p = 1 / (1 + np.exp(-z if rising else z))
        return (u[start:stop] < p).astype(float)

    return evaluate


@pytest.mark.parametrize("rising", [True, False])
def test_seek_finds_a_known_crossing(rising):
    goal = parse_goal("first=50%", DICE)
    r = seek(_synthetic(37.3, 3.0, rising), 0, 100, goal, "x", first=400, most=50_000)
    assert r.reached and r.sure
    assert r.closest == 37
    assert r.low <= 37.3 <= r.high
    assert r.high - r.low < 1.0
    assert abs(r.crossing - 37.3) < 0.3


def test_seek_says_when_the_goal_is_out_of_range():
    goal = parse_goal("first=50%", DICE)
    r = seek(_synthetic(120, 30.0, True), 0, 100, goal, "x")
    assert not r.reached and r.crossing is None
    assert r.closest == 100


def test_seek_on_a_mean_goal():
    # score = v / 2 + noise: the mean meets 20 at v = 40
    noise = np.random.default_rng(2).normal(0, 3, 1_000_000)

    def evaluate(v, start, stop):
        return v / 2 + noise[start:stop]

    r = seek(evaluate, 0, 100, parse_goal("score=20", DICE), "x", first=200, most=20_000)
    # Every value shares the same noise (common seeds), so the whole curve sits a little off
    # (here by 0.15, a 1-in-20 draw): the crossing is near 40, not exactly at it.
    assert r.reached and r.sure and r.closest in (40, 41)
    assert abs(r.crossing - 40) < 0.5 and r.high - r.low < 1.0


@pytest.mark.parametrize("text", ["Journeyman", "Journeyman=50", "Journeyman=0%",
                                  "Journeyman=100%", "score=40%", "=3", "score=nan"])
def test_bad_goals_are_refused(text):
    with pytest.raises(InputError, match="--goal"):
        parse_goal(text, GEMRUSH)


def test_a_goal_names_a_measure_of_the_game():
    g = parse_goal("turns=12", DICE)
    assert (g.measure, g.at, g.value, g.binary) == ("turns", None, 12.0, False)
    # The game's own measures, then the course measures its games record (issue 53).
    with pytest.raises(InputError, match="'rounds=12' is not a goal: write MEASURE=VALUE, a "
                       "rate as a percentage \\(first=50%, score=X, turns=X, "
                       "lead_changes=X, comeback_quarter=50%, .*, decisions=X\\)"):
        parse_goal("rounds=12", DICE)  # a measure of Gem Rush's, not of the dice race's
    import polars as pl

    # A rate's outcome is NaN where the value is unknown (null) or the game stopped at the
    # turn cap (undecided, the race's `cap`): neither is a loss. A mean keeps every game.
    games = pl.DataFrame({"first_won": [True, None, False, False], "turns": [3, 4, 5, 9],
                          "end_reason": ["target", "target", "target", "cap"]})
    got = outcomes(games, parse_goal("first=40%", DICE), {}, DICE)
    assert got[[0, 2]].tolist() == [1, 0] and np.isnan(got[[1, 3]]).all()
    assert outcomes(games, g, {}, DICE).tolist() == [3, 4, 5, 9]


def test_tune_finds_the_median_score_as_the_coin_flip_target(tmp_path, cli):
    """A real run: the Apprentice target won half the time is the median team score of the
    same games, which the same seeds give directly."""
    exp = tmp_path / "tune.toml"
    exp.write_text("""\
[experiment]
name = "tune"
description = "2-player Crisis to exhaustion"
edition = "2e"
mode = "crisis"
games = 600
seed = 5
players = 2
exhaust = true
""", encoding="utf-8")
    r = cli("tune", exp, "--lever", "crisis_targets.Apprentice", "--range", "5:60",
            "--goal", "Apprentice=50%", "--games", "1600", "--jobs", "1")
    assert r.exit_code == 0, r.output
    line = [x for x in r.output.splitlines() if "meets" in x][0]
    closest = int(line.rsplit("closest whole value is ", 1)[1].split()[0])
    from balance.running.experiment import load_experiment
    from balance.running.runner import simulate_tables

    games = simulate_tables(load_experiment(exp))["games"]
    scores = np.sort(games["score"].to_numpy())
    # the whole target whose win rate (share of games scoring at least it) is nearest 50%
    # on these games (the first 600 of those tune played)
    rates = {t: (scores >= t).mean() for t in range(5, 61)}
    best = min(rates, key=lambda t: (abs(rates[t] - 0.5), t))
    assert abs(closest - best) <= 1


@pytest.mark.parametrize("args, message", [
    (["--lever", "hand_limit", "--range", "9:3", "--goal", "score=30"], "--range"),
    (["--lever", "hand_limit", "--range", "a:b", "--goal", "score=30"], "--range"),
    (["--lever", "hand_limit", "--range", "3:9", "--goal", "Grandmaster=50%"], "Grandmaster"),
    (["--lever", "no_such_rule", "--range", "3:9", "--goal", "score=30"], "no_such_rule"),
    (["--lever", "hand_limit", "--range", "-3:9", "--goal", "score=30"], "hand_limit = -3"),
])
def test_bad_tune_inputs_exit_2_before_playing(tmp_path, cli, args, message):
    exp = tmp_path / "t.toml"
    exp.write_text("""\
[experiment]
name = "t"
description = "x"
edition = "2e"
mode = "crisis"
games = 100
seed = 5
players = 2
exhaust = true
""", encoding="utf-8")
    r = cli("tune", exp, *args, "--jobs", "1")
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output
    assert "games played" not in r.output


def test_a_seat_goal_is_the_seats_share_of_the_wins():
    g = parse_goal("seat1=19%", GEMRUSH)
    assert (g.measure, g.at, g.value, g.binary) == ("seat", 1, 0.19, True)
    import polars as pl

    v = {"mode": "rush", "players": 3}  # the variant, as the manifest describes it
    games = pl.DataFrame({"winner": [1, 2, -1, 1, 3]}, schema={"winner": pl.Int8})  # seats from 1
    assert outcomes(games, parse_goal("seat1=30%", GEMRUSH), v, GEMRUSH).tolist() == \
        [1, 0, 0, 1, 0]
    assert outcomes(games, parse_goal("seat3=30%", GEMRUSH), v, GEMRUSH).tolist() == \
        [0, 0, 0, 0, 1]


@pytest.mark.parametrize("text", ["seat0=10%", "seat1=19"])
def test_bad_seat_goals_are_refused(text):
    with pytest.raises(InputError, match="--goal"):
        parse_goal(text, GEMRUSH)


RUSH3 = """\
[experiment]
name = "r3"
description = "3-player Rush"
edition = "2e"
mode = "rush"
games = 100
seed = 5
players = 3
"""


def test_tune_seeks_a_seats_starting_points_to_a_share_of_the_wins(tmp_path, cli):
    """A real run: more starting points for seat 1 win it more races; its share passes 50%
    between 0 and 10 points, and tune says where, on common seeds."""
    exp = tmp_path / "r3.toml"
    exp.write_text(RUSH3, encoding="utf-8")
    r = cli("tune", exp, "--lever", "start_vp.seat1", "--range", "0:10", "--goal", "seat1=50%",
            "--first", "200", "--games", "800", "--jobs", "1")
    assert r.exit_code == 0, r.output
    rows = [ln.split() for ln in r.output.splitlines() if ln.strip()[:1].isdigit()]
    share = {int(row[0]): float(row[2].rstrip("%")) for row in rows}
    assert share[0] < 45 < 55 < share[10]  # about a third at 0: seat 1 plays first
    assert "start_vp.seat1 meets seat1=50% at" in r.output


@pytest.mark.parametrize("args, message", [
    (["--lever", "start_vp.seat4", "--range", "0:3", "--goal", "seat1=40%"],
     "with start_vp.seat4 = 0: names seat 4, but this variant has 3 player(s)"),
    (["--lever", "start_vp.seat1", "--range", "0:3", "--goal", "seat4=40%"],
     "'seat4=40%': the variant has 3 seats"),
])
def test_bad_seat_levers_and_goals_exit_2_before_playing(tmp_path, cli, args, message):
    exp = tmp_path / "r3.toml"
    exp.write_text(RUSH3, encoding="utf-8")
    r = cli("tune", exp, *args, "--jobs", "1")
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output
    assert "games played" not in r.output


def test_a_seat_goal_in_crisis_is_refused(tmp_path, cli):
    exp = tmp_path / "c.toml"
    exp.write_text(RUSH3.replace('"rush"', '"crisis"') + "exhaust = true\n", encoding="utf-8")
    r = cli("tune", exp, "--lever", "hand_limit", "--range", "3:6", "--goal", "seat1=30%",
            "--jobs", "1")
    assert r.exit_code == 2 and "a seat's share of the wins is a Rush goal" in r.output


def test_tune_seeks_a_board_length_for_a_comeback_rate(tmp_path, cli):
    """A course measure as the goal (issue 53): the longer Rusship's board, the more often
    its winner was behind at half (some 14% at 6 spaces, 31% at 16, racer against racer);
    tune finds the length where a quarter of the winners were, between them."""
    exp = tmp_path / "rl.toml"
    exp.write_text("""\
[experiment]
name = "rl"
description = "Rusship, racer against racer"
game = "rusship"
heuristic = "racer"
players = 2
games = 100
seed = 5301
""", encoding="utf-8")
    r = cli("tune", exp, "--lever", "length", "--range", "6:16", "--goal", "comeback_half=25%",
            "--first", "200", "--games", "800", "--jobs", "1")
    assert r.exit_code == 0, r.output
    rows = [ln.split() for ln in r.output.splitlines() if ln.strip()[:1].isdigit()]
    share = {int(row[0]): float(row[2].rstrip("%")) for row in rows}
    assert share[6] < 25 < share[16]
    line = [x for x in r.output.splitlines() if "meets" in x][0]
    assert line.startswith("length meets comeback_half=25% at ")
    assert 8 <= int(line.rsplit("closest whole value is ", 1)[1].split()[0]) <= 14
