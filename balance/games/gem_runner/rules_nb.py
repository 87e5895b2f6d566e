"""Gem Runner's rules, compiled, on the engine kit (balance/kit/; the guide's developers/kit.md
and games/gem-runner.md, which states each reading).

A turn: the seat runs the Challenge made for it, then makes one for the next. Making one
(decision `build`), it lays Hazards left to right, each one's left icon matching the right
icon before it unless a Chain lies between, at most `base_hazards` and `chain_adds` more for
each Chain, and ends with a Gem: from its hand, from the Pool, or without either the most
recent of its Stack, or else discarding and drawing until a Gem turns up (`dig`). Running
(`run`), it beats the Hazards in order, one card each whose Play section meets the Need (its
Element, its action; a Chain any Hazard), and then the Gem; a Gem card beating a Hazard wins
itself and ends the run; beating the Gem wins it, the beating card if it is a Gem, and the
whole Pool. A Gem not won goes to the Pool. After each half of its turn a seat may discard a
card (`discard`) and refills its hand. The first Stack of `target` Gems wins.

Against the Computer (play = computer) the Computer, no seat, starts, and faces each seat in
turn; it is dealt `computer_hand` cards face up for each Challenge it makes or runs and
discards them after, keeping Bugs and Bug Fixes; its choices are plans_nb's, with its levers.
Bugs (bug_rule = glitch, reconstructed): at the Gem a runner holding a Chain may play a Bug,
so that a Chain may win the Gem; the creator may answer with a Bug Fix (`fix`)."""

import numpy as np

from balance.games.gem_runner.cards_nb import (
    beats_nb,
    card_at_nb,
    discard_nb,
    fits_nb,
    give_nb,
    held_n_nb,
    pile_n_nb,
    pop_nb,
    push_nb,
    shuffle_pile_nb,
    take_nb,
    who_nb,
)
from balance.games.gem_runner.codes import (
    AFTER,
    AFTER_BUILD,
    AFTER_RUN,
    ALLOW,
    ANY,
    BEAT,
    BEATEN,
    BOSS,
    BUG,
    BUG_FIX,
    BUG_ON,
    BUGGED,
    BUGS,
    BUGS_GLITCH,
    BUGS_PLAYED,
    BUILD,
    CAP,
    CARD_FIELDS,
    CHAIN,
    CHAINS,
    CHALLENGES,
    COMPUTER,
    COMPUTER_GEMS,
    CREATOR,
    DEALT,
    DECK,
    DIG,
    DIG_CARD,
    DISCARD,
    DRAWN,
    DUG,
    EDGE,
    FINAL_GEMS,
    FINISHED,
    FIX,
    FIXED,
    FIXES,
    FROM_DECK,
    FROM_HAND,
    FROM_POOL,
    FROM_STACK,
    GEM,
    GEM_GONE,
    GEM_ON_HAZARD,
    GEMS_WON,
    HAND_GEM,
    HAZARD,
    HAZARD_GEMS,
    HAZARDS,
    KEEP,
    KIND,
    MAX_CHALLENGE,
    MAX_DECKS,
    MAX_HAND,
    NAME,
    NEXT_SEAT,
    NO_GEM,
    NO_REFILL,
    PH_SLOTS,
    PHASE,
    PLACED,
    PLACED_CHAINS,
    PLACED_HAZARDS,
    PLAY_BUG,
    PLAY_FIX,
    PLAYED,
    POOL_BEHIND,
    POOL_DECIDES,
    POOL_GEM,
    POOL_GEMS,
    POOL_OVERTAKES,
    POOL_TAKEN,
    POOL_WINS,
    POOLED,
    POS,
    PUT_CHAIN,
    PUT_HAZARD,
    RESHUFFLED,
    RESOLVED,
    RIGHT,
    RUN,
    RUNNER,
    RUNS,
    RUNS_WON,
    STACK_GEM,
    STOP,
    STOPPED,
    THROW,
    THROWN,
    WON,
    Rules,
    State,
)
from balance.games.gem_runner.plans_nb import computer_choice_nb
from balance.kernels.jit import njit
from balance.kit.nb import (
    ask_nb,
    automa_wins_nb,
    emit_nb,
    ended_nb,
    offer_nb,
    turn_nb,
    turns_nb,
    undecided_nb,
    win_nb,
)
from balance.kit.state import AUTOMA

