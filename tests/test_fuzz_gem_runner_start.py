"""Gem Runner's Gems at the start seat by seat (`start_gems`, balance/games/gem_runner/rules.py):
a value that is not Gems per seat, one that writes more seats than play, one that starts a seat
at the target, and one asking more Gems than a deck holds are each one message naming the file,
the field and the problem, exit 2, nothing written. The harness is tests/fuzz.py."""

from __future__ import annotations

import pytest

from tests.fuzz import Case, assert_refused_cleanly

RUNNER = """\
[experiment]
name = "fz"
description = "fuzz base"
game = "gem_runner"
heuristic = "runner"
games = 10
seed = 3
shard_size = 5
players = 2

[rules]
play = "head_to_head"
"""


def runner(append: str):
    def make(tmp):
        path = tmp / "fz.toml"
        path.write_text(RUNNER + append, encoding="utf-8")
        return ["run", str(path), "--out", str(tmp / "runs"), "--jobs", "1"]
    return make


CASES: dict[str, Case] = {
    "start-gems-a-word": Case(
        "experiment", runner('start_gems = "one,0"\n'),
        ("fz.toml", "start_gems", "whole numbers joined by commas", "'one,0'")),
    "start-gems-more-seats": Case(
        "experiment", runner('[grid]\nstart_gems = ["", "1,0,1"]\n'),
        ("fz.toml", "start_gems", "for 3 seats and 2 play")),
    "start-gems-at-the-target": Case(
        "experiment", runner('target = 3\n[grid]\nstart_gems = ["", "0,3"]\n'),
        ("fz.toml", "start_gems", "seat 2 starts with 3 Gems", "target of 3")),
    "start-gems-beyond-the-deck": Case(
        "experiment", runner('gems = 2\n[grid]\nstart_gems = ["", "2,1"]\n'),
        ("fz.toml", "start_gems", "3 Gems at the start from deck 1", "holds 2 Gems")),
}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_start_gems_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)
