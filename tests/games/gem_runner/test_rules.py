"""Gem runner's own tests, beside the contract tests every game passes (tests/test_contract.py,
tests/test_contract_play.py: its goldens, its tables, its checks): its defaults file and what
its rules promise."""

from __future__ import annotations

import pytest

from balance.errors import InputError
from balance.games.gem_runner.game import KIT, RULES_FILE, SETTINGS
from balance.kit.defaults import read_defaults
from balance.kit.play import play, prepare


def test_a_bad_default_is_one_message_naming_the_file_and_the_setting(tmp_path):
    bad = tmp_path / "rules.toml"
    bad.write_text(RULES_FILE.read_text().replace("rerolls = 1", "rerolls = -1"))
    with pytest.raises(InputError) as e:
        read_defaults(bad, SETTINGS)
    assert [(p.file, p.field) for p in e.value.problems] == [(str(bad), "rerolls")]


def test_without_rerolls_no_seat_decides():
    setup = prepare(KIT, {"rerolls": 0}, ("random", "random"))
    assert (play(setup, range(20)).decisions == 0).all()


def test_the_threshold_player_beats_a_random_one():
    setup = prepare(KIT, {}, ("threshold", "random"))
    assert (play(setup, range(400)).winner == 0).mean() > 0.55
