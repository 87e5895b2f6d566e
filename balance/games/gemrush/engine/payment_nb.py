"""Paying for a door (ruling 3 and 4).

A card counts as either or both of its gems. Diamond Dust (wild) pays one unit of any standard
gem when spent. Echoglass pays one unit of a standard gem that *another* card in the same
payment pays naturally (or its own card's other gem, with echo_copies_own_card). Orichalcum
pays nothing but scores 1 point when spent on a card whose other gem pays. Warpstone pays
nothing; it lets a build happen anywhere (see mine rules).
A cost that names a special gem needs that gem itself.

A legal payment is a set of hand cards that covers the cost (and, for a Warpstone build, holds
a Warpstone card, which pays for the location) and has no card that could be left out while
the rest still does both. The engine lists them; the player picks one.
"""

import numpy as np

from balance.games.gemrush.engine.cards_nb import card_has_power_nb
from balance.games.gemrush.engine.options_nb import offer_nb
from balance.games.gemrush.engine.state import (
    S_CARD_VER,
    S_SUP_ECHO,
    S_SUP_ECHO_UNITS,
    S_SUP_KEY,
    S_SUP_WILD,
    WK_ECHO,
    WK_SCRATCH,
)
from balance.games.gemrush.tables import BONUS, ECHO, STANDARD, WARP, WILD
from balance.kernels.jit import njit

MAX_PAY_CARDS = 12  # hand cards considered for one payment (2**12 subsets at most)


@njit
def supply_nb(st, tb, cards, n):
    """Tally what cards[:n] can pay into st.gtmp (natural symbols per gem; the same from
    non-Echoglass cards; Echoglass partners per gem) and st.work[WK_ECHO] (each Echoglass
    card's partner gem). Door after door can then be checked against it by
    supply_covers_nb."""
    st.sc[S_SUP_KEY] = 0  # no hand's tally now (hand_supply_nb)
    n_g = tb.gem_power.shape[0]
    nat = st.gtmp[0]
    nonecho = st.gtmp[1]
    partner = st.gtmp[2]
    for g in range(n_g):
        nat[g] = 0
        nonecho[g] = 0
        partner[g] = 0
    n_echo = 0
    for i in range(n):
        g0 = st.face[cards[i], 0]
        g1 = st.face[cards[i], 1]
        e0 = g0 >= 0 and tb.gem_power[g0] == ECHO
        e1 = g1 >= 0 and tb.gem_power[g1] == ECHO
        is_echo = e0 or e1
        if g0 >= 0:
            nat[g0] += 1
            if not is_echo:
                nonecho[g0] += 1
        if g1 >= 0:
            nat[g1] += 1
            if not is_echo:
                nonecho[g1] += 1
        if e0 and e1:
            # Two Echoglass on one card (a skill's face): two copies, each free to copy any
            # gem the other cards show.
            st.work[WK_ECHO, n_echo] = -1
            st.work[WK_ECHO, n_echo + 1] = -1
            n_echo += 2
        elif is_echo:
            other = g1 if e0 else g0
            st.work[WK_ECHO, n_echo] = other
            n_echo += 1
            if other >= 0 and tb.gem_power[other] == STANDARD:
                partner[other] += 1
    st.sc[S_SUP_ECHO] = n_echo
    wild = 0
    echo = 0
    for g in range(n_g):
        if tb.gem_power[g] == WILD:
            wild += nat[g]
        elif tb.gem_power[g] == ECHO:
            echo += nat[g]
    st.sc[S_SUP_WILD] = wild
    st.sc[S_SUP_ECHO_UNITS] = echo


@njit
def supply_covers_nb(st, tb, cost):
    """Whether the last tallied supply (supply_nb) can pay `cost`, a per-gem count vector."""
    n_g = cost.shape[0]
    nat = st.gtmp[0]
    wild = 0
    echo_spare = 0
    deficit = 0
    cap = 0
    for g in range(n_g):
        pw = tb.gem_power[g]
        if pw == STANDARD:
            if cost[g] > nat[g]:
                deficit += cost[g] - nat[g]
                if nat[g] > 0:
                    cap += cost[g] - nat[g]
            continue
        if nat[g] < cost[g]:
            return False
        if pw == WILD:
            wild += nat[g] - cost[g]
        elif pw == ECHO:
            echo_spare += nat[g] - cost[g]
    if deficit <= wild:
        return True
    n_echo = st.sc[S_SUP_ECHO]
    if echo_spare == 0 or n_echo == 0:
        return False
    # Echoglass copies a short gem that *another* card pays naturally. Each Echoglass card is
    # eligible for every such gem except its own partner when no other card shows it; the
    # largest matching then has this closed form (Hall's condition on that structure). With
    # echo_copies_own_card its own partner is eligible too, and nothing is excluded.
    nonecho = st.gtmp[1]
    partner = st.gtmp[2]
    e = min(echo_spare, n_echo)
    m = e
    if e >= 2:
        m = min(m, cap)
    for i in range(n_echo):
        other = st.work[WK_ECHO, i]
        excl = 0
        if (not tb.echo_own_card and other >= 0 and tb.gem_power[other] == STANDARD
                and cost[other] > nat[other] and nonecho[other] == 0 and partner[other] == 1):
            excl = cost[other] - nat[other]
        m = min(m, e - 1 + cap - excl)
    return deficit <= wild + max(m, 0)


