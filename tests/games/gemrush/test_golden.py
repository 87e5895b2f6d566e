import pytest

from tests.games.gemrush.golden_games import GAMES, GOLDEN, render, render_golden


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough_unchanged(name):
    expected = (GOLDEN / f"{name}.txt").read_text()
    assert render_golden(name) == expected, (
        f"{name} changed; if intended, run `.venv/bin/python -m tests.games.gemrush.golden_games` "
        "and review the diff")


def test_rush_trace_shows_each_turns_scores_not_the_final_ones():
    import re

    text = render(edition="2e", mode="rush", players=3, seed=2)
    turns = re.findall(r"end of turn: scores ((?:P\d:\d+ ?)+)", text)
    rows = [[int(v) for v in re.findall(r"P\d:(\d+)", t)] for t in turns]
    final = [int(v) for v in re.findall(r"P\d: (\d+)", text.splitlines()[-1])]
    assert rows[0] != final and rows[-1] == final
    for before, after in zip(rows, rows[1:], strict=False):
        assert all(b <= a for b, a in zip(before, after, strict=True))  # scores never fall


def test_rule_goldens_print_every_decision_with_its_options():
    text = (GOLDEN / "rules-2e-crisis-3p-seed7.txt").read_text()
    asked = [line for line in text.splitlines() if line.startswith("  ? P")]
    assert len(asked) > 50
    assert all(" -> " in line and "0: " in line for line in asked)
