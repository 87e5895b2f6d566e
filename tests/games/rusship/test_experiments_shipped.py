"""Rusship's shipped experiment files (experiments/rusship/): each parses into the variants its
question needs, and each plays a few games and reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from reports.page.build import build_report

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = sorted((ROOT / "experiments" / "rusship").glob("*.toml"))
# What each file sweeps: its variant count, and its baseline's rules (the unchanged ones)
WANT = {"first-player": 9, "power-ablation": 6, "power-strength": 32, "board-length": 7,
        "rusship-players": 3, "rusship-course": 1, "length-for-comebacks": 2}


def test_the_designers_questions_each_have_a_file():
    assert sorted(p.stem for p in SHIPPED) == sorted(WANT)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_file_parses_into_its_variants(path):
    exp = load_experiment(path)
    assert exp.name == path.stem
    assert exp.game.name == "rusship"
    assert len(exp.variants) == WANT[path.stem]
    assert all(v.players == 2 for v in exp.variants)


def test_each_baseline_is_what_its_question_compares_with():
    first = load_experiment(ROOT / "experiments" / "rusship" / "first-player.toml")
    assert first.variants[0].rules == {"second_tokens": 0, "second_bonus": 0}
    length = load_experiment(ROOT / "experiments" / "rusship" / "board-length.toml")
    base = length.data["experiment"]["baseline"]
    assert length.variants[base].rules == {"length": 12}  # the reconstructed board
    strength = load_experiment(ROOT / "experiments" / "rusship" / "power-strength.toml")
    assert not any(strength.variants[0].rules.values())  # the empty box
    alone = [v for v in strength.variants if sum(v.rules.values()) == 1]
    assert len(alone) == 5
    players = load_experiment(ROOT / "experiments" / "rusship" / "rusship-players.toml")
    assert [v.heuristic for v in players.variants] == ["racer", "reference,racer",
                                                        "reference"]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_file_plays_and_reports(path, tmp_path):
    exp = load_experiment(path)
    run_experiment(exp, tmp_path, games=6, jobs=1)
    page = build_report(tmp_path / exp.name).read_text(encoding="utf-8")
    for section in ("first-player", "powers", "length", "players"):
        assert f'id="{section}"' in page
