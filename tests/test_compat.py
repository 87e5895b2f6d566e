"""Issue 49: no neutral module names a default game. What names no game (an experiment file
without `game`, a run's manifest without it, `balance.simulate` without it) is the first
game's by the one rule of balance/contract/compat.py; every game is played from a notebook
the same way, `balance.simulate(NAME, ...)`."""

from __future__ import annotations

import pytest

import balance
from balance.contract import compat, registry
from balance.errors import InputError
from balance.running.experiment import game_of, load_experiment
from balance.running.runner import simulate_tables
from balance.running.store.layout import run_game
from balance.running.store.manifest import identity_refusal
from balance.stats import measures
from reports.page import game_report
from reports.tables import combine

RACES = """\
[experiment]
name = "simulate"
description = "balance.simulate"
game = "rusship"
games = 30
seed = 4
players = 2
heuristic = "racer"

[rules]
length = 9
"""


def test_what_names_no_game_is_the_first_games_and_nothing_else_is():
    first = registry.get(compat.FIRST_GAME)
    assert game_of({"experiment": {"name": "old"}}, "old.toml") is first
    assert run_game({}) is first and measures.game_of({}) is first
    assert identity_refusal({}, {"game": "rusship"}) == (
        f"it holds games of {compat.FIRST_GAME}, and this experiment plays rusship")
    assert game_of({"experiment": {"game": "rusship"}}, "f.toml").name == "rusship"
    # the report's side of an old run: its page, its tallies, its runs combined
    assert game_report.of_manifest({}).game is first
    assert combine.game_name([{}, {"game": compat.FIRST_GAME}]) == compat.FIRST_GAME
    with pytest.raises(InputError, match="must be a game's name in quotes, got None"):
        registry.get(None)  # the registry itself has no default


def test_simulate_plays_any_game_as_its_experiment_file_does(tmp_path):
    path = tmp_path / "races.toml"
    path.write_text(RACES, encoding="utf-8")
    from_file = simulate_tables(load_experiment(path), 1)["games"]
    played = balance.simulate("rusship", games=30, seed=4, players=2, heuristic="racer",
                              rules={"length": 9})
    assert played.equals(from_file)
    assert set(played["players"]) == {2} and played.height == 30


@pytest.mark.parametrize(("game", "arguments", "said"), [
    ("nope", {}, "balance.simulate: field 'game': no such game 'nope'"),
    ("rusship", {"players": "two"}, "balance.simulate: field 'players': must be a whole "
     "number of players >= 1, got 'two'"),
    ("rusship", {"rules": {"length": "long"}}, "balance.simulate: [rules]: field 'length'"),
])
def test_simulate_refuses_a_bad_argument_with_the_files_message(game, arguments, said):
    with pytest.raises(InputError) as e:
        balance.simulate(game, **arguments)
    assert str(e.value).startswith(said), str(e.value)
