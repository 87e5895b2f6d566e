"""Gem Runner's cards, compiled: what beats what, what fits where, and where a seat's or the
Computer's cards, the decks and the discard piles lie. The rules (rules_nb.py) and the plans of
the Computer and the players (plans_nb.py) share them."""

from balance.games.gem_runner.codes import (
    ANY,
    BUG,
    BUG_FIX,
    CHAIN,
    DECK,
    GEM,
    KIND,
    LEFT,
    NEED_ACT,
    NEED_EL,
    PLAY_ACT,
    PLAY_EL,
)
from balance.kernels.jit import njit
from balance.kit.nb import shuffled_nb

N_ELEMENTS = 5


@njit(inline=True)
def beats_nb(tables, rules, card, target, bug_on):
    """Does `card` beat `target` (a Hazard or a Gem of a Challenge)? By its Play section's
    Element or action matching the Need's, or with stronger_beats by an Element one step
    before the Need's on the circle; a Chain beats any Hazard, and a Gem only under a Bug."""
    c = tables.card
    kind = c[card, KIND]
    if kind == CHAIN:
        return c[target, KIND] != GEM or bug_on != 0
    if kind == BUG or kind == BUG_FIX:
        return False
    el, need = c[card, PLAY_EL], c[target, NEED_EL]
    if el == need or c[card, PLAY_ACT] == c[target, NEED_ACT]:
        return True
    return rules.stronger_beats != 0 and (el + 1) % N_ELEMENTS == need


@njit(inline=True)
def fits_nb(tables, edge, card):
    """May a Hazard go next to a Challenge whose open edge is `edge` (ANY: none yet, or a
    Chain)? Its left icon must match."""
    return edge == ANY or tables.card[card, LEFT] == edge


@njit(inline=True)
def who_nb(rules, seat):
    """The row of a seat's cards and Stack: the seat's own, the Computer's the last."""
    return rules.players if seat < 0 else seat


@njit(inline=True)
def card_at_nb(state, rules, w, j):
    """The card at place j of w's cards (a seat's hand; the Computer's face-up cards)."""
    return state.comp[j] if w == rules.players else state.hand[w, j]


@njit(inline=True)
def set_card_at_nb(state, rules, w, j, card):
    if w == rules.players:
        state.comp[j] = card
    else:
        state.hand[w, j] = card


@njit(inline=True)
def held_n_nb(state, rules, w):
    return state.comp_n[0] if w == rules.players else state.hand_n[w]


@njit(inline=True)
def set_held_n_nb(state, rules, w, n):
    if w == rules.players:
        state.comp_n[0] = n
    else:
        state.hand_n[w] = n


@njit(inline=True)
def copy_held_nb(state, rules, w, out):
    """w's cards copied into `out` (the plans search a copy): how many."""
    n = held_n_nb(state, rules, w)
    for j in range(n):
        out[j] = card_at_nb(state, rules, w, j)
    return n


@njit(inline=True)
def take_nb(state, rules, w, j):
    """The card at place j of w's cards, taken out (the last card fills its place)."""
    n = held_n_nb(state, rules, w) - 1
    card = card_at_nb(state, rules, w, j)
    set_card_at_nb(state, rules, w, j, card_at_nb(state, rules, w, n))
    set_held_n_nb(state, rules, w, n)
    return card


@njit(inline=True)
def give_nb(state, rules, w, card):
    n = held_n_nb(state, rules, w)
    set_card_at_nb(state, rules, w, n, card)
    set_held_n_nb(state, rules, w, n + 1)


@njit(inline=True)
def pile_n_nb(state, d):
    """How many cards deck d's draw pile (its face-down part of State) holds."""
    if d == 0:
        return state.deck0_n[0]
    if d == 1:
        return state.deck1_n[0]
    if d == 2:
        return state.deck2_n[0]
    return state.deck3_n[0]


@njit(inline=True)
def push_nb(state, d, card):
    """A card onto deck d's draw pile."""
    if d == 0:
        state.deck0[state.deck0_n[0]] = card
        state.deck0_n[0] += 1
    elif d == 1:
        state.deck1[state.deck1_n[0]] = card
        state.deck1_n[0] += 1
    elif d == 2:
        state.deck2[state.deck2_n[0]] = card
        state.deck2_n[0] += 1
    else:
        state.deck3[state.deck3_n[0]] = card
        state.deck3_n[0] += 1


@njit(inline=True)
def pop_nb(state, d):
    """The top card of deck d's draw pile, taken (it must hold one)."""
    if d == 0:
        state.deck0_n[0] -= 1
        return state.deck0[state.deck0_n[0]]
    if d == 1:
        state.deck1_n[0] -= 1
        return state.deck1[state.deck1_n[0]]
    if d == 2:
        state.deck2_n[0] -= 1
        return state.deck2[state.deck2_n[0]]
    state.deck3_n[0] -= 1
    return state.deck3[state.deck3_n[0]]


@njit
def shuffle_pile_nb(kit, state, d):
    if d == 0:
        shuffled_nb(kit, state.deck0, state.deck0_n[0])
    elif d == 1:
        shuffled_nb(kit, state.deck1, state.deck1_n[0])
    elif d == 2:
        shuffled_nb(kit, state.deck2, state.deck2_n[0])
    else:
        shuffled_nb(kit, state.deck3, state.deck3_n[0])


@njit(inline=True)
def discard_nb(state, tables, card):
    """A card onto its own deck's discard pile."""
    d = tables.card[card, DECK]
    state.disc[d, state.disc_n[d]] = card
    state.disc_n[d] += 1
