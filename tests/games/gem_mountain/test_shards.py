"""Gemshards, situation by situation: a divided tile grabbed by the section facing the arrow (a
choice where the arrow faces the line between two), the Wildcard and its pile, Rotate Grabbed,
Rotate Board, Teleport Arrow, a divided tile stolen or used, the round nobody may grab, and
the invariants that hold a grab to the top layer and the facing side. The guide's
games/gem-mountain.md states each reading."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.gem_mountain.codes import (
    CREDIT,
    DIVIDED0,
    GRAB_SIDE,
    JOIN,
    OWNER,
    POINT,
    ROTATE_BOARD,
    ROTATE_CELL,
    ROTATE_CELL_AT,
    ROTATE_GRABBED,
    ROTATE_HELD,
    STUCK,
    TELEPORT_ARROW,
    TELEPORT_AT,
    TRUE_SIDE,
    USE_X,
    WILD,
    WILD_AT,
)
from balance.games.gem_mountain.game import KIT
from balance.games.gem_mountain.rules import kit_rules
from balance.games.gem_mountain.rules_nb import (
    ACT0,
    END,
    GEMS_LEFT,
    GRAB,
    STEAL,
    TAKE,
    USE,
    apply_nb,
    broken_nb,
    new_tables,
)
from balance.games.gem_mountain.shards_nb import holds_gem_nb
from balance.kit.play import play, prepare
from balance.kit.state import END as END_REASON
from balance.kit.state import ENDED, SEAT
from tests.games.gem_mountain.scenario import (
    NE,
    E,
    N,
    action,
    cells,
    full,
    game,
    gem,
    give,
    options,
    pick,
)
from tests.games.gem_mountain.scenario import mountain as base_mountain

ON = {"gemshards": True}
RUBY, SAPPHIRE, EMERALD = 0, 1, 2


def mountain(s, tiles: dict[int, int], arrow: int) -> None:
    """scenario.mountain's, with Gemshards' gems counted (a Wildcard, a divided tile holding
    a gem or a Wildcard)."""
    base_mountain(s, tiles, arrow)
    s.state.ph[GEMS_LEFT] = sum(1 for c in tiles.values()
                                if c < ACT0 or holds_gem_nb(s.state, c))


def divided(s, d: int, up: int, right: int, down: int, left: int) -> int:
    """Divided tile d's sections as it lies (clockwise from the grid's up): its code."""
    s.state.sh[d, :4] = (up, right, down, left)
    return DIVIDED0 + d


def test_the_expansion_tiles_enter_the_box_only_with_its_switch():
    off = new_tables(kit_rules(KIT.defaults, 4)).box
    on = new_tables(kit_rules({**KIT.defaults, **ON}, 4)).box
    assert len(off) == 47 and (off < WILD).all()
    # 6 tiles in halves, 2 in quarters, 2 Wildcards, 2 of each of its three actions
    assert len(on) == 47 + 8 + 2 + 6
    assert (on == WILD).sum() == 2 and (on >= DIVIDED0).sum() == 8
    assert (on >= DIVIDED0).nonzero()[0].min() == len(on) - 8  # the divided tiles last


def test_a_side_faces_one_section_a_corner_the_line_between_two():
    s = game(ON)
    tile = divided(s, 0, gem(RUBY, 1), gem(SAPPHIRE, 2), gem(EMERALD, 3), action(STEAL))
    mountain(s, {0: tile, 30: gem(RUBY, 1)}, NE)  # NE faces the grid's up edge
    assert [(o[0], o[1], o[2]) for o in options(s) if o[1] == 0] == [
        (GRAB_SIDE, 0, gem(RUBY, 1))]
    s.state.arrow[0] = N  # the N corner: between up and left
    assert {o[2] for o in options(s) if o[1] == 0} == {gem(RUBY, 1), action(STEAL)}
    s.state.arrow[0] = E  # the E corner: between up and right
    assert {o[2] for o in options(s) if o[1] == 0} == {gem(RUBY, 1), gem(SAPPHIRE, 2)}


def test_a_halved_tile_offers_one_section_where_both_faced_edges_are_one_half():
    s = game(ON)
    a, b = gem(RUBY, 3), gem(SAPPHIRE, 1)
    tile = divided(s, 0, a, b, b, a)  # cut from the up-right corner to the down-left one
    mountain(s, {0: tile}, N)
    assert [o[2] for o in options(s) if o[0] == GRAB_SIDE] == [a]
    s.state.arrow[0] = E
    assert sorted(o[2] for o in options(s) if o[0] == GRAB_SIDE) == sorted([a, b])


def test_the_grabber_keeps_the_chosen_side_only():
    s = game(ON)
    tile = divided(s, 3, gem(RUBY, 1), gem(SAPPHIRE, 2), gem(EMERALD, 3), action(STEAL))
    mountain(s, {0: tile, 30: gem(RUBY, 1)}, E)
    pick(s, GRAB_SIDE, 0, gem(SAPPHIRE, 2))
    st = s.state
    assert st.hand[0, gem(SAPPHIRE, 2)] == 1 and st.hand[0].sum() == 1
    assert st.hand[0, gem(RUBY, 1)] == 0 and st.cnt[0, SAPPHIRE] == 1
    assert tuple(st.sh[3, [OWNER, TRUE_SIDE, CREDIT]]) == (0, 1, gem(SAPPHIRE, 2))
    assert st.grid[0] == -1 and broken_nb(st, s.rules) == 0


def test_a_grab_of_a_section_not_facing_the_arrow_breaks_the_invariant():
    s = game(ON)
    tile = divided(s, 0, gem(RUBY, 1), gem(SAPPHIRE, 2), gem(EMERALD, 3), action(STEAL))
    mountain(s, {0: tile, 1: gem(RUBY, 1)}, NE)
    options(s)
    st = s.state
    st.kit.opt[0, :4] = (GRAB_SIDE, 0, gem(EMERALD, 3), 0)  # the down edge: not facing NE
    apply_nb(st, s.tables, s.rules, 0)
    assert broken_nb(st, s.rules) == 2


def test_a_wildcard_needs_a_pile_and_joins_one_of_the_grabbers_colours():
    s = game(ON)
    mountain(s, {0: WILD, 1: gem(RUBY, 1), 6: gem(SAPPHIRE, 1)}, N)
    assert options(s) == [(END, 0, 0, 0)]  # no gem held yet: the Wildcard is out of reach
    give(s, 0, gem(EMERALD, 2), gem(RUBY, 1))
    pick(s, GRAB_SIDE, 0, WILD)
    st = s.state
    assert st.ph[0] == WILD_AT and st.hand[0, WILD] == 1
    assert {(o[1], o[2]) for o in options(s)} == {(RUBY, gem(RUBY, 1)),
                                                  (EMERALD, gem(EMERALD, 1))}
    pick(s, JOIN, EMERALD)
    assert st.hand[0, WILD] == 0 and st.cnt[0, EMERALD] == 2 and st.vsum[0, EMERALD] == 3
    assert st.kit.sc[SEAT] == 1 and broken_nb(st, s.rules) == 0


def test_a_wildcard_is_worth_the_boxs_wild_value():
    s = game({**ON, "wild_value": 3})
    mountain(s, {0: WILD, 1: gem(RUBY, 1)}, N)
    give(s, 0, gem(RUBY, 1))
    pick(s, GRAB_SIDE, 0, WILD)
    pick(s, JOIN, RUBY, gem(RUBY, 3))
    assert s.state.vsum[0, RUBY] == 4


def test_the_last_gem_a_wildcard_ends_the_game_once_it_has_its_pile():
    s = game(ON)
    mountain(s, {0: WILD, 1: action(STEAL)}, N)
    give(s, 0, gem(RUBY, 2))
    pick(s, GRAB_SIDE, 0, WILD)
    assert not s.state.kit.sc[ENDED]
    pick(s, JOIN, RUBY)
    assert s.state.kit.sc[ENDED] and s.state.kit.score[0] == 3


def test_rotate_grabbed_turns_a_held_tile_to_another_section():
    s = game(ON)
    tile = divided(s, 2, gem(RUBY, 1), gem(SAPPHIRE, 2), gem(SAPPHIRE, 2), gem(RUBY, 1))
    mountain(s, {0: tile, 1: gem(RUBY, 1), 6: gem(EMERALD, 1)}, N)
    give(s, 0, action(ROTATE_GRABBED))
    assert USE_X not in {o[0] for o in options(s)}  # nothing held to rotate yet
    pick(s, GRAB_SIDE, 0, gem(RUBY, 1))
    pick(s, USE_X, ROTATE_GRABBED)
    assert [(o[0], o[1], o[2]) for o in options(s)] == [(ROTATE_HELD, 2, gem(SAPPHIRE, 2))]
    pick(s, ROTATE_HELD, 2)
    st = s.state
    assert st.hand[0, gem(RUBY, 1)] == 0 and st.hand[0, gem(SAPPHIRE, 2)] == 1
    assert st.sh[2, CREDIT] == gem(SAPPHIRE, 2) and broken_nb(st, s.rules) == 0


def test_rotate_board_turns_a_tile_on_the_mountain_and_the_arrow_then_faces_another_side():
    s = game(ON)
    tile = divided(s, 0, gem(RUBY, 1), gem(SAPPHIRE, 2), gem(EMERALD, 3), gem(RUBY, 2))
    plain = divided(s, 1, gem(RUBY, 1), gem(RUBY, 1), gem(RUBY, 1), gem(RUBY, 1))
    mountain(s, {0: tile, 1: gem(RUBY, 1), 2: plain}, NE)
    give(s, 0, action(ROTATE_BOARD))
    pick(s, USE_X, ROTATE_BOARD)
    assert s.state.ph[0] == ROTATE_CELL_AT
    # a tile whose sections are all alike is never offered: turning it changes nothing
    assert {(o[1], o[2]) for o in options(s)} == {(0, 1), (0, 2), (0, 3)}
    pick(s, ROTATE_CELL, 0, 1)  # a quarter clockwise: the left section now faces up
    assert [o[2] for o in options(s) if o[1] == 0] == [gem(RUBY, 2)]


def test_teleport_arrow_reaches_the_positions_between_the_eight():
    s = game(ON)
    mountain(s, full(s, gem(RUBY, 1)), N)
    give(s, 0, action(TELEPORT_ARROW))
    pick(s, USE_X, TELEPORT_ARROW)
    assert s.state.ph[0] == TELEPORT_AT
    assert sorted(o[1] for o in options(s)) == list(range(1, 16))
    pick(s, POINT, 8)  # between N and NE: rows weigh twice the columns
    assert cells(s, GRAB) == {0}
    s.state.grid[0] = -1
    assert cells(s, GRAB) == {1}  # 2 * row + column: cell (0, 1) before (1, 0)
    pick(s, GRAB, 1)
    assert s.state.arrow[0] == 10  # a quarter on: between E and SE


def test_a_stolen_divided_tile_goes_whole_and_a_used_one_is_discarded():
    s = game({**ON, "actions": "any"})
    tile = divided(s, 1, action(STEAL), gem(SAPPHIRE, 2), gem(SAPPHIRE, 2), action(STEAL))
    mountain(s, full(s, gem(RUBY, 1)), N)
    st = s.state
    st.grid[0] = tile
    give(s, 0, gem(RUBY, 2))
    give(s, 1, action(STEAL))
    pick(s, GRAB_SIDE, 0, action(STEAL))
    assert st.sh[1, OWNER] == 0
    pick(s, END)
    # Seat 2 uses its own Steal on the Steal seat 1 holds, only on tile 1: the whole tile goes.
    pick(s, USE, STEAL)
    pick(s, TAKE, 0, action(STEAL))
    assert st.sh[1, OWNER] == 1 and st.hand[1, action(STEAL)] == 1
    assert broken_nb(st, s.rules) == 0
    pick(s, USE, STEAL)  # its Steal now is tile 1's: used, the tile is discarded
    assert st.sh[1, OWNER] == -1 and st.sh[1, CREDIT] == -1


def test_a_round_with_no_tile_anyone_may_grab_ends_the_game():
    s = game(ON, players=3)
    mountain(s, {0: WILD, 1: WILD}, N)
    for _ in range(3):
        pick(s, END)
    assert not s.state.kit.sc[ENDED]
    pick(s, END)  # four turns, every corner seen
    assert s.state.kit.sc[ENDED] and s.state.kit.sc[END_REASON] == STUCK


@pytest.mark.parametrize("rules", [ON, {**ON, "actions": "any", "split": "smaller",
                                        "start_tiles": "any", "stolen_now": False,
                                        "wild_value": 2, "rows": 5, "cols": 7}])
def test_random_play_keeps_every_invariant_with_gemshards(rules):
    for n in (2, 4):
        r = play(prepare(KIT, rules, ("random",) * n), range(300), check=True)
        assert (r.violation == 0).all() and r.turns.min() > 0


def test_gemshards_changes_play_and_off_plays_the_base_game_on_the_same_seeds():
    seeds = np.arange(200)
    base = play(prepare(KIT, {}, ("majority",) * 3), seeds)
    off = play(prepare(KIT, {"halved": 9, "wildcard": 5}, ("majority",) * 3), seeds)
    on = play(prepare(KIT, ON, ("majority",) * 3), seeds)
    assert (base.out == off.out).all()  # its counts change nothing while it is off
    assert (base.out != on.out).any()
