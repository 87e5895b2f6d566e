"""Gem Rush's experiment files: the shipped ones validate; bad ones get one clear line per
problem, before any game is played and with nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from balance.errors import InputError
from balance.games.gemrush.experiment import prepare_variant, simulation
from balance.running.experiment import load_experiment

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = sorted((ROOT / "experiments" / "gemrush").glob("*.toml"))

GOOD = """\
[experiment]
name = "small"
description = "a test"
edition = "2e"
mode = "crisis"
games = 10
seed = 3
exhaust = true

[rules]
burn_per_turn = 3

[grid]
players = [2, 3]
hand_limit = [4, 5, 6]
"""


@pytest.fixture
def write(write_content):
    """write(text, name="exp.toml") -> the path: conftest's writer, named for experiments."""
    return lambda text, name="exp.toml": write_content(text, name)


def test_shipped_experiment_files_exist():
    names = {p.stem for p in SHIPPED}
    assert {"crisis-difficulty", "rush"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_experiment_validates(path):
    exp = load_experiment(path)
    assert exp.name == path.stem
    assert exp.variants
    assert all(v.settings["edition"] == "2e" for v in exp.variants)


def test_shipped_examples_sweep_what_the_issue_asks():
    crisis = load_experiment(ROOT / "experiments" / "gemrush" / "crisis-difficulty.toml")
    assert [v.players for v in crisis.variants] == [1, 2, 3, 4, 5, 6, 7]
    assert all(v.settings["exhaust"] and v.settings["mode"] == "crisis"
               and v.settings["target"] is None for v in crisis.variants)
    rush = load_experiment(ROOT / "experiments" / "gemrush" / "rush.toml")
    assert [v.players for v in rush.variants] == [2, 3, 4, 5, 6, 7]
    # 2e's Rush targets
    assert [v.settings["target"] for v in rush.variants] == [20, 20, 20, 15, 15, 15]


def test_experiments_are_found_by_name():
    assert load_experiment("rush").name == "rush"


def test_variants_are_the_cross_product_last_key_fastest(write):
    exp = load_experiment(write(GOOD))
    assert [(v.players, v.swept["hand_limit"]) for v in exp.variants] == [
        (2, 4), (2, 5), (2, 6), (3, 4), (3, 5), (3, 6)]
    assert [v.index for v in exp.variants] == list(range(6))
    assert exp.swept == ["hand_limit"]
    assert exp.variants[4].rules == {"burn_per_turn": 3, "hand_limit": 5}
    assert exp.variants[0].label == "players=2, hand_limit=4"


def test_targets_by_name_resolve_to_points_after_overrides(write):
    sweep = 'target = ["Apprentice", 50]\n"crisis_targets.Apprentice" = [30, 40]'
    text = GOOD.replace("exhaust = true\n", "").replace("hand_limit = [4, 5, 6]", sweep)
    exp = load_experiment(write(text))
    got = [(v.swept["target"], v.swept["crisis_targets.Apprentice"]) for v in exp.variants[:4]]
    assert got == [(30, 30), (40, 40), (50, 30), (50, 40)]
    assert exp.variants[0].settings["difficulties"]["Apprentice"] == 30


def test_default_targets_are_recorded_as_points(write):
    exp = load_experiment(write(GOOD.replace("exhaust = true\n", "")))
    assert {v.settings["target"] for v in exp.variants} == {75}  # the hardest 2e difficulty
    exhaust = load_experiment(write(GOOD)).variants
    assert {v.settings["target"] for v in exhaust} == {None}


BAD = [
    ("unknown field", GOOD.replace("seed = 3", "seed = 3\nsead = 4"),
     "[experiment]: field 'sead': unknown field"),
    ("missing name", GOOD.replace('name = "small"\n', ""), "field 'name': is missing"),
    ("bad name", GOOD.replace('"small"', '"Small Run"'), "field 'name': use lowercase"),
    ("bad edition", GOOD.replace('"2e"', '"3e"'), "field 'edition': unknown edition '3e'"),
    ("bad mode", GOOD.replace('"crisis"', '"coop"'), "field 'mode': must be crisis or rush"),
    ("no games", GOOD.replace("games = 10", "games = 0"), "field 'games': must be a whole"),
    ("negative seed", GOOD.replace("seed = 3", "seed = -1"), "field 'seed'"),
    ("bad heuristic", GOOD.replace('seed = 3', 'seed = 3\nheuristic = "clever"'),
     "field 'heuristic': unknown player 'clever'"),
    ("players type", GOOD.replace("players = [2, 3]", 'players = [2, "three"]'),
     "[grid]: field 'players': must be a whole number of players"),
    ("players range", GOOD.replace("players = [2, 3]", "players = [2, 8]"),
     "variant 3 (players=8, hand_limit=4) and 2 more: field 'players': edition 2e allows "
     "1 to 7 players, got 8"),
    ("rule range", GOOD.replace("[4, 5, 6]", "[4, 99]"),
     "[grid]: field 'hand_limit': must be between 0 and 30, got 99"),
    ("unknown grid key", GOOD.replace("hand_limit =", "hand_limt ="),
     "[grid]: field 'hand_limt': unknown key"),
    ("grid not a list", GOOD.replace("[4, 5, 6]", "4"),
     "[grid]: field 'hand_limit': must be a non-empty list"),
    ("empty list", GOOD.replace("[4, 5, 6]", "[]"),
     "[grid]: field 'hand_limit': must be a non-empty list"),
    ("duplicate value", GOOD.replace("[4, 5, 6]", "[4, 5, 4]"),
     "[grid]: field 'hand_limit': lists 4 twice"),
    ("fixed and swept", GOOD.replace("seed = 3", "seed = 3\nplayers = 2"),
     "[grid]: field 'players': is also fixed in [experiment]"),
    ("rule set twice", GOOD.replace("burn_per_turn = 3", "hand_limit = 3"),
     "[grid]: field 'hand_limit': is also set in [rules]"),
    ("bad rule", GOOD.replace("burn_per_turn = 3", "burn_per_turn = 0"),
     "[rules]: field 'burn_per_turn': must be between 1 and 30"),
    ("unknown rule", GOOD.replace("burn_per_turn = 3", "burn_rate = 3"),
     "[rules]: field 'burn_rate': unknown rule"),
    ("exhaust in rush", GOOD.replace('"crisis"', '"rush"'),
     "field 'exhaust': play-to-exhaustion is a Crisis option"),
    ("unknown difficulty", GOOD.replace("hand_limit = [4, 5, 6]", 'target = ["Legend"]'),
     "unknown difficulty 'Legend'"),
    ("no players", GOOD.replace("players = [2, 3]\n", ""), "field 'players': is missing"),
    ("unknown table", GOOD + "\n[extra]\nx = 1\n", "field 'extra': unknown table"),
    ("not TOML", "[experiment\nname=", "not valid TOML"),
    ("missing content", GOOD.replace("seed = 3", 'seed = 3\ncontent = "nowhere.toml"'),
     "nowhere.toml: file not found"),
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
    assert "Traceback" not in r.output + r.stderr
    assert not out.exists()  # nothing written


def test_all_problems_are_reported_at_once(write):
    text = GOOD.replace('"crisis"', '"coop"').replace("games = 10", "games = -5")
    with pytest.raises(InputError) as e:
        load_experiment(write(text))
    fields = {p.field for p in e.value.problems}
    assert {"mode", "games"} <= fields
    assert all(p.file.endswith("exp.toml") for p in e.value.problems)


def test_missing_file_is_named(cli, tmp_path):
    r = cli("run", tmp_path / "nope.toml")
    assert r.exit_code == 2
    assert "nope.toml: no such experiment file" in r.stderr


def test_content_paths_are_relative_to_the_experiment_file(write, playable_text, tmp_path):
    (tmp_path / "mini.toml").write_text(playable_text, encoding="utf-8")
    exp = load_experiment(write(GOOD.replace("seed = 3", 'seed = 3\ncontent = "mini.toml"')
                                .replace("hand_limit = [4, 5, 6]", "hand_limit = [4]")))
    assert exp.variants[0].settings["content"] == "mini"
    assert "content/mini.toml" in exp.inputs


def test_simulation_arguments_are_checked():
    with pytest.raises(InputError) as e:
        simulation(players=9)
    assert "balance.simulate" in str(e.value)
    assert "allows 1 to 7 players" in str(e.value)


def test_too_many_variants_are_refused(write):
    grid = (f"hand_limit = {list(range(31))}\nsteps = {list(range(21))}\n"
            f"deal = {list(range(31))}\n")
    with pytest.raises(InputError, match="makes 141,267 variants, more than 500: a report"):
        load_experiment(write(GOOD.replace("hand_limit = [4, 5, 6]\n", grid).replace(
            "players = [2, 3]", "players = [1, 2, 3, 4, 5, 6, 7]")))


SEATS = """\
[experiment]
name = "seats"
description = "per-seat rules"
edition = "2e"
mode = "rush"
games = 10
seed = 3
players = 5
"""


def test_per_seat_rules_are_grid_axes_with_columns_of_their_own(write):
    exp = load_experiment(write(SEATS + '[rules]\n"deal.seat1" = 5\n[grid]\n'
                                '"start_vp.seat5" = [0, 1]\nfirst_player = [1, "random"]\n'))
    assert exp.swept == ["start_vp.seat5", "first_player"]
    assert [v.swept for v in exp.variants] == [
        {"start_vp.seat5": 0, "first_player": 1}, {"start_vp.seat5": 0, "first_player": 0},
        {"start_vp.seat5": 1, "first_player": 1}, {"start_vp.seat5": 1, "first_player": 0}]
    assert exp.variants[2].rules == {"deal.seat1": 5, "start_vp.seat5": 1, "first_player": 1}
    rules = prepare_variant(exp.variants[3]).rules
    assert rules.seat.tolist() == [[5, 4, 4, 4, 4], [0, 0, 0, 0, 1]] and rules.first_player == 0


@pytest.mark.parametrize("tail,field,phrase", [
    # An unquoted dotted key is a TOML table: say how to write it.
    ('[grid]\ndeal.seat5 = [4, 5]\n', "deal", 'quote a dotted key, "deal.seat5" = [...]'),
    ('[rules]\ndeal.seat5 = 5\n', "deal", 'quoted key, "deal.seat5" = 5'),
    ('[grid]\n"hand_limit.seat2" = [4, 5]\n', "hand_limit.seat2", "cannot differ by seat"),
    ('[grid]\n"deal.seat6" = [4, 5]\n', "deal.seat6", "names seat 6, but this variant has 5"),
    ('[grid]\nfirst_player = [1, 6]\n', "first_player", "is 6, but this variant has 5"),
])
def test_bad_per_seat_keys_are_refused_naming_them(write, tail, field, phrase):
    with pytest.raises(InputError) as exc:
        load_experiment(write(SEATS + tail))
    assert any(p.field == field and phrase in p.message for p in exc.value.problems), \
        [str(p) for p in exc.value.problems]


def test_a_seat_that_some_player_counts_lack_is_refused_in_those_variants(write):
    text = SEATS.replace("players = 5\n", "") + '[rules]\n"deal.seat5" = 5\n' \
        '[grid]\nplayers = [4, 5]\n'
    with pytest.raises(InputError) as exc:
        load_experiment(write(text))
    (p,) = exc.value.problems
    assert p.where == "variant 0 (players=4)" and p.field == "deal.seat5"
