"""Compiling content and profiles into the engine's arrays."""

from __future__ import annotations

import numpy as np
import pytest

from balance.errors import InputError
from balance.games.gemrush.ability import (
    DIG,
    DISCARD,
    DRAW,
    END,
    F_ANY,
    F_GEMS,
    KEEP_ALL,
    KEEP_N,
    NAME,
    REVEAL,
)
from balance.games.gemrush.content import SIDES, load_content
from balance.games.gemrush.rules import load_profile
from balance.games.gemrush.tables import (
    ACTION,
    CRISIS,
    MINECART,
    MOVEMENT,
    RUSH,
    SEAT_DEAL,
    SEAT_VP,
    STANDARD,
    TUNNEL,
    WILD,
    compile_rules,
    compile_tables,
)

N, E, S, W = range(4)


@pytest.fixture(scope="module")
def ed1():
    content = load_content("gemrush-1e")
    return content, compile_tables(content, load_profile("1e"))


@pytest.fixture(scope="module")
def ed2():
    content = load_content("gemrush-2e")
    return content, compile_tables(content, load_profile("2e"))


@pytest.fixture(params=["1e", "2e"])
def edition(request, ed1, ed2):
    return {"1e": ed1, "2e": ed2}[request.param]


def _room_index(content, name: str) -> int:
    return next(i for i, r in enumerate(content.rooms) if r.name == name)


def _room_by_ability(content, text: str) -> int:
    return next(i for i, r in enumerate(content.rooms) if r.ability_text == text)


def _card_index(content, gems: tuple[str, ...]) -> int:
    return next(i for i, c in enumerate(content.cards) if c.gems == gems)


def _gem_index(content, name: str) -> int:
    return next(i for i, g in enumerate(content.gems) if g.name == name)


def test_shapes_and_dtypes(edition):
    content, t = edition
    g, c, r = len(content.gems), len(content.cards), len(content.rooms)
    assert t.gem_power.shape == (g,)
    assert t.card_gems.shape == (c, 2)
    assert t.card_count.shape == (c, g)
    assert t.room_kind.shape == (r,)
    assert t.door.shape == (r, 4, 4) and t.door.dtype == np.bool_
    assert t.door_cost.shape == (r, 4, 4, g)
    assert t.door_points.shape == (r, 4, 4)
    assert t.tunnel_exit.shape == (r, 4, 4)
    assert t.prog.shape == (r, 8, 4)
    assert t.prog_len.shape == (r,) and t.prog_has_keep.dtype == np.bool_
    for a in (t.gem_power, t.card_gems, t.card_count, t.card_deck, t.gem_cards, t.room_kind,
              t.room_deck, t.door_cost, t.door_points, t.tunnel_exit, t.prog, t.prog_len):
        assert a.dtype == np.int64


def test_gem_cards_counts_each_physical_card_once(ed1, ed2):
    for _c, t in (ed1, ed2):
        shows = t.card_count[t.card_deck] > 0  # (n_cards, G)
        assert t.gem_cards.tolist() == shows.sum(axis=0).tolist()
        assert (t.gem_cards <= len(t.card_deck)).all()


def test_deck_lengths(ed1, ed2):
    assert len(ed1[1].card_deck) == 50 and len(ed1[1].room_deck) == 48
    assert len(ed2[1].card_deck) == 75 and len(ed2[1].room_deck) == 80


def test_decks_hold_each_type_copies_times(edition):
    content, t = edition
    assert np.bincount(t.card_deck, minlength=len(content.cards)).tolist() == \
        [c.copies for c in content.cards]
    assert np.bincount(t.room_deck, minlength=len(content.rooms)).tolist() == \
        [r.copies for r in content.rooms]


def test_gem_powers(ed1, ed2):
    c1, t1 = ed1
    assert t1.gem_power.tolist() == [STANDARD] * 7 + [WILD]
    c2, t2 = ed2
    assert t2.gem_power[_gem_index(c2, "Diamond Dust")] == WILD
    assert sorted(t2.gem_power.tolist()) == [0] * 7 + [1, 2, 3, 4]


def test_room_kinds(ed2):
    content, t = ed2
    assert t.room_kind[_room_index(content, "Straight Tunnel")] == TUNNEL
    assert t.room_kind[_room_index(content, "Diamond Vein")] == ACTION
    assert t.room_kind[_room_index(content, "Warped Mirror")] == MOVEMENT
    kinds = np.bincount(t.room_kind[t.room_deck], minlength=5)
    assert kinds[TUNNEL] == 6 and kinds[MINECART] == 4


