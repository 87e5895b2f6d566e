"""Dark Tunnels makes Gem Mountain a game of hidden information (KitGame.hidden: the mountain's
face-down tiles a seat has not looked at, masked by State.seen, and the deck): every player's
choice is the same when what its seat cannot see is redrawn, the search's included, whose
rollouts play on worlds the kit deals from what the seat sees; and the test fails on a player
that reads a face-down tile, and on a search that keeps the true tiles."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import numpy as np
import pytest

from balance.games.gem_mountain.codes import ACT0, GEMS_LEFT, GRAB, UNSEEN
from balance.games.gem_mountain.game import KIT
from heuristics.search import Search
from tests.games.gem_mountain.scenario import game
from tests.test_contract_next import _copied, assert_a_seats_choice_ignores_what_it_cannot_see

DARK = {"dark_tunnels": True}
# Every choice of the search turns on its rollouts (tests/test_kit_search.py's knobs).
TOUCHY = {"budget": 16, "confidence": 0.0}
FORWARD = importlib.import_module(KIT.forward)


def test_the_compiled_players_choose_alike_on_any_world_their_seat_cannot_tell_apart():
    assert_a_seats_choice_ignores_what_it_cannot_see(KIT, players=["majority", "random"],
                                                     rules=DARK)


def test_the_test_fails_on_a_player_that_reads_a_face_down_tile():
    def peeking(state, tables, rules, pp, decision, n, seat):
        """Grabs the best gem on the top as it truly is, face down or not."""
        opt = state.kit.opt
        best, pick = -1, 0
        for i in range(n):
            if opt[i, 0] == GRAB and opt[i, 2] == UNSEEN:
                code = int(state.grid[opt[i, 1]])
                if code > best:
                    best, pick = code, i
        return pick

    with pytest.raises(AssertionError, match="its choice reads hidden information"):
        assert_a_seats_choice_ignores_what_it_cannot_see(KIT, choose=peeking,
                                                         players=["random"], rules=DARK)


def _search(tables, rules, pp, state, clairvoyant: bool) -> Search:
    """A search for one decision, over seats `pp` (its knobs and stream)."""
    return Search(SimpleNamespace(tables=tables, rules=rules, players=pp), state,
                  forward=KIT.game.forward, roster=KIT.players,
                  rollout=KIT.roster()["majority"], clairvoyant=clairvoyant)


def test_the_search_determinizes_what_its_seat_has_not_seen():
    assert_a_seats_choice_ignores_what_it_cannot_see(KIT, players=["search"], knobs=TOUCHY,
                                                     rules=DARK, seats=2)


def test_the_test_fails_on_a_search_that_keeps_the_true_tiles():
    def clairvoyant(state, tables, rules, pp, decision, n, seat):
        me = _search(tables, rules, pp, state, clairvoyant=True)
        me.turn_start(seat)
        return int(me.choose(decision, n, seat))

    with pytest.raises(AssertionError, match="its choice reads hidden information"):
        assert_a_seats_choice_ignores_what_it_cannot_see(KIT, choose=clairvoyant,
                                                         players=["search"], knobs=TOUCHY,
                                                         rules=DARK, seats=2)


def test_the_rosters_clairvoyant_search_reads_the_face_down_tiles():
    """The measuring stick of the guide's "Does the search see enough in the dark?" cheats as
    its name says: seated, it fails the test every fair player passes."""
    with pytest.raises(AssertionError, match="its choice reads hidden information"):
        assert_a_seats_choice_ignores_what_it_cannot_see(KIT, players=["clairvoyant"],
                                                         knobs=TOUCHY, rules=DARK, seats=2)


def test_a_determinized_world_counts_the_gems_the_redraw_left_on_the_mountain():
    """The redraw trades face-down tiles with the deck, so the mountain's gems may change in
    number: the rules' redrawn_nb counts them again, or a rollout would end too soon or
    never."""
    s = game(DARK, players=3)
    changed = 0
    for k in range(20):
        world = _copied(s.state)
        rng = np.array([k + 1, 3, 5, 7], np.int64)
        FORWARD.redraw_unseen_nb(world, s.tables, s.rules, 0, rng.copy())
        gems = int(((world.grid >= 0) & (world.grid < ACT0)).sum())
        changed += gems != s.state.ph[GEMS_LEFT]
        FORWARD.determinize_nb(world, s.tables, s.rules, 0, rng.copy())
        assert world.ph[GEMS_LEFT] == ((world.grid >= 0) & (world.grid < ACT0)).sum()
    assert changed > 0
