"""The hidden information with the three expansions on (mix_nb.py): what a seat has not seen is
the face-down tiles it has not looked at, the deck, and the sections of every divided tile
among them. Every player's choice is the same on a world where those were redrawn, the
sections dealt anew included; and the test fails on a player that reads a face-down divided
tile's sections."""

from __future__ import annotations

import importlib

import pytest

from balance.games.gem_mountain.codes import DIVIDED0, GRAB_SIDE, SIDES, UNSEEN
from balance.games.gem_mountain.game import KIT
from balance.games.gem_mountain.mix_nb import redeal_unseen_nb
from tests.test_contract_next import assert_a_seats_choice_ignores_what_it_cannot_see

ALL = {"dark_tunnels": True, "gemshards": True, "golden_actions": True, "flashlight": 2}
TOUCHY = {"budget": 16, "confidence": 0.0}
FORWARD = importlib.import_module(KIT.forward)


def redraw(state, tables, rules, seat, rng):
    """The kit's redraw of the unseen tiles, then the sections of the divided tiles the seat
    has not seen dealt anew (the search's world deals them so: rules_nb.redrawn_nb)."""
    FORWARD.redraw_unseen_nb(state, tables, rules, seat, rng)
    chance = state.kit.chance.copy()  # the game's stream, which every seat sees, kept
    redeal_unseen_nb(state, tables, rules, seat)
    state.kit.chance[:] = chance


def test_the_compiled_players_ignore_the_unseen_tiles_and_their_sections():
    assert_a_seats_choice_ignores_what_it_cannot_see(KIT, players=["majority", "random"],
                                                     rules=ALL, redraw=redraw, drawn=("sh",))


def test_the_search_determinizes_the_unseen_tiles_and_their_sections():
    assert_a_seats_choice_ignores_what_it_cannot_see(KIT, players=["search"], knobs=TOUCHY,
                                                     rules=ALL, seats=2, redraw=redraw,
                                                     drawn=("sh",))


def test_the_test_fails_on_a_player_that_reads_a_face_down_divided_tile():
    def peeking(state, tables, rules, pp, decision, n, seat):
        """Grabs the blind tile whose first section is the highest code."""
        opt = state.kit.opt
        best, pick = -1, 0
        for i in range(n):
            if opt[i, 0] == GRAB_SIDE and opt[i, 2] == UNSEEN:
                code = int(state.grid[opt[i, 1]])
                if code >= DIVIDED0:
                    code = int(max(state.sh[code - DIVIDED0, :SIDES]))
                if code > best:
                    best, pick = code, i
        return pick

    with pytest.raises(AssertionError, match="its choice reads hidden information"):
        assert_a_seats_choice_ignores_what_it_cannot_see(KIT, choose=peeking,
                                                         players=["random"], rules=ALL,
                                                         redraw=redraw, drawn=("sh",))
