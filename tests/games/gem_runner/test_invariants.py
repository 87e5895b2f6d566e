"""Gem Runner's invariants (broken_nb) catch what they name: each planted in a game under way,
with the game otherwise intact; and random and runner play, checks on, never breaks one."""

from __future__ import annotations

import pytest

from balance.games.gem_runner.codes import BUG_ON, CHAIN, GEM, HAZARD, HEROES, KEEP, POS, RIGHT
from balance.games.gem_runner.game import KIT
from balance.games.gem_runner.rules_nb import broken_nb
from balance.kit.play import play, prepare
from tests.games.gem_runner.scenario import cards_of, game, hand, pick, set_card

HEAD = {"play": "head_to_head"}


def laid():
    """Seat 0 has laid Hazard h and its Gem; seat 1, to run, holds two Chains and a card that
    beats neither."""
    s = game(HEAD)
    h, plain = cards_of(s, HAZARD)[:2]
    gem = cards_of(s, GEM)[0]
    c1, c2 = cards_of(s, CHAIN)[:2]
    set_card(s, h, vs=(0, 0), need=(1, 0))
    set_card(s, gem, need=(1, 0))
    set_card(s, plain, play=(2, 5))
    hand(s, 1, c1, c2, plain)
    hand(s, 0, h, gem)
    pick(s, 0, h)
    pick(s, 2, gem)
    pick(s, KEEP)
    return s, (c1, c2, plain)


def under(s, *cards):
    """Cards moved from seat 1's hand under the Challenge's first places, the run past them."""
    st = s.state
    for i, card in enumerate(cards):
        held = list(st.hand[1, :st.hand_n[1]])
        held.remove(card)
        st.hand[1, :len(held)] = held
        st.hand_n[1] = len(held)
        st.under[i] = card
    st.ph[POS] = len(cards)


def test_a_card_made_or_lost():
    s, _ = laid()
    assert broken_nb(s.state, s.rules) == 0
    s.state.deck0_n[0] -= 1
    assert broken_nb(s.state, s.rules) == 1


def test_a_card_beating_what_it_does_not_beat():
    s, (c1, c2, plain) = laid()
    under(s, c1)
    assert broken_nb(s.state, s.rules) == 0, "a Chain beats any Hazard"
    s, (c1, c2, plain) = laid()
    under(s, plain)
    assert broken_nb(s.state, s.rules) == 2


def test_a_chain_on_a_gem_without_its_bug():
    s, (c1, c2, plain) = laid()
    under(s, c1, c2)
    assert broken_nb(s.state, s.rules) == 3
    s.state.ph[BUG_ON] = 1
    assert broken_nb(s.state, s.rules) == 0


def test_a_challenge_against_its_rules():
    s, _ = laid()
    h = s.state.chal[0]
    s.state.card[h, RIGHT] = 3
    assert broken_nb(s.state, s.rules) == 0, "the right edge of the last Hazard is open"
    s.state.chal[0], s.state.chal[1] = s.state.chal[1], s.state.chal[0]
    assert broken_nb(s.state, s.rules) == 4, "a Gem not last"


@pytest.mark.parametrize("rules,names", [
    ({}, ("random", "random")),
    (HEAD, ("runner", "random", "runner")),
    ({"decks": 3, "stronger_beats": True}, ("runner", "runner")),
    ({**HEAD, "decks": 4, "hero1": "data_dog", "bug_rule": "off"}, ("random",) * 8),
    ({"hand": 8, "computer_hand": 8, "chains": 10, "bugs": 3}, ("runner",)),
])
def test_play_never_breaks_an_invariant(rules, names):
    setup = prepare(KIT, rules, names)
    records = play(setup, range(60), check=True)
    assert records.violation.max() == 0
    assert (records.end == 0).mean() > 0.9, "games end at the Gem target"


def test_every_hero_plays():
    for hero in HEROES:
        setup = prepare(KIT, {"hero1": hero}, ("runner",))
        assert play(setup, range(20), check=True).violation.max() == 0
