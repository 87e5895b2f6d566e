"""Golden Actions, situation by situation: Rumble's two moves (and, as a switch, Swap's
connected mountain), the reconstructed Flashlight's deeper grab, the box that holds no
Flashlight by default, and the invariants under random play."""

from __future__ import annotations

import pytest

from balance.games.gem_mountain.codes import (
    DROP,
    FLASHLIGHT,
    GRAB_SIDE,
    LIFT,
    RUMBLE,
    RUMBLE_FROM,
    RUMBLE_TO,
    USE_X,
)
from balance.games.gem_mountain.game import KIT
from balance.games.gem_mountain.rules import BOX_FILE, kit_rules
from balance.games.gem_mountain.rules_nb import GRAB, TURN, broken_nb, new_tables
from balance.kit.play import play, prepare
from balance.kit.state import SEAT
from tests.games.gem_mountain.scenario import (
    N,
    action,
    cells,
    full,
    game,
    gem,
    give,
    mountain,
    options,
    pick,
)

ON = {"golden_actions": True}


def test_rumble_is_in_the_box_with_its_switch_and_the_flashlight_is_not_by_default():
    assert KIT.defaults["flashlight"] == 0 and KIT.defaults["rumble"] == 2
    on = new_tables(kit_rules({**KIT.defaults, **ON}, 4)).box
    assert len(on) == 49 and (on == action(RUMBLE)).sum() == 2
    lit = new_tables(kit_rules({**KIT.defaults, **ON, "flashlight": 3}, 4)).box
    assert (lit == action(FLASHLIGHT)).sum() == 3
    text = BOX_FILE.read_text()
    assert "flashlight = 0" in text and "RECONSTRUCTED reading" in text


def test_rumble_moves_two_tiles_to_empty_cells_one_after_the_other():
    s = game(ON)
    tiles = {0: gem(0, 1), 1: gem(1, 1), 2: gem(2, 3)}
    mountain(s, tiles, N)
    give(s, 0, action(RUMBLE))
    pick_use(s)
    st = s.state
    assert st.ph[0] == RUMBLE_FROM and cells(s, LIFT) == {0, 1, 2}
    pick(s, LIFT, 2)
    assert st.ph[0] == RUMBLE_TO and cells(s, DROP) == set(range(36)) - {0, 1, 2}
    pick(s, DROP, 35)  # the far corner: the mountain may split
    assert st.grid[35] == gem(2, 3) and st.grid[2] == -1
    # The second move: another tile than the one moved, to any empty cell (its old one too).
    assert cells(s, LIFT) == {0, 1}
    pick(s, LIFT, 0)
    assert 2 in cells(s, DROP)
    pick(s, DROP, 2)
    assert st.ph[0] == TURN and st.grid[2] == gem(0, 1) and broken_nb(st, s.rules) == 0
    assert cells(s, GRAB) == {1}  # the top as the tiles now lie


def test_rumble_may_keep_the_mountain_connected_when_the_rules_say():
    s = game({**ON, "rumble_connected": True})
    mountain(s, {0: gem(0, 1), 1: gem(1, 1), 2: gem(2, 3)}, N)
    give(s, 0, action(RUMBLE))
    pick_use(s)
    pick(s, LIFT, 2)
    assert cells(s, DROP) == {6, 7}  # beside the other two, as Swap's move


def test_rumble_needs_an_empty_cell():
    s = game(ON)
    mountain(s, full(s), N)
    give(s, 0, action(RUMBLE))
    assert USE_X not in {o[0] for o in options(s)}


def test_the_flashlight_reaches_the_layer_below_the_top_for_this_turn():
    s = game({**ON, "flashlight": 2})
    mountain(s, full(s, gem(0, 1)), N)
    give(s, 0, action(FLASHLIGHT))
    assert cells(s, GRAB) == {0}
    pick_use(s, FLASHLIGHT)
    assert cells(s, GRAB) == {0} and cells(s, GRAB_SIDE) == {1, 6}
    pick(s, GRAB_SIDE, 6)
    st = s.state
    assert st.hand[0, gem(0, 1)] == 1 and broken_nb(st, s.rules) == 0
    assert st.kit.sc[SEAT] == 1 and cells(s, GRAB_SIDE) == set()  # the next turn: the top only


@pytest.mark.parametrize("rules", [{**ON, "flashlight": 2},
                                   {**ON, "flashlight": 2, "rumble_connected": True,
                                    "gemshards": True, "split": "smaller", "actions": "one"}])
def test_random_play_keeps_every_invariant_with_golden_actions(rules):
    for n in (2, 4):
        r = play(prepare(KIT, rules, ("random",) * n), range(300), check=True)
        assert (r.violation == 0).all() and r.turns.min() > 0


def pick_use(s, what: int = RUMBLE) -> None:
    pick(s, USE_X, what)
