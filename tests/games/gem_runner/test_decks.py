"""Gem Runner's decks as content: the shipped files hold the box's counts, a broken file or a
count its file cannot meet is refused in one message naming the file, the card and the field,
and a count is a lever that changes the deck."""

from __future__ import annotations

import numpy as np
import pytest

from balance.errors import InputError
from balance.games.gem_runner import decks
from balance.games.gem_runner.cards_nb import beats_nb
from balance.games.gem_runner.codes import HEROES, KIND, KINDS
from balance.games.gem_runner.game import KIT
from balance.games.gem_runner.rules import DEFAULTS, read_all, setup_problem
from balance.kit.play import play, prepare

BOX = {"hazard": 30, "boss": 5, "gem": 15, "chain": 4, "bug": 1, "bug_fix": 1}


@pytest.mark.parametrize("hero", HEROES)
def test_each_shipped_deck_holds_the_box_and_says_it_is_reconstructed(hero):
    cards = decks.read_deck(hero)
    assert {k: sum(c["kind"] == k for c in cards) for k in KINDS} == BOX
    supers = [c for c in cards if c["kind"] in ("hazard", "boss")
              and c["play"]["action"].startswith(decks.SUPER)]
    assert len(supers) == 6, "6 cards with Super actions in the Play section"
    assert "RECONSTRUCTED" in decks.deck_file(hero).read_text()


def broken(tmp_path, monkeypatch, old: str, new: str):
    text = decks.deck_file("bit_boy").read_text()
    assert old in text
    (tmp_path / "bit_boy.toml").write_text(text.replace(old, new, 1))
    monkeypatch.setattr(decks, "DECKS", tmp_path)
    decks.read_deck.cache_clear()
    decks.action_names.cache_clear()


@pytest.mark.parametrize("old,new,where,field", [
    ('need = { element = "lightning", action = "run" }',
     'need = { element = "plasma", action = "run" }', 'card 1 "Spinning Blade"', "need.element"),
    ('vs = { left = "metal", right = "earth" }', 'vs = { left = "metal" }',
     'card 1 "Spinning Blade"', "vs.right"),
    ('kind = "hazard"\nname = "Spinning Blade"', 'kind = "trap"\nname = "Spinning Blade"',
     'card 1 "Spinning Blade"', "kind"),
    ('play = { element = "lightning", action = "shoot" }',
     'play = { element = "lightning", action = "Shoot!" }', 'card 1 "Spinning Blade"',
     "play.action"),
])
def test_a_broken_card_is_one_message_naming_the_file_card_and_field(tmp_path, monkeypatch,
                                                                     old, new, where, field):
    broken(tmp_path, monkeypatch, old, new)
    try:
        with pytest.raises(InputError) as e:
            read_all()
        assert [(p.file, p.where, p.field) for p in e.value.problems] == [
            (str(tmp_path / "bit_boy.toml"), where, field)]
    finally:
        decks.read_deck.cache_clear()
        decks.action_names.cache_clear()


def test_a_count_its_file_cannot_meet_names_the_file_and_the_count(monkeypatch):
    cut = tuple(c for c in decks.read_deck("bit_boy") if c["kind"] != "chain")
    monkeypatch.setattr(decks, "read_deck", lambda hero: cut)
    bad = setup_problem({**DEFAULTS, "chains": 4}, 2, "rules")
    assert (bad.file, bad.field) == (str(decks.deck_file("bit_boy")), "cards")
    assert "holds no chain card" in bad.message
    assert setup_problem({**DEFAULTS, "chains": 0}, 2, "rules") is None


def test_more_decks_than_seats_head_to_head_is_refused():
    bad = setup_problem({**DEFAULTS, "play": "head_to_head", "decks": 3}, 2, "rules")
    assert bad.field == "decks"


def test_a_count_is_a_lever():
    setup = prepare(KIT, {"gems": 5, "chains": 0}, ("runner",))
    kinds = list(setup.tables.card[:, KIND])
    assert kinds.count(KINDS.index("gem")) == 5 and kinds.count(KINDS.index("chain")) == 0
    assert play(setup, range(20), check=True).violation.max() == 0


def test_head_to_head_seats_two_a_deck_at_most():
    bad = setup_problem({**DEFAULTS, "play": "head_to_head", "decks": 1}, 3, "rules")
    assert bad.field == "decks" and "two players a deck" in bad.message
    assert setup_problem({**DEFAULTS, "play": "head_to_head", "decks": "auto"}, 8,
                         "rules") is None


@pytest.mark.parametrize("play,seats,decks", [
    ("head_to_head", 2, 1), ("head_to_head", 5, 3), ("head_to_head", 8, 4),
    ("computer", 1, 1), ("computer", 2, 2), ("computer", 4, 3), ("computer", 8, 4)])
def test_auto_decks_deal_as_the_ways_to_play(play, seats, decks):
    setup = prepare(KIT, {"play": play}, ("random",) * seats)
    assert setup.rules.decks == decks


@pytest.mark.parametrize("stronger", [False, True])
def test_the_share_of_cards_that_beat_each_card_is_the_rules(stronger):
    setup = prepare(KIT, {"play": "head_to_head", "stronger_beats": stronger},
                    ("runner", "runner"))
    t, n = setup.tables, len(setup.tables.card)
    for target in (0, 30, 40):  # a Hazard, a Boss, a Gem
        expected = np.mean([beats_nb(t, setup.rules, c, target, 0) for c in range(n)])
        assert t.beaten[target] == pytest.approx(expected)
