"""Comparison charts: drawn from a real comparison, left out when there is nothing to draw."""

from __future__ import annotations

import pytest

from reports.compare import compare_figures as F
from reports.compare.compare import compare_run
from reports.gemrush.figures import curves_figure
from reports.render.figures import png_bytes


@pytest.fixture(scope="module")
def cmp(tmp_path_factory):
    from typer.testing import CliRunner

    from balance.cli.app import app

    tmp = tmp_path_factory.mktemp("cf")
    exp = tmp / "cf.toml"
    exp.write_text("""\
[experiment]
name = "cf"
description = "x"
edition = "2e"
mode = "crisis"
games = 100
seed = 3
exhaust = true

[grid]
players = [2, 3]
hand_limit = [5, 6, 7]
""", encoding="utf-8")
    r = CliRunner().invoke(app, ["run", str(exp), "--out", str(tmp), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    return compare_run(tmp / "cf")


def test_the_curves_have_one_panel_per_player_count(cmp):
    fig = curves_figure(cmp, "t")
    assert [ax.get_title() for ax in fig.axes] == ["2 players", "3 players"]
    assert len(fig.axes[0].lines) == 3  # three hand limits in each panel
    assert png_bytes(fig)[:4] == b"\x89PNG"


def test_a_numeric_lever_with_three_values_gets_a_response_plot(cmp):
    levers = F.numeric_levers(cmp)
    assert list(levers) == ["hand_limit"]  # players is a setting
    fig = F.response_figure(cmp, "hand_limit", levers["hand_limit"], "score:mean", "t")
    assert fig is not None and len(fig.axes[0].lines) >= 2
    # Each line and the axis in the game's words, never a key=value
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["2 players", "3 players"]
    assert ax.get_xlabel() == "hand limit"


def test_the_forest_has_a_row_per_version_compared(cmp):
    fig = F.forest_figure(cmp, "score:mean", "t")
    assert len(fig.axes[0].get_yticks()) == 4  # 6 versions less 2 baselines
    assert F.forest_figure(cmp, "no such quantity", "t") is None


def test_each_forest_row_says_what_tells_it_apart(cmp):
    # Two player counts, each with its own baseline: "hand limit 6" alone would name two rows.
    fig = F.forest_figure(cmp, "score:mean", "t")
    rows = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert len(set(rows)) == len(rows) == 4, rows
    assert "2 players, hand limit 6" in rows and "3 players, hand limit 6" in rows
