"""Gem Mountain's playthroughs in words: a tile by its colour and value or its action, an arrow
position by its compass point, a seat from 1 (a steal's victim was once written from 0)."""

from __future__ import annotations

import re

from balance.games.gem_mountain.game import KIT
from balance.games.gem_mountain.rules_nb import (
    EMPTY,
    GRAB,
    STEAL,
    STOLE,
    TAKE,
    TURNED,
)
from balance.games.gem_mountain.view import MountainView, tile_words
from balance.kit.play import prepare
from tests.games.gem_mountain.scenario import action, gem


def test_a_tile_is_named_by_its_colour_and_value_or_its_action():
    assert tile_words(gem(1, 3)) == "sapphire 3"
    assert tile_words(gem(0, 1)) == "ruby 1"
    assert tile_words(action(STEAL)) == "Steal"
    assert tile_words(EMPTY) == "empty"


def test_a_steal_names_its_victim_from_seat_1_and_the_arrow_by_compass():
    view = MountainView(prepare(KIT, {}, ("random",) * 3))
    assert view.option(2, 4, (TAKE, 0, gem(4, 2), 1)) == "steal the amethyst 2 from seat 1"
    assert view.option(0, 0, (GRAB, 35, gem(2, 1), 0)) == "grab the emerald 1 at cell 35 (layer 0)"
    assert view.event((8, 2, STOLE, 0, gem(4, 2), 0, 0)) == \
        "turn 9, seat 3: steals the amethyst 2 from seat 1"
    assert view.event((0, 0, TURNED, 6, 0, 0, 0)) == "turn 1: the arrow turns to W"


def test_the_goldens_write_no_tile_code():
    for golden in KIT.goldens:
        text = (KIT.golden_folder() / f"{golden.name}.txt").read_text(encoding="utf-8")
        assert not re.search(r"\btile \d|from seat 0\b|arrow (turns|moves) to \d", text)
