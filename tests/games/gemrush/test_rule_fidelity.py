"""Rule fidelity: the deviations an independent audit found, each pinned by a test that failed
before its fix, and the open readings of the rulebooks that became rule switches or stated
rulings (guide: reference/rulings.md)."""

from __future__ import annotations

import numpy as np
import pytest

from balance.errors import InputError
from balance.games.gemrush.content import SIDES, load_content
from balance.games.gemrush.engine.decisions import D_VOL_DISCARD, OPT_WARP_BUILD
from balance.games.gemrush.engine.events import EV_VOL_DISCARD
from balance.games.gemrush.engine.game_nb import R_END_REASON, R_TURNS, R_VIOLATION
from balance.games.gemrush.engine.mine_nb import mine_sealed_nb
from balance.games.gemrush.engine.options_nb import offer_nb
from balance.games.gemrush.engine.payment_nb import covers_nb, list_payments_nb
from balance.games.gemrush.engine.players import decide_nb
from balance.games.gemrush.engine.state import (
    END_CANNOT_BURN,
    END_ROOMS_OUT,
    END_RUSH_TARGET,
    END_SEALED,
    S_BURNT_N,
    S_DECK_N,
    S_DISC_N,
    S_VIOLATION,
    V_STALE_OPTION,
    new_state,
)
from balance.games.gemrush.play import play_batch, play_traced, prepare
from balance.games.gemrush.scenario import Scenario
from heuristics.gemrush.greedy import estimate_avail_nb
from heuristics.gemrush.memory import E_AVAIL

# --------------------------------------------------------------------------------------------
# Deviation 1: 1st-edition Crisis was lost while the team held cards it could discard. The
# burn phase's "no more discards" row kept cells of an earlier decision, and greedy read one as
# a card. The audit's example: 6 players, lost at turn 8 with 36 cards in hand.
AUDIT_SEED = 1940225292468989546


def test_1e_crisis_audit_game_runs_the_fed_clock_to_its_end():
    s = prepare("1e", "crisis", 6, "greedy", exhaust=True)
    b = play_batch(s, [AUDIT_SEED], check=True)
    assert b.out[0, R_END_REASON] == END_CANNOT_BURN
    assert b.out[0, R_VIOLATION] == 0
    # 50 cards burnt 2 a turn: 25 full burns, and the 26th turn cannot burn.
    assert b.out[0, R_TURNS] == 26


@pytest.mark.parametrize("players", range(1, 7))
def test_1e_crisis_is_lost_only_when_no_card_is_left_to_feed_the_burn(players):
    s = prepare("1e", "crisis", players, "greedy", exhaust=True)
    st = new_state(s.tables, s.rules)
    for seed in range(30):
        b = play_batch(s, [seed], check=True, state=st)
        assert b.out[0, R_END_REASON] == END_CANNOT_BURN
        assert b.out[0, R_VIOLATION] == 0
        held = int(st.hand_n[:players].sum())
        left = int(st.sc[S_DECK_N] + st.sc[S_DISC_N])
        assert left + held < s.rules.burn_per_turn, (seed, left, held)


def _listing_scenario():
    sc = Scenario("1e", players=1)  # check mode, as in every scenario
    sc.place("Great Cavern", 0, 0)
    return sc


def _ask(sc, n):
    s = sc.setup
    return decide_nb(sc.st, sc.tb, sc.ru, s.players, D_VOL_DISCARD, n, 0)


def test_check_mode_catches_an_option_cell_the_listing_did_not_write():
    sc = _listing_scenario()
    st = sc.st
    offer_nb(st, 0, 0, 1, 5, 0)
    offer_nb(st, 1, 0, 2, 6, 0)
    _ask(sc, 2)
    assert st.sc[S_VIOLATION] == 0
    # The old "no more" row: one cell written, the others left from the decision before.
    offer_nb(st, 0, 0, 0, 9, 0)
    st.opt[1, 0] = -1
    _ask(sc, 2)
    assert st.sc[S_VIOLATION] == V_STALE_OPTION


def test_whole_rows_pass_the_poison_check():
    sc = _listing_scenario()
    for n in (3, 1, 4):
        for i in range(n):
            offer_nb(sc.st, i, -1 if i == 0 else 0, i, i, 0)
        _ask(sc, n)
    assert sc.st.sc[S_VIOLATION] == 0


