"""The report built from small real runs (the engine, the runner and the store, end to end):
every section present, every figure written, no NaN or empty table, and the same page twice."""

from __future__ import annotations

import pytest

from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from reports.page.build import FIGURES, build_report
from tests.test_report_build import SECTIONS, check_page

CRISIS = """\
[experiment]
name = "real-crisis"
description = "2nd-edition Crisis to exhaustion and to Journeyman"
edition = "2e"
mode = "crisis"
games = 60
seed = 5
shard_size = 30

[grid]
players = [2, 3]
exhaust = [true, false]
target = ["Journeyman"]
"""

RUSH = """\
[experiment]
name = "real-rush"
description = "2nd-edition Rush"
edition = "2e"
mode = "rush"
games = 40
seed = 6

[grid]
players = [2, 3]
"""

FIRST = """\
[experiment]
name = "real-1e"
description = "1st-edition Crisis to exhaustion"
edition = "1e"
mode = "crisis"
games = 40
seed = 7
exhaust = true
players = 2
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("real")
    dirs = []
    for name, text in (("crisis", CRISIS), ("rush", RUSH), ("first", FIRST)):
        path = root / f"{name}.toml"
        path.write_text(text)
        dirs.append(run_experiment(load_experiment(path), out=root / "runs", jobs=1).run_dir)
    return root, dirs


def test_report_of_real_runs_has_every_section_and_figure(runs):
    root, dirs = runs
    page = build_report(dirs, root / "report")
    body = check_page(page)
    for sid in SECTIONS:
        assert f'<section id="{sid}">' in body
    assert 'class="missing"' not in body
    figures = {p.name for p in (page.parent / FIGURES).glob("*.png")}
    # A setting two runs share is named with its run: the runs are reported apart; the 1st
    # edition, one run's alone, needs no run in its name.
    for name in ("crisis-curve-2nd-edition-real-crisis.png",
                 "crisis-turn-2nd-edition-real-crisis.png",
                 "rooms-crisis-2nd-edition-real-crisis.png", "rooms-rush-2nd-edition-real-rush.png",
                 "burn-deck-2nd-edition-real-crisis.png", "burn-slack-2nd-edition-real-crisis.png",
                 "rush-seats-2nd-edition-real-rush.png", "rush-length-2nd-edition-real-rush.png",
                 "crisis-curve-1st-edition.png"):
        assert name in figures
    assert "From 3 runs: real-crisis, real-rush and real-1e." in body
    # The 1st-edition clock always runs its full length: a sentence, not a flat chart.
    assert "burn-end-1e-real-1e.png" not in figures
    assert "The burn ends every game at player turn 26" in body
    for d in dirs:  # every experiment file is named at the end of the page
        assert d.name in body
    # The 2-player Crisis games at Journeyman are counted, in the sentence and the table.
    assert "2-player Crisis is won" in body and "Journeyman (45" in body


@pytest.fixture(scope="module")
def crisis_only(runs):
    """The Crisis run alone reported twice, into two folders."""
    root, dirs = runs
    return build_report(dirs[0], root / "a"), build_report(dirs[0], root / "b")


def test_report_of_a_real_run_is_the_same_twice(crisis_only):
    a, b = crisis_only
    assert a.read_bytes() == b.read_bytes()


def test_report_of_a_run_without_rush_says_so(crisis_only):
    body = check_page(crisis_only[0])
    assert 'class="missing"' in body and "no Rush games" in body
