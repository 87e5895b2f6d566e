"""Gem Mountain's rules, situation by situation: the top of the mountain from all eight arrow
positions, the rulebook's worked examples (its pictures are not in the text we hold, so the
situations are rebuilt from the words beside them: two turns in a row, the diagonal arrow,
three players scored), each action, the variants, the end. The guide's games/gem-mountain.md
states each reading."""

from __future__ import annotations

from balance.games.gem_mountain.rules_nb import (
    ARROW,
    ARROW_LOCK,
    DOUBLE,
    END,
    GRAB,
    MOVE_ARROW,
    PICK_UP,
    PLACE,
    POINT,
    PUT_DOWN,
    START_AT,
    STEAL,
    STEAL_FROM,
    SWAP,
    SWAP_FROM,
    TAKE,
    TURN,
    USE,
)
from balance.kit.state import ENDED, SEAT, TURNS, WINNER
from tests.games.gem_mountain.scenario import (
    NE,
    NW,
    SE,
    SW,
    E,
    N,
    S,
    W,
    action,
    cells,
    full,
    game,
    gem,
    give,
    grid_cells,
    mountain,
    options,
    pick,
)


def test_the_top_from_each_corner_is_its_corner_then_the_next_diagonal():
    s = game()
    mountain(s, full(s), N)
    corners = {N: (0, 0), E: (0, 5), S: (5, 5), W: (5, 0)}
    for pos, rc in corners.items():
        s.state.arrow[0] = pos
        assert cells(s, GRAB) == grid_cells(s, [rc]), pos
    s.state.grid[0] = -1  # the N corner grabbed: the next diagonal is the top
    s.state.arrow[0] = N
    assert cells(s, GRAB) == grid_cells(s, [(0, 1), (1, 0)])


def test_the_top_from_a_side_is_the_row_along_it():
    s = game()
    mountain(s, full(s), NE)
    sides = {NE: [(0, c) for c in range(6)], SE: [(r, 5) for r in range(6)],
             SW: [(5, c) for c in range(6)], NW: [(r, 0) for r in range(6)]}
    for pos, rc in sides.items():
        s.state.arrow[0] = pos
        assert cells(s, GRAB) == grid_cells(s, rc), pos