__all__ = ("Rules", "State", "new_tables")


def new_tables(rules: Rules):
    """The game's tables (rules.py's new_tables), for the kit, which asks the rules' module."""
    # Any kit game's run imports this module when a Numba cache index names its types, and a
    # run reads its own game's files alone (tests/test_data_identity.py).
    # lazy: rules.py reads the decks at import
    from balance.games.gem_runner.rules import new_tables as build

    return build(rules)
POOL_OFFERS = 16  # Pool Gems offered by name; the rest wait behind them (one Need as good)


def new_state(rules, kit):
    size = sum(getattr(rules, c) for c in ("hazards", "bosses", "gems", "chains", "bugs",
                                           "bug_fixes"))
    cards = size * rules.decks
    seats = rules.players

    def z(*shape):
        return np.zeros(shape, np.int64)

    return State(kit, z(seats, MAX_HAND), z(seats), z(size), z(1), z(size), z(1), z(size), z(1),
                 z(size), z(1), z(MAX_DECKS, size), z(MAX_DECKS), z(MAX_HAND), z(1),
                 z(seats + 1, cards), z(seats + 1), z(cards), z(1), z(MAX_CHALLENGE),
                 z(MAX_CHALLENGE), z(1), z(PH_SLOTS), np.zeros(4), z(MAX_HAND),
                 z(MAX_CHALLENGE + 1, 6), np.zeros(MAX_CHALLENGE + 1),
                 z(cards, CARD_FIELDS))


@njit(inline=True)
def hand_size_nb(rules, w):
    if w == rules.players:
        return rules.computer_hand
    if rules.play == COMPUTER and rules.players > 1:
        return rules.pair_hand
    return rules.hand


@njit(inline=True)
def mark_nb(state, tables, slot, w, card):
    """Seat w's bit of the card's name in the card record's `slot` (DRAWN, PLAYED); the
    Computer (w AUTOMA or rules.players) is no seat and has none."""
    if 0 <= w < state.kit.score.shape[0]:
        state.kit.rec[slot + w] |= np.int64(1) << tables.card[card, NAME]


@njit(inline=True)
def draw_nb(state, tables, rules, w):
    """A card from w's deck, the deck's discard pile shuffled into it when it runs out; -1
    when both are empty."""
    d = tables.seat_deck[w]
    if pile_n_nb(state, d) == 0:
        m = state.disc_n[d]
        if m == 0:
            return -1
        for i in range(m):
            push_nb(state, d, state.disc[d, i])
        state.disc_n[d] = 0
        shuffle_pile_nb(state.kit, state, d)
        emit_nb(state.kit, RESHUFFLED, d + 1, m, 0, 0)
    card = pop_nb(state, d)
    mark_nb(state, tables, DRAWN, w, card)
    return card


@njit(inline=True)
def refill_nb(state, tables, rules, w):
    want = hand_size_nb(rules, w)
    while held_n_nb(state, rules, w) < want:
        card = draw_nb(state, tables, rules, w)
        if card < 0:
            return
        give_nb(state, rules, w, card)


@njit
def computer_deal_nb(state, tables, rules):
    """The Computer's cards for a Challenge: what it kept, and `computer_hand` more face up."""
    w = rules.players
    kept = state.comp_n[0]
    want = min(kept + rules.computer_hand, MAX_HAND - 1)
    while state.comp_n[0] < want:
        card = draw_nb(state, tables, rules, w)
        if card < 0:
            break
        give_nb(state, rules, w, card)
    emit_nb(state.kit, DEALT, state.comp_n[0] - kept, kept, 0, 0)


