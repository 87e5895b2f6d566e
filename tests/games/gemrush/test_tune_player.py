"""`balance tune-player`: CMA-ES over a player's knobs on common seeds."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.gemrush.play import prepare
from balance.games.gemrush.tuning import objective, seat_objective
from balance.running.tune_player import read_knobs, tune_player, write_knobs
from heuristics.gemrush import greedy
from heuristics.gemrush.learned import WEIGHT_STEP
from heuristics.gemrush.registry import PLAYERS


def _tuned(name, edition, mode, players, **kw):
    counts = [players] if isinstance(players, int) else players
    knobs, score, what = objective(name, edition, mode, counts)
    return tune_player(name, knobs, score, what, players, **kw)


def test_tuned_knobs_never_do_worse_on_the_tuning_seeds_and_stay_in_range(tmp_path):
    r = _tuned("greedy", "2e", "crisis", 2, games=30, evaluations=12, seed=5)
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
    r = _tuned("greedy", "2e", "rush", 3, games=20, evaluations=6, seed=1)
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


def test_several_player_counts_tune_one_set_of_knobs_for_their_mean(tmp_path):
    from balance.running.seeds import game_seeds

    r = _tuned("greedy", "2e", "crisis", [1, 3], games=20, evaluations=6, seed=4)
    assert r.players == (1, 3) and [c.players for c in r.by_players] == [1, 3]
    seeds = game_seeds(4, 0, 20)
    each = [seat_objective(prepare("2e", "crisis", n, exhaust=True), "crisis", seeds).mean()
            for n in (1, 3)]
    assert abs(r.default_on_tuning_seeds - sum(each) / 2) < 1e-9  # the mean over the counts
    assert r.tuned_on_tuning_seeds >= r.default_on_tuning_seeds
    assert abs(r.tuned - sum(c.tuned for c in r.by_players) / 2) < 1e-9
    assert r.diff_low <= r.tuned - r.default <= r.diff_high
    for c in r.by_players:
        assert c.diff_low <= c.tuned - c.default <= c.diff_high
    path = tmp_path / "k.toml"
    write_knobs(r, path, "test")
    text = path.read_text()
    assert "#   1 players:" in text and "#   3 players:" in text
    assert read_knobs(path) == r.knobs


def test_cli_tune_player_takes_several_counts_and_refuses_bad_ones(cli):
    res = cli("tune-player", "greedy", "--players", "1,2", "--games", "20",
              "--evaluations", "4")
    assert res.exit_code == 0, res.output
    assert "1,2 players" in res.output and "  2 players:" in res.output
    assert "the mean over them" in res.output
    for bad in ("0,4", "4,x", ",", "17"):
        res = cli("tune-player", "greedy", "--players", bad, "--games", "20")
        assert res.exit_code == 2 and "--players" in res.output and repr(bad) in res.output
        assert "Traceback" not in res.output
    res = cli("tune-player", "greedy", "--mode", "rush", "--players", "1,3", "--games", "20")
    assert res.exit_code == 2 and "Rush needs at least 2 players" in res.output


# every candidate's differences are the same constant here, which scipy's t interval warns of
@pytest.mark.filterwarnings("ignore:Precision loss occurred")
def test_a_knob_with_its_own_step_is_tuned_in_steps_of_that_size():
    """learned's weights range over -100 to 100 but matter at a tenth of a unit: a fifth of
    the range as the first step (40 units) would try only absurd weights. Each knob that
    names its step is searched at that scale; the others at a fifth of their range."""
    knobs = PLAYERS.player("learned").knobs
    picked = [k for k in knobs if k.name.startswith("lw_")][:3] + \
        [k for k in knobs if k.name == "draw_value"]
    seen = []

    def score(n, values, seeds):
        if values is not None:
            seen.append(values)
        return np.full(len(seeds), sum(values.values()) if values else 0.0)

    tune_player("learned", picked, score, "sum", 4, games=20, evaluations=24, seed=3)
    tried = seen[1:-1]  # the defaults first, the validation last
    assert len(tried) >= 20
    for k in picked[:3]:
        moves = [abs(v[k.name] - k.default) for v in tried]
        assert max(moves) < 20 * WEIGHT_STEP, (k.name, max(moves))
        assert max(moves) > WEIGHT_STEP / 10, (k.name, max(moves))
    # draw_value (0 to 5) names no step: a fifth of its range, about 1
    assert max(abs(v["draw_value"] - 0.73) for v in tried) > 0.5