def test_with_a_layer_gone_the_top_is_the_nearest_that_holds_a_tile():
    s = game()
    tiles = {i: gem(0, 1) for i in range(36) if i // 6 >= 3}  # rows 3 to 5 only
    mountain(s, tiles, NE)
    assert cells(s, GRAB) == grid_cells(s, [(3, c) for c in range(6)])
    s.state.arrow[0] = N
    assert cells(s, GRAB) == grid_cells(s, [(3, 0)])


def test_two_turns_each_grabs_from_its_top_and_the_arrow_turns_a_quarter():
    """The rulebook's two-turn example, rebuilt: the arrow above the N corner, the first
    player grabs that corner; the arrow turns to E, where the second player grabs."""
    s = game()
    mountain(s, full(s, gem(1, 2)), N)
    assert cells(s, GRAB) == grid_cells(s, [(0, 0)])
    pick(s, GRAB)
    st = s.state
    assert st.arrow[0] == E and st.kit.sc[SEAT] == 1 and st.kit.sc[TURNS] == 2
    assert cells(s, GRAB) == grid_cells(s, [(0, 5)])
    pick(s, GRAB)
    assert st.arrow[0] == S and st.hand[0, gem(1, 2)] == 1 and st.hand[1, gem(1, 2)] == 1


def test_the_diagonal_arrow_reaches_a_whole_row_and_turns_on_to_the_next_side():
    """The rulebook's diagonal arrow, rebuilt: Move the Arrow to an in-between position, the
    top is the row along that side; after the turn the arrow stands at the next side."""
    s = game()
    mountain(s, full(s), N)
    give(s, 0, action(MOVE_ARROW))
    pick(s, USE, MOVE_ARROW)
    assert s.state.ph[0] == ARROW
    assert {o[1] for o in options(s)} == set(range(8)) - {N}
    pick(s, POINT, NE)
    assert cells(s, GRAB) == grid_cells(s, [(0, c) for c in range(6)])
    pick(s, GRAB, 3)
    assert s.state.arrow[0] == SE


def test_arrow_lock_keeps_the_arrow_until_the_next_lock():
    s = game(players=3)
    mountain(s, full(s), N)
    give(s, 0, action(ARROW_LOCK))
    give(s, 1, action(ARROW_LOCK))
    pick(s, GRAB)
    pick(s, USE, ARROW_LOCK)  # after the grab: the turn ends, the arrow stays
    assert tuple(s.state.arrow) == (N, 1) and s.state.kit.sc[SEAT] == 1
    pick(s, GRAB)
    pick(s, USE, ARROW_LOCK)  # the next lock undoes it: this turn's end turns the arrow
    assert tuple(s.state.arrow) == (E, 0) and s.state.kit.sc[SEAT] == 2


def test_a_seat_without_an_action_to_use_ends_its_turn_after_the_grab():
    s = game()
    mountain(s, full(s), N)
    give(s, 0, action(DOUBLE))
    assert {o[0] for o in options(s)} == {GRAB, USE}
    pick(s, GRAB)
    assert [o[0] for o in options(s)] == [END, USE]
    pick(s, END)
    assert s.state.kit.sc[SEAT] == 1
    pick(s, GRAB)  # seat 2 holds nothing: no decision after its grab
    assert s.state.kit.sc[SEAT] == 0


def test_double_grabs_twice_from_the_top_as_it_stands():
    s = game()
    mountain(s, full(s), N)
    give(s, 0, action(DOUBLE))
    pick(s, USE, DOUBLE)
    pick(s, GRAB, 0)
    assert cells(s, GRAB) == grid_cells(s, [(0, 1), (1, 0)]) and s.state.kit.sc[SEAT] == 0
    pick(s, GRAB, 1)
    assert s.state.kit.sc[SEAT] == 1 and s.state.hand[0].sum() == 2


def test_swap_moves_a_tile_only_where_the_mountain_stays_connected():
    s = game()
    tiles = {0: gem(0, 1), 1: gem(0, 2), 2: gem(0, 3)}  # a row of three: N corner onwards
    mountain(s, tiles, N)
    give(s, 0, action(SWAP))
    pick(s, USE, SWAP)
    assert s.state.ph[0] == SWAP_FROM and cells(s, PICK_UP) == {0, 1, 2}
    pick(s, PICK_UP, 2)
    # The end tile goes to an empty cell beside the other two, or swaps with one of them.
    assert cells(s, PUT_DOWN) == {0, 1, 6, 7}
    pick(s, PUT_DOWN, 7)
    assert s.state.grid[7] == gem(0, 3) and s.state.grid[2] == -1
    assert s.state.ph[0] == TURN


def test_swapping_two_tiles_exchanges_them():
    s = game()
    mountain(s, full(s, gem(0, 1)) | {35: gem(2, 3)}, N)
    give(s, 0, action(SWAP))
    pick(s, USE, SWAP)
    pick(s, PICK_UP, 35)
    pick(s, PUT_DOWN, 0)
    assert s.state.grid[0] == gem(2, 3) and s.state.grid[35] == gem(0, 1)
    pick(s, GRAB, 0)
    assert s.state.hand[0, gem(2, 3)] == 1


def test_steal_takes_a_collected_tile_and_action_tiles_only_when_the_rules_allow():
    for steal_actions in (True, False):
        s = game({"steal_actions": steal_actions})
        mountain(s, full(s), N)
        give(s, 0, action(STEAL))
        give(s, 1, gem(3, 2), action(SWAP))
        pick(s, USE, STEAL)
        assert s.state.ph[0] == STEAL_FROM
        takes = {(o[1], o[2]) for o in options(s) if o[0] == TAKE}
        assert takes == ({(1, gem(3, 2)), (1, action(SWAP))} if steal_actions
                         else {(1, gem(3, 2))})
        pick(s, TAKE, 1, gem(3, 2))
        assert s.state.hand[0, gem(3, 2)] == 1 and s.state.hand[1, gem(3, 2)] == 0


def test_a_stolen_action_is_used_at_once_only_when_the_rules_allow():
    for now in (True, False):
        s = game({"stolen_now": now, "actions": "any"})
        mountain(s, full(s), N)
        give(s, 0, action(STEAL))
        give(s, 1, action(DOUBLE))
        pick(s, USE, STEAL)
        pick(s, TAKE, 1, action(DOUBLE))
        usable = {o[1] for o in options(s) if o[0] == USE}
        assert (DOUBLE in usable) == now


def test_the_harder_game_allows_one_action_a_turn():
    for actions, after in (("before_and_after", True), ("one", False)):
        s = game({"actions": actions})
        mountain(s, full(s), N)
        give(s, 0, action(MOVE_ARROW), action(ARROW_LOCK))
        pick(s, USE, MOVE_ARROW)
        pick(s, POINT, E)
        assert {o[0] for o in options(s)} == {GRAB}  # no second action before the grab
        pick(s, GRAB)
        assert (s.state.kit.sc[SEAT] == 0) == after  # one after the grab, or the turn ends


def test_the_start_player_may_place_the_arrow_at_a_corner_and_then_gets_no_start_tile():
    s = game({"start_arrow": "chosen", "start_tiles": "action"}, players=3)
    assert s.state.ph[0] == PLACE
    assert [o[1] for o in options(s)] == [N, E, S, W]
    assert [o[0] for o in options(s)] == [START_AT] * 4
    held = s.state.hand[:, 18:].sum(axis=1)
    assert list(held) == [0, 1, 1]
    pick(s, START_AT, W)
    assert s.state.arrow[0] == W and cells(s, GRAB) == grid_cells(s, [(5, 0)])


def test_the_game_ends_when_no_gem_is_left_on_the_mountain():
    s = game()
    mountain(s, {0: gem(0, 2), 1: action(DOUBLE), 6: action(SWAP)}, N)
    pick(s, GRAB, 0)
    st = s.state
    assert st.kit.sc[ENDED] and st.kit.sc[WINNER] == 0 and st.kit.score[0] == 2
    assert st.grid[1] == action(DOUBLE)  # action tiles left on the mountain stay there


def test_a_split_mountain_hands_the_smaller_groups_to_the_grabber_when_the_rules_say():
    for split, taken in (("ignore", 1), ("smaller", 3)):
        s = game({"split": split})
        # cell 1 joins cells 0 and 6 (below it) to cells 2 to 4: grabbed, the two fall apart
        tiles = {0: gem(0, 1), 6: gem(1, 1), 1: gem(2, 1), 2: gem(2, 2), 3: gem(2, 3),
                 4: gem(3, 1)}
        mountain(s, tiles, NE)
        pick(s, GRAB, 1)
        assert s.state.hand[0].sum() == taken
        assert (s.state.grid[[0, 6]] == -1).all() == (split == "smaller")


def test_random_play_keeps_every_invariant_under_every_switch():
    from balance.games.gem_mountain.game import KIT
    from balance.kit.play import play, prepare

    for rules in ({}, {"rows": 5, "cols": 7, "actions": "any", "split": "smaller",
                       "start_tiles": "any", "start_arrow": "chosen", "steal_actions": False,
                       "stolen_now": False, "majority_by": "value", "none_is_least": True,
                       "all_tie": "both"}):
        for n in (2, 5):
            r = play(prepare(KIT, rules, ("random",) * n), range(300), check=True)
            assert (r.violation == 0).all() and r.turns.min() > 0

