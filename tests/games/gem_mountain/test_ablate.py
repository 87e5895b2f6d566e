"""`balance ablate` on a Gem Mountain experiment: the unchanged box, then one variant per action
in it taken out, on common seeds; what it refuses is one message and exit 2, nothing written."""

from __future__ import annotations

import polars as pl

from balance.contract.labels import value_words
from balance.games.gem_mountain.game import GAME
from balance.running.experiment import load_experiment
from balance.running.store import read_run

BASE = """\
[experiment]
name = "gm-base"
description = "majority players"
game = "gem_mountain"
heuristic = "majority"
players = 3
games = 40
seed = 5
[rules]
arrow_lock = 0
"""


def test_ablate_takes_each_action_in_the_box_out(cli, tmp_path):
    f = tmp_path / "base.toml"
    f.write_text(BASE, encoding="utf-8")
    r = cli("ablate", f, "--out", tmp_path / "runs", "--jobs", 1)
    assert r.exit_code == 0, r.output
    run = read_run(tmp_path / "runs" / "gm-base-ablate-actions", lazy_tables=False)
    games = run.games if isinstance(run.games, pl.DataFrame) else run.games.collect()
    # Arrow Lock is out of the box already: it is not ablated again.
    assert games["ablate"].unique(maintain_order=True).to_list() == [
        "none", "move_arrow", "swap", "double", "steal"]
    steals = games.group_by("ablate").agg(pl.col("steals").sum())
    by = dict(zip(steals["ablate"], steals["steals"], strict=True))
    assert by["steal"] == 0 and by["none"] > 0  # taken out: nobody ever steals
    # The same seeds in every variant: the ablation is paired.
    seeds = games.group_by("ablate").agg(pl.col("seed").sort())
    assert len({tuple(s) for s in seeds["seed"]}) == 1
    assert value_words(GAME, "ablate", "steal") == "without Steal"


def test_ablate_refuses_a_grid_and_a_box_too_small_without_an_action(cli, tmp_path):
    f = tmp_path / "base.toml"
    f.write_text(BASE + "[grid]\nrows = [5, 6]\n", encoding="utf-8")
    r = cli("ablate", f, "--out", tmp_path / "runs")
    assert r.exit_code == 2 and r.stderr.count("error:") == 1 and "takes no [grid]" in r.stderr
    # 42 cells: the 45 tiles fill them, the 41 left without Move the Arrow do not.
    f.write_text(BASE + "rows = 7\ncols = 6\n", encoding="utf-8")
    r = cli("ablate", f, "--out", tmp_path / "runs")
    assert r.exit_code == 2 and r.stderr.count("error:") == 1, r.stderr
    assert "ablate=move_arrow" in r.stderr and "fewer than the 42 cells" in r.stderr
    assert "Traceback" not in r.output
    f.write_text(BASE.replace("arrow_lock = 0", "ones = 5\nmove_arrow = 0\narrow_lock = 0\n"
                              "swap = 0\ndouble = 0\nsteal = 0"), encoding="utf-8")
    r = cli("ablate", f, "--out", tmp_path / "runs")
    assert r.exit_code == 2 and "nothing to ablate" in r.stderr
    assert not (tmp_path / "runs").exists()


EXPANSIONS = {
    # switch: the action tiles it puts in the box, beside the base game's five
    "dark_tunnels": ["lightbulb", "bomb", "second_arrow", "ransack"],
    "gemshards": ["rotate_grabbed", "rotate_board", "teleport_arrow"],
    "golden_actions": ["rumble"],
}
BASE_ACTIONS = ["move_arrow", "arrow_lock", "swap", "double", "steal"]


def _ablated(tmp_path, rules: str) -> list:
    f = tmp_path / "x.toml"
    f.write_text(BASE.replace("arrow_lock = 0\n", rules).replace(
        "seed = 5\n", 'seed = 5\nablate = "actions"\n'), encoding="utf-8")
    return load_experiment(f).variants


def test_ablate_takes_out_the_actions_of_each_expansion_switched_on(tmp_path):
    for switch, actions in EXPANSIONS.items():
        variants = _ablated(tmp_path, f"{switch} = true\n")
        assert [v.swept["ablate"] for v in variants] == ["none", *BASE_ACTIONS, *actions]
        for v in variants[1:]:
            # the switch kept, the one action's count at 0: paired with the unchanged box
            assert v.rules == {switch: True, v.swept["ablate"]: 0}, switch
    # Flashlight only when its count is not 0 (none in the default box); the switched-off
    # expansions' tiles never
    variants = _ablated(tmp_path, "golden_actions = true\ngemshards = true\nflashlight = 2\n"
                        "rumble = 0\n")
    assert [v.swept["ablate"] for v in variants] == [
        "none", *BASE_ACTIONS, *EXPANSIONS["gemshards"], "flashlight"]
    words = {"lightbulb": "Lightbulb", "bomb": "Bomb", "second_arrow": "Second Arrow",
             "ransack": "Ransack", "rotate_grabbed": "Rotate Grabbed",
             "rotate_board": "Rotate Board", "teleport_arrow": "Teleport Arrow",
             "rumble": "Rumble", "flashlight": "Flashlight"}
    for name, word in words.items():
        assert value_words(GAME, "ablate", name) == f"without {word}"
    assert [v.swept["ablate"] for v in _ablated(tmp_path, "rumble = 2\n")] == [
        "none", *BASE_ACTIONS]


def test_ablate_plays_an_expansion_action_out_of_the_box(cli, tmp_path):
    f = tmp_path / "dark.toml"
    f.write_text(BASE.replace("players = 3", "players = 3\nshard_size = 20").replace(
        "arrow_lock = 0\n", "dark_tunnels = true\n").replace("games = 40", "games = 20"),
        encoding="utf-8")
    r = cli("ablate", f, "--out", tmp_path / "runs", "--jobs", 1)
    assert r.exit_code == 0, r.output
    run = read_run(tmp_path / "runs" / "gm-base-ablate-actions", lazy_tables=False)
    games = run.games if isinstance(run.games, pl.DataFrame) else run.games.collect()
    assert games["ablate"].unique(maintain_order=True).to_list() == [
        "none", *BASE_ACTIONS, *EXPANSIONS["dark_tunnels"]]
    seeds = games.group_by("ablate").agg(pl.col("seed").sort())
    assert len({tuple(s) for s in seeds["seed"]}) == 1
