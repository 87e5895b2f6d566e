"""Gem Mountain's goal `first` (balance/games/gem_mountain/goals.py): the start player's share
of the games one player won, so that `balance tune --goal first=25%` at 4 players seeks the
fair share; a shared win is no seat's and counts in no share."""

from __future__ import annotations

import math

import polars as pl

from balance.games.gem_mountain import goals
from reports.compare.compare import compare
from tests.games.gem_mountain.test_report import game_row, run, variant


def test_first_counts_the_games_one_player_won():
    games = pl.DataFrame({"winner": [1, 2, None, 1, 4]}, schema={"winner": pl.Int16})
    got = goals.first(games, {}, None)
    assert got[[0, 1, 3, 4]].tolist() == [1.0, 0.0, 1.0, 0.0] and math.isnan(got[2])


def test_tune_seeks_first_over_the_games_one_player_won(tmp_path, cli):
    exp = tmp_path / "t.toml"
    exp.write_text('[experiment]\nname = "t"\ndescription = "x"\ngame = "gem_mountain"\n'
                   'heuristic = "majority"\nplayers = 4\ngames = 120\nseed = 3\n',
                   encoding="utf-8")
    r = cli("tune", exp, "--lever", "double", "--range", "0:2", "--goal", "first=25%",
            "--first", "120", "--games", "120", "--jobs", "1")
    assert r.exit_code == 0, r.output
    # some of the 120 games are shared wins, counted in no share
    at_0 = next(x for x in r.output.splitlines() if x.split()[:1] == ["0"]).split()
    assert int(at_0[2]) < 120
    assert "a share of the games one player won" in r.output


def test_the_comparison_gives_the_first_seat_once():
    rows = [game_row(v, g, winner=None if g % 10 == 0 else 1 + g % 4)
            for v in (0, 1) for g in range(200)]
    made = run(rows, [variant(0), variant(1, {"start_tiles": "action"})],
               {"start_tiles": ["none", "action"]})
    quantities = compare(made.games, made.manifest).differences["quantity"].to_list()
    assert "seat:1" in quantities and "first" not in quantities
