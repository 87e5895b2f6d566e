"""The dice race's rule goldens are unchanged (tests/games/dice/golden_games.py)."""

import pytest

from tests.games.dice.golden_games import GAMES, GOLDEN, render_golden


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough_unchanged(name):
    expected = (GOLDEN / f"{name}.txt").read_text()
    assert render_golden(name) == expected, (
        f"{name} changed; if intended, run `.venv/bin/python -m tests.games.dice.golden_games` "
        "and read the diff")
