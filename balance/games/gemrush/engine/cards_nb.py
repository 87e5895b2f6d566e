"""The gem cards: deck, discard pile, hands, the revealed pool and the burnt pile.

Running out (ruling 9): taking from an empty deck reshuffles the discard pile (never burnt
cards) and goes on; with both empty nothing is taken.
"""

from balance.games.gemrush.engine.events import EV_BURN, EV_RESHUFFLE, emit_nb
from balance.games.gemrush.engine.state import (
    PILE_BURNT,
    PILE_BURNT_SEEN,
    PILE_DECK,
    PILE_DISC,
    PILE_POOL,
    PILE_REJ,
    S_BURNT_N,
    S_BURNT_SEEN_N,
    S_CARD_VER,
    S_DECK_N,
    S_DECK_OUT_TURN,
    S_DISC_N,
    S_POOL_N,
    S_REJ_N,
    S_RESHUFFLES,
    S_TURN,
)
from balance.games.gemrush.tables import STANDARD, WILD
from balance.kernels.jit import njit
from balance.kernels.rng import shuffle_nb


@njit
def reshuffle_nb(st):
    sc = st.sc
    n = sc[S_DISC_N]
    for i in range(n):
        st.piles[PILE_DECK, sc[S_DECK_N] + i] = st.piles[PILE_DISC, i]
    sc[S_DECK_N] += n
    sc[S_DISC_N] = 0
    shuffle_nb(st.rng, st.piles[PILE_DECK], sc[S_DECK_N])
    if sc[S_RESHUFFLES] == 0:
        sc[S_DECK_OUT_TURN] = sc[S_TURN]
    sc[S_RESHUFFLES] += 1
    emit_nb(st, EV_RESHUFFLE, n, 0, 0, 0, 0)


@njit
def take_top_nb(st):
    """The top card of the deck, reshuffling if needed; -1 when deck and discards are empty."""
    sc = st.sc
    if sc[S_DECK_N] == 0:
        if sc[S_DISC_N] == 0:
            return -1
        reshuffle_nb(st)
    sc[S_DECK_N] -= 1
    return st.piles[PILE_DECK, sc[S_DECK_N]]


@njit
def available_nb(st):
    return st.sc[S_DECK_N] + st.sc[S_DISC_N]


@njit
def to_hand_nb(st, p, card):
    st.hand[p, st.hand_n[p]] = card
    st.hand_n[p] += 1
    st.sc[S_CARD_VER] += 1  # players' plans depend on the hands


@njit
def hand_take_nb(st, p, pos):
    """Remove the card at hand position pos (the last card fills the gap); return it."""
    n = st.hand_n[p] - 1
    card = st.hand[p, pos]
    st.hand[p, pos] = st.hand[p, n]
    st.hand_n[p] = n
    st.sc[S_CARD_VER] += 1
    return card


@njit
def printed_nb(st, card):
    """The card shows its printed gems again: a skill's face ends where the card leaves a
    hand."""
    st.face[card, 0] = st.face[card, 2]
    st.face[card, 1] = st.face[card, 3]


@njit
def to_discard_nb(st, card):
    printed_nb(st, card)
    st.piles[PILE_DISC, st.sc[S_DISC_N]] = card
    st.sc[S_DISC_N] += 1


@njit
def to_pool_nb(st, card):
    st.piles[PILE_POOL, st.sc[S_POOL_N]] = card
    st.sc[S_POOL_N] += 1


@njit
def pool_take_nb(st, i):
    n = st.sc[S_POOL_N] - 1
    card = st.piles[PILE_POOL, i]
    st.piles[PILE_POOL, i] = st.piles[PILE_POOL, n]
    st.sc[S_POOL_N] = n
    return card


@njit
def flush_pool_nb(st):
    """Revealed cards nobody kept are discarded at the end of the ability."""
    for i in range(st.sc[S_POOL_N]):
        to_discard_nb(st, st.piles[PILE_POOL, i])
    st.sc[S_POOL_N] = 0


@njit
def flush_rejects_nb(st):
    for i in range(st.sc[S_REJ_N]):
        to_discard_nb(st, st.piles[PILE_REJ, i])
    st.sc[S_REJ_N] = 0


@njit
def burn_card_nb(st, card, source):
    """Burn a card from seat `source`'s hand, or from the deck (-1): a card burnt from the
    deck goes out unseen (1st edition: burning draws privately; the 2nd edition shows it no
    more), so players may not count it among the cards they know."""
    printed_nb(st, card)
    st.piles[PILE_BURNT, st.sc[S_BURNT_N]] = card
    st.sc[S_BURNT_N] += 1
    if source >= 0:
        st.piles[PILE_BURNT_SEEN, st.sc[S_BURNT_SEEN_N]] = card
        st.sc[S_BURNT_SEEN_N] += 1
    emit_nb(st, EV_BURN, card, source, 0, 0, 0)


@njit
def card_has_nb(st, card, mask):
    """Whether the card shows a gem of the mask (as a skill may have turned it)."""
    for k in range(2):
        g = st.face[card, k]
        if g >= 0 and (mask >> g) & 1:
            return True
    return False


@njit
def card_has_power_nb(st, tb, card, power):
    for k in range(2):
        g = st.face[card, k]
        if g >= 0 and tb.gem_power[g] == power:
            return True
    return False


@njit
def standard_mask_nb(tb):
    m = 0
    for g in range(tb.gem_power.shape[0]):
        if tb.gem_power[g] == STANDARD:
            m |= 1 << g
    return m


@njit
def discard_matches_nb(st, tb, card, fkind, mask):
    """A card may pay a 'discard a gem' step if it shows that gem; a wild gem stands in for
    any standard gem (1st-edition 'Discard' terminology)."""
    if fkind == 0:
        return True
    if card_has_nb(st, card, mask):
        return True
    if (mask & standard_mask_nb(tb)) != 0 and card_has_power_nb(st, tb, card, WILD):
        return True
    return False

