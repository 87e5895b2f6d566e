"""Rusship's rule goldens are unchanged (tests/games/rusship/golden_games.py), and they show
what a designer reads them for."""

import numpy as np
import pytest

from balance.games.rusship.engine.state import MAX_EVENTS
from balance.games.rusship.play import play_traced, prepare
from balance.games.rusship.trace import format_game
from tests.games.rusship.golden_games import GAMES, GOLDEN, render_golden


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough_unchanged(name):
    expected = (GOLDEN / f"{name}.txt").read_text()
    assert render_golden(name) == expected, (
        f"{name} changed; if intended, run `.venv/bin/python -m tests.games.rusship.golden_games`"
        " and read the diff")


def test_the_goldens_print_every_decision_and_the_track_after_every_turn():
    for name in GAMES:
        lines = (GOLDEN / f"{name}.txt").read_text().splitlines()
        asked = [x for x in lines if x.startswith("  ? ")]
        assert asked and all(" -> " in x and "0: " in x for x in asked)
        turns = [x for x in lines if x.startswith("Turn ")]
        tracks = [x for x in lines if x.startswith("  Earth ")]
        assert len(tracks) == len(turns) + 1  # the start, and each turn's end
        assert lines[-1].startswith("End: ")


def test_the_goldens_cover_the_tie_every_power_and_the_switches():
    text = {name: (GOLDEN / f"{name}.txt").read_text() for name in GAMES}
    assert "a tie, both roll again" in text["rules-default-seed9"]
    powers = text["rules-powers-seed14"]
    for what in ("takes the power reroll", "takes the power plus_one", "rerolls die",
                 "takes the power one_die", "takes the power move_back", "takes the power share",
                 "(one die)", "captures"):
        assert what in powers, what
    switched = text["rules-switches-seed10"]
    for what in ("starts with a", "pass", "has no move: the", "moves with", "moves a ship back",
                 "adds +1"):
        assert what in switched, what


def test_a_trace_the_engine_cut_short_says_so():
    setup = prepare(None, ("random", "random"))
    _, events = play_traced(setup, 9)
    assert "the trace stops here" not in format_game(setup, events)
    full = np.concatenate([events] + [events[-2:-1]] * (MAX_EVENTS - len(events)))
    assert format_game(setup, full).endswith(f"keeps the first {MAX_EVENTS:,} events)")
