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


def test_the_expansions_tiles_and_choices_are_named_in_words():
    from balance.games.gem_mountain.codes import (
        DIVIDED0,
        GRAB_SIDE,
        JOIN,
        ROTATE_CELL,
        ROTATE_GRABBED,
        ROTATE_HELD,
        RUMBLE,
        WILD,
    )
    from balance.games.gem_mountain.rules_nb import POINT

    view = MountainView(prepare(KIT, {"gemshards": True}, ("random",) * 2))
    assert tile_words(WILD) == "Wildcard" and tile_words(DIVIDED0 + 2) == "divided tile #2"
    assert tile_words(action(ROTATE_GRABBED)) == "Rotate Grabbed"
    assert tile_words(action(RUMBLE)) == "Rumble"
    assert view.option(0, 0, (GRAB_SIDE, 3, gem(0, 2), 1)) == \
        "grab cell 3 as the ruby 2 (layer 1)"
    assert view.option(0, 6, (ROTATE_HELD, 2, gem(1, 1), 3)) == \
        "turn its divided tile #2 to the sapphire 1"
    assert view.option(0, 7, (ROTATE_CELL, 4, 1, 0)) == \
        "turn the tile at cell 4 1 quarter clockwise"
    assert view.option(0, 8, (POINT, 8, 0, 0)) == "point the arrow NNE"
    assert view.option(0, 9, (JOIN, 3, gem(3, 1), 0)) == "the Wildcard joins the topaz pile"
