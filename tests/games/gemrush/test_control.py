"""`control = true`: one unchanged variant beside a grid (issue 26 item 6). Variant 0 plays
the fixed settings on the box as its content file has it, with no grid value and no patch; it
is the baseline, and the comparison names it."""

from __future__ import annotations

import polars as pl
import pytest

from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from balance.running.store import read_run
from reports.compare import compare, compare_text

NERF = """\
[experiment]
name = "nerf"
description = "Magpie held by the whole team, a patch of its uses beside the unchanged box"
edition = "2e"
mode = "crisis"
games = 40
seed = 5
players = 3
exhaust = true
control = true

[rules]
skills = "shared"
shared_skill = "Magpie"

[patches.nerf]
select = { skills = "Magpie" }
uses = 2

[grid]
"nerf.uses" = [1, 3]
"""

# The control's own settings as a one-variant experiment: its games must be these.
PLAIN = NERF.replace('name = "nerf"', 'name = "plain"').replace("control = true\n", "") \
    .split("[patches.nerf]")[0]


@pytest.fixture
def write(tmp_path):
    def write(text: str, name: str = "exp.toml"):
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return p

    return write


def test_the_control_is_variant_0_with_no_grid_value_and_no_patch(write):
    exp = load_experiment(write(NERF))
    control, one, three = exp.variants
    assert [v.index for v in exp.variants] == [0, 1, 2]
    assert control.control and not one.control and not three.control
    assert [v.label for v in exp.variants] == ["control", "nerf.uses=1", "nerf.uses=3"]
    assert control.swept == {"nerf.uses": None} and one.swept == {"nerf.uses": 1}
    # the shipped box
    assert "patches" not in control.settings and control.carry["content_text"] is None
    assert one.settings["patches"][0]["uses"] == 1
    # The fixed [rules] are the control's too: the nerf is measured with Magpie held.
    assert control.rules == {"skills": "shared", "shared_skill": "Magpie"} == one.rules
    assert control.describe()["control"] is True and "control" not in one.describe()


def test_a_control_beside_patches_alone(write):
    exp = load_experiment(write(NERF.split("[grid]")[0]))
    assert [(v.label, "patches" in v.settings) for v in exp.variants] == [("control", False),
                                                                  ("patched", True)]


def test_without_control_nothing_changes(write):
    exp = load_experiment(write(NERF.replace("control = true\n", "")))
    assert [v.label for v in exp.variants] == ["nerf.uses=1", "nerf.uses=3"]
    assert not any(v.control for v in exp.variants)


def test_the_control_plays_its_settings_game_for_game_and_is_the_baseline(write, tmp_path):
    runs = tmp_path / "runs"
    run_experiment(load_experiment(write(NERF)), runs, jobs=1)
    run_experiment(load_experiment(write(PLAIN, "plain.toml")), runs, jobs=1)
    games = read_run(runs / "nerf").games
    plain = read_run(runs / "plain").games
    cols = ["game", "seed", "score", "scores", "score_by_turn", "skills"]
    assert games.filter(pl.col("variant") == 0).select(cols).equals(plain.select(cols))
    # Its grid column is null, of the type the grid's values have, in every shard.
    uses = games.group_by("variant").agg(pl.col("nerf.uses").first()).sort("variant")
    assert uses["nerf.uses"].to_list() == [None, 1, 3]
    assert games.schema["nerf.uses"] == pl.Int32
    cmp = compare.compare_run(runs / "nerf")
    assert cmp.baseline == 0 and cmp.label(0) == "control"
    short = compare_text.short_table(cmp)
    assert short.startswith("Against the unchanged game (variant 0: the unchanged box")
    assert "the unchanged game (baseline)" in short
    assert "compared with the unchanged game (variant 0" in compare_text.full_table(cmp)


def test_a_control_may_be_left_as_a_variant_with_another_baseline(write):
    exp = load_experiment(write(NERF.replace("control = true\n",
                                             "control = true\nbaseline = 1\n")))
    assert exp.variants[0].control and len(exp.variants) == 3
