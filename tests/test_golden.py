import pytest

from tests.golden_games import GAMES, GOLDEN, render


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough_unchanged(name):
    expected = (GOLDEN / f"{name}.txt").read_text()
    assert render(**GAMES[name]) == expected, (
        f"{name} changed; if intended, run `.venv/bin/python -m tests.golden_games` "
        "and review the diff")