@njit
def door_covered_nb(st, tb, rt, rot, side):
    """supply_covers_nb for a door, looking only at the gems its cost names: the same answer,
    several times faster when door after door is checked against one hand."""
    cost = tb.door_cost[rt, rot, side]
    nat = st.gtmp[0]
    deficit = 0
    wild = st.sc[S_SUP_WILD]
    echo_spare = st.sc[S_SUP_ECHO_UNITS]
    for k in range(tb.door_gems.shape[3]):
        g = tb.door_gems[rt, rot, side, k]
        if g < 0:
            break
        pw = tb.gem_power[g]
        if pw == STANDARD:
            if cost[g] > nat[g]:
                deficit += cost[g] - nat[g]
            continue
        if nat[g] < cost[g]:
            return False
        if pw == WILD:
            wild -= cost[g]
        elif pw == ECHO:
            echo_spare -= cost[g]
    if deficit <= wild:
        return True
    if echo_spare == 0 or st.sc[S_SUP_ECHO] == 0:
        return False
    return supply_covers_nb(st, tb, cost)  # Echoglass may make up the rest


@njit(inline=True)
def covers_nb(st, tb, cost, cards, n):
    """Whether cards[:n] together can pay `cost`."""
    supply_nb(st, tb, cards, n)
    return supply_covers_nb(st, tb, cost)


@njit
def hand_supply_nb(st, tb, p):
    """supply_nb of seat p's hand, kept until the hands change (every change moves
    S_CARD_VER on) or another set is tallied: nearly half of a game's tallies were of the hand
    tallied just before. Code that changes a hand or a face without moving S_CARD_VER on (a
    player trying a change and undoing it) clears S_SUP_KEY."""
    key = ((st.sc[S_CARD_VER] + 1) << 6) + p
    if st.sc[S_SUP_KEY] != key:
        supply_nb(st, tb, st.hand[p], st.hand_n[p])
        st.sc[S_SUP_KEY] = key


@njit
def hand_has_warp_nb(st, tb, p):
    for i in range(st.hand_n[p]):
        if card_has_power_nb(st, tb, st.hand[p, i], WARP):
            return True
    return False


@njit
def card_relevant_nb(st, tb, card, cost, warp):
    """Whether a card could contribute to paying `cost` at all."""
    return relevant_nb(st, tb, card, cost, warp, names_standard_nb(tb, cost))


@njit(inline=True)
def names_standard_nb(tb, cost):
    """Whether `cost` names a standard gem (which Diamond Dust and Echoglass can pay)."""
    for g in range(cost.shape[0]):
        if cost[g] > 0 and tb.gem_power[g] == STANDARD:
            return True
    return False


@njit(inline=True)
def relevant_nb(st, tb, card, cost, warp, std_cost):
    """card_relevant_nb, given names_standard_nb of the cost."""
    for k in range(2):
        g = st.face[card, k]
        if g < 0:
            continue
        pw = tb.gem_power[g]
        if cost[g] > 0:
            return True
        if std_cost and (pw == WILD or pw == ECHO):
            return True
        if warp and pw == WARP:
            return True
    return False


@njit
def payment_stats_nb(st, tb, cards, n, cost, warp):
    """(symbols wasted, Orichalcum points) of a legal payment."""
    symbols = 0
    bonus = 0
    for i in range(n):
        for k in range(2):
            g = st.face[cards[i], k]
            if g >= 0:
                symbols += 1
                if tb.gem_power[g] == BONUS:
                    bonus += 1
    units = 0
    for g in range(cost.shape[0]):
        units += cost[g]
    waste = symbols - units - bonus - (1 if warp else 0)
    return max(waste, 0), bonus


@njit(inline=True)
def bit_count_nb(x):
    """Set bits of a non-negative x (LLVM makes this loop one popcnt instruction)."""
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(inline=True)
def symbol_masks_nb(st, tb, p, rel, k, masks):
    """For each gem g, masks[2g] gets a bit for every relevant card (rel[:k], hand positions)
    showing g, masks[2g + 1] one for every card showing it twice: a set's natural count of g
    is then two bit counts. Returns whether any of the cards shows Echoglass."""
    n_g = tb.gem_power.shape[0]
    for i in range(2 * n_g):
        masks[i] = 0
    echo = False
    for b in range(k):
        card = st.hand[p, rel[b]]
        g0 = st.face[card, 0]
        g1 = st.face[card, 1]
        if g0 >= 0:
            masks[2 * g0] |= 1 << b
            echo = echo or tb.gem_power[g0] == ECHO
        if g1 >= 0:
            masks[2 * g1 + (1 if g1 == g0 else 0)] |= 1 << b
            echo = echo or tb.gem_power[g1] == ECHO
    return echo


