"""`balance tune-player`: CMA-ES over a player's knobs on common seeds."""

from __future__ import annotations

from balance.play import prepare
from balance.tune_player import read_knobs, tune_player, write_knobs
from heuristics import greedy


def test_tuned_knobs_never_do_worse_on_the_tuning_seeds_and_stay_in_range(tmp_path):
    r = tune_player("greedy", "2e", "crisis", 2, games=30, evaluations=12, seed=5)
    assert r.evaluations >= 12
    assert r.tuned_on_tuning_seeds >= r.default_on_tuning_seeds
    for k in greedy.KNOBS:
        assert k.lo <= r.knobs[k.name] <= k.hi
        if k.integer:
            assert r.knobs[k.name] == int(r.knobs[k.name])
    assert r.diff_low <= r.tuned - r.default <= r.diff_high
    path = tmp_path / "tuned.toml"
    write_knobs(r, path, "test")
    assert read_knobs(path) == r.knobs
    s = prepare("2e", "crisis", 2, knobs=read_knobs(path))
    assert s.players.w[0, greedy.W_DRAW] == r.knobs["draw_value"]


def test_rush_tunes_seat_one_against_default_greedy_seats():
    r = tune_player("greedy", "2e", "rush", 3, games=20, evaluations=6, seed=1)
    assert r.objective == "seat 1's win rate"
    assert 0 <= r.tuned <= 1 and 0 <= r.default <= 1


def test_cli_tune_player_writes_the_knobs_and_refuses_bad_input(cli, tmp_path):
    out = tmp_path / "k.toml"
    res = cli("tune-player", "greedy", "--players", "2", "--games", "20", "--evaluations", "6",
              "--out", out)
    assert res.exit_code == 0, res.output
    assert out.exists() and "paired 95% interval" in res.output
    play = cli("play", "--players", "2", "--knobs", out)
    assert play.exit_code == 0
    assert cli("tune-player", "random", "--games", "20").exit_code == 2  # no knobs
    assert cli("tune-player", "greedy", "--out", tmp_path, "--games", "20").exit_code == 2
    bad = tmp_path / "bad.toml"
    bad.write_text("draw_value = 'lots'\n")
    res = cli("play", "--knobs", bad)
    assert res.exit_code == 2 and "draw_value" in res.output
