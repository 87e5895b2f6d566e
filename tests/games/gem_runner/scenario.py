"""Hand-built Gem Runner situations for the rule tests: a game started from a seed, then hands,
the Pool, Stacks and the Challenge set directly (every card taken from where it lay, so that the
cards stay conserved), and the compiled rules' own options_nb and apply_nb run on it, one
option at a time, as the kit's loop runs them, with the invariants checked after each."""

from __future__ import annotations

import numpy as np

from balance.games.gem_runner.codes import (
    DECK,
    KIND,
    LEFT,
    NEED_ACT,
    NEED_EL,
    PLAY_ACT,
    PLAY_EL,
    RIGHT,
)
from balance.games.gem_runner.game import KIT
from balance.games.gem_runner.rules_nb import (
    apply_nb,
    automa_nb,
    broken_nb,
    options_nb,
    start_nb,
)
from balance.kernels.rng import seed_states
from balance.kit.nb import reset_kit_nb
from balance.kit.play import Setup, prepare
from balance.kit.state import OFFERED


def game(rules: dict | None = None, players: int = 2, seed: int = 1) -> Setup:
    """A started game, checks on, its seats scripted (the tests pick by hand)."""
    s = prepare(KIT, rules or {}, ("scripted",) * players)
    reset_kit_nb(s.state.kit, s.players, seed_states([seed])[0], 0, 1)
    start_nb(s.state, s.tables, s.rules)
    return s


def _piles(s: Setup):
    st = s.state
    return [(st.deck0, st.deck0_n), (st.deck1, st.deck1_n), (st.deck2, st.deck2_n),
            (st.deck3, st.deck3_n)]


def lift(s: Setup, card: int) -> None:
    """Take `card` from wherever it lies (a draw pile, a discard pile, a hand, the Computer's
    cards, the Pool, a Stack), so that a test may put it elsewhere."""
    st = s.state

    def out_of(items, count, at=0):
        n = int(count[at])
        where = np.flatnonzero(items[:n] == card)
        if len(where) == 0:
            return False
        items[where[0]:n - 1] = items[where[0] + 1:n].copy()
        count[at] = n - 1
        return True

    for pile, n in _piles(s):
        if out_of(pile, n):
            return
    for d in range(st.disc.shape[0]):
        if out_of(st.disc[d], st.disc_n, d):
            return
    for q in range(st.hand.shape[0]):
        if out_of(st.hand[q], st.hand_n, q):
            return
    if out_of(st.comp, st.comp_n) or out_of(st.pool, st.pool_n):
        return
    for q in range(st.stack.shape[0]):
        if out_of(st.stack[q], st.stack_n, q):
            return
    raise AssertionError(f"card {card} is nowhere to take it from")


def hand(s: Setup, seat: int, *cards: int) -> None:
    """Seat's hand holds exactly `cards` (its old cards go back on its deck's draw pile)."""
    st = s.state
    old = [int(c) for c in st.hand[seat, :st.hand_n[seat]]]
    st.hand_n[seat] = 0
    for c in old:
        pile, n = _piles(s)[int(s.tables.card[c, DECK])]
        pile[n[0]] = c
        n[0] += 1
    for c in cards:
        lift(s, c)
        st.hand[seat, st.hand_n[seat]] = c
        st.hand_n[seat] += 1


def pool(s: Setup, *cards: int) -> None:
    for c in cards:
        lift(s, c)
        s.state.pool[s.state.pool_n[0]] = c
        s.state.pool_n[0] += 1


def stack(s: Setup, seat: int, *cards: int) -> None:
    st = s.state
    for c in cards:
        lift(s, c)
        st.stack[seat, st.stack_n[seat]] = c
        st.stack_n[seat] += 1
        if seat < s.rules.players:
            st.kit.score[seat] = st.stack_n[seat]


def cards_of(s: Setup, kind: int) -> list[int]:
    return [int(i) for i in np.flatnonzero(s.tables.card[:, KIND] == kind)]


def set_card(s: Setup, card: int, play=None, vs=None, need=None) -> None:
    """A card's sections rewritten, for a situation the shipped decks do not hold (the
    tables and the state's copy of them alike)."""
    for table in (s.tables.card, s.state.card):
        if play is not None:
            table[card, PLAY_EL], table[card, PLAY_ACT] = play
        if vs is not None:
            table[card, LEFT], table[card, RIGHT] = vs
        if need is not None:
            table[card, NEED_EL], table[card, NEED_ACT] = need


def options(s: Setup) -> list[tuple[int, int, int, int]]:
    options_nb(s.state, s.tables, s.rules)
    n = int(s.state.kit.sc[OFFERED])
    return [tuple(int(x) for x in row) for row in s.state.kit.opt[:n]]


def pick(s: Setup, kind: int, a: int | None = None) -> None:
    """The option of that kind (and card) applied; it must be offered; the invariants hold
    after it."""
    opts = options(s)
    for i, o in enumerate(opts):
        if o[0] == kind and (a is None or o[1] == a):
            apply_nb(s.state, s.tables, s.rules, i)
            assert broken_nb(s.state, s.rules) == 0, broken_nb(s.state, s.rules)
            return
    raise AssertionError(f"no option {kind, a} among {opts}")


def computer_pick(s: Setup) -> tuple[int, int, int, int]:
    """The Computer's option at the decision at hand (not applied)."""
    opts = options(s)
    return opts[automa_nb(s.state, s.tables, s.rules)]



def computer_cards(s: Setup, *cards: int) -> None:
    """The Computer's face-up cards are exactly `cards` (its old ones go back on its deck)."""
    st = s.state
    old = [int(c) for c in st.comp[:st.comp_n[0]]]
    st.comp_n[0] = 0
    for c in old:
        pile, n = _piles(s)[int(s.tables.card[c, DECK])]
        pile[n[0]] = c
        n[0] += 1
    for c in cards:
        lift(s, c)
        st.comp[st.comp_n[0]] = c
        st.comp_n[0] += 1


def on_top(s: Setup, deck: int, *cards: int) -> None:
    """`cards` drawn next from deck `deck`, the first first."""
    for c in reversed(cards):
        lift(s, c)
        pile, n = _piles(s)[deck]
        pile[n[0]] = c
        n[0] += 1
