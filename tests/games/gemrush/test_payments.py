"""The legal payments the engine lists, against a plain enumeration of every set of hand cards.

list_payments_nb skips the tally of a set that has a paying subset (paying is monotone), and
checks a set without Echoglass by counting bits rather than by a tally; this checks that
neither shortcut drops or adds a payment, Warpstone builds included. And the hand's tally that
hand_supply_nb keeps is always the tally of the hand as it is now."""

from itertools import combinations

import numpy as np
import pytest

from balance.games.gemrush.engine.cards_nb import hand_take_nb, to_hand_nb
from balance.games.gemrush.engine.payment_nb import (
    card_relevant_nb,
    covers_nb,
    hand_supply_nb,
    list_payments_nb,
    supply_nb,
)
from balance.games.gemrush.engine.state import (
    S_CARD_VER,
    S_SUP_ECHO,
    S_SUP_ECHO_UNITS,
    S_SUP_KEY,
    S_SUP_WILD,
    WK_ECHO,
    new_state,
)
from balance.games.gemrush.play import prepare
from balance.games.gemrush.tables import ECHO, WARP


def _reference(st, tb, p, cost, warp):
    """Every legal payment as a set of hand positions: it pays (in a Warpstone build it also
    holds a Warpstone), and no card can be left out while the rest still does."""
    hand = [int(c) for c in st.hand[p, : st.hand_n[p]]]
    rel = [i for i, c in enumerate(hand) if card_relevant_nb(st, tb, c, cost, warp)][:12]

    def is_warp(i):
        ct = tb.card_deck[hand[i]]
        return any(g >= 0 and tb.gem_power[g] == WARP for g in tb.card_gems[ct])

    def pays(pos):
        if warp and not any(is_warp(i) for i in pos):
            return False
        cards = np.array([hand[i] for i in pos] + [0], np.int64)
        return bool(covers_nb(st, tb, cost, cards, len(pos)))

    out = set()
    for r in range(len(rel) + 1):
        for pos in combinations(rel, r):
            if pays(pos) and not any(pays([j for j in pos if j != i]) for i in pos):
                out.add(frozenset(pos))
    return out


@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_listed_payments_are_exactly_the_legal_ones(edition):
    s = prepare(edition, "crisis", 2)
    tb = s.tables
    st = new_state(tb, s.rules)
    rng = np.random.default_rng(11)
    doors = np.argwhere(tb.door_cost.sum(axis=3) > 0)
    n_cards = len(tb.card_deck)
    checked = 0
    tallied = 0  # listings with an Echoglass card among the relevant ones: sets are tallied
    for _ in range(300):
        rt, rot, side = doors[rng.integers(len(doors))]
        cost = tb.door_cost[rt, rot, side]
        n = int(rng.integers(1, 9))
        st.hand[0, :n] = rng.choice(n_cards, n, replace=False)
        st.hand_n[0] = n
        for warp in (False, True):
            k = list_payments_nb(st, tb, 0, cost, warp, st.work1, st.work2)
            listed = {frozenset(i for i in range(n) if (int(st.opt[j, 0]) >> i) & 1)
                      for j in range(k)}
            assert k == len(listed)  # no payment listed twice
            assert listed == _reference(st, tb, 0, cost, warp), (rt, rot, side, warp)
            checked += k
            tallied += any(tb.gem_power[g] == ECHO for c in st.hand[0, :n]
                           if card_relevant_nb(st, tb, c, cost, warp) for g in st.face[c, :2]
                           if g >= 0)
    assert checked > 100  # the hands did pay for doors, often
    if edition == "2e":  # its box has Echoglass: both ways of checking a set were taken
        assert 0 < tallied < 600


def _tally(st, own, tb, cards):
    """supply_nb's whole answer for these cards, tallied afresh in the state `own`."""
    own.face[:] = st.face
    arr = np.array(list(cards) + [0], np.int64)
    supply_nb(own, tb, arr, len(cards))
    n_echo = int(own.sc[S_SUP_ECHO])
    return (own.gtmp.tolist(), int(own.sc[S_SUP_WILD]), int(own.sc[S_SUP_ECHO_UNITS]),
            own.work[WK_ECHO, :n_echo].tolist())


def test_the_kept_hand_tally_is_always_the_hand_s_own():
    """A random walk of what moves cards (a card into a hand, one out, another set tallied,
    payments listed): after each hand_supply_nb, the tally is what a fresh tally of that hand
    gives, whether it was kept or made anew (both happen)."""
    s = prepare("2e", "crisis", 2)
    tb = s.tables
    st = new_state(tb, s.rules)
    own = new_state(tb, s.rules)
    rng = np.random.default_rng(5)
    n_cards = len(tb.card_deck)
    free = list(rng.permutation(n_cards))
    doors = np.argwhere(tb.door_cost.sum(axis=3) > 0)
    kept = made = echoed = 0
    for _ in range(400):
        op = rng.integers(5)
        p = int(rng.integers(2))
        if op == 0 and st.hand_n[p] < 10:
            # Echoglass often: its partners are the part of a tally a payment listing overwrites
            echo = [c for c in free if any(g >= 0 and tb.gem_power[g] == ECHO
                                           for g in tb.card_gems[tb.card_deck[c]])]
            card = echo[0] if echo and rng.random() < 0.5 else free[-1]
            free.remove(card)
            to_hand_nb(st, p, int(card))
        elif op == 1 and st.hand_n[p] > 0:
            free.insert(0, int(hand_take_nb(st, p, int(rng.integers(st.hand_n[p])))))
        elif op == 2:
            other = np.array(free[:4] + [0], np.int64)
            supply_nb(st, tb, other, 4)
        elif op == 3 and st.hand_n[p] > 0:
            rt, rot, side = doors[rng.integers(len(doors))]
            list_payments_nb(st, tb, p, tb.door_cost[rt, rot, side], False, st.work1, st.work2)
        key = ((int(st.sc[S_CARD_VER]) + 1) << 6) + p
        if st.sc[S_SUP_KEY] == key:
            kept += 1
        else:
            made += 1
        hand_supply_nb(st, tb, p)
        hand = [int(c) for c in st.hand[p, : st.hand_n[p]]]
        n_echo = int(st.sc[S_SUP_ECHO])
        echoed += n_echo > 0
        assert (st.gtmp.tolist(), int(st.sc[S_SUP_WILD]), int(st.sc[S_SUP_ECHO_UNITS]),
                st.work[WK_ECHO, :n_echo].tolist()) == _tally(st, own, tb, hand)
    assert kept > 50 and made > 50 and echoed > 100, (kept, made, echoed)
