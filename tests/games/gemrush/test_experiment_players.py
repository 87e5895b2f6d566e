"""Players in experiment files: a player for each seat, the player and its knobs swept in
[grid] like any rule field, knobs fixed in [knobs]; the lever columns reach the games table."""

from __future__ import annotations

import polars as pl
import pytest

from balance.errors import InputError
from balance.games.gemrush.experiment import prepare_variant
from balance.running.experiment import load_experiment

PLAYERS = """\
[experiment]
name = "players"
description = "who plays"
edition = "2e"
mode = "rush"
games = 40
seed = 3
players = 2

[knobs]
ready_bonus = 3.0

[grid]
seats = [["greedy", "greedy"], ["greedy", "random"]]
"knob.draw_value" = [1.0, 1.5]
"""


def _write(tmp_path, text):
    p = tmp_path / "exp.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_seats_and_knobs_make_variants(tmp_path):
    exp = load_experiment(str(_write(tmp_path, PLAYERS)))
    assert [v.heuristic for v in exp.variants] == ["greedy"] * 2 + ["greedy,random"] * 2
    assert [v.knobs for v in exp.variants][:2] == [{"ready_bonus": 3.0, "draw_value": 1.0},
                                                   {"ready_bonus": 3.0, "draw_value": 1.5}]
    s = prepare_variant(exp.variants[3])
    assert s.seats == ("greedy", "random")
    assert s.players.w[0, 0] == 1.5  # draw_value is greedy's first knob
    assert exp.variants[3].describe()["seats"] == ["greedy", "random"]


def test_the_games_table_names_the_players_and_swept_knobs(tmp_path, cli):
    path = _write(tmp_path, PLAYERS)
    res = cli("run", path, "--jobs", "1", "--out", tmp_path / "runs")
    assert res.exit_code == 0, res.output
    games = pl.read_parquet(tmp_path / "runs" / "players" / "games" / "*.parquet")
    by = games.group_by("variant").agg(pl.col("heuristic").first(),
                                       pl.col("knob.draw_value").first(),
                                       pl.col("seats").first()).sort("variant")
    assert by["heuristic"].to_list() == ["greedy", "greedy", "greedy,random", "greedy,random"]
    assert by["knob.draw_value"].to_list() == [1.0, 1.5, 1.0, 1.5]
    # Greedy beats a random seat: seat 1 wins most games of variants 2 and 3.
    mixed = games.filter(pl.col("variant") >= 2)
    assert (mixed["winner"] == 1).mean() > 0.8


def test_the_player_can_be_swept(tmp_path):
    text = PLAYERS.replace('seats = [["greedy", "greedy"], ["greedy", "random"]]',
                           'heuristic = ["greedy", "random"]').replace(
        '"knob.draw_value" = [1.0, 1.5]\n', "").replace("[knobs]\nready_bonus = 3.0\n", "")
    exp = load_experiment(str(_write(tmp_path, text)))
    assert [v.heuristic for v in exp.variants] == ["greedy", "random"]


@pytest.mark.parametrize("change, words", [
    (('seats = [["greedy", "greedy"], ["greedy", "random"]]',
      'seats = [["greedy"], ["greedy", "random"]]'), "names 1 players for 2 seats"),
    (('seats = [["greedy", "greedy"], ["greedy", "random"]]',
      'seats = [["greedy", "nobody"]]'), "must be a list of players"),
    (('"knob.draw_value" = [1.0, 1.5]', '"knob.draw_value" = [1.0, 99.0]'),
     "must be between 0 and 5"),
    (("ready_bonus = 3.0", "no_such_knob = 3.0"), "no player of any variant has this knob"),
])
def test_bad_players_and_knobs_are_refused_by_name(tmp_path, change, words):
    text = PLAYERS.replace(*change)
    with pytest.raises(InputError, match=words):
        load_experiment(str(_write(tmp_path, text)))