# --------------------------------------------------------------------------------------------
# Deviation 2: `crisis_voluntary_discard = true` did nothing in the 2nd edition, and
# `rush_voluntary_discard` nothing anywhere. A switch is never ignored silently.
def _vol_discards(setup, seeds):
    rows = []
    for seed in seeds:
        st, ev = play_traced(setup, seed)
        assert st.sc[S_VIOLATION] == 0
        rows.append(ev[ev[:, 2] == EV_VOL_DISCARD])
    return np.concatenate(rows)


def test_2e_crisis_offers_discards_at_will():
    on = _vol_discards(prepare("2e", "crisis", 3, "random", exhaust=True), range(6))
    assert len(on) > 0
    off = prepare("2e", "crisis", 3, "random", exhaust=True,
                  rules={"crisis_voluntary_discard": False})
    assert len(_vol_discards(off, range(6))) == 0


def test_rush_discards_at_will_come_from_the_players_own_hand_when_switched_on():
    on = prepare("2e", "rush", 3, "random", rules={"rush_voluntary_discard": True})
    rows = _vol_discards(on, range(4))
    assert len(rows) > 0
    assert (rows[:, 4] == rows[:, 1]).all()  # the seat that discards is the seat to play
    assert len(_vol_discards(prepare("2e", "rush", 3, "random"), range(4))) == 0


# --------------------------------------------------------------------------------------------
# Deviation 3: a Warpstone build could spend a spare Warpstone card. The build needs one
# Warpstone, whichever card shows it.
def _cost(sc, **gems):
    cost = np.zeros(len(sc.setup.gem_names), np.int64)
    for name, n in gems.items():
        cost[sc.gem(name.replace("_", " "))] = n
    return cost


def _payments(sc, cost, warp):
    st = sc.st
    n = list_payments_nb(st, sc.tb, 0, cost, warp, st.work1, st.work2)
    return sorted(sorted(int(st.hand[0, k]) for k in range(int(st.hand_n[0]))
                         if (int(st.opt[i, 0]) >> k) & 1) for i in range(n))


def test_warpstone_build_spends_no_spare_warpstone_card():
    sc = Scenario("2e", players=1)
    wp, wst = sc.hand(0, ["Warpstone", "Permafrost"], ["Warpstone", "Star Tear"])
    cost = _cost(sc, Star_Tear=1)
    assert _payments(sc, cost, warp=True) == [[wst]]
    assert _payments(sc, cost, warp=False) == [[wst]]
    # Both cards are needed when the door asks for both of their gems.
    assert _payments(sc, _cost(sc, Star_Tear=1, Permafrost=1), warp=True) == [sorted([wp, wst])]


# --------------------------------------------------------------------------------------------
# Open readings made switches.
@pytest.mark.parametrize("own", [False, True])
def test_echoglass_copies_its_own_cards_gem_only_when_switched_on(own):
    sc = Scenario("2e", players=1, rules={"echo_copies_own_card": own})
    (card,) = sc.hand(0, ["Echoglass", "Fire Ruby"])
    cards = np.array([card], np.int64)
    assert bool(covers_nb(sc.st, sc.tb, _cost(sc, Fire_Ruby=2), cards, 1)) is own
    assert covers_nb(sc.st, sc.tb, _cost(sc, Fire_Ruby=1), cards, 1)


def test_echoglass_copies_another_cards_gem_either_way():
    for own in (False, True):
        sc = Scenario("2e", players=1, rules={"echo_copies_own_card": own})
        ids = sc.hand(0, ["Echoglass", "Fire Ruby"], ["Fire Ruby", "Obsidian"])
        assert covers_nb(sc.st, sc.tb, _cost(sc, Fire_Ruby=3), np.array(ids, np.int64), 2)


NORTH = SIDES.index("north")


@pytest.mark.parametrize("allowed", [True, False])
def test_warpstone_build_at_a_tunnels_open_door(allowed):
    sc = Scenario("2e", players=1, rules={"warp_build_at_tunnels": allowed})
    cavern = sc.place("Great Cavern", 0, 0)
    tunnel = sc.place("Straight Tunnel", 1, 0)  # its north and south doors face empty cells
    sc.hand(0, ["Warpstone", "Star Tear"])
    sc.tiles("Dead-end Grotto")
    sc.stand(0, cavern)
    opts = sc.steps(0)
    row = (OPT_WARP_BUILD, tunnel, NORTH, 0)
    assert (row in opts) is allowed
    if allowed:
        sc.script(opts.index(row), 0)
        sc.movement(0)
        new = sc.placed_at(1, -1)
        assert sc.room_at(1, -1) == "Dead-end Grotto"
        assert int(sc.st.pos[0]) == new
        assert sc.score(0) == 0  # a tunnel's door costs and scores nothing
        assert sc.hand_cards(0) == []
        assert sc.st.sc[S_VIOLATION] == 0


