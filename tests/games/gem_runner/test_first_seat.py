"""The compensations for the first seat (first_gems, first_cards, start_gems seat by seat; the
guide's Gem Runner page, "What evens the first player"): what each changes at the start, that
it changes nothing else of the deal, that a Gem at the start moves the first seat's share of
the wins, and the settings that cannot play refused in one message naming the field."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.gem_runner.codes import DECK, GEM, KIND
from balance.games.gem_runner.game import KIT
from balance.games.gem_runner.rules import DEFAULTS, setup_problem
from balance.games.gem_runner.rules_nb import broken_nb
from balance.kit.play import play, prepare
from tests.games.gem_runner.scenario import game

H2H = {"play": "head_to_head"}


def top_down(s) -> list[int]:
    """The shared deck's cards as they lay before the deal, top first: seat 1's hand, seat
    2's, then the draw pile from its top (both seats draw from deck 0)."""
    st = s.state
    hands = [int(c) for q in range(2) for c in st.hand[q, :st.hand_n[q]]]
    return hands + [int(c) for c in st.deck0[:st.deck0_n[0]][::-1]]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_gem_at_the_start_is_its_deck_s_top_gem_and_the_deal_is_otherwise_the_same(seed):
    plain = game(H2H, seed=seed)
    given = game({**H2H, "first_gems": 1}, seed=seed)
    order = top_down(plain)
    gem = next(c for c in order if plain.tables.card[c, KIND] == GEM)
    assert list(given.state.stack[0, :given.state.stack_n[0]]) == [gem]
    assert given.state.kit.score[0] == 1 and given.state.stack_n[1] == 0
    assert top_down(given) == [c for c in order if c != gem]
    assert broken_nb(given.state, given.rules) == 0


def test_extra_cards_are_dealt_to_the_first_seat_alone():
    s = game({**H2H, "first_cards": 2})
    assert list(s.state.hand_n[:2]) == [7, 5]
    assert broken_nb(s.state, s.rules) == 0


def test_a_gem_at_the_start_raises_the_first_seat_s_share_on_the_same_shuffles():
    seeds = range(600)
    first = []
    for gems in (0, 2):
        r = play(prepare(KIT, {**H2H, "first_gems": gems}, ("runner", "runner")), seeds,
                 check=True)
        assert r.violation.max() == 0
        first.append(np.mean(r.winner == 0))
    # Two Gems of seven: about +15 points (the guide's figures); noise on 600 games ~2.
    assert first[1] - first[0] > 0.07, first


def test_gems_at_the_start_seat_by_seat_come_from_each_seat_s_deck():
    # Four seats on two decks: seats 1 and 2 draw from deck 1, seats 3 and 4 from deck 2.
    rules = {**H2H, "start_gems": "1,0,2,1", "first_gems": 1}
    s = game(rules, players=4, seed=4)
    st = s.state
    assert list(st.stack_n[:4]) == [2, 0, 2, 1]
    assert list(st.kit.score[:4]) == [2, 0, 2, 1]
    for q, deck in ((0, 0), (2, 1), (3, 1)):
        for c in st.stack[q, :st.stack_n[q]]:
            assert s.tables.card[c, KIND] == GEM and s.tables.card[c, DECK] == deck
    assert broken_nb(st, s.rules) == 0
    assert list(game({**H2H, "first_gems": 1}, players=4, seed=4).state.stack_n[:4]) == [
        1, 0, 0, 0]


def test_no_gems_by_seat_deals_as_the_rules_without_the_setting():
    for seed in (1, 2):
        plain, zero = game(H2H, seed=seed), game({**H2H, "start_gems": "0,0"}, seed=seed)
        assert top_down(plain) == top_down(zero) and list(zero.state.stack_n[:2]) == [0, 0]


@pytest.mark.parametrize("change,field,words", [
    ({"start_gems": "1,x"}, "start_gems", "whole numbers joined by commas"),
    ({"start_gems": "1,-1"}, "start_gems", "whole numbers joined by commas"),
    ({"start_gems": "0,0,1"}, "start_gems", "for 3 seats and 2 play"),
    ({"start_gems": "0,7"}, "start_gems", "seat 2 starts with 7 Gems"),
    ({"start_gems": "6", "first_gems": 1}, "start_gems", "seat 1 starts with 7 Gems"),
    ({"start_gems": "2,1", "gems": 2}, "start_gems", "3 Gems at the start from deck 1"),
    ({"first_gems": 7}, "first_gems", "reach the target of 7"),
    ({"first_gems": 4, "target": 3}, "first_gems", "reach the target of 3"),
    ({"first_gems": 3, "gems": 2}, "first_gems", "from a deck of 2 Gems"),
    ({"first_cards": 4}, "first_cards", "at most 8"),
    ({"first_cards": 1, "hand": 8}, "first_cards", "at most 8"),
])
def test_a_compensation_that_cannot_play_is_refused_naming_its_field(change, field, words):
    bad = setup_problem({**DEFAULTS, **H2H, **change}, 2, "rules")
    assert bad is not None and bad.field == field and words in bad.message
    assert setup_problem({**DEFAULTS, **H2H, "first_gems": 6, "first_cards": 3}, 2,
                         "rules") is None
