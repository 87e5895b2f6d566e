"""`balance ablate` on a Gem Mountain experiment: the unchanged box, then one variant per action
in it taken out, on common seeds; what it refuses is one message and exit 2, nothing written."""

from __future__ import annotations

import polars as pl

from balance.contract.labels import value_words
from balance.games.gem_mountain.game import GAME
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
