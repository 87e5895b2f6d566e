"""Issue 26 item 4: "which target gives 20% wins?" has one answer. The report's targets table
and `balance tune` use the same method (balance/running/goal_seek.py: the nearest whole target, the
interpolated crossing and the interval from the bands), so on the games of one run they print
the same target, crossing and interval."""

from __future__ import annotations

import re

import pytest

from balance.running.store import read_run
from reports.gemrush.analysis import analyse
from reports.page.build import build_report

GAMES = 1500
EXPERIMENT = f"""\
[experiment]
name = "twenty"
description = "2e Crisis at 2 players to exhaustion: the target won 20% of the time"
edition = "2e"
mode = "crisis"
games = {GAMES}
seed = 26
players = 2
exhaust = true
"""
TUNE = re.compile(r"meets Apprentice=20% at (\S+) \(95% interval (\S+) to (\S+)\); the closest "
                  r"whole value is (\d+) \((\S+)% there\)")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    from typer.testing import CliRunner

    from balance.cli.app import app

    root = tmp_path_factory.mktemp("twenty")
    exp = root / "twenty.toml"
    exp.write_text(EXPERIMENT, encoding="utf-8")
    r = CliRunner().invoke(app, ["run", str(exp), "--out", str(root / "runs"), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    return exp, root / "runs" / "twenty"


def test_the_report_and_tune_print_the_same_target_on_the_same_games(run, cli):
    exp, folder = run
    data = read_run(folder)
    a = analyse(data.games, data.rooms, data.manifest, (0.2,))
    row = a.targets.row(0, named=True)
    target = row["target"]
    assert row["level"] == 0.2 and row["crossing"] is not None
    # --first = --games: every value tune plays is played on the run's games 0..GAMES-1.
    r = cli("tune", exp, "--lever", "crisis_targets.Apprentice", "--range", "10:70",
            "--goal", "Apprentice=20%", "--games", GAMES, "--first", GAMES, "--jobs", "1")
    assert r.exit_code == 0, r.output
    m = TUNE.search(r.output)
    assert m, r.output
    crossing, low, high, closest, rate = m.groups()
    assert int(closest) == target
    assert float(rate) == pytest.approx(100 * row["win_rate"], abs=0.05)
    assert float(crossing) == pytest.approx(row["crossing"], abs=0.005)
    assert float(low) == pytest.approx(row["crossing_low"], abs=0.005)
    assert float(high) == pytest.approx(row["crossing_high"], abs=0.005)


def test_the_page_prints_that_target_and_crossing(run):
    _, folder = run
    data = read_run(folder)
    row = analyse(data.games, data.rooms, data.manifest, (0.2,)).targets.row(0, named=True)
    page = build_report(folder, folder / "report", (0.2,)).read_text(encoding="utf-8")
    crossing = (f"{row['crossing']:.2f} (95% interval {row['crossing_low']:.2f} to "
                f"{row['crossing_high']:.2f})")
    assert crossing in page
    summary = page.split('<section id="summary">')[1].split("</section>")[0]
    table = [t for t in re.findall(r"<table>.*?</table>", summary, re.S)
             if "20% wins" in t][0]
    assert re.search(rf'<td class="n">{row["target"]}</td>', table)
