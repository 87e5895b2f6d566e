"""The rulebooks' worked examples, played by the Numba engine through hand-built scenarios.

Each section names the rulebook (1st edition 2013, 2nd edition 2018) and the example or rule it
plays, then checks the outcome: hand, discard pile, deck, score, position, tiles placed, waste.
Choices are made by the `scripted` player: each decision takes the next scripted option index
(options in the order the engine lists them), then option 0.

Coordinates: x east, y south, (0, 0) the centre. Sides: north/east/south/west = 0/1/2/3.
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.gemrush.content import SIDES
from balance.games.gemrush.engine.check_nb import check_invariants_nb
from balance.games.gemrush.engine.decisions import (
    OPT_ABILITY,
    OPT_CART,
    OPT_DOOR,
    OPT_STOP,
    OPT_WARP_BUILD,
    OPT_WARP_MOVE,
)
from balance.games.gemrush.engine.events import EV_CART
from balance.games.gemrush.engine.mine_nb import legal_rotations_nb
from balance.games.gemrush.engine.payment_nb import covers_nb
from balance.games.gemrush.engine.state import (
    END_CANNOT_BURN,
    S_BURNT_N,
    S_DECK_N,
    S_DISC_N,
    S_END_REASON,
    S_ENDED,
    S_EV_N,
    S_RESHUFFLES,
    S_STEPS_LEFT,
    S_TILES_N,
    S_VIOLATION,
)
from balance.games.gemrush.engine.turn_nb import action_nb, end_turn_nb, list_steps_nb
from balance.games.gemrush.engine.usable_nb import ability_usable_nb
from balance.games.gemrush.scenario import Scenario

STOP = (OPT_STOP, 0, 0, 0)


# ----------------------------------------------------------------------------- helpers
def hand_ids(sc: Scenario, p: int = 0) -> list[int]:
    return sorted(int(c) for c in sc.st.hand[p, : sc.st.hand_n[p]])


def disc_ids(sc: Scenario) -> list[int]:
    return sorted(int(c) for c in sc.st.disc[: sc.st.sc[S_DISC_N]])


def deck_ids(sc: Scenario) -> list[int]:
    """The gem deck, top card first."""
    return [int(c) for c in sc.st.deck[: sc.st.sc[S_DECK_N]][::-1]]


def burnt_ids(sc: Scenario) -> list[int]:
    return sorted(int(c) for c in sc.st.burnt[: sc.st.sc[S_BURNT_N]])


def tiles_left(sc: Scenario) -> int:
    return int(sc.st.sc[S_TILES_N])


def steps_left(sc: Scenario) -> int:
    """Movement steps left when the movement phase last listed its options."""
    return int(sc.st.sc[S_STEPS_LEFT])


def action(sc: Scenario, p: int = 0) -> None:
    s = sc.setup
    action_nb(sc.st, sc.tb, sc.ru, s.players, p)


def burn_phase(sc: Scenario, p: int = 0) -> None:
    """The end of a Crisis turn: discards at will, then the burn."""
    s = sc.setup
    end_turn_nb(sc.st, sc.tb, sc.ru, s.players, p)


def usable(sc: Scenario, room: int, p: int = 0) -> bool:
    return bool(ability_usable_nb(sc.st, sc.tb, sc.ru, p, room))


def assert_consistent(sc: Scenario) -> None:
    """The engine's own invariant checks: every card in one place, scores add up, the mine is
    connected, nobody in a tunnel, no illegal choice or payment was made."""
    check_invariants_nb(sc.st, sc.tb, sc.ru)
    assert int(sc.st.sc[S_VIOLATION]) == 0


def door_cost(sc: Scenario, placed: int, side: str) -> dict[str, int]:
    st = sc.st
    s = SIDES.index(side)
    cost = sc.tb.door_cost[st.pl_type[placed], st.pl_rot[placed], s]
    return {sc.setup.gem_names[g]: int(n) for g, n in enumerate(cost) if n}


def door_points(sc: Scenario, placed: int, side: str) -> int:
    st = sc.st
    return int(sc.tb.door_points[st.pl_type[placed], st.pl_rot[placed], SIDES.index(side)])


def name_script(sc: Scenario, *names: str) -> list[int]:
    """Option indices that name these gems in turn (options: gems not yet named, gem order)."""
    left = list(range(len(sc.setup.gem_names)))
    out = []
    for n in names:
        g = sc.gem(n)
        out.append(left.index(g))
        left.remove(g)
    return out


def option_index(options: list[tuple[int, int, int, int]], row: tuple) -> int:
    assert row in options, (row, options)
    return options.index(row)


# =============================================================================
# 1. 1st edition, "Construction Example": the Fire Ruby Vein's east door (1 Obsidian,
#    2 Fire Ruby, 1 Star Tear, 3 points) paid with three cards, two gems wasted; the Diamond
#    Vein drawn and turned so that its doors point left and up, or left and down.
# =============================================================================
EXAMPLE_HAND_1E = (["Obsidian", "Star Tear"], ["Fire Ruby", "Raw Hope"],
                   ["Fire Ruby", "Soulstone"])


def _construction_1e():
    sc = Scenario("1e", players=1)
    vein = sc.place("Fire Ruby Vein", 0, 0)
    paid = sc.hand(0, *EXAMPLE_HAND_1E)
    sc.tiles("Diamond Vein")
    sc.stand(0, vein)
    return sc, vein, paid


def test_1e_construction_door_is_the_rulebook_door():
    sc, vein, _ = _construction_1e()
    assert door_cost(sc, vein, "east") == {"Obsidian": 1, "Fire Ruby": 2, "Star Tear": 1}
    assert door_points(sc, vein, "east") == 3


def test_1e_construction_one_payment_of_three_cards_wasting_two_gems():
    sc, vein, paid = _construction_1e()
    pays = sc.payments(0, vein, "east")
    assert len(pays) == 1
    cards, waste = pays[0]
    assert sorted(cards) == sorted(paid)
    assert waste == 2  # the Raw Hope and the Soulstone


def test_1e_construction_needs_both_fire_ruby_cards():
    sc = Scenario("1e", players=1)
    vein = sc.place("Fire Ruby Vein", 0, 0)
    sc.hand(0, ["Obsidian", "Star Tear"], ["Fire Ruby", "Raw Hope"], ["Soulstone", "Soulstone"])
    sc.tiles("Diamond Vein")
    sc.stand(0, vein)
    assert sc.payments(0, vein, "east") == []
    assert (OPT_DOOR, SIDES.index("east"), -1, 0) not in sc.steps(0)


@pytest.mark.parametrize("choice, doors", [(0, {"west", "north"}), (1, {"west", "south"})])
def test_1e_construction_example(choice, doors):
    sc, vein, paid = _construction_1e()
    sc.script(choice)  # the only decision: the Diamond Vein's rotation
    sc.build(0, vein, "east")
    assert sc.room_at(1, 0) == "Diamond Vein"
    new = sc.placed_at(1, 0)
    assert set(sc.doors(new)) == doors
    assert int(sc.st.pos[0]) == new
    assert sc.score(0) == 1 + 3  # 1st edition: everyone starts with 1 VP
    assert hand_ids(sc) == []
    assert disc_ids(sc) == sorted(paid)
    assert tiles_left(sc) == 0
    assert sc.placed == 2
    assert_consistent(sc)


@pytest.mark.parametrize("choice, doors", [(0, {"west", "north"}), (1, {"west", "south"})])
def test_1e_construction_example_as_a_movement_step(choice, doors):
    sc, vein, paid = _construction_1e()
    opts = sc.steps(0)
    east = option_index(opts, (OPT_DOOR, SIDES.index("east"), -1, 0))
    sc.script(east, choice)  # step east (a build), rotation; then STOP
    sc.movement(0)
    new = sc.placed_at(1, 0)
    assert sc.room_at(1, 0) == "Diamond Vein"
    assert set(sc.doors(new)) == doors
    assert int(sc.st.pos[0]) == new
    assert sc.score(0) == 4
    assert disc_ids(sc) == sorted(paid)
    assert steps_left(sc) == 2  # a construction is a single movement step
    assert_consistent(sc)


# =============================================================================
# 2. 2nd edition, "Constructing Rooms Example": a door showing Obsidian, Permafrost and
#    Electrum (2 points), paid with (Obsidian & Electrum) and (Permafrost & Soulstone): the
#    Soulstone is wasted. In the reference content the door is the Obsidian Vein's north door.
# =============================================================================
def _construction_2e():
    sc = Scenario("2e", players=1)
    # Rotation 1 turns the north door to face east, into the empty cell (1, 0).
    vein = sc.place("Obsidian Vein", 0, 0, rot=1)
    oe, ps, other = sc.hand(0, ["Obsidian", "Electrum"], ["Permafrost", "Soulstone"],
                            ["Raw Hope", "Star Tear"])
    sc.tiles("Dead-end Grotto")
    sc.stand(0, vein)
    return sc, vein, (oe, ps, other)


def test_2e_construction_door_is_the_rulebook_door():
    sc, vein, _ = _construction_2e()
    assert door_cost(sc, vein, "east") == {"Obsidian": 1, "Permafrost": 1, "Electrum": 1}
    assert door_points(sc, vein, "east") == 2


def test_2e_construction_example():
    sc, vein, (oe, ps, other) = _construction_2e()
    assert sc.payments(0, vein, "east") == [([oe, ps], 1)]  # the Soulstone is wasted
    sc.build(0, vein, "east")
    new = sc.placed_at(1, 0)
    assert sc.room_at(1, 0) == "Dead-end Grotto"
    assert "west" in sc.doors(new)  # its door leads back the way the player came
    assert int(sc.st.pos[0]) == new
    assert sc.score(0) == 0 + 2  # 2nd edition: everyone starts with 0 VP
    assert hand_ids(sc) == [other]
    assert disc_ids(sc) == sorted([oe, ps])
    assert_consistent(sc)


# =============================================================================
# 3. 1st edition, Construction Example (rotations): the Diamond Vein entered from the west
#    has exactly two legal rotations; 2nd edition: "the number of legal rotations will always
#    equal the number of doors on the new tile".
# =============================================================================
def test_1e_diamond_vein_has_two_legal_rotations():
    sc = Scenario("1e", players=1)
    rt = sc.room_type("Diamond Vein")
    out = np.zeros(8, np.int64)
    n = legal_rotations_nb(sc.tb, rt, SIDES.index("west"), out)
    assert n == 2
    door_sets = sorted(sorted(SIDES[s] for s in range(4) if sc.tb.door[rt, int(r), s])
                       for r in out[:n])
    assert door_sets == [["north", "west"], ["south", "west"]]


@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_legal_rotations_equal_the_number_of_doors(edition):
    sc = Scenario(edition, players=1)
    out = np.zeros(8, np.int64)
    for rt in range(len(sc.setup.room_names)):
        n_doors = int(sc.tb.door[rt, 0].sum())
        for entry in range(4):
            n = legal_rotations_nb(sc.tb, rt, entry, out)
            assert n == n_doors, (sc.setup.room_names[rt], entry)
            for r in out[:n]:
                assert sc.tb.door[rt, int(r), entry]


# =============================================================================
# 4. 1st edition, "Dig Example": the Permafrost Vein digs for 2 cards with Permafrost; the
#    cards passed over are discarded, the rest of the deck is untouched.
# =============================================================================
def test_1e_dig_example():
    sc = Scenario("1e", players=1)
    vein = sc.place("Permafrost Vein", 0, 0)
    sc.stand(0, vein)
    pf, ff, os_, pp, rest = sc.deck(["Permafrost", "Fire Ruby"], ["Fire Ruby", "Fire Ruby"],
                                    ["Obsidian", "Star Tear"], ["Permafrost", "Permafrost"],
                                    ["Raw Hope", "Soulstone"])
    assert sc.use_ability(0, vein) == 2
    assert hand_ids(sc) == sorted([pf, pp])
    assert disc_ids(sc) == sorted([ff, os_])
    assert deck_ids(sc) == [rest]
    assert_consistent(sc)


def test_1e_dig_example_as_the_action():
    sc = Scenario("1e", players=1)
    vein = sc.place("Permafrost Vein", 0, 0)
    sc.stand(0, vein)
    pf, ff, os_, pp, rest = sc.deck(["Permafrost", "Fire Ruby"], ["Fire Ruby", "Fire Ruby"],
                                    ["Obsidian", "Star Tear"], ["Permafrost", "Permafrost"],
                                    ["Raw Hope", "Soulstone"])
    sc.script(1)  # action: 0 draw a card, 1 use the room's ability
    action(sc)
    assert hand_ids(sc) == sorted([pf, pp])
    assert disc_ids(sc) == sorted([ff, os_])
    assert deck_ids(sc) == [rest]


# =============================================================================
# 5. 1st edition, "Discard Example": the Soulstone Shaft, discard a Soulstone to draw 3.
#    Discard terminology: Diamond Dust may be discarded in lieu of any gem type.
# =============================================================================
def test_1e_discard_example():
    sc = Scenario("1e", players=1)
    shaft = sc.place("Soulstone Shaft", 0, 0)
    sc.stand(0, shaft)
    soul, keep = sc.hand(0, ["Soulstone", "Star Tear"], ["Fire Ruby", "Obsidian"])
    d1, d2, d3, d4 = sc.deck(["Electrum", "Electrum"], ["Raw Hope", "Raw Hope"],
                             ["Permafrost", "Star Tear"], ["Obsidian", "Obsidian"])
    assert usable(sc, shaft)
    assert sc.use_ability(0, shaft) == 2  # net: -1 discarded, +3 drawn
    assert hand_ids(sc) == sorted([keep, d1, d2, d3])
    assert disc_ids(sc) == [soul]
    assert deck_ids(sc) == [d4]
    assert_consistent(sc)


def test_1e_discard_ability_not_usable_without_the_gem():
    sc = Scenario("1e", players=1)
    shaft = sc.place("Soulstone Shaft", 0, 0)
    sc.stand(0, shaft)
    (keep,) = sc.hand(0, ["Fire Ruby", "Obsidian"])
    (top,) = sc.deck(["Electrum", "Electrum"])
    assert not usable(sc, shaft)
    action(sc)  # no choice to make: the action is drawing a card
    assert hand_ids(sc) == sorted([keep, top])
    assert disc_ids(sc) == []


def test_1e_discard_ability_not_usable_with_an_empty_hand():
    sc = Scenario("1e", players=1)
    shaft = sc.place("Soulstone Shaft", 0, 0)
    sc.stand(0, shaft)
    assert not usable(sc, shaft)


def test_1e_diamond_dust_discarded_in_lieu_of_soulstone():
    sc = Scenario("1e", players=1)
    shaft = sc.place("Soulstone Shaft", 0, 0)
    sc.stand(0, shaft)
    dust, keep = sc.hand(0, ["Diamond Dust"], ["Fire Ruby", "Obsidian"])
    d1, d2, d3 = sc.deck(["Electrum", "Electrum"], ["Raw Hope", "Raw Hope"],
                         ["Permafrost", "Star Tear"])
    assert usable(sc, shaft)
    assert sc.use_ability(0, shaft) == 2
    assert hand_ids(sc) == sorted([keep, d1, d2, d3])
    assert disc_ids(sc) == [dust]
    assert_consistent(sc)


@pytest.mark.parametrize("choice", [0, 1])
def test_1e_discard_choice_between_soulstone_and_diamond_dust(choice):
    sc = Scenario("1e", players=1)
    shaft = sc.place("Soulstone Shaft", 0, 0)
    sc.stand(0, shaft)
    soul, dust = sc.hand(0, ["Soulstone", "Soulstone"], ["Diamond Dust"])
    sc.deck(["Electrum", "Electrum"], ["Raw Hope", "Raw Hope"], ["Permafrost", "Star Tear"])
    sc.script(choice)  # options: the matching cards in hand order
    sc.use_ability(0, shaft)
    gone = [soul, dust][choice]
    assert disc_ids(sc) == [gone]
    assert gone not in hand_ids(sc)
    assert len(hand_ids(sc)) == 4


def test_1e_a_diamond_dust_cost_needs_diamond_dust():
    # Prism Shaft: "discard 1 Diamond Dust; draw 4": no standard gem stands in for it.
    sc = Scenario("1e", players=1)
    prism = sc.place("Prism Shaft", 0, 0)
    sc.stand(0, prism)
    sc.hand(0, ["Soulstone", "Soulstone"], ["Fire Ruby", "Obsidian"])
    assert not usable(sc, prism)


# =============================================================================
# 6. 1st edition, "Name a Gem Example": the Wish Geyser, name 2 different gems, then dig for
#    2 cards with either named gem. Any of the 8 gem types may be named, Diamond Dust too;
#    a drawn Diamond Dust counts only as Diamond Dust.
# =============================================================================
def test_1e_name_a_gem_example():
    sc = Scenario("1e", players=1)
    geyser = sc.place("Wish Geyser", 0, 0)
    sc.stand(0, geyser)
    sc.script(*name_script(sc, "Obsidian", "Soulstone"))
    ef, op, rs, ee, ss, rest = sc.deck(["Electrum", "Fire Ruby"], ["Obsidian", "Permafrost"],
                                       ["Raw Hope", "Star Tear"], ["Electrum", "Electrum"],
                                       ["Soulstone", "Soulstone"], ["Fire Ruby", "Raw Hope"])
    assert sc.use_ability(0, geyser) == 2
    assert hand_ids(sc) == sorted([op, ss])
    assert disc_ids(sc) == sorted([ef, rs, ee])
    assert deck_ids(sc) == [rest]
    assert_consistent(sc)


def test_1e_name_diamond_dust():
    sc = Scenario("1e", players=1)
    geyser = sc.place("Wish Geyser", 0, 0)
    sc.stand(0, geyser)
    sc.script(*name_script(sc, "Diamond Dust", "Fire Ruby"))
    eo, dust, fs, rest = sc.deck(["Electrum", "Obsidian"], ["Diamond Dust"],
                                 ["Fire Ruby", "Soulstone"], ["Star Tear", "Star Tear"])
    assert sc.use_ability(0, geyser) == 2
    assert hand_ids(sc) == sorted([dust, fs])
    assert disc_ids(sc) == [eo]
    assert deck_ids(sc) == [rest]


def test_1e_dug_diamond_dust_is_not_a_named_standard_gem():
    sc = Scenario("1e", players=1)
    geyser = sc.place("Wish Geyser", 0, 0)
    sc.stand(0, geyser)
    sc.script(*name_script(sc, "Electrum", "Obsidian"))
    dust, ef, oo = sc.deck(["Diamond Dust"], ["Electrum", "Fire Ruby"], ["Obsidian", "Obsidian"])
    sc.use_ability(0, geyser)
    assert hand_ids(sc) == sorted([ef, oo])
    assert disc_ids(sc) == [dust]


# =============================================================================
# 7. 1st edition, "Reveal & Keep Example": the Electrum Well, reveal 4 cards, keep those with
#    Electrum plus one card of your choice; the remaining card is discarded.
# =============================================================================
def _electrum_well(choice: int):
    sc = Scenario("1e", players=1)
    well = sc.place("Electrum Well", 0, 0)
    sc.stand(0, well)
    cards = sc.deck(["Electrum", "Fire Ruby"], ["Obsidian", "Permafrost"],
                    ["Electrum", "Electrum"], ["Raw Hope", "Soulstone"], ["Star Tear", "Star Tear"])
    sc.script(choice)  # the "keep 1" choice among the two cards without Electrum
    gained = sc.use_ability(0, well)
    return sc, cards, gained


@pytest.mark.parametrize("choice", [0, 1])
def test_1e_reveal_and_keep_example(choice):
    sc, (e1, op, e2, rs, rest), gained = _electrum_well(choice)
    assert gained == 3
    hand = hand_ids(sc)
    assert len(hand) == 3
    assert e1 in hand and e2 in hand
    (kept,) = set(hand) - {e1, e2}
    assert kept in (op, rs)
    assert disc_ids(sc) == [op if kept == rs else rs]
    assert deck_ids(sc) == [rest]  # only 4 cards are revealed
    assert_consistent(sc)


def test_1e_reveal_and_keep_choice_matters():
    kept = set()
    for choice in (0, 1):
        sc, (e1, op, e2, rs, _rest), _ = _electrum_well(choice)
        kept |= set(hand_ids(sc)) - {e1, e2}
    assert len(kept) == 2  # either card without Electrum can be chosen


# =============================================================================
# 8. 2nd edition, "Room Effects Symbols": dig until 3 cards with Star Tear or Fire Ruby,
#    keep 2 of them, discard the third (Starfire Seam); name a gem, reveal 3, keep those with
#    the named gem (Scrying Pool). Any of the eleven gem types may be named.
# =============================================================================
STARFIRE_DECK = (["Obsidian", "Permafrost"], ["Star Tear", "Star Tear"], ["Electrum", "Raw Hope"],
                 ["Fire Ruby", "Obsidian"], ["Fire Ruby", "Star Tear"], ["Soulstone", "Soulstone"])


def _starfire(first: int, second: int):
    sc = Scenario("2e", players=1)
    seam = sc.place("Starfire Seam", 0, 0)
    sc.stand(0, seam)
    cards = sc.deck(*STARFIRE_DECK)
    sc.script(first, second)
    gained = sc.use_ability(0, seam)
    return sc, cards, gained


@pytest.mark.parametrize("first, second", [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)])
def test_2e_dig_three_keep_two(first, second):
    sc, (m1, h1, m2, h2, h3, rest), gained = _starfire(first, second)
    assert gained == 2
    hand = hand_ids(sc)
    assert len(hand) == 2 and set(hand) <= {h1, h2, h3}
    (left,) = {h1, h2, h3} - set(hand)
    assert disc_ids(sc) == sorted([m1, m2, left])
    assert deck_ids(sc) == [rest]  # the dig stops at the third match
    assert_consistent(sc)


def test_2e_dig_three_keep_any_two():
    pairs = set()
    for first in range(3):
        for second in range(2):
            sc, _, _ = _starfire(first, second)
            pairs.add(tuple(hand_ids(sc)))
    assert len(pairs) == 3  # every pair of the three dug cards can be kept


def test_2e_name_reveal_keep_named():
    sc = Scenario("2e", players=1)
    pool = sc.place("Scrying Pool", 0, 0)
    sc.stand(0, pool)
    sc.script(*name_script(sc, "Obsidian"))
    o1, fs, o2, rest = sc.deck(["Obsidian", "Raw Hope"], ["Fire Ruby", "Soulstone"],
                               ["Obsidian", "Obsidian"], ["Electrum", "Star Tear"])
    assert sc.use_ability(0, pool) == 2
    assert hand_ids(sc) == sorted([o1, o2])
    assert disc_ids(sc) == [fs]
    assert deck_ids(sc) == [rest]
    assert_consistent(sc)


def test_2e_name_a_special_gem():
    sc = Scenario("2e", players=1)
    pool = sc.place("Scrying Pool", 0, 0)
    sc.stand(0, pool)
    assert name_script(sc, "Warpstone") == [10]  # the eleventh gem type
    sc.script(*name_script(sc, "Warpstone"))
    w1, eo, w2 = sc.deck(["Warpstone", "Electrum"], ["Electrum", "Obsidian"],
                         ["Warpstone", "Fire Ruby"])
    sc.use_ability(0, pool)
    assert hand_ids(sc) == sorted([w1, w2])
    assert disc_ids(sc) == [eo]


# =============================================================================
# 9. 1st edition, "Special Move Example": construct the Portal with the first move, use it to
#    teleport with the second, and use the destination room's ability as the action. A special
#    move may be used in lieu of a movement step or as the action.
# =============================================================================
def _portal_mine():
    sc = Scenario("1e", players=1)
    portal = sc.place("Portal", 0, 0)  # north: free door; south: Electrum
    cavern = sc.place("Great Cavern", 0, -1)
    passage = sc.place("Long Passage", 0, -2)
    sc.stand(0, portal)
    return sc, portal, cavern, passage


def test_1e_portal_offers_its_move_for_one_step():
    sc, portal, cavern, _ = _portal_mine()
    assert sc.steps(0) == [STOP, (OPT_DOOR, 0, cavern, 0), (OPT_ABILITY, 0, 0, 0)]
    assert (OPT_ABILITY, 0, 0, 0) not in sc.steps(0, steps=0)


def test_1e_portal_move_as_a_movement_step():
    sc, portal, cavern, passage = _portal_mine()
    # step: the Portal's ability; move to: [cavern, passage]; then STOP
    sc.script(2, 1, 0)
    sc.movement(0)
    assert int(sc.st.pos[0]) == passage
    assert steps_left(sc) == 2  # the special move cost one step


def test_1e_portal_move_as_the_action():
    sc, portal, cavern, passage = _portal_mine()
    assert usable(sc, portal)
    sc.script(1, 0)  # action: use the ability; move to: [cavern, passage]
    action(sc)
    assert int(sc.st.pos[0]) == cavern
    assert hand_ids(sc) == []


def test_1e_special_move_example():
    sc = Scenario("1e", players=1)
    start = sc.place("Sifting Room", 0, 0)  # north door is free
    shaft = sc.place("Soulstone Shaft", 0, 1)  # its north door faces the Sifting Room's wall
    (soul,) = sc.hand(0, ["Soulstone", "Soulstone"])
    d1, d2, d3 = sc.deck(["Electrum", "Electrum"], ["Raw Hope", "Raw Hope"],
                         ["Permafrost", "Star Tear"])
    sc.tiles("Portal")
    sc.stand(0, start)
    assert sc.steps(0) == [STOP, (OPT_DOOR, 0, -1, 0)]
    # step 1: build north; Portal rotation 0; step 2: the Portal's move; move to the Shaft
    # (rooms other than the Portal in placement order: Sifting Room, Soulstone Shaft); STOP;
    # action: use the ability.
    sc.script(1, 0, 2, 1, 0, 1)
    sc.movement(0)
    assert sc.room_at(0, -1) == "Portal"
    assert int(sc.st.pos[0]) == shaft
    assert steps_left(sc) == 1  # a construction and a special move: two steps
    assert sc.score(0) == 1  # the Portal's door was free and worth 0 points
    action(sc)
    assert hand_ids(sc) == sorted([d1, d2, d3])
    assert disc_ids(sc) == [soul]
    assert_consistent(sc)


# =============================================================================
# 10. Running out (1st edition, Gem Cards; 2nd edition, Perform 1 Action; ruling 9): drawing,
#     revealing or digging past the end of the deck reshuffles the discard pile, never the
#     burnt cards; with both empty, draw as many as possible.
# =============================================================================
def test_draw_past_the_deck_reshuffles_the_discards_not_the_burnt_cards():
    sc = Scenario("1e", players=1)
    shaft = sc.place("Soulstone Shaft", 0, 0)
    sc.stand(0, shaft)
    (soul,) = sc.hand(0, ["Soulstone", "Soulstone"])
    (top,) = sc.deck(["Electrum", "Electrum"])
    b, c = sc.discards(["Raw Hope", "Raw Hope"], ["Permafrost", "Star Tear"])
    burnt = burnt_ids(sc)
    assert sc.use_ability(0, shaft) == 2
    hand = hand_ids(sc)
    assert len(hand) == 3 and top in hand
    assert set(hand) <= {top, b, c, soul}
    assert len(deck_ids(sc)) == 1 and set(deck_ids(sc)) <= {b, c, soul}
    assert set(hand) | set(deck_ids(sc)) == {top, b, c, soul}
    assert disc_ids(sc) == []
    assert int(sc.st.sc[S_RESHUFFLES]) == 1
    assert burnt_ids(sc) == burnt
    assert_consistent(sc)


def test_draw_with_deck_and_discards_empty_draws_what_there_is():
    sc = Scenario("1e", players=1)
    cavern = sc.place("Great Cavern", 0, 0)  # draw 2
    sc.stand(0, cavern)
    (top,) = sc.deck(["Electrum", "Electrum"])
    burnt = burnt_ids(sc)
    assert sc.use_ability(0, cavern) == 1
    assert hand_ids(sc) == [top]
    assert deck_ids(sc) == [] and disc_ids(sc) == []
    assert burnt_ids(sc) == burnt
    assert_consistent(sc)


def test_draw_action_reshuffles_then_stops_when_nothing_is_left():
    sc = Scenario("1e", players=1)
    cavern = sc.place("Great Cavern", 0, 0)
    sc.stand(0, cavern)
    (b,) = sc.discards(["Raw Hope", "Raw Hope"])
    sc.script(0)  # action: draw a card
    action(sc)
    assert hand_ids(sc) == [b]
    sc.script(0)
    action(sc)  # deck and discards both empty: nothing to draw
    assert hand_ids(sc) == [b]
    assert_consistent(sc)


def test_dig_past_the_deck_reshuffles_the_discards():
    sc = Scenario("1e", players=1)
    vein = sc.place("Permafrost Vein", 0, 0)
    sc.stand(0, vein)
    (pp,) = sc.deck(["Permafrost", "Permafrost"])
    (pf,) = sc.discards(["Permafrost", "Fire Ruby"])
    assert sc.use_ability(0, vein) == 2
    assert hand_ids(sc) == sorted([pp, pf])
    assert int(sc.st.sc[S_RESHUFFLES]) == 1


def test_reveal_past_the_deck_reshuffles_the_discards():
    sc = Scenario("1e", players=1)
    well = sc.place("Electrum Well", 0, 0)  # reveal 4; keep all Electrum; keep 1
    sc.stand(0, well)
    (ee,) = sc.deck(["Electrum", "Electrum"])
    (ro,) = sc.discards(["Raw Hope", "Obsidian"])
    assert sc.use_ability(0, well) == 2  # only 2 cards exist outside the burnt pile
    assert hand_ids(sc) == sorted([ee, ro])
    assert disc_ids(sc) == []


def test_1e_crisis_burn_reshuffles_the_discards():
    sc = Scenario("1e", players=1)
    sc.place("Great Cavern", 0, 0)
    (top,) = sc.deck(["Electrum", "Electrum"])
    b, c = sc.discards(["Raw Hope", "Raw Hope"], ["Permafrost", "Star Tear"])
    burnt = burnt_ids(sc)
    burn_phase(sc)
    assert int(sc.st.sc[S_ENDED]) == 0
    newly = set(burnt_ids(sc)) - set(burnt)
    assert len(newly) == 2 and top in newly and newly <= {top, b, c}
    assert len(deck_ids(sc)) + len(disc_ids(sc)) == 1


def test_1e_crisis_discard_at_will_feeds_the_burn():
    # 1st edition, Crisis Mode: players may discard at any time, "this may be necessary so
    # that you can burn cards".
    sc = Scenario("1e", players=1)
    sc.place("Great Cavern", 0, 0)
    (top,) = sc.deck(["Electrum", "Electrum"])
    (card,) = sc.hand(0, ["Raw Hope", "Raw Hope"])
    burnt = burnt_ids(sc)
    sc.script(1, 0)  # discard at will: [no more, the hand card]; then no more
    burn_phase(sc)
    assert int(sc.st.sc[S_ENDED]) == 0
    assert set(burnt_ids(sc)) - set(burnt) == {top, card}
    assert hand_ids(sc) == []


def test_1e_crisis_cannot_burn_two_cards_loses():
    sc = Scenario("1e", players=1)
    sc.place("Great Cavern", 0, 0)
    sc.deck(["Electrum", "Electrum"])
    burn_phase(sc)
    assert int(sc.st.sc[S_ENDED]) == 1
    assert int(sc.st.sc[S_END_REASON]) == END_CANNOT_BURN


# =============================================================================
# 11. 2nd edition, "Tunnels" and "Tunnels and Construction": a tunnel drawn while building is
#     laid and crossed; an empty space beyond is built for no extra gems or points; a built
#     room beyond stops the player; an existing tunnel costs 1 step in total and, leading to an
#     empty space, builds there at the cost and points of the door that led into it.
# =============================================================================
EAST = SIDES.index("east")


def _tunnel_start(*hand):
    sc = Scenario("2e", players=1)
    # Great Cavern (2e): its east door costs Raw Hope and Star Tear and is worth 1 point.
    cavern = sc.place("Great Cavern", 0, 0)
    ids = sc.hand(0, *hand) if hand else []
    sc.stand(0, cavern)
    return sc, cavern, ids


def test_2e_tunnel_start_door():
    sc, cavern, _ = _tunnel_start()
    assert door_cost(sc, cavern, "east") == {"Raw Hope": 1, "Star Tear": 1}
    assert door_points(sc, cavern, "east") == 1


def test_2e_building_a_tunnel_builds_again_beyond_it():
    sc, cavern, (paid,) = _tunnel_start(["Raw Hope", "Star Tear"])
    sc.tiles("Straight Tunnel", "Dead-end Grotto")
    sc.build(0, cavern, "east")
    assert sc.room_at(1, 0) == "Straight Tunnel"
    assert sc.room_at(2, 0) == "Dead-end Grotto"
    grotto = sc.placed_at(2, 0)
    assert sc.doors(grotto) == ["west"]
    assert int(sc.st.pos[0]) == grotto
    assert sc.score(0) == 1  # the door's points, once
    assert disc_ids(sc) == [paid] and hand_ids(sc) == []
    assert tiles_left(sc) == 0
    assert_consistent(sc)


@pytest.mark.parametrize("bent_rot, end", [(0, (2, 1)), (1, (2, -1))])
def test_2e_a_chain_of_two_tunnels(bent_rot, end):
    sc, cavern, (paid,) = _tunnel_start(["Raw Hope", "Star Tear"])
    sc.tiles("Straight Tunnel", "Bent Tunnel", "Dead-end Grotto")
    # Rotations: the straight tunnel (4 options), the bent tunnel (4 options: rotation 0 joins
    # west to south, rotation 1 joins west to north); the grotto has a single rotation.
    sc.script(0, bent_rot)
    sc.build(0, cavern, "east")
    assert sc.room_at(1, 0) == "Straight Tunnel"
    assert sc.room_at(2, 0) == "Bent Tunnel"
    assert sc.room_at(*end) == "Dead-end Grotto"
    assert int(sc.st.pos[0]) == sc.placed_at(*end)
    assert sc.placed == 4
    assert sc.score(0) == 1
    assert disc_ids(sc) == [paid]
    assert_consistent(sc)


def test_2e_tunnel_construction_emerging_at_a_built_room_stops_there():
    sc, cavern, (paid,) = _tunnel_start(["Raw Hope", "Star Tear"])
    gallery = sc.place("Side Gallery", 2, 0)
    sc.tiles("Straight Tunnel", "Dead-end Grotto")
    sc.build(0, cavern, "east")
    assert sc.room_at(1, 0) == "Straight Tunnel"
    assert int(sc.st.pos[0]) == gallery
    assert sc.placed == 3  # only the tunnel is new
    assert tiles_left(sc) == 1  # the grotto stays in the room deck
    assert sc.score(0) == 1  # cost paid and points scored, once
    assert disc_ids(sc) == [paid]
    assert_consistent(sc)


@pytest.mark.parametrize("n_tunnels", [1, 2])
def test_2e_moving_through_existing_tunnels_costs_one_step(n_tunnels):
    sc, cavern, _ = _tunnel_start()
    for x in range(1, n_tunnels + 1):
        sc.place("Straight Tunnel", x, 0)
    gallery = sc.place("Side Gallery", n_tunnels + 1, 0)
    opts = sc.steps(0)
    row = (OPT_DOOR, EAST, gallery, n_tunnels)
    assert row in opts
    sc.script(option_index(opts, row))
    sc.movement(0)
    assert int(sc.st.pos[0]) == gallery
    assert steps_left(sc) == 2
    assert sc.score(0) == 0
    assert_consistent(sc)


def test_2e_existing_tunnel_to_an_empty_space_builds_at_the_door_cost():
    sc, cavern, (paid,) = _tunnel_start(["Raw Hope", "Star Tear"])
    sc.place("Straight Tunnel", 1, 0)
    sc.tiles("Dead-end Grotto")
    opts = sc.steps(0)
    row = (OPT_DOOR, EAST, -1, 1)
    assert row in opts
    assert sc.payments(0, cavern, "east") == [([paid], 0)]
    sc.script(option_index(opts, row))
    sc.movement(0)
    assert sc.room_at(2, 0) == "Dead-end Grotto"
    assert int(sc.st.pos[0]) == sc.placed_at(2, 0)
    assert sc.score(0) == 1
    assert disc_ids(sc) == [paid]
    assert steps_left(sc) == 2
    assert_consistent(sc)


def test_2e_existing_tunnel_to_an_empty_space_needs_the_door_cost():
    sc, cavern, _ = _tunnel_start(["Obsidian", "Obsidian"])
    sc.place("Straight Tunnel", 1, 0)
    sc.tiles("Dead-end Grotto")
    assert [o for o in sc.steps(0) if o[0] == OPT_DOOR and o[1] == EAST] == []


# =============================================================================
# 12. 2nd edition, "Mine Carts": once two are built, moving from one Mine Cart to another is
#     free in the movement phase; a single Mine Cart does nothing.
# =============================================================================
def _carts(n_carts: int):
    sc = Scenario("2e", players=1)
    first = sc.place("Mine Cart", 0, 0)
    sc.place("Long Passage", 0, -1)
    others = [sc.place("Mine Cart", 0, -2 - k) for k in range(n_carts - 1)]
    sc.stand(0, first)
    return sc, first, others


def test_2e_one_mine_cart_offers_no_ride():
    sc, _, _ = _carts(1)
    assert [o for o in sc.steps(0) if o[0] == OPT_CART] == []


@pytest.mark.parametrize("n_carts", [2, 3])
def test_2e_mine_carts_offer_rides_to_the_others(n_carts):
    sc, _, others = _carts(n_carts)
    assert [o for o in sc.steps(0) if o[0] == OPT_CART] == [(OPT_CART, j, 0, 0) for j in others]


def test_2e_mine_cart_ride_is_free():
    sc, _, (other,) = _carts(2)
    opts = sc.steps(0)
    sc.script(option_index(opts, (OPT_CART, other, 0, 0)))
    sc.movement(0)
    assert int(sc.st.pos[0]) == other
    assert steps_left(sc) == 3
    assert_consistent(sc)


def test_2e_mine_cart_rides_count_towards_the_free_move_cap():
    # Not a rulebook rule but the engine's documented guard (guide, reference/rule-profiles.md:
    # free_use_cap, "most free moves (free rooms, cart rides) in one movement phase").
    sc, _, (other,) = _carts(2)
    cap = sc.ru.free_use_cap
    n = list_steps_nb(sc.st, sc.tb, sc.ru, 0, 3, cap)
    offered = [tuple(int(v) for v in sc.st.opt[i]) for i in range(n)]
    assert [o for o in offered if o[0] == OPT_CART] == []


def test_2e_mine_cart_rides_stop_at_the_free_move_cap():
    sc, first, (other,) = _carts(2)
    cap = sc.ru.free_use_cap
    # At either cart the options are STOP, the door to the Long Passage, the ride: keep riding.
    assert sc.steps(0)[2] == (OPT_CART, other, 0, 0)
    sc.script(*([2] * (cap + 4)))
    sc.movement(0)
    events = sc.st.ev[: sc.st.sc[S_EV_N]]
    rides = int((events[:, 2] == EV_CART).sum())
    assert rides <= cap


# =============================================================================
# 13. 2nd edition, "Warpstone": build at any door of the mine facing an empty space without
#     spending movement (ending in the new room), or discard the card to move to any existing
#     room for no movement.
# =============================================================================
def _warp_mine(*tiles: str):
    sc = Scenario("2e", players=1)
    passage = sc.place("Long Passage", 0, 0)  # north (Soulstone, Star Tear); south Soulstone
    gallery = sc.place("Side Gallery", 0, -1)  # north (Obsidian, Raw Hope); east Soulstone
    crooked = sc.place("Crooked Passage", 0, -2)  # north (Obs., Permafrost); east (E, FR, RH)
    warp, ef, rr = sc.hand(0, ["Warpstone", "Obsidian"], ["Electrum", "Fire Ruby"],
                           ["Raw Hope", "Raw Hope"])
    sc.tiles(*tiles)
    sc.stand(0, passage)
    return sc, (passage, gallery, crooked), (warp, ef, rr)


def test_2e_warpstone_options():
    sc, (_, gallery, crooked), _ = _warp_mine("Dead-end Grotto")
    assert door_cost(sc, crooked, "east") == {"Electrum": 1, "Fire Ruby": 1, "Raw Hope": 1}
    assert sc.steps(0) == [
        STOP,
        (OPT_DOOR, 0, gallery, 0),
        (OPT_WARP_MOVE, 0, gallery, 0),  # (hand position of the Warpstone card, room)
        (OPT_WARP_MOVE, 0, crooked, 0),
        (OPT_WARP_BUILD, crooked, EAST, 0),  # the only far door facing empty space it can pay
    ]


def test_2e_warp_payment_includes_the_warpstone_card():
    sc, (_, _, crooked), (warp, ef, rr) = _warp_mine("Dead-end Grotto")
    assert sc.payments(0, crooked, "east", warp=True) == [([warp, ef, rr], 2)]
    assert sc.payments(0, crooked, "east") == [([ef, rr], 1)]


def test_2e_warp_build():
    sc, (_, _, crooked), (warp, ef, rr) = _warp_mine("Dead-end Grotto")
    opts = sc.steps(0)
    sc.script(option_index(opts, (OPT_WARP_BUILD, crooked, EAST, 0)))
    sc.movement(0)
    assert sc.room_at(1, -2) == "Dead-end Grotto"
    new = sc.placed_at(1, -2)
    assert sc.doors(new) == ["west"]
    assert int(sc.st.pos[0]) == new
    assert sc.score(0) == 2
    assert hand_ids(sc) == []
    assert disc_ids(sc) == sorted([warp, ef, rr])
    assert steps_left(sc) == 3  # no movement spent, not even the one step of a construction
    assert_consistent(sc)


def test_2e_warp_move():
    sc, (_, _, crooked), (warp, ef, rr) = _warp_mine()
    opts = sc.steps(0)
    sc.script(option_index(opts, (OPT_WARP_MOVE, 0, crooked, 0)))
    sc.movement(0)
    assert int(sc.st.pos[0]) == crooked
    assert disc_ids(sc) == [warp]
    assert hand_ids(sc) == sorted([ef, rr])
    assert sc.score(0) == 0
    assert steps_left(sc) == 3
    assert_consistent(sc)


# =============================================================================
# 14. 2nd edition, "Echoglass": counted as a copy of a standard gem spent at the same time by
#     another card; never a special gem, never the gem a Diamond Dust stands for.
# =============================================================================
def covers(cost: dict[str, int], *cards) -> bool:
    sc = Scenario("2e", players=1)
    vec = np.zeros(len(sc.setup.gem_names), np.int64)
    for g, n in cost.items():
        vec[sc.gem(g)] += n
    ids = np.array([sc.take_card(c) for c in cards], np.int64)
    return bool(covers_nb(sc.st, sc.tb, vec, ids, len(ids)))


def test_2e_echoglass_copies_a_gem_another_card_pays():
    assert covers({"Fire Ruby": 2}, ["Fire Ruby", "Obsidian"], ["Echoglass", "Star Tear"])


def test_2e_echoglass_does_not_copy_its_own_card():
    assert covers({"Fire Ruby": 1}, ["Echoglass", "Fire Ruby"])
    assert not covers({"Fire Ruby": 2}, ["Echoglass", "Fire Ruby"])
    assert not covers({"Obsidian": 2, "Fire Ruby": 1},
                      ["Echoglass", "Obsidian"], ["Fire Ruby", "Star Tear"])
    assert covers({"Obsidian": 2}, ["Echoglass", "Obsidian"], ["Obsidian", "Star Tear"])


def test_2e_echoglass_not_alone():
    assert not covers({"Fire Ruby": 1}, ["Echoglass", "Star Tear"])


def test_2e_echoglass_never_copies_what_diamond_dust_stands_for():
    assert covers({"Fire Ruby": 1}, ["Diamond Dust"])
    assert not covers({"Fire Ruby": 2}, ["Diamond Dust"], ["Echoglass", "Star Tear"])
    assert not covers({"Fire Ruby": 2, "Obsidian": 1}, ["Diamond Dust"], ["Echoglass", "Obsidian"])


def test_2e_two_echoglass_cards_copy_each_others_gem():
    assert covers({"Fire Ruby": 2, "Obsidian": 2}, ["Echoglass", "Fire Ruby"],
                  ["Echoglass", "Obsidian"])
    assert not covers({"Fire Ruby": 3}, ["Echoglass", "Fire Ruby"], ["Echoglass", "Star Tear"])


def test_2e_echoglass_in_a_door_payment():
    # Obsidian Well (2e), east door: Fire Ruby x2, Soulstone for 2 points.
    sc = Scenario("2e", players=1)
    well = sc.place("Obsidian Well", 0, 0)
    fo, echo, ss = sc.hand(0, ["Fire Ruby", "Obsidian"], ["Echoglass", "Star Tear"],
                           ["Soulstone", "Soulstone"])
    sc.stand(0, well)
    sc.tiles("Dead-end Grotto")
    assert door_cost(sc, well, "east") == {"Fire Ruby": 2, "Soulstone": 1}
    assert sc.payments(0, well, "east") == [([fo, echo, ss], 3)]
    sc.build(0, well, "east")
    assert sc.room_at(1, 0) == "Dead-end Grotto"
    assert sc.score(0) == 2
    assert disc_ids(sc) == sorted([fo, echo, ss])
    assert_consistent(sc)


def test_2e_echoglass_cannot_pay_a_door_alone_with_its_own_gem():
    sc = Scenario("2e", players=1)
    well = sc.place("Obsidian Well", 0, 0)
    sc.hand(0, ["Echoglass", "Fire Ruby"], ["Soulstone", "Soulstone"])
    sc.stand(0, well)
    sc.tiles("Dead-end Grotto")
    assert sc.payments(0, well, "east") == []
    assert (OPT_DOOR, EAST, -1, 0) not in sc.steps(0)


# =============================================================================
# 15. 2nd edition, "Orichalcum": pays nothing, but each Orichalcum used in a construction
#     scores 1 more point, and only when the other gem on its card is useful.
# =============================================================================
def test_2e_orichalcum_scores_one_extra_point():
    sc = Scenario("2e", players=1)
    cavern = sc.place("Great Cavern", 0, 0)  # west door: Fire Ruby, 0 points
    (ori,) = sc.hand(0, ["Orichalcum", "Fire Ruby"])
    sc.stand(0, cavern)
    sc.tiles("Dead-end Grotto")
    assert door_cost(sc, cavern, "west") == {"Fire Ruby": 1}
    assert door_points(sc, cavern, "west") == 0
    assert sc.payments(0, cavern, "west") == [([ori], 0)]
    sc.build(0, cavern, "west")
    assert sc.room_at(-1, 0) == "Dead-end Grotto"
    assert sc.score(0) == 0 + 1
    assert int(sc.st.bonus_pts[0]) == 1
    assert disc_ids(sc) == [ori]
    assert_consistent(sc)


def test_2e_orichalcum_on_the_rulebook_door():
    sc = Scenario("2e", players=1)
    vein = sc.place("Obsidian Vein", 0, 0, rot=1)  # Obsidian, Permafrost, Electrum: 2 points
    oe, po = sc.hand(0, ["Obsidian", "Electrum"], ["Orichalcum", "Permafrost"])
    sc.stand(0, vein)
    sc.tiles("Dead-end Grotto")
    assert sc.payments(0, vein, "east") == [([oe, po], 0)]  # nothing wasted
    sc.build(0, vein, "east")
    assert sc.score(0) == 2 + 1
    assert int(sc.st.door_pts[0]) == 2 and int(sc.st.bonus_pts[0]) == 1
    assert_consistent(sc)


def test_2e_orichalcum_with_a_useless_gem_is_never_paid():
    sc = Scenario("2e", players=1)
    cavern = sc.place("Great Cavern", 0, 0)
    fo, ori = sc.hand(0, ["Fire Ruby", "Obsidian"], ["Orichalcum", "Star Tear"])
    sc.stand(0, cavern)
    sc.tiles("Dead-end Grotto")
    assert sc.payments(0, cavern, "west") == [([fo], 1)]
    sc.build(0, cavern, "west")
    assert sc.score(0) == 0
    assert hand_ids(sc) == [ori]
    assert disc_ids(sc) == [fo]
    assert_consistent(sc)


@pytest.mark.parametrize("use_ori, points", [(True, 1), (False, 0)])
def test_2e_orichalcum_chosen_or_not(use_ori, points):
    sc = Scenario("2e", players=1)
    cavern = sc.place("Great Cavern", 0, 0)
    fo, ori = sc.hand(0, ["Fire Ruby", "Obsidian"], ["Orichalcum", "Fire Ruby"])
    sc.stand(0, cavern)
    sc.tiles("Dead-end Grotto")
    pays = sc.payments(0, cavern, "west")
    assert sorted(pays) == sorted([([fo], 1), ([ori], 0)])
    want = [ori] if use_ori else [fo]
    sc.script([p[0] for p in pays].index(want))
    sc.build(0, cavern, "west")
    assert sc.score(0) == points
    assert disc_ids(sc) == want
    assert_consistent(sc)


# =============================================================================
# 16. One-way passages (1st edition, Movement and Construction; 2nd edition, Move): a door
#     facing a neighbour's wall may be passed from the door side only.
# =============================================================================
@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_one_way_passage(edition):
    sc = Scenario(edition, players=1)
    cavern = sc.place("Great Cavern", 0, 0)  # four doors
    passage = sc.place("Long Passage", 1, 0)  # doors north and south; walls east and west
    assert "east" in sc.doors(cavern) and "west" not in sc.doors(passage)
    sc.stand(0, cavern)
    opts = sc.steps(0)
    row = (OPT_DOOR, EAST, passage, 0)
    assert row in opts
    sc.script(option_index(opts, row))
    sc.movement(0)
    assert int(sc.st.pos[0]) == passage
    # No way back: the passage shows a wall towards the cavern (and no rooms to build).
    assert sc.steps(0) == [STOP]
    assert_consistent(sc)


# =============================================================================
# 17. The room deck (1st and 2nd edition, Construction): moving into an empty space means
#     drawing a room tile; with no tiles left there is nothing to build.
# =============================================================================
def test_1e_empty_room_deck_stops_construction():
    sc, vein, _ = _construction_1e()  # one tile (the Diamond Vein) in the room deck
    builds = [o for o in sc.steps(0) if o[0] == OPT_DOOR and o[2] == -1]
    assert (OPT_DOOR, EAST, -1, 0) in builds
    sc.tiles()
    assert int(sc.st.sc[S_TILES_N]) == 0
    assert sc.steps(0) == [STOP]


def test_2e_empty_room_deck_stops_warp_builds_but_not_warp_moves():
    sc, (_, gallery, crooked), _ = _warp_mine()
    assert int(sc.st.sc[S_TILES_N]) == 0
    opts = sc.steps(0)
    assert [o for o in opts if o[0] == OPT_WARP_BUILD] == []
    assert [o for o in opts if o[0] == OPT_DOOR and o[2] == -1] == []
    assert (OPT_WARP_MOVE, 0, crooked, 0) in opts


def test_2e_empty_room_deck_stops_building_through_a_tunnel():
    sc, cavern, _ = _tunnel_start(["Raw Hope", "Star Tear"])
    sc.place("Straight Tunnel", 1, 0)
    assert [o for o in sc.steps(0) if o[0] == OPT_DOOR and o[1] == EAST] == []