def test_card_count_for_double_and_lone_diamond_dust(edition):
    content, t = edition
    el, dd = _gem_index(content, "Electrum"), _gem_index(content, "Diamond Dust")
    double = _card_index(content, ("Electrum", "Electrum"))
    row = np.zeros(len(content.gems), dtype=np.int64)
    row[el] = 2
    assert t.card_count[double].tolist() == row.tolist()
    assert t.card_gems[double].tolist() == [el, el]
    single = _card_index(content, ("Diamond Dust",))
    row = np.zeros(len(content.gems), dtype=np.int64)
    row[dd] = 1
    assert t.card_count[single].tolist() == row.tolist()
    assert t.card_gems[single].tolist() == [dd, -1]
    pair = _card_index(content, ("Electrum", "Fire Ruby"))
    assert t.card_count[pair].sum() == 2
    assert t.card_count.sum(axis=1).tolist() == [len(c.gems) for c in content.cards]


def test_standard_gems_equally_frequent_in_the_deck(ed1, ed2):
    for (content, t), each in ((ed1, 12), (ed2, 16)):
        per_gem = t.card_count[t.card_deck].sum(axis=0)
        for i, g in enumerate(content.gems):
            if g.kind == "standard":
                assert per_gem[i] == each, g.name


# ------------------------------------------------------------------ rotation


def test_diamond_vein_rotations_follow_the_rulebook(edition):
    """1st-edition construction example: moving right (east) into a new Diamond Vein, it may
    be rotated so its doors point left and up, or left and down; not the other two ways."""
    content, t = edition
    d = _room_index(content, "Diamond Vein")
    room = content.rooms[d]
    doors = [s for s in range(4) if room.edges[s] is not None]
    assert len(doors) == 2 and (doors[1] - doors[0]) % 4 in (1, 3)  # a corner
    entered_from = W  # moving east, you come in through the new tile's west side
    legal = [r for r in range(4) if t.door[d, r, entered_from]]
    assert len(legal) == 2
    door_sets = {frozenset(SIDES[s] for s in range(4) if t.door[d, r, s]) for r in legal}
    assert door_sets == {frozenset({"west", "north"}), frozenset({"west", "south"})}


def test_legal_rotations_equal_doors_for_every_tile(edition):
    """2nd-edition rulebook: the number of legal rotations always equals the number of doors
    (per distinct rotation), for whichever side the player enters through."""
    content, t = edition
    for i, room in enumerate(content.rooms):
        for side in range(4):
            assert t.door[i, :, side].sum() == room.doors, (room.name, side)


def test_rotation_moves_original_side_clockwise(edition):
    content, t = edition
    g = len(content.gems)
    gem_index = {gm.name: k for k, gm in enumerate(content.gems)}
    for i, room in enumerate(content.rooms):
        for r in range(4):
            for s in range(4):
                edge = room.edges[(s - r) % 4]
                assert t.door[i, r, s] == (edge is not None)
                cost = np.zeros(g, dtype=np.int64)
                if edge is not None:
                    for name in edge.cost:
                        cost[gem_index[name]] += 1
                assert t.door_points[i, r, s] == (edge.points if edge else 0)
                assert t.door_cost[i, r, s].tolist() == cost.tolist(), (room.name, r, s)


def test_fire_ruby_vein_east_door_turns_south(edition):
    content, t = edition
    f = _room_index(content, "Fire Ruby Vein")
    ob, fr, st = (_gem_index(content, n) for n in ("Obsidian", "Fire Ruby", "Star Tear"))
    assert t.door_points[f, 0, E] == 3
    cost = t.door_cost[f, 0, E]
    assert (cost[ob], cost[fr], cost[st], cost.sum()) == (1, 2, 1, 4)
    # one quarter turn clockwise: east -> south
    assert t.door_points[f, 1, S] == 3
    assert t.door_cost[f, 1, S].tolist() == cost.tolist()
    assert t.door_cost[f, 2, W].tolist() == cost.tolist()
    assert t.door_cost[f, 3, N].tolist() == cost.tolist()


# ------------------------------------------------------------------ tunnels