@njit
def computer_clear_nb(state, tables, rules):
    """The Computer discards its cards, keeping its Bugs and Bug Fixes while Bugs can be
    played (a Bug Fix goes once every Bug of the game has been)."""
    all_played = state.ph[BUGS_PLAYED] >= rules.bugs * rules.decks
    j = 0
    while j < state.comp_n[0]:
        kind = tables.card[state.comp[j], KIND]
        keep = rules.bug_rule == BUGS_GLITCH and (
            kind == BUG or (kind == BUG_FIX and not all_played))
        if keep:
            j += 1
        else:
            discard_nb(state, tables, take_nb(state, rules, rules.players, j))


@njit(inline=True)
def gain_nb(state, rules, w, card):
    """A Gem into w's Stack; the game ends when the Stack reaches the target."""
    state.stack[w, state.stack_n[w]] = card
    state.stack_n[w] += 1
    if w < rules.players:
        state.kit.score[w] = state.stack_n[w]


@njit(inline=True)
def won_check_nb(state, rules, w):
    """The target reached: by w's Stack; against the Computer, a team's by the seats' Stacks
    together (the seat whose Gem reached it is the one the record names)."""
    if ended_nb(state.kit):
        return
    if w == rules.players:
        if state.stack_n[w] >= rules.target:
            automa_wins_nb(state.kit, GEMS_WON)
        return
    gems = state.stack_n[w]
    if rules.play == COMPUTER:
        gems = 0
        for q in range(rules.players):
            gems += state.stack_n[q]
    if gems >= rules.target:
        win_nb(state.kit, w, GEMS_WON)


@njit(inline=True)
def clear_challenge_nb(state, tables):
    """The Challenge left on the table by the last run into the discard piles: its Hazards
    and Chains and the cards that beat them (Gems among those were won: they are in a
    Stack, as is or was the Challenge's Gem)."""
    n = state.chal_n[0]
    for i in range(n):
        if state.under[i] >= 0 and tables.card[state.under[i], KIND] != GEM:
            discard_nb(state, tables, state.under[i])
        state.under[i] = -1
        if tables.card[state.chal[i], KIND] != GEM:
            discard_nb(state, tables, state.chal[i])
    state.chal_n[0] = 0
    state.ph[RESOLVED] = 0
    state.ph[GEM_GONE] = 0


@njit(inline=True)
def begin_build_nb(state, tables, rules, seat):
    ph = state.ph
    clear_challenge_nb(state, tables)
    ph[PHASE] = BUILD
    ph[CREATOR] = seat
    ph[PLACED_HAZARDS] = 0
    ph[PLACED_CHAINS] = 0
    ph[EDGE] = ANY
    if seat == AUTOMA:
        computer_deal_nb(state, tables, rules)


@njit
def take_gem_nb(state, tables, d):
    """The Gem nearest the top of deck d's draw pile, taken out at the start; the cards above
    it go back in their order, held meanwhile in the deck's discard pile, empty then (the
    rules' checks keep the Gems at the start within a deck's Gems)."""
    k = 0
    card = pop_nb(state, d)
    while tables.card[card, KIND] != GEM:
        state.disc[d, k] = card
        k += 1
        card = pop_nb(state, d)
    for i in range(k - 1, -1, -1):
        push_nb(state, d, state.disc[d, i])
    return card


