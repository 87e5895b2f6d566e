import pytest

from tests.golden_games import GAMES, GOLDEN, render


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough_unchanged(name):
    expected = (GOLDEN / f"{name}.txt").read_text()
    assert render(**GAMES[name]) == expected, (
        f"{name} changed; if intended, run `.venv/bin/python -m tests.golden_games` "
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
