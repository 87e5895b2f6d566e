"""A swept player count is a setting: each variant is compared with the baseline's other
settings at its own player count (door-costs.toml sweeps 2-4 players)."""

from __future__ import annotations

from reports.tables.variants import baselines_by_setting


def _manifest(*swept):
    return {"variants": [{"variant": i, "swept": s} for i, s in enumerate(swept)]}


def test_each_player_count_has_its_own_baseline():
    m = _manifest({"players": 2, "hand_limit": 5}, {"players": 2, "hand_limit": 6},
                  {"players": 3, "hand_limit": 5}, {"players": 3, "hand_limit": 6})
    assert baselines_by_setting(m, 0) == {0: 0, 1: 0, 2: 2, 3: 2}
    # a chosen baseline of hand limit 6 is found at each player count
    assert baselines_by_setting(m, 1) == {0: 1, 1: 1, 2: 3, 3: 3}


def test_without_a_player_sweep_there_is_one_baseline():
    m = _manifest({"hand_limit": 5}, {"hand_limit": 6}, {"hand_limit": 7})
    assert baselines_by_setting(m, 1) == {0: 1, 1: 1, 2: 1}


def test_a_run_compares_within_player_counts(tmp_path, cli):
    exp = tmp_path / "s.toml"
    exp.write_text("""\
[experiment]
name = "s"
description = "x"
edition = "2e"
mode = "crisis"
games = 200
seed = 3
exhaust = true

[grid]
players = [2, 3]
hand_limit = [5, 7]
""", encoding="utf-8")
    r = cli("run", exp, "--out", tmp_path, "--jobs", 1)
    assert r.exit_code == 0, r.output
    r = cli("compare", tmp_path / "s")
    assert r.exit_code == 0, r.output
    assert "hand limit 7, 3 players (variant 3), 200 games in common with its baseline, " \
           "hand limit 5, 3 players" in r.output.replace("\n", " ")
    assert "(variant 2), 200 games" not in r.output  # variant 2 is a baseline itself
