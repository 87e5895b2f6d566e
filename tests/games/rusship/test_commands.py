"""Rusship's own commands (balance/games/rusship/commands.py), through a typer app of their
own: play prints the trace, rules the settings, check the invariants; bad input is one message
and exit 2, never a traceback."""

import pytest
import typer
from typer.testing import CliRunner

from balance.contract import registry
from balance.games.rusship import check as rule_checks
from balance.games.rusship import commands
from balance.games.rusship.game import KIT
from balance.games.rusship.rules import SETTINGS
from balance.kit.playthrough import golden_path


@pytest.fixture(scope="module")
def invoke():
    app = typer.Typer()
    registry.get("rusship").hook("commands")(app)  # the hook the CLI calls
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


def test_the_declaration_names_the_commands():
    assert registry.get("rusship").hook("commands") is commands.register


def test_play_prints_the_game_with_its_decisions(invoke):
    r = invoke("play", "--seed", "9", "--heuristic", "random")
    assert r.output == golden_path(KIT, KIT.goldens[0]).read_text()  # the golden's game


def test_play_takes_seats_knobs_and_rules(invoke):
    r = invoke("play", "--seed", "2", "--seats", "racer,random", "--knob", "risk=3",
               "--set", "length=8", "--set", "entry=placed")
    assert r.exit_code == 0, r.output
    assert "(seat 1, racer)" in r.output and "(seat 2, random)" in r.output
    assert "rules: length=8, entry=placed" in r.output
    assert r.output.rstrip().splitlines()[-1].startswith("End: ")


@pytest.mark.parametrize("args, says", [
    (("play", "--set", "lenth=8"), "is no Rusship setting"),
    (("play", "--set", "length=99"), "must be between 3 and 40"),
    (("play", "--set", "entry=maybe"), "must be one of counted, placed"),
    (("play", "--set", "must_move=perhaps"), "must be true or false"),
    (("play", "--set", "power_choice=later"), "must be one of immediate, next_turn"),
    (("play", "--set", "both_dice=2"), "must be true or false"),
    (("play", "--set", "length"), "is no Rusship setting"),
    (("play", "--heuristic", "bob"), "unknown player 'bob'"),
    (("play", "--seats", "racer"), "Rusship takes two players"),
    (("play", "--seats", "racer,random,random"), "Rusship takes two players"),
    (("play", "--knob", "risk=lots"), "must be a number"),
    (("play", "--knob", "nerve=1"), "no player seated has this knob"),
    (("play", "--knob", "risk"), "expected NAME=VALUE"),
    (("rules", "--set", "box_share=3"), "must be true or false"),
    (("check", "--set", "hits_to_lose=0"), "must be between 1 and 6"),
    (("strength", "--budgets", "16,x"), "must be whole numbers from 2 to 4096"),
    (("strength", "--budgets", "1"), "must be whole numbers from 2 to 4096"),
    (("strength", "--set", "length=2"), "must be between 3 and 40"),
    (("play", "--set", "tokens=3", "--set", "second_tokens=4"), "more than the side's 3"),
    (("play", "--set", "tokens=9"), "must be between 1 and 8"),
])
def test_bad_input_is_one_message_and_exit_2(invoke, args, says):
    r = invoke(*args)
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], r.output
    assert "Traceback" not in r.output


def test_rules_prints_every_setting_with_its_value_after_set(invoke):
    r = invoke("rules", "--set", "length=20", "--set", "box_share=false")
    assert r.exit_code == 0, r.output
    rows = {line.split()[0]: line.split()[1] for line in r.output.splitlines()}
    assert list(rows) == [s.name for s in SETTINGS]
    assert rows["length"] == "20" and rows["box_share"] == "false" and rows["entry"] == "counted"
    assert "spaces between the two planets" in r.output


def test_check_plays_every_switch_and_says_none_broke(invoke):
    r = invoke("check", "--games", "20", "--set", "length=9")
    assert r.exit_code == 0, r.output
    assert "racer: length=9" in r.output and "random: entry=placed, length=9" in r.output
    assert r.output.rstrip().endswith("games checked, 0 broke an invariant")
    assert "BROKEN" not in r.output


def test_check_says_which_switches_the_set_rules_out(invoke):
    """Under --set tokens=1, a switch that starts the second side with more tokens than it
    has is no legal setting: said, not played (it played before, checked as "ok")."""
    r = invoke("check", "--games", "2", "--set", "tokens=1")
    assert r.exit_code == 0, r.output
    assert "tokens=1, second_tokens=7" in r.output
    assert "not played: second_tokens is 7, more than the side's 1 tokens" in r.output
    assert "racer: entry=placed, tokens=1" in r.output  # the others are played


def test_check_exits_1_when_a_game_breaks_an_invariant(invoke, monkeypatch):
    # A violation planted in one variant's records: the command must say so and exit 1.
    real = rule_checks.check_rules  # the command imports it when it runs

    def planted(games, overrides=None, **kw):
        results = real(games, overrides, **kw)
        results[3].bad_seeds.append((11, "a side's tokens are not its five"))
        return results

    monkeypatch.setattr(rule_checks, "check_rules", planted)
    r = invoke("check", "--games", "5")
    assert r.exit_code == 1
    assert "1 BROKEN" in r.output and "seed 11: a side's tokens are not its five" in r.output
    assert "1 broke an invariant" in r.output


def test_strength_measures_racer_and_the_search_on_common_seeds(invoke):
    r = invoke("strength", "--games", "40", "--budgets", "4")
    assert r.exit_code == 0, r.output
    racer = next(x for x in r.output.splitlines() if x.strip().startswith("racer vs random"))
    assert float(racer.split()[3].rstrip("%")) > 80  # racer beats random: 98% on 4,000
    assert "reference (budget 4) vs racer" in r.output
