"""Issue 25, the lead's own repeat of the fault hunt: cases outside the issue's examples that
got a misleading message or were accepted wrongly. The harness is tests/fuzz.py."""

from __future__ import annotations

import shutil

import pytest

from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from tests.fuzz import EXPERIMENT, Case, assert_refused_cleanly, copy_run, exp, make_base_runs


@pytest.fixture(scope="module", autouse=True)
def base_runs(tmp_path_factory):
    make_base_runs(tmp_path_factory.mktemp("fuzz-base"))


def report_of(damage):
    def make(tmp):
        run = copy_run(tmp)
        damage(run)
        return ["report", str(run), "--out", str(tmp / "report")]
    return make


def _games_a_file(run):
    shutil.rmtree(run / "games")
    (run / "games").write_text("not a folder", encoding="utf-8")


def merged_with(table: str):
    """`balance report --merge` of the base run and a run of the same setting (2e Crisis at
    2 players, greedy) whose file fixes a rule or a knob (`table`): the setting's name cannot
    show what is not swept, so merged, its games would count as the base run's."""
    def make(tmp):
        run = copy_run(tmp)
        path = tmp / "fz-rules.toml"
        path.write_text(EXPERIMENT.replace('name = "fz"', 'name = "fz-rules"')
                        .replace("seed = 3", "seed = 4") + table,
                        encoding="utf-8")
        other = run_experiment(load_experiment(path), tmp / "other", jobs=1).run_dir
        (other / ".lock").unlink(missing_ok=True)
        return ["report", str(run), str(other), "--merge", "--out", str(tmp / "report")]
    return make


CASES: dict[str, Case] = {
    # Issue 26 item 3: --merge counts games of different runs at the same setting together;
    # runs that did not play them alike are refused, naming the run, --merge and the rule.
    "merge-a-rule-fixed-in-one-file": Case("cli", merged_with("[rules]\nhand_limit = 5\n"),
                                           ("fz-rules", "--merge", "hand_limit", "fz ")),
    "merge-a-knob-fixed-in-one-file": Case("cli", merged_with("[knobs]\ndraw_value = 1.5\n"),
                                           ("fz-rules", "--merge", "knobs", "draw_value")),
    # A file in place of games/ read as a run of no games: "field 'cards_burned' is missing".
    "games-a-file-report": Case("run folder", report_of(_games_a_file),
                                ("games", "is not a folder")),
    # A lost rooms/ read as a run that never recorded rooms: a report without room sections.
    "rooms-folder-lost-report": Case("run folder", report_of(
        lambda run: shutil.rmtree(run / "rooms")), ("rooms", "missing", "delete")),
    # Text where a rule wants a number was read as the number; `players = 2.0` is refused.
    "rule-number-as-text": Case("experiment", exp(append='[rules]\nhand_limit = "5"\n'),
                                ("fz.toml", "'hand_limit'", "whole number", "'5'")),
    "rule-switch-as-text": Case("experiment", exp(append='[rules]\ntunnels = "yes"\n'),
                                ("fz.toml", "'tunnels'", "true or false")),
    "grid-rule-as-text": Case("experiment", exp(append='[grid]\nhand_limit = [4, "5"]\n'),
                              ("fz.toml", "'hand_limit'", "whole number")),
    # Issue 26, per-seat rules: a seat the variant lacks, an unquoted dotted key (a TOML
    # table), a field that has no per-seat values, a first player beyond the table.
    "seat-beyond-players": Case("experiment", exp(append='[rules]\n"deal.seat3" = 5\n'),
                                ("fz.toml", "'deal.seat3'", "names seat 3", "2 player(s)")),
    "seat-key-unquoted": Case("experiment", exp(append="[grid]\nstart_vp.seat2 = [0, 1]\n"),
                              ("fz.toml", "'start_vp'", '"start_vp.seat2" = [...]')),
    "seat-key-of-a-shared-rule": Case("experiment", exp(append='[rules]\n"steps.seat1" = 4\n'),
                                      ("fz.toml", "'steps.seat1'", "cannot differ by seat")),
    "first-player-beyond-players": Case(
        "cli", lambda tmp: ["play", "--players", "2", "--set", "first_player=3"],
        ("arguments", "'first_player'", "is 3, but this variant has 2 player(s)")),
}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_input_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)