def test_straight_tunnel_exit_is_opposite_under_every_rotation(ed2):
    content, t = ed2
    i = _room_index(content, "Straight Tunnel")
    for r in range(4):
        assert t.tunnel_exit[i, r].tolist() == [S, W, N, E], r


def test_bent_tunnel_exit_turns_with_the_tile(ed2):
    content, t = ed2
    i = _room_index(content, "Bent Tunnel")  # pairs north-east, south-west
    assert t.tunnel_exit[i, 0].tolist() == [E, N, W, S]
    # a quarter turn clockwise: the north-east bend is now east-south, south-west is west-north
    assert t.tunnel_exit[i, 1].tolist() == [W, S, E, N]
    assert t.tunnel_exit[i, 2].tolist() == [E, N, W, S]  # half turn maps the pairs onto each other
    assert t.tunnel_exit[i, 3].tolist() == [W, S, E, N]
    for r in range(4):
        for s in range(4):
            out = t.tunnel_exit[i, r, s]
            assert out != s and t.tunnel_exit[i, r, out] == s  # a pairing


def test_tunnel_exit_follows_rotation_formula(ed2):
    content, t = ed2
    for i, room in enumerate(content.rooms):
        if room.kind != "tunnel":
            assert (t.tunnel_exit[i] == -1).all(), room.name
            continue
        partner = {}
        for a, b in room.pairs:
            partner[a], partner[b] = b, a
        for r in range(4):
            for s in range(4):
                o = (s - r) % 4
                expected = (partner[o] + r) % 4 if o in partner else -1
                assert t.tunnel_exit[i, r, s] == expected


# ------------------------------------------------------------------ ability programs


def test_prog_for_electrum_well(edition):
    content, t = edition
    i = _room_by_ability(content, "reveal 4; keep all Electrum; keep 1")
    el = _gem_index(content, "Electrum")
    assert t.prog_len[i] == 3
    assert t.prog[i, 0].tolist() == [REVEAL, 4, F_ANY, 0]
    assert t.prog[i, 1].tolist() == [KEEP_ALL, 0, F_GEMS, 1 << el]
    assert t.prog[i, 2].tolist() == [KEEP_N, 1, F_ANY, 0]
    assert (t.prog[i, 3:, 0] == END).all() and (t.prog[i, 3:] == 0).all()
    assert t.prog_has_keep[i]


def test_prog_gem_mask_with_two_gems(ed2):
    content, t = ed2
    i = _room_by_ability(content, "dig 3 Star Tear or Fire Ruby; keep 2")
    mask = (1 << _gem_index(content, "Star Tear")) | (1 << _gem_index(content, "Fire Ruby"))
    assert t.prog[i, 0].tolist() == [DIG, 3, F_GEMS, mask]
    assert t.prog[i, 1].tolist() == [KEEP_N, 2, F_ANY, 0]
    assert t.prog_has_keep[i]


def test_prog_x_is_minus_one(ed2):
    content, t = ed2
    i = _room_by_ability(content, "discard X any; draw X")
    assert t.prog_len[i] == 2
    assert t.prog[i, 0].tolist() == [DISCARD, -1, F_ANY, 0]
    assert t.prog[i, 1].tolist() == [DRAW, -1, F_ANY, 0]
    assert not t.prog_has_keep[i]
    j = _room_by_ability(content, "name 1; discard X any; dig X named")
    assert t.prog[j, :3, :2].tolist() == [[NAME, 1], [DISCARD, -1], [DIG, -1]]


def test_prog_has_keep_only_with_a_keep_step(edition):
    content, t = edition
    i = _room_by_ability(content, "dig 2 Permafrost")
    assert not t.prog_has_keep[i]
    for k, room in enumerate(content.rooms):
        has_keep = any(s.op in (KEEP_ALL, KEEP_N) for s in room.ability)
        assert t.prog_has_keep[k] == has_keep, room.name
        assert t.prog_len[k] == len(room.ability)


# ------------------------------------------------------------------ switches and rules


def test_profile_switching_off_a_mechanic_rejects_content(ed2):
    content, _ = ed2
    with pytest.raises(InputError) as exc:
        compile_tables(content, load_profile("1e"))
    text = str(exc.value)
    assert "tunnels = false" in text and "mine_carts = false" in text
    assert "special_gems = false" in text
    assert all(p.file == content.path for p in exc.value.problems)


