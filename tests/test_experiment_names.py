"""A bare experiment name (`balance run players`) finds the file in experiments/ or in one
game's folder, experiments/<game>/. A name two games' folders share is refused, naming both
(it would otherwise play whichever folder came first), and the shipped names are distinct."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from balance.errors import InputError
from balance.running import experiment as ex

ROOT = Path(__file__).resolve().parents[1]


def test_the_shipped_experiment_names_are_distinct_across_games():
    names = Counter(p.stem for p in (ROOT / "experiments").glob("*/*.toml"))
    assert names and not [n for n, k in names.items() if k > 1]


def test_a_name_in_two_games_folders_is_refused_naming_both(tmp_path, monkeypatch):
    for game in ("alpha", "beta"):
        (tmp_path / "experiments" / game).mkdir(parents=True)
        (tmp_path / "experiments" / game / "same.toml").write_text("")
    (tmp_path / "experiments" / "beta" / "own.toml").write_text("")
    monkeypatch.setattr(ex, "EXPERIMENT_DIRS", (tmp_path / "experiments",))
    with pytest.raises(InputError, match="write alpha/same or beta/same"):
        ex.resolve_experiment_path("same")
    assert ex.resolve_experiment_path("own") == tmp_path / "experiments" / "beta" / "own.toml"
    assert ex.resolve_experiment_path("alpha/same").parent.name == "alpha"
