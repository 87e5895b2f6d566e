"""How a game plays, where a designer reads it: the report's section (reports/course/), the
comparison and `balance tune`'s goals (balance/stats/course.py's measures), and the table
across games (reports/course/across.py), on the dice race."""

from __future__ import annotations

import polars as pl
import pytest

from balance.running.goal_seek import outcomes, parse_goal
from reports.compare.compare import compare_run
from reports.course import across
from reports.course.section import course_section, labels_of, sentences
from reports.course.summary import summarise
from tests.games.dice.game import GAME as DICE
from tests.test_course import TURNAROUND, frame, game_row, steady

MANIFEST = {"variants": [{"variant": 0, "players": 2}]}


def dice_games(rows) -> pl.DataFrame:
    return frame(rows).with_columns(pl.lit("Stopper").alias("setting"))


def test_the_section_says_each_verdict_once_from_games_whose_answer_is_known():
    # Three games in four the winner came from behind at half: comebacks are common, and the
    # leader at half won one game in the four it led.
    rows = [game_row(TURNAROUND, winner=2)] * 3 + [game_row(steady(1, 2), winner=2)]
    c = summarise(dice_games(rows), DICE, MANIFEST)
    said = sentences(c)
    assert "The winner was behind at half in 75% of the games a seat won: comebacks are " \
           "common." in said
    assert "The seat ahead at half the game goes on to win 25% of the games it leads." in said
    assert sum("half" in s for s in said) == 2
    got = {r["key"]: r for r in c.rows.to_dicts()}
    assert got["decided_at"]["value"] == pytest.approx((3 * 12 / 20 + 0) / 4)
    assert got["balance"]["value"] == 1.0  # seat 2 won every game
    section = course_section(c, labels_of(c, ["Stopper"]))
    assert section.title == "How the game plays"
    assert [b.heading for b in section.blocks] == ["When is it decided?", "Every measure"]


def test_the_curve_is_the_chance_the_leader_at_each_tenth_wins():
    rows = [game_row(TURNAROUND, winner=2)] * 3 + [game_row(steady(1, 2), winner=2)]
    curve = summarise(dice_games(rows), DICE, MANIFEST).curve
    at = dict(curve.select("tenth", "value").rows())
    # seat 1 alone ahead at tenths 1 to 6 in the three turnarounds, seat 2 in the fourth
    assert at[5] == pytest.approx(0.25) and at[7] == pytest.approx(1.0)


def test_the_ideal_length_counts_the_games_within_the_designer_s_range():
    rows = [game_row(steady(1, 2), winner=2, turns=t) for t in (10, 20, 30, 41)]
    c = summarise(dice_games(rows), DICE, {**MANIFEST, "ideal_length": [20, 40]})
    ideal = c.rows.filter(pl.col("key") == "ideal_length").row(0, named=True)
    assert ideal["value"] == pytest.approx(0.5) and ideal["n"] == 4


def test_a_course_measure_is_a_goal_of_balance_tune():
    goal = parse_goal("comeback_half=30%", DICE)
    rows = [game_row(TURNAROUND, winner=2), game_row(steady(1, 2), winner=2),
            game_row(steady(1, 1), end="cap")]
    got = outcomes(frame(rows), goal, {"players": 2}, DICE)
    assert got[:2].tolist() == [1.0, 0.0] and got[2] != got[2]  # undecided: NaN


@pytest.fixture(scope="module")
def dice_run(tmp_path_factory):
    from typer.testing import CliRunner

    from balance.cli.app import app

    tmp = tmp_path_factory.mktemp("course")
    exp = tmp / "dc.toml"
    exp.write_text('[experiment]\nname = "dc"\ndescription = "two stoppers"\ngame = "dice"\n'
                   'heuristic = "stopper"\nplayers = 2\ngames = 300\nseed = 4\n\n'
                   '[grid]\ntarget = [20, 40]\n', encoding="utf-8")
    r = CliRunner().invoke(app, ["run", str(exp), "--out", str(tmp), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    return tmp / "dc", exp


def test_the_comparison_pairs_each_course_measure(dice_run):
    cmp = compare_run(dice_run[0])
    keys = set(cmp.differences["quantity"].to_list())
    assert {"lead_changes", "comeback_half", "decided_at", "drama", "draws"} <= keys


def test_the_table_across_games_has_a_row_per_setting(dice_run, capsys):
    assert across.main([str(dice_run[1]), "--games", "100"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("| Game | Setting | Players |")
    # The game by its title, what was played in the file's words with each setting's own: no
    # file or experiment name (dc) for a designer to decode.
    assert len(out) == 2 + 2 and all(line.startswith("| Dice race | two stoppers: ")
                                     and "dc" not in line for line in out[2:])


def test_the_table_across_games_refuses_a_game_it_cannot_find(capsys):
    assert across.main(["x.toml", "--register", "no.such:GAME"]) == 2
    err = capsys.readouterr().err
    assert err.count("error:") == 1 and "--register" in err and "no.such:GAME" in err


def test_no_curve_is_drawn_where_no_game_has_a_leader_or_a_pace():
    """A team's game played with no goal has no pace to be ahead of: the section says so, and
    draws no empty chart."""
    rows = [game_row(steady(1, 1), won=True), game_row(steady(2, 2), won=False)]
    c = summarise(dice_games(rows), DICE, MANIFEST)
    section = course_section(c, labels_of(c, ["Stopper"]))
    decided = section.blocks[0]
    assert decided.heading == "When is it decided?" and decided.figures == []
    assert any(p.startswith("No curve is drawn") for p in decided.paragraphs)