@njit
def start_nb(state, tables, rules):
    kit = state.kit
    cards = tables.card.shape[0]
    for i in range(cards):
        for f in range(CARD_FIELDS):
            state.card[i, f] = tables.card[i, f]
    state.deck0_n[0] = 0
    state.deck1_n[0] = 0
    state.deck2_n[0] = 0
    state.deck3_n[0] = 0
    state.disc_n[:] = 0
    for card in range(cards):
        push_nb(state, tables.card[card, DECK], card)
    for d in range(rules.decks):
        shuffle_pile_nb(kit, state, d)
    state.hand_n[:] = 0
    state.comp_n[0] = 0
    state.stack_n[:] = 0
    state.pool_n[0] = 0
    state.chal_n[0] = 0
    state.under[:] = -1
    state.ph[:] = 0
    for q in range(rules.players):
        for _ in range(tables.start_gems[q]):
            gain_nb(state, rules, q, take_gem_nb(state, tables, tables.seat_deck[q]))
    for q in range(rules.players):
        refill_nb(state, tables, rules, q)
    for _ in range(rules.first_cards):
        give_nb(state, rules, 0, draw_nb(state, tables, rules, 0))
    if rules.play == COMPUTER:
        state.ph[NEXT_SEAT] = 0
        turn_nb(kit, AUTOMA)
        begin_build_nb(state, tables, rules, AUTOMA)
    else:
        turn_nb(kit, 0)
        begin_build_nb(state, tables, rules, 0)


@njit(inline=True)
def hazard_room_nb(state, rules):
    ph = state.ph
    return ph[PLACED_HAZARDS] < rules.base_hazards + rules.chain_adds * ph[PLACED_CHAINS]


@njit(inline=True)
def options_nb(state, tables, rules):
    kit = state.kit
    ph = state.ph
    phase = ph[PHASE]
    if phase == BUILD or phase == DIG:
        seat = ph[CREATOR]
        w = who_nb(rules, seat)
        n = held_n_nb(state, rules, w)
        if phase == DIG:
            ask_nb(kit, DIG, seat)
            for j in range(n):
                offer_nb(kit, DIG_CARD, card_at_nb(state, rules, w, j), j, 0)
            if n == 0:
                offer_nb(kit, DIG_CARD, -1, -1, 0)
            return
        ask_nb(kit, BUILD, seat)
        gem = False
        room = hazard_room_nb(state, rules) and state.chal_n[0] < MAX_CHALLENGE - 2
        for j in range(n):
            card = card_at_nb(state, rules, w, j)
            kind = tables.card[card, KIND]
            if kind == HAZARD or kind == BOSS:
                if room and fits_nb(tables, ph[EDGE], card):
                    offer_nb(kit, PUT_HAZARD, card, j, 0)
            elif kind == CHAIN:
                if state.chal_n[0] < MAX_CHALLENGE - 2:
                    offer_nb(kit, PUT_CHAIN, card, j, 0)
            elif kind == GEM:
                offer_nb(kit, HAND_GEM, card, j, 0)
                gem = True
        for i in range(min(state.pool_n[0], POOL_OFFERS)):
            offer_nb(kit, POOL_GEM, state.pool[i], i, 0)
        if not gem and state.pool_n[0] == 0:
            if state.stack_n[w] > 0:
                offer_nb(kit, STACK_GEM, state.stack[w, state.stack_n[w] - 1], 0, 0)
            else:
                for j in range(n):
                    offer_nb(kit, DIG_CARD, card_at_nb(state, rules, w, j), j, 0)
                if n == 0:
                    offer_nb(kit, DIG_CARD, -1, -1, 0)
        return
    if phase == DISCARD:
        seat = ph[RUNNER] if ph[AFTER] == AFTER_RUN else ph[CREATOR]
        ask_nb(kit, DISCARD, seat)
        offer_nb(kit, KEEP, 0, 0, 0)
        for j in range(state.hand_n[seat]):
            offer_nb(kit, THROW, state.hand[seat, j], j, 0)
        return
    if phase == FIX:
        seat = ph[CREATOR]
        w = who_nb(rules, seat)
        ask_nb(kit, FIX, seat)
        for j in range(held_n_nb(state, rules, w)):
            card = card_at_nb(state, rules, w, j)
            if tables.card[card, KIND] == BUG_FIX:
                offer_nb(kit, PLAY_FIX, card, j, 0)
        offer_nb(kit, ALLOW, 0, 0, 0)
        return
    seat = ph[RUNNER]
    ask_nb(kit, RUN, seat)
    run_offers_nb(state, tables, rules, True)


