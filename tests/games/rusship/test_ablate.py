"""`balance ablate` on a Rusship experiment: the unchanged box, then one variant per power in
it taken out, on common seeds; what it refuses is one message and exit 2."""

from __future__ import annotations

import polars as pl

from balance.running.store import read_run

BASE = """\
[experiment]
name = "rs-base"
description = "racer against racer"
game = "rusship"
heuristic = "racer"
players = 2
games = 60
seed = 5
[rules]
box_one_die = false
"""


def test_ablate_takes_each_power_in_the_box_out(cli, tmp_path):
    f = tmp_path / "base.toml"
    f.write_text(BASE, encoding="utf-8")
    r = cli("ablate", f, "--out", tmp_path / "runs", "--jobs", 1)
    assert r.exit_code == 0, r.output
    run = read_run(tmp_path / "runs" / "rs-base-ablate-powers", lazy_tables=False)
    games = run.games if isinstance(run.games, pl.DataFrame) else run.games.collect()
    # one_die is out of the box already: it is not ablated again.
    assert games["ablate"].unique(maintain_order=True).to_list() == [
        "none", "reroll", "plus_one", "move_back", "share"]
    held = games.filter(pl.col("ablate") == "plus_one")["power_plus_one"]
    assert (held == 0).all()  # taken out: nobody ever holds it


def test_ablate_refuses_a_bad_how_and_a_grid(cli, tmp_path):
    f = tmp_path / "base.toml"
    f.write_text(BASE, encoding="utf-8")
    r = cli("ablate", f, "--how", "rooms", "--out", tmp_path / "runs")
    assert r.exit_code == 2 and r.stderr.count("error:") == 1 and "powers" in r.stderr
    f.write_text(BASE + "[grid]\nlength = [8, 10]\n", encoding="utf-8")
    r = cli("ablate", f, "--out", tmp_path / "runs")
    assert r.exit_code == 2 and "takes no [grid]" in r.stderr
    assert not (tmp_path / "runs").exists()


def test_a_grid_cell_with_more_starting_tokens_than_tokens_is_refused(cli, tmp_path):
    f = tmp_path / "base.toml"
    f.write_text(BASE.replace("[rules]\n", "[rules]\ntokens = 2\n")
                 + "[grid]\nsecond_tokens = [1, 3]\n", encoding="utf-8")
    r = cli("run", f, "--out", tmp_path / "runs")
    assert r.exit_code == 2 and r.stderr.count("error:") == 1, r.stderr
    assert "second_tokens" in r.stderr and "more than the side's 2 tokens" in r.stderr
    assert not (tmp_path / "runs").exists()
