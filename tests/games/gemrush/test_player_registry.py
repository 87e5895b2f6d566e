"""The player registry: players declare their knobs (default and range); `balance players`
lists them; knobs are set by name, checked against their range, per seated player."""

from __future__ import annotations

import numpy as np
import pytest

from balance.errors import InputError
from balance.games.gemrush.play import prepare
from heuristics.gemrush import greedy
from heuristics.gemrush.registry import PLAYERS


def test_greedy_knobs_are_declared_in_its_w_order():
    assert [k.name for k in greedy.KNOBS] == list(greedy.KNOB_NAMES)
    assert len(greedy.KNOBS) == greedy.N_KNOBS
    for k in greedy.KNOBS:
        assert k.lo <= k.default <= k.hi


def test_a_knob_set_by_name_reaches_the_weights():
    s = prepare("2e", "crisis", 2, knobs={"draw_value": 2.5})
    base = prepare("2e", "crisis", 2)
    assert s.players.w[0, greedy.W_DRAW] == 2.5
    assert base.players.w[0, greedy.W_DRAW] == greedy.KNOBS[greedy.W_DRAW].default
    same = np.ones(base.players.w.shape[1], bool)
    same[greedy.W_DRAW] = False
    assert (s.players.w[:, same] == base.players.w[:, same]).all()


@pytest.mark.parametrize("knobs, what", [
    ({"draw_value": 99}, "between 0 and 5"),
    ({"draw_value": "lots"}, "must be a number"),
    ({"lookahead_steps": 2.5}, "whole number"),
    ({"no_such_knob": 1}, "no player seated has this knob"),
])
def test_bad_knobs_are_refused_by_name(knobs, what):
    with pytest.raises(InputError, match=what):
        prepare("2e", "crisis", 2, knobs=knobs)


def test_knobs_reach_only_the_seats_whose_player_has_them():
    s = prepare("2e", "rush", 3, seats=["greedy", "random", "greedy"], knobs={"goal_value": 3})
    assert s.players.w[0, greedy.W_GOAL] == 3 and s.players.w[2, greedy.W_GOAL] == 3
    assert len(PLAYERS.weights("random", s.tables)) == 0  # no knobs, no weights
    assert (s.players.w[1] == 0).all()
    with pytest.raises(InputError, match="no player seated"):
        prepare("2e", "rush", 2, seats=["random", "random"], knobs={"goal_value": 3})


def test_weights_are_laid_out_as_each_player_declares():
    s = prepare("1e", "crisis", 1)
    w = PLAYERS.weights("greedy", s.tables)
    assert len(w) == greedy.N_KNOBS + len(s.tables.room_kind)  # knobs, then room values
    ref = PLAYERS.weights("reference", s.tables, {"budget": 8})
    assert (ref[: len(w)] == w).all()  # the rollout player's weights, then its own knobs
    assert ref[len(w)] == 8 and len(ref) == len(w) + 5


def test_balance_players_lists_every_player_and_knob(cli):
    out = cli("players")
    assert out.exit_code == 0
    for name, h in PLAYERS.items():
        assert f"{name}:" in out.output
        for k in h.knobs:
            assert k.name in out.output


def test_play_refuses_a_bad_knob_cleanly(cli):
    out = cli("play", "--knob", "draw_value=-1")
    assert out.exit_code == 2
    assert "draw_value" in out.output and "Traceback" not in out.output


def test_two_python_players_in_one_game_are_refused():
    # They would share one Search object, so the clairvoyant seat would play honestly.
    with pytest.raises(InputError, match="at most one player written in Python"):
        prepare("2e", "crisis", 2, seats=["reference", "clairvoyant"])
    prepare("2e", "crisis", 3, seats=["clairvoyant", "greedy", "clairvoyant"])  # one is fine