@njit(inline=True)
def run_offers_nb(state, tables, rules, offer):
    """The runner's ways on at the Challenge's card at hand (offered when `offer`): the cards
    that beat it, a Bug at the Gem, and stopping. How many besides stopping."""
    kit = state.kit
    ph = state.ph
    w = who_nb(rules, ph[RUNNER])
    n = held_n_nb(state, rules, w)
    pos = ph[POS]
    target = state.chal[pos]
    found = 0
    chain = False
    for j in range(n):
        card = card_at_nb(state, rules, w, j)
        if beats_nb(tables, rules, card, target, ph[BUG_ON]):
            found += 1
            if offer:
                offer_nb(kit, BEAT, card, j, pos + 1)
        chain = chain or tables.card[card, KIND] == CHAIN
    if rules.bug_rule == BUGS_GLITCH and ph[BUG_ON] == 0 and chain \
            and tables.card[target, KIND] == GEM:
        for j in range(n):
            card = card_at_nb(state, rules, w, j)
            if tables.card[card, KIND] == BUG:
                found += 1
                if offer:
                    offer_nb(kit, PLAY_BUG, card, j, 0)
    if offer:
        offer_nb(kit, STOP, pos + 1, 0, 0)
    return found


@njit(inline=True)
def finish_nb(state, tables, rules, card, source):
    """The Challenge ends with Gem `card`; the creator's optional discard, or the Computer's
    clearing, then the run."""
    ph = state.ph
    kit = state.kit
    state.chal[state.chal_n[0]] = card
    state.under[state.chal_n[0]] = -1
    state.chal_n[0] += 1
    emit_nb(kit, FINISHED, card, source, ph[PLACED_HAZARDS], ph[PLACED_CHAINS])
    kit.rec[CHALLENGES] += 1
    kit.rec[HAZARDS] += ph[PLACED_HAZARDS]
    kit.rec[CHAINS] += ph[PLACED_CHAINS]
    if ph[CREATOR] == AUTOMA:
        computer_clear_nb(state, tables, rules)
        start_run_nb(state, tables, rules)
    else:
        ph[PHASE] = DISCARD
        ph[AFTER] = AFTER_BUILD


@njit(inline=True)
def next_runner_nb(state, rules):
    creator = state.ph[CREATOR]
    if rules.play != COMPUTER:
        return (creator + 1) % rules.players
    if creator == AUTOMA:
        seat = state.ph[NEXT_SEAT]
        state.ph[NEXT_SEAT] = (seat + 1) % rules.players
        return seat
    return AUTOMA


@njit(inline=True)
def start_run_nb(state, tables, rules):
    kit = state.kit
    ph = state.ph
    if turns_nb(kit) >= rules.max_turns:
        undecided_nb(kit, CAP)
        return
    runner = next_runner_nb(state, rules)
    turn_nb(kit, runner)
    ph[RUNNER] = runner
    ph[POS] = 0
    ph[BUG_ON] = 0
    ph[NO_REFILL] = 0
    ph[PHASE] = RUN
    if runner == AUTOMA:
        computer_deal_nb(state, tables, rules)
    else:
        kit.tally[runner, RUNS] += 1
    run_on_nb(state, tables, rules)


@njit(inline=True)
def run_on_nb(state, tables, rules):
    """Past the Chains (no Hazards of their own) to the next card to beat; a runner with no
    way on stops without being asked."""
    ph = state.ph
    while tables.card[state.chal[ph[POS]], KIND] == CHAIN:
        ph[POS] += 1
    if run_offers_nb(state, tables, rules, False) == 0:
        end_run_nb(state, tables, rules, False)