@njit(inline=True)
def set_covers_nb(tb, cost, masks, mask):
    """supply_covers_nb for the set `mask` of relevant cards (symbol_masks_nb), when none of
    them shows Echoglass: every special gem the cost names shown as often, and the Diamond
    Dust left over covers the standard units missing."""
    deficit = 0
    wild = 0
    for g in range(cost.shape[0]):
        pw = tb.gem_power[g]
        c = cost[g]
        if c == 0 and pw != WILD:
            continue
        nat = bit_count_nb(mask & masks[2 * g]) + bit_count_nb(mask & masks[2 * g + 1])
        if pw == STANDARD:
            if c > nat:
                deficit += c - nat
        elif nat < c:
            return False
        elif pw == WILD:
            wild += nat - c
    return deficit <= wild


@njit
def list_payments_nb(st, tb, p, cost, warp, rel, sub):
    """Fill st.opt with legal payments: (hand-position mask, hand position of its first
    Warpstone card or -1, cards, waste). `rel` and `sub` are work arrays. Returns the number
    of options."""
    k = 0
    warp_bits = 0
    std_cost = names_standard_nb(tb, cost)
    for i in range(st.hand_n[p]):
        # positions past 61 would not fit the int64 option mask
        if k < MAX_PAY_CARDS and i < 62 and relevant_nb(st, tb, st.hand[p, i], cost, warp,
                                                           std_cost):
            rel[k] = i
            if warp and card_has_power_nb(st, tb, st.hand[p, i], WARP):
                warp_bits |= 1 << k
            k += 1
    # Without Echoglass among the cards a set's cover is two bit counts a gem (set_covers_nb);
    # with it, the set is tallied (covers_nb). The masks live in the Echoglass row of the work
    # space, which only a tally uses.
    masks = st.work[WK_ECHO]
    st.sc[S_SUP_KEY] = 0  # the hand's tally loses its Echoglass row
    tally = symbol_masks_nb(st, tb, p, rel, k, masks)
    # A set pays when it covers the cost and, for a Warpstone build, holds a Warpstone card;
    # it is legal when no card can be left out of it and it still pays. Both parts are
    # monotone (more cards never pay less), so sets are tallied in increasing order with one
    # bit per subset of the relevant cards: a set with a paying subset less one card pays
    # without a tally, and is no legal payment. In a Warpstone build a spare Warpstone card is
    # therefore refused like any other spare card: the build needs one, whichever it is.
    bits = st.work[WK_SCRATCH]
    for i in range(((1 << k) + 63) >> 6):
        bits[i] = 0
    n_opts = 0
    for mask in range(1 << k):
        if warp and (mask & warp_bits) == 0:
            continue  # no Warpstone: it does not pay, and its bit stays unset
        spare = False
        for b in range(k):
            if (mask >> b) & 1:
                less = mask ^ (1 << b)
                if (bits[less >> 6] >> (less & 63)) & 1:
                    spare = True
                    break
        if not spare:
            if tally:
                m = _set_cards_nb(st, p, rel, k, mask, sub)
                if not covers_nb(st, tb, cost, sub, m):
                    continue
            elif not set_covers_nb(tb, cost, masks, mask):
                continue
        # int64 arithmetic: bit 63 wraps to the sign bit, compiled or not (a Python int
        # would overflow the array's type without the JIT)
        bits[mask >> 6] |= np.int64(1) << np.int64(mask & 63)
        if spare:
            continue
        m = _set_cards_nb(st, p, rel, k, mask, sub)
        hand_mask = 0
        warp_pos = -1
        for b in range(k):
            if (mask >> b) & 1:
                hand_mask |= 1 << rel[b]
                if warp_pos < 0 and (warp_bits >> b) & 1:
                    warp_pos = rel[b]
        waste, _bonus = payment_stats_nb(st, tb, sub, m, cost, warp)
        n_opts = offer_nb(st, n_opts, hand_mask, warp_pos, m, waste)
    return n_opts


@njit(inline=True)
def _set_cards_nb(st, p, rel, k, mask, sub):
    """The cards of set `mask` into sub, in hand order; returns how many."""
    m = 0
    for b in range(k):
        if (mask >> b) & 1:
            sub[m] = st.hand[p, rel[b]]
            m += 1
    return m