# --------------------------------------------------------------------------------------------
# A sealed mine: nobody can build again, so a Rush game ends and says so.
def test_two_dead_ends_facing_each_other_seal_the_mine():
    sc = Scenario("1e", mode="rush", players=2)
    sc.place("Dead-end Grotto", 0, 0)  # door north
    sc.place("Dead-end Grotto", 0, -1, rot=2)  # door south, into the first
    assert mine_sealed_nb(sc.st, sc.tb, sc.ru)
    sc2 = Scenario("1e", mode="rush", players=2)
    sc2.place("Dead-end Grotto", 0, 0)
    sc2.place("Great Cavern", 0, -1)
    assert not mine_sealed_nb(sc2.st, sc2.tb, sc2.ru)


def test_1e_rush_games_that_seal_end_as_sealed():
    s = prepare("1e", "rush", 2, "greedy")
    st = new_state(s.tables, s.rules)
    sealed = 0
    for seed in range(300):
        b = play_batch(s, [seed], check=True, state=st)
        assert b.out[0, R_VIOLATION] == 0
        is_sealed = bool(mine_sealed_nb(st, s.tables, s.rules))
        end = b.out[0, R_END_REASON]
        if end == END_SEALED:
            assert is_sealed, seed
        elif is_sealed:  # the target or an empty room deck was found first
            assert end in (END_RUSH_TARGET, END_ROOMS_OUT), seed
        sealed += int(end == END_SEALED)
    assert sealed > 0


# --------------------------------------------------------------------------------------------
# Greedy's estimates read only what a player at the table knows: not the identity of cards
# burnt from the deck (burning draws unseen), nor, in Rush, the other players' hands.
def _estimate(sc, p=0):
    mem = sc.setup.players.mem.greedy
    estimate_avail_nb(sc.st, mem, sc.tb, sc.ru, p)
    return mem.est[E_AVAIL, : len(sc.tb.gem_power)].copy()


def _swap(a, i, b, j):
    a[i], b[j] = int(b[j]), int(a[i])


@pytest.mark.parametrize("mode", ["crisis", "rush"])
def test_estimates_do_not_change_when_hidden_cards_are_permuted(mode):
    sc = Scenario("1e", mode=mode, players=2)
    sc.place("Great Cavern", 0, 0)
    sc.hand(0, ["Fire Ruby", "Obsidian"], ["Electrum", "Star Tear"])
    sc.hand(1, ["Raw Hope", "Raw Hope"], ["Permafrost", "Soulstone"])
    sc.deck(["Electrum", "Electrum"], ["Obsidian", "Raw Hope"], ["Star Tear", "Star Tear"])
    sc.discards(["Soulstone", "Soulstone"])
    st = sc.st
    assert st.sc[S_BURNT_N] > 0  # every card not named above was burnt, unseen, from the deck
    before = _estimate(sc)
    for j in range(3):
        _swap(st.deck, 0, st.burnt, j)  # which deck card was burnt is not known
        assert np.allclose(_estimate(sc), before)
    if mode == "rush":
        _swap(st.deck, 1, st.hand[1], 0)  # nor what another player holds
        assert np.allclose(_estimate(sc), before)


# --------------------------------------------------------------------------------------------
def test_the_old_skills_switch_is_refused_with_the_variants_named():
    with pytest.raises(InputError, match="skills.*short text"):
        prepare("2e", "crisis", 3, rules={"skills": True})
    with pytest.raises(InputError, match="normal, choice, shared, chaos, circle, none"):
        prepare("2e", "crisis", 3, rules={"skills": "sometimes"})


def test_1e_reference_cards_mostly_show_two_different_gems():
    c = load_content("gemrush-1e")
    std = [g.name for g in c.gems if g.kind == "standard"]
    symbols = dict.fromkeys(std, 0)
    pairs = doubles = 0
    for card in c.cards:
        for g in card.gems:
            if g in symbols:
                symbols[g] += card.copies
        if len(card.gems) == 2:
            if card.gems[0] == card.gems[1]:
                doubles += card.copies
            else:
                pairs += card.copies
    assert pairs > (sum(k.copies for k in c.cards)) / 2
    assert doubles > 0  # the rulebook's examples show doubles
    assert len(set(symbols.values())) == 1  # every standard gem equally common