@njit(inline=True)
def side_gems_nb(state, rules, w):
    """The Gems of w's side: its Stack, or against the Computer a seat's team's Stacks."""
    if rules.play != COMPUTER or w == rules.players:
        return state.stack_n[w]
    gems = 0
    for q in range(rules.players):
        gems += state.stack_n[q]
    return gems


@njit(inline=True)
def best_other_nb(state, rules, w):
    """The most Gems of any side but w's."""
    if rules.play == COMPUTER:
        return side_gems_nb(state, rules, rules.players if w < rules.players else 0)
    best = 0
    for q in range(rules.players):
        if q != w and state.stack_n[q] > best:
            best = state.stack_n[q]
    return best


@njit(inline=True)
def collect_nb(state, tables, rules, w, beat_with):
    """w won the Challenge's Gem: it, the Gem card that beat it if one did, and the Pool."""
    kit = state.kit
    before, other = side_gems_nb(state, rules, w), best_other_nb(state, rules, w)
    gem = state.chal[state.chal_n[0] - 1]
    gain_nb(state, rules, w, gem)
    got = 1
    if tables.card[beat_with, KIND] == GEM:
        gain_nb(state, rules, w, beat_with)
        got += 1
    pooled = state.pool_n[0]
    for i in range(pooled):
        gain_nb(state, rules, w, state.pool[i])
    state.pool_n[0] = 0
    state.ph[GEM_GONE] = 1
    kit.rec[FINAL_GEMS] += 1
    kit.rec[POOL_GEMS] += pooled
    if pooled > 0:
        kit.rec[POOL_WINS] += 1
        if before + got < rules.target <= before + got + pooled:
            kit.rec[POOL_DECIDES] = 1
        if before < other:
            kit.rec[POOL_BEHIND] += 1
            if before + got + pooled > other:
                kit.rec[POOL_OVERTAKES] += 1
    if w < rules.players:
        kit.tally[w, RUNS_WON] += 1
        kit.tally[w, POOL_TAKEN] += pooled
    emit_nb(kit, WON, got + pooled, pooled, state.stack_n[w], 0)


@njit(inline=True)
def end_run_nb(state, tables, rules, won):
    """The run is over: a Gem not won to the Pool; the runner's discard and refill (the
    Computer clears its cards), then it makes the next Challenge."""
    kit = state.kit
    ph = state.ph
    ph[RESOLVED] = 1
    runner = ph[RUNNER]
    w = who_nb(rules, runner)
    if not won:
        gem = state.chal[state.chal_n[0] - 1]
        state.pool[state.pool_n[0]] = gem
        state.pool_n[0] += 1
        ph[GEM_GONE] = 1
        emit_nb(kit, POOLED, gem, state.pool_n[0], 0, 0)
    won_check_nb(state, rules, w)
    if ended_nb(kit):
        return
    if runner == AUTOMA:
        computer_clear_nb(state, tables, rules)
        begin_build_nb(state, tables, rules, AUTOMA)
    else:
        ph[PHASE] = DISCARD
        ph[AFTER] = AFTER_RUN