def test_first_edition_content_compiles_under_second_edition(ed1):
    content, t1 = ed1
    t = compile_tables(content, load_profile("2e", {"skills": "none"}))  # the box has none
    assert np.array_equal(t.door, t1.door)


def test_compile_rules_defaults():
    p2 = load_profile("2e")
    r = compile_rules(p2, "crisis", 4)
    assert (r.mode, r.players, r.target, r.exhaust) == (CRISIS, 4, 75, 0)
    assert (r.burn_per_turn, r.burn_from_hands, r.cannot_burn_loses) == (3, 1, 0)
    assert r.seat.tolist() == [[4] * 4, [0] * 4] and r.first_player == 1
    r1 = compile_rules(load_profile("1e"), "crisis", 3, target=40, exhaust=True)
    assert (r1.target, r1.exhaust, r1.burn_per_turn, r1.burn_from_hands) == (40, 1, 2, 0)
    assert r1.seat[SEAT_VP].tolist() == [1, 1, 1] and r1.seat[SEAT_DEAL].tolist() == [4, 4, 4]
    assert r1.cannot_burn_loses == 1


def test_compile_rules_gives_each_seat_its_own_deal_and_points():
    p = load_profile("2e", {"deal.seat5": 5, "deal.seat1": 3, "start_vp.seat2": 1,
                            "first_player": "random"})
    r = compile_rules(p, "rush", 5)
    assert r.seat[SEAT_DEAL].tolist() == [3, 4, 4, 4, 5]
    assert r.seat[SEAT_VP].tolist() == [0, 1, 0, 0, 0]
    assert r.first_player == 0


@pytest.mark.parametrize("rules,field,phrase", [
    ({"deal.seat5": 5}, "deal.seat5", "names seat 5, but this variant has 4 player(s)"),
    ({"start_vp.seat7": 1}, "start_vp.seat7", "seats count from 1 (seat 1 plays first) to 4"),
    ({"first_player": 5}, "first_player", "is 5, but this variant has 4 player(s)"),
])
def test_compile_rules_refuses_a_seat_the_variant_does_not_have(rules, field, phrase):
    with pytest.raises(InputError) as exc:
        compile_rules(load_profile("2e", rules), "rush", 4, source="exp.toml")
    assert any(p.field == field and phrase in p.message and p.file == "exp.toml"
               for p in exc.value.problems), [str(p) for p in exc.value.problems]


@pytest.mark.parametrize("players,target", [(2, 20), (4, 20), (5, 15), (7, 15)])
def test_rush_target_by_player_count_2e(players, target):
    r = compile_rules(load_profile("2e"), "rush", players)
    assert (r.mode, r.target) == (RUSH, target)
    assert r.voluntary_discard == 0


def test_rush_target_1e_is_always_20():
    p1 = load_profile("1e")
    assert {compile_rules(p1, "rush", n).target for n in range(2, 7)} == {20}


@pytest.mark.parametrize("edition_name,mode,players,field,phrase", [
    ("2e", "crisis", 8, "players", "allows 1 to 7 players, got 8"),
    ("2e", "rush", 8, "players", "allows 1 to 7 players, got 8"),
    ("1e", "crisis", 7, "players", "allows 1 to 6 players, got 7"),
    ("2e", "crisis", 0, "players", "got 0"),
    ("2e", "rush", 1, "players", "at least 2 players"),
    ("1e", "rush", 1, "players", "at least 2 players"),
    ("2e", "coop", 3, "mode", "must be crisis or rush"),
])
def test_compile_rules_rejects(edition_name, mode, players, field, phrase):
    with pytest.raises(InputError) as exc:
        compile_rules(load_profile(edition_name), mode, players)
    assert any(p.field == field and phrase in p.message for p in exc.value.problems), \
        [str(p) for p in exc.value.problems]


def test_compile_rules_rejects_bad_target_and_exhaust_in_rush():
    p2 = load_profile("2e")
    with pytest.raises(InputError) as exc:
        compile_rules(p2, "rush", 3, target=0, exhaust=True)
    assert {p.field for p in exc.value.problems} == {"target", "exhaust"}


def test_compile_rules_uses_overridden_profile():
    p = load_profile("2e", {"rush_target_large": 12, "crisis_targets.Master": 80,
                            "hand_limit": 6})
    assert compile_rules(p, "rush", 6).target == 12
    assert compile_rules(p, "crisis", 2).target == 80
    assert compile_rules(p, "crisis", 2).hand_limit == 6
