"""Experiment files, whatever the game (here the toy dice race, tests/games/dice/): the neutral
keys, the settings' types and ranges, the cross product of the grid, and the game named by
`[experiment] game`. Gem Rush's own keys: tests/games/gemrush/test_experiment.py."""

from __future__ import annotations

import pytest

from balance.contract import registry
from balance.contract.experiment import MAX_VARIANTS
from balance.errors import InputError
from balance.running.experiment import load_experiment

GOOD = """\
[experiment]
name = "race"
description = "a test"
game = "dice"
games = 10
seed = 3

[rules]
faces = 8

[grid]
players = [2, 3]
target = [20, 30, 40]
"""


@pytest.fixture
def write(write_content):
    """write(text, name="exp.toml") -> the path: conftest's writer, named for experiments."""
    return lambda text, name="exp.toml": write_content(text, name)


def test_variants_are_the_cross_product_last_key_fastest(write):
    exp = load_experiment(write(GOOD))
    assert exp.game.name == "dice"
    assert [(v.players, v.swept["target"]) for v in exp.variants] == [
        (2, 20), (2, 30), (2, 40), (3, 20), (3, 30), (3, 40)]
    assert [v.index for v in exp.variants] == list(range(6))
    assert exp.swept == ["target"]  # players is a core column: not a column of its own
    assert exp.variants[4].rules == {"faces": 8, "target": 30}
    assert exp.variants[4].settings == {"race": {"target": 30, "faces": 8, "max_turns": 200}}
    assert exp.variants[0].label == "players=2, target=20"
    assert exp.variants[0].heuristic == "stopper"  # the game's default player


def test_seats_and_knobs_reach_the_variants(write):
    text = GOOD.replace("target = [20, 30, 40]\n", '"knob.stop_at" = [10, 20]\n').replace(
        "players = [2, 3]", 'seats = [["stopper", "random"], ["random", "random"]]').replace(
        "seed = 3", "seed = 3\nplayers = 2")
    exp = load_experiment(write(text))
    assert [v.heuristic for v in exp.variants] == ["stopper,random"] * 2 + ["random"] * 2
    assert [v.knobs for v in exp.variants] == [{"stop_at": 10}, {"stop_at": 20}, {}, {}]
    assert exp.variants[1].swept == {"seats": "stopper,random", "knob.stop_at": 20.0}
    assert exp.swept == ["knob.stop_at"]


def test_an_absent_game_is_the_default_game(write):
    text = GOOD.replace('game = "dice"\n', 'edition = "2e"\nmode = "crisis"\n').replace(
        "faces = 8", "hand_limit = 5").replace("target = [20, 30, 40]", "steps = [3, 4]")
    exp = load_experiment(write(text))
    assert exp.game.name == "gemrush" and len(exp.variants) == 4


def test_an_unknown_game_is_one_message_naming_the_file_field_and_games(write, cli):
    path = write(GOOD.replace('game = "dice"', 'game = "chess"') + "\n[extra]\n")
    with pytest.raises(InputError) as e:
        load_experiment(path)
    (p,) = e.value.problems
    assert (p.file, p.where, p.field) == (str(path), "[experiment]", "game")
    assert p.message == f"no such game 'chess' (known: {', '.join(registry.names())})"
    r = cli("run", path)
    assert r.exit_code == 2 and r.stderr.count("error: ") == 1


BAD = [
    ("game not text", GOOD.replace('"dice"', "3"),
     "field 'game': must be a game's name in quotes, got 3"),
    ("unknown field", GOOD.replace("seed = 3", "seed = 3\nedition = '2e'"),
     "[experiment]: field 'edition': unknown field (allowed: name, description, game,"),
    ("unknown table", GOOD + "\n[patches]\n", "field 'patches': unknown table"),
    ("bad name", GOOD.replace('"race"', '"Race Day"'), "field 'name': use lowercase"),
    ("rule type", GOOD.replace("faces = 8", "faces = 'eight'"),
     "[rules]: field 'faces': must be a whole number, got 'eight'"),
    ("rule range", GOOD.replace("faces = 8", "faces = 99"),
     "[rules]: field 'faces': must be between 2 and 20, got 99"),
    ("unknown rule", GOOD.replace("faces = 8", "sides = 8"),
     "[rules]: field 'sides': unknown rule (known: target, faces, max_turns)"),
    ("rule table", GOOD.replace("faces = 8", "faces = {a = 1}"),
     "[rules]: field 'faces': must be a single value"),
    ("grid range", GOOD.replace("[20, 30, 40]", "[20, 1]"),
     "[grid]: field 'target': must be between 2 and 500, got 1"),
    ("grid unknown", GOOD.replace("target =", "goal ="),
     "[grid]: field 'goal': unknown key (allowed: players, heuristic, seats, knob.<name>, "
     "any rule field: target, faces, max_turns)"),
    ("grid twice", GOOD.replace("[20, 30, 40]", "[20, 30, 20]"),
     "[grid]: field 'target': lists 20 twice"),
    ("grid and rules", GOOD.replace("faces = 8", "target = 50"),
     "[grid]: field 'target': is also set in [rules]"),
    ("players range", GOOD.replace("[2, 3]", "[2, 9]"),
     "variant 3 (players=9, target=20) and 2 more: field 'players': Dice race takes 1 to 6"),
    ("unknown player", GOOD.replace("seed = 3", "seed = 3\nheuristic = 'greedy'"),
     "field 'heuristic': unknown player 'greedy' (known: random, stopper, scripted)"),
    ("unknown knob", GOOD + "\n[knobs]\nbudget = 3\n",
     "[knobs]: field 'budget': no player of any variant has this knob"),
    ("no players", GOOD.replace("players = [2, 3]\n", ""), "field 'players': is missing"),
    ("baseline", GOOD.replace("seed = 3", "seed = 3\nbaseline = 6"),
     "field 'baseline': must be the number of a variant, 0 to 5"),
]


@pytest.mark.parametrize("text,expected", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_files_get_clear_errors_before_any_game(write, cli, tmp_path, text, expected):
    path = write(text)
    with pytest.raises(InputError) as e:
        load_experiment(path)
    assert any(expected in str(p) for p in e.value.problems), str(e.value)
    out = tmp_path / "runs"
    r = cli("run", path, "--out", out)
    assert r.exit_code == 2
    assert expected in r.stderr
    assert all(line.startswith("error: ") for line in r.stderr.strip().splitlines())
    assert not out.exists()  # nothing written


def test_too_many_variants_are_refused(write):
    grid = f"max_turns = {list(range(1, 501))}\nfaces = [2, 3]\n"
    with pytest.raises(InputError, match=f"makes 1,000 variants, more than {MAX_VARIANTS}"):
        load_experiment(write(GOOD.replace("target = [20, 30, 40]\n", grid).replace(
            "[rules]\nfaces = 8\n", "").replace("players = [2, 3]", "").replace(
            "seed = 3", "seed = 3\nplayers = 2")))
