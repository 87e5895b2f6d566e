"""Gem Mountain's Dark Tunnels expansion (balance/games/gem_mountain/dark_nb.py), situation by
situation: the face-down deal, the information step, each new tile, and the invariants it adds
(tiles conserved, Trash never leaves a hand, a face-down tile's identity never in a seat's
options). The guide's games/gem-mountain.md, "Dark Tunnels", states each reading."""

from __future__ import annotations

import importlib

import numpy as np

from balance.games.gem_mountain.codes import (
    ARROW2,
    BARRED,
    BLAST,
    BLAST_AT,
    BOMB,
    FLIP_DOWN,
    FLIP_UP,
    GEMS_GONE,
    HIDE,
    LAY,
    LIGHT,
    LIGHT_LINE,
    LIGHTBULB,
    LOOK,
    LOOK_AT,
    MULTIPLIER,
    RAID,
    RAID_AT,
    RANSACK,
    REVEAL,
    SECOND_ARROW,
    TRASH,
    UNSEEN,
)
from balance.games.gem_mountain.game import KIT
from balance.games.gem_mountain.rules import kit_rules
from balance.games.gem_mountain.rules_nb import (
    EMPTY,
    END,
    GEMS_LEFT,
    GRAB,
    PICK_UP,
    PUT_DOWN,
    STEAL,
    STEAL_FROM,
    SWAP,
    TAKE,
    TURN,
    USE,
    VALUES,
    broken_nb,
    new_tables,
    scores_nb,
)
from balance.kit.play import play, prepare
from balance.kit.state import ENDED, SEAT, TURNS
from balance.running.seeds import game_seeds
from tests.games.gem_mountain.scenario import (
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
from tests.games.gem_mountain.test_scoring import brute, dealt
from tests.test_contract_play import plain_loop

DARK = {"dark_tunnels": True}
RUBY, SAPPHIRE = 0, 1


def dark(s, tiles: dict[int, int], arrow: int, up=(), known=None) -> None:
    """The mountain holds `tiles`, face down but the cells `up`; `known` (seat: cells) the
    face-down ones a seat has looked at."""
    mountain(s, tiles, arrow)
    st = s.state
    st.dark[:] = 0
    st.seen[:] = 1
    for cell in tiles:
        if cell not in up:
            st.dark[cell] = 1
            st.seen[:, cell] = 0
    for seat, looked in (known or {}).items():
        for cell in looked:
            st.seen[seat, cell] = 1


def sound(s) -> None:
    assert broken_nb(s.state, s.rules) == 0, broken_nb(s.state, s.rules)


# -- the deal and the information step ---------------------------------------------------------

def test_the_mountain_is_dealt_face_down_and_a_grab_shows_no_tile_before_it_is_taken():
    s = game(DARK)
    st = s.state
    assert st.dark.all() and not st.seen.any()
    assert all(o[2] == UNSEEN for o in options(s) if o[0] == GRAB)
    assert len(new_tables(s.rules).box) == 58
    sound(s)


def test_a_turn_without_an_action_ends_by_looking_at_a_tile_secretly():
    s = game(DARK, players=3)
    dark(s, full(s, gem(RUBY, 1)), N)
    pick(s, GRAB, 0)
    # The grab taken and no action held: the information step, before the arrow turns.
    assert s.state.ph[0] == LOOK and s.state.arrow[0] == N
    looks = cells(s, LOOK_AT)
    assert 0 not in looks and len(looks) == 35
    pick(s, LOOK_AT, 20)
    st = s.state
    assert st.seen[:, 20].tolist() == [1, 0, 0] and st.dark[20] == 1
    assert st.kit.sc[SEAT] == 1 and st.arrow[0] == E
    # The seat that looked sees the tile in its options; the others do not.
    st.arrow[0] = W
    pick(s, GRAB, 30)
    pick(s, LOOK_AT, 20)  # seat 2 may look at the same tile: it has not seen it
    assert st.seen[:, 20].tolist() == [1, 1, 0]
    sound(s)


def test_a_turn_with_an_action_ends_by_turning_a_tile_face_up_for_all():
    s = game(DARK, players=2)
    dark(s, full(s, gem(RUBY, 1)), N)
    give(s, 0, action(LIGHTBULB))
    pick(s, USE, LIGHTBULB)
    assert s.state.ph[0] == LIGHT
    pick(s, LIGHT_LINE, 5, 0)  # the grid's last row: six tiles face up
    st = s.state
    assert st.dark[30:36].sum() == 0 and st.seen[:, 30:36].all()
    pick(s, GRAB, 0)
    assert st.ph[0] == REVEAL
    assert 31 not in cells(s, FLIP_UP)  # face up already
    pick(s, FLIP_UP, 7)
    assert st.dark[7] == 0 and st.seen[:, 7].all() and st.kit.sc[SEAT] == 1
    sound(s)


def test_no_information_step_when_every_tile_is_known_or_face_up():
    s = game(DARK)
    dark(s, {0: gem(RUBY, 1), 1: gem(RUBY, 2), 6: gem(SAPPHIRE, 1)}, N, up=(1,),
         known={0: [6]})
    pick(s, GRAB, 0)
    assert s.state.kit.sc[SEAT] == 1 and s.state.ph[0] == TURN


# -- the actions --------------------------------------------------------------------------------

def test_a_bomb_clears_a_square_face_up_and_the_next_seat_skips_its_turn_to_refill_it():
    s = game(DARK, players=3)
    tiles = full(s, gem(RUBY, 1))
    tiles[14] = TRASH
    dark(s, tiles, N)
    st = s.state
    give(s, 0, action(BOMB))
    deck_before = int(st.deck_n[0])
    st.deck[deck_before - 4: deck_before] = [gem(SAPPHIRE, 3)] * 4
    pick(s, GRAB, 0)
    pick(s, USE, BOMB)
    assert st.ph[0] == BLAST
    # A square of the grid from its top-left cell, kept whole.
    assert 5 not in cells(s, BLAST_AT) and 30 not in cells(s, BLAST_AT)
    pick(s, BLAST_AT, 14)
    hole = [14, 15, 20, 21]
    assert (st.grid[hole] == EMPTY).all() and st.seen[:, hole].all()
    assert st.gone[TRASH] == 1 and st.gone[gem(RUBY, 1)] == 3
    pick(s, FLIP_UP, 35)  # the action's information step; then seat 2's turn is skipped
    assert st.kit.sc[SEAT] == 2 and st.kit.sc[TURNS] == 3
    assert (st.grid[hole] == gem(SAPPHIRE, 3)).all() and st.dark[hole].all()
    assert not st.seen[:, hole].any() and st.deck_n[0] == deck_before - 4
    assert st.arrow[0] == E  # the bomber's turn turned it, the skipped one did not
    sound(s)


def test_a_bomb_that_takes_the_last_gems_ends_the_game_only_after_the_refill():
    s = game(DARK, players=2)
    dark(s, {0: gem(RUBY, 1), 1: gem(RUBY, 2)}, N)
    st = s.state
    give(s, 0, action(BOMB))
    st.deck[: st.deck_n[0]] = action(SWAP)  # nothing left to refill with but actions
    pick(s, USE, BOMB)
    pick(s, BLAST_AT, 0)
    # The mountain empty, the bomber's turn ends at once; the next seat's turn refills the
    # hole with two actions, and only then, no gem on it, the game ends.
    assert st.kit.sc[ENDED] and st.kit.sc[TURNS] == 2
    assert (st.grid[[0, 1]] == action(SWAP)).all() and st.ph[GEMS_LEFT] == 0


def test_the_second_arrow_stands_opposite_turns_with_the_first_and_offers_its_top():
    s = game(DARK, players=2)
    dark(s, full(s, gem(RUBY, 1)), N, up=range(36))
    give(s, 0, action(SECOND_ARROW))
    pick(s, USE, SECOND_ARROW)
    st = s.state
    assert st.dk[ARROW2] == S
    assert cells(s, GRAB) == {0, 35}  # the N corner and the S corner
    pick(s, GRAB, 35)
    pick(s, FLIP_UP) if st.ph[0] == REVEAL else None
    assert (st.arrow[0], st.dk[ARROW2]) == (E, W)
    assert cells(s, GRAB) == grid_cells(s, [(0, 5), (5, 0)])
    sound(s)


def test_ransack_turns_a_face_up_tile_down_collects_a_neighbour_and_ends_the_turn():
    s = game(DARK, players=2)
    tiles = full(s, gem(RUBY, 1))
    tiles[15] = gem(SAPPHIRE, 3)
    dark(s, tiles, N, up=(14,))
    give(s, 0, action(RANSACK))
    pick(s, USE, RANSACK)
    st = s.state
    assert st.ph[0] == HIDE and cells(s, FLIP_DOWN) == {14}
    pick(s, FLIP_DOWN, 14)
    assert st.ph[0] == RAID and st.dark[14] == 1 and st.seen[:, 14].all()
    assert cells(s, RAID_AT) == {8, 13, 15, 20}
    assert {o[2] for o in options(s)} == {UNSEEN}
    pick(s, RAID_AT, 15)
    assert st.hand[0, gem(SAPPHIRE, 3)] == 1 and st.grid[15] == EMPTY
    # No grab: the turn ended, with the action's information step.
    assert st.ph[0] == REVEAL
    pick(s, FLIP_UP, 35)
    assert st.kit.sc[SEAT] == 1
    sound(s)


# -- the gems -----------------------------------------------------------------------------------

def test_trash_is_collected_scores_minus_two_and_steal_cannot_take_it():
    s = game(DARK, players=2)
    dark(s, full(s, gem(RUBY, 1)) | {0: TRASH}, N, up=range(36))
    give(s, 0, action(LIGHTBULB))
    pick(s, GRAB, 0)
    st = s.state
    assert st.hand[0, TRASH] == 1 and st.trash[0] == 1
    # Nothing face down: no Lightbulb to use, no information step; seat 2's turn.
    assert st.kit.sc[SEAT] == 1
    give(s, 1, action(STEAL))
    pick(s, USE, STEAL)
    assert st.ph[0] == STEAL_FROM
    # Seat 1 holds a Trash and a Lightbulb: only the action may be stolen.
    assert {(o[1], o[2]) for o in options(s) if o[0] == TAKE} == {(0, action(LIGHTBULB))}
    sound(s)
    out = np.zeros(2, np.int64)
    scores_nb(st, s.rules, out, True)
    assert out.tolist() == [-2, 0]


def test_a_multiplier_laid_on_a_pile_multiplies_it_and_bars_its_colour_it_can_see():
    s = game(DARK, players=2)
    tiles = {0: MULTIPLIER, 1: gem(RUBY, 2), 6: gem(SAPPHIRE, 1), 7: gem(RUBY, 1)}
    dark(s, tiles, N, up=(0, 1, 6))
    give(s, 0, gem(RUBY, 3))
    pick(s, GRAB, 0)
    st = s.state
    # The Multiplier is in hand: laying it is no action, offered after the grab.
    assert {o[1] for o in options(s) if o[0] == LAY} == {RUBY}
    pick(s, LAY, RUBY)
    assert st.mult[0, RUBY] == 1 and st.hand[0, MULTIPLIER] == 0
    assert st.ph[0] == LOOK  # no action used: the turn ends by looking
    out = np.zeros(2, np.int64)
    scores_nb(st, s.rules, out, True)
    assert out.tolist() == [2 * 3, 0]
    sound(s)
    # Its next turn: the ruby it sees at the top is barred to it, the face-down one is not;
    # once it has seen that one too, its turn may only end.
    dark(s, {1: gem(RUBY, 2), 6: gem(RUBY, 1)}, N, up=(1,))
    st.kit.sc[SEAT] = 0
    st.ph[0], st.ph[1], st.ph[2] = TURN, 1, 0
    assert cells(s, GRAB) == {6}
    st.seen[0, 6] = 1
    assert cells(s, GRAB) == set() and END in {o[0] for o in options(s)}


def test_multiplied_scores_and_trash_against_a_brute_force():
    rng = np.random.default_rng(52)
    for by in ("tiles", "value"):
        for factor in (2, 3):
            for n in (2, 3, 4):
                s = game({**DARK, "majority_by": by, "multiply_by": factor}, players=n)
                st = s.state
                out = np.zeros(n, np.int64)
                for _ in range(150):
                    hands = [[int(c) for c in rng.integers(0, 5 * VALUES, rng.integers(0, 9))]
                             for _ in range(n)]
                    dealt(st, hands)
                    trash = rng.integers(0, 3, n)
                    st.hand[:, TRASH] = trash
                    st.mult[:] = rng.integers(0, 2, (n, 6)) * (rng.random((n, 6)) < 0.3)
                    for least in (True, False):
                        scores_nb(st, s.rules, out, least)
                        want = [0] * n
                        for k in range(5):
                            one = [[c for c in h if c // VALUES == k] for h in hands]
                            part = brute(one, 5, by == "value", False, "most", least)
                            for q in range(n):
                                want[q] += part[q] * factor ** int(st.mult[q, k])
                        want = [w - 2 * int(t) for w, t in zip(want, trash, strict=True)]
                        assert out.tolist() == want, (hands, trash, st.mult)


# -- invariants over whole games ----------------------------------------------------------------

def test_whole_games_keep_the_invariants_and_end():
    for players in (("random",) * 3, ("majority",) * 4, ("random", "majority")):
        for rules in (DARK, {**DARK, "bomb": 6, "lightbulb": 6, "ransack": 6, "multiplier": 6,
                             "second_arrow": 4, "actions": "any"}):
            s = prepare(KIT, rules, players)
            r = play(s, list(range(120)), check=True)
            assert (r.violation == 0).all(), (players, rules, np.unique(r.violation))
            # Every game ends: its gems gone, or the last ones barred to all who see them.
            assert set(np.unique(r.end)) <= {GEMS_GONE, BARRED}


def test_a_seats_options_never_show_a_tile_it_has_not_seen():
    shown = {"checked": 0}

    def check(state, tables, rules, pp, decision, n, seat):
        for row in state.kit.opt[:n]:
            kind, a, b = int(row[0]), int(row[1]), int(row[2])
            if kind in (GRAB, PICK_UP, PUT_DOWN, RAID_AT, FLIP_UP):
                want = int(state.grid[a]) if state.seen[seat, a] else UNSEEN
                assert b == want, (kind, a, b, want)
                shown["checked"] += 1

    loop = importlib.import_module(KIT.loop)

    def decide(state, tables, rules_, pp, decision, n, seat):
        check(state, tables, rules_, pp, decision, n, seat)
        return loop.decide_nb(state, tables, rules_, pp, decision, n, seat)

    setup = prepare(KIT, {**DARK, "ransack": 6, "swap": 6}, ("random",) * 3)
    setup.loop = plain_loop(KIT, decide_nb=decide)
    play(setup, game_seeds(17, 0, 20), check=True)
    assert shown["checked"] > 1000


def test_the_box_with_the_expansion_counts_its_tiles_as_levers():
    rules = kit_rules({**KIT.defaults, **DARK, "trash": 5, "bomb": 0}, 3)
    box = new_tables(rules).box.tolist()
    assert box.count(TRASH) == 5 and action(BOMB) not in box
    assert len(new_tables(kit_rules(KIT.defaults, 3)).box) == 47