@njit(inline=True)
def apply_nb(state, tables, rules, pick):
    kit = state.kit
    ph = state.ph
    kind, card, j = kit.opt[pick, 0], kit.opt[pick, 1], kit.opt[pick, 2]
    if kind == PUT_HAZARD or kind == PUT_CHAIN:
        take_nb(state, rules, who_nb(rules, ph[CREATOR]), j)
        mark_nb(state, tables, PLAYED, ph[CREATOR], card)
        state.chal[state.chal_n[0]] = card
        state.under[state.chal_n[0]] = -1
        state.chal_n[0] += 1
        if kind == PUT_HAZARD:
            ph[PLACED_HAZARDS] += 1
            ph[EDGE] = tables.card[card, RIGHT]
        else:
            ph[PLACED_CHAINS] += 1
            ph[EDGE] = ANY
        emit_nb(kit, PLACED, card, state.chal_n[0], 0, 0)
    elif kind == HAND_GEM:
        take_nb(state, rules, who_nb(rules, ph[CREATOR]), j)
        mark_nb(state, tables, PLAYED, ph[CREATOR], card)
        finish_nb(state, tables, rules, card, FROM_HAND)
    elif kind == POOL_GEM:
        state.pool_n[0] -= 1
        state.pool[j] = state.pool[state.pool_n[0]]
        finish_nb(state, tables, rules, card, FROM_POOL)
    elif kind == STACK_GEM:
        w = who_nb(rules, ph[CREATOR])
        state.stack_n[w] -= 1
        if w < rules.players:
            kit.score[w] = state.stack_n[w]
        finish_nb(state, tables, rules, card, FROM_STACK)
    elif kind == DIG_CARD:
        dig_nb(state, tables, rules, j)
    elif kind == KEEP or kind == THROW:
        discard_choice_nb(state, tables, rules, kind == THROW, j)
    elif kind == BEAT:
        beat_nb(state, tables, rules, card, j)
    elif kind == STOP:
        emit_nb(kit, STOPPED, ph[POS] + 1, 0, 0, 0)
        end_run_nb(state, tables, rules, False)
    elif kind == PLAY_BUG:
        take_nb(state, rules, who_nb(rules, ph[RUNNER]), j)
        mark_nb(state, tables, PLAYED, ph[RUNNER], card)
        discard_nb(state, tables, card)
        ph[BUG_ON] = 1
        ph[NO_REFILL] = 1
        ph[BUGS_PLAYED] += 1
        kit.rec[BUGS] += 1
        emit_nb(kit, BUGGED, card, 0, 0, 0)
        w = who_nb(rules, ph[CREATOR])
        for i in range(held_n_nb(state, rules, w)):
            if tables.card[card_at_nb(state, rules, w, i), KIND] == BUG_FIX:
                ph[PHASE] = FIX
                return
    elif kind == PLAY_FIX:
        take_nb(state, rules, who_nb(rules, ph[CREATOR]), j)
        mark_nb(state, tables, PLAYED, ph[CREATOR], card)
        discard_nb(state, tables, card)
        ph[BUG_ON] = 0
        ph[PHASE] = RUN
        kit.rec[FIXES] += 1
        emit_nb(kit, FIXED, card, 0, 0, 0)
        run_on_nb(state, tables, rules)
    else:  # ALLOW
        ph[PHASE] = RUN
        run_on_nb(state, tables, rules)


@njit
def dig_nb(state, tables, rules, j):
    """No Gem in hand, Pool or Stack: a card discarded (if any is left), one drawn; a Gem ends
    the Challenge, another card joins the hand and the digging goes on."""
    ph = state.ph
    w = who_nb(rules, ph[CREATOR])
    gone = -1
    if j >= 0:
        gone = take_nb(state, rules, w, j)
        discard_nb(state, tables, gone)
    card = draw_nb(state, tables, rules, w)
    emit_nb(state.kit, DUG, gone, card, 0, 0)
    if card < 0:
        undecided_nb(state.kit, NO_GEM)
    elif tables.card[card, KIND] == GEM:
        mark_nb(state, tables, PLAYED, ph[CREATOR], card)
        finish_nb(state, tables, rules, card, FROM_DECK)
    else:
        give_nb(state, rules, w, card)
        ph[PHASE] = DIG


@njit(inline=True)
def discard_choice_nb(state, tables, rules, throw, j):
    """A seat's optional discard, its refill, and the turn goes on: after a run the seat
    builds; after a build the next seat runs."""
    ph = state.ph
    after_run = ph[AFTER] == AFTER_RUN
    seat = ph[RUNNER] if after_run else ph[CREATOR]
    if throw:
        card = take_nb(state, rules, seat, j)
        discard_nb(state, tables, card)
        emit_nb(state.kit, THROWN, card, 0, 0, 0)
    # A seat that played a Bug draws no card until its turn's end (after its build).
    if not (after_run and ph[NO_REFILL] != 0):
        refill_nb(state, tables, rules, seat)
    if after_run:
        begin_build_nb(state, tables, rules, seat)
    else:
        start_run_nb(state, tables, rules)


