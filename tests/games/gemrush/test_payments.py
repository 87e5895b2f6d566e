"""The legal payments the engine lists, against a plain enumeration of every set of hand cards.

list_payments_nb skips the tally of a set that has a paying subset (paying is monotone), and
checks a set without Echoglass by counting bits rather than by a tally; this checks that
neither shortcut drops or adds a payment, Warpstone builds included."""

from itertools import combinations

import numpy as np
import pytest

from balance.games.gemrush.engine.payment_nb import card_relevant_nb, covers_nb, list_payments_nb
from balance.games.gemrush.engine.state import new_state
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