@njit(inline=True)
def beat_nb(state, tables, rules, card, j):
    kit = state.kit
    ph = state.ph
    w = who_nb(rules, ph[RUNNER])
    pos = ph[POS]
    take_nb(state, rules, w, j)
    mark_nb(state, tables, PLAYED, ph[RUNNER], card)
    state.under[pos] = card
    target = state.chal[pos]
    emit_nb(kit, BEATEN, card, target, pos + 1, 0)
    if tables.card[target, KIND] == GEM:
        collect_nb(state, tables, rules, w, card)
        end_run_nb(state, tables, rules, True)
    elif tables.card[card, KIND] == GEM:
        gain_nb(state, rules, w, card)
        kit.rec[HAZARD_GEMS] += 1
        if w < rules.players:
            kit.tally[w, GEM_ON_HAZARD] += 1
        emit_nb(kit, WON, 1, 0, state.stack_n[w], 0)
        end_run_nb(state, tables, rules, False)
    else:
        ph[POS] = pos + 1
        run_on_nb(state, tables, rules)


@njit
def automa_nb(state, tables, rules):
    """The Computer's pick: plans_nb's, with its levers."""
    return computer_choice_nb(state, tables, rules)


@njit
def record_nb(state, rules):
    state.kit.rec[COMPUTER_GEMS] = state.stack_n[rules.players]


@njit
def held_cards_nb(state, tables, rules):
    """Every card the game holds somewhere, counted: the draw piles, the discards, the hands
    and the Computer's, the Stacks, the Pool, the Challenge and the cards beating it (a Gem
    card among those is in a Stack, and so is or the Pool the Challenge's Gem once gone)."""
    n = state.deck0_n[0] + state.deck1_n[0] + state.deck2_n[0] + state.deck3_n[0]
    n += state.comp_n[0] + state.pool_n[0]
    for d in range(MAX_DECKS):
        n += state.disc_n[d]
    for q in range(rules.players):
        n += state.hand_n[q]
    for q in range(rules.players + 1):
        n += state.stack_n[q]
    for i in range(state.chal_n[0]):
        last = i == state.chal_n[0] - 1
        if tables.card[state.chal[i], KIND] != GEM or not (last and state.ph[GEM_GONE]):
            n += 1
        if state.under[i] >= 0 and tables.card[state.under[i], KIND] != GEM:
            n += 1
    return n


@njit
def broken_nb(state, rules):
    """1: a card made or lost; 2: a card beating what it does not beat; 3: a Chain on a Gem
    without its Bug; 4: a Challenge laid against its rules (an edge that does not match, more
    Hazards than its Chains allow, a Gem not last); 5: a score not its seat's Stack."""
    tables = state  # its copy of the cards (State.card) is what the checks read
    ph = state.ph
    if held_cards_nb(state, tables, rules) != tables.card.shape[0]:
        return 1
    n = state.chal_n[0]
    edge, hazards, chains = ANY, 0, 0
    for i in range(n):
        card = state.chal[i]
        kind = tables.card[card, KIND]
        beat = state.under[i]
        if beat >= 0:
            if kind == GEM and tables.card[beat, KIND] == CHAIN and ph[BUG_ON] == 0:
                return 3
            if not beats_nb(tables, rules, beat, card, ph[BUG_ON]):
                return 2
        if kind == CHAIN:
            chains += 1
            edge = ANY
        elif kind == GEM:
            if i != n - 1:
                return 4
        else:
            hazards += 1
            if not fits_nb(tables, edge, card):
                return 4
            edge = tables.card[card, RIGHT]
    if hazards > rules.base_hazards + rules.chain_adds * chains:
        return 4
    for q in range(rules.players):
        if state.kit.score[q] != state.stack_n[q]:
            return 5
    return 0
