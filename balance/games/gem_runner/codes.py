"""Gem Runner's codes and the shapes of its compiled state (rules_nb.py holds the rules that use
them). Apart from the rules so that the declaration (game.py), the settings (rules.py) and the
decks (decks.py) read them without compiling anything."""

from typing import NamedTuple

import numpy as np

ELEMENTS = ("fire", "earth", "lightning", "water", "metal")  # each stronger than the next
ANY = -1  # a Chain's Play section: any Element, and a free edge of a Challenge
KINDS = ("hazard", "boss", "gem", "chain", "bug", "bug_fix")
HAZARD, BOSS, GEM, CHAIN, BUG, BUG_FIX = range(6)
# Tables.card's columns: a card's kind, its deck, its Play section (Element, action), its VS
# section's Element icons (left, right) and its Need section (Element, action, Super), and
# its name's place among its deck file's names (decks.card_names: the bit the card record sets).
(KIND, DECK, PLAY_EL, PLAY_ACT, LEFT, RIGHT, NEED_EL, NEED_ACT, NEED_SUPER, NAME,
 CARD_FIELDS) = range(11)

END_REASONS = ("gems", "cap", "no gem")
GEMS_WON, CAP, NO_GEM = range(3)

# The decisions, and the option kinds they offer (a: the card, b: its place in the hand).
BUILD, DIG, DISCARD, RUN, FIX = range(5)
DECISIONS = ("build", "dig", "discard", "run", "fix")
(PUT_HAZARD, PUT_CHAIN, HAND_GEM, POOL_GEM, STACK_GEM, DIG_CARD, KEEP, THROW, BEAT, STOP,
 PLAY_BUG, PLAY_FIX, ALLOW) = range(13)
# Events.
(PLACED, FINISHED, DUG, BEATEN, STOPPED, WON, POOLED, THROWN, BUGGED, FIXED, RESHUFFLED,
 DEALT) = range(12)
# How a Challenge's Gem came: from the hand, the Pool, the Stack, or dug from the deck.
FROM_HAND, FROM_POOL, FROM_STACK, FROM_DECK = range(4)
# The record: the game's own values (KitGame.record). pool_decides: 1 when the winning Gem's
# Pool took its side to the target, which the Gems of its run alone did not; pool_behind: Pool
# collections by a side with fewer Gems than another side had then; pool_overtakes: those that
# left it ahead of every other side (a side: a seat, or against the Computer the team's Stacks
# together and the Computer's).
RECORD = ("computer_gems", "challenges", "hazards", "final_gems", "pool_gems", "pool_wins",
          "hazard_gems", "chains", "bugs", "fixes", "pool_decides", "pool_behind",
          "pool_overtakes")
(COMPUTER_GEMS, CHALLENGES, HAZARDS, FINAL_GEMS, POOL_GEMS, POOL_WINS, HAZARD_GEMS, CHAINS,
 BUGS, FIXES, POOL_DECIDES, POOL_BEHIND, POOL_OVERTAKES) = range(13)
# Tallies: each seat's runs, the final Gems it won, the Pool Gems it collected, the Gems it won
# by beating a Hazard with a Gem card.
TALLIES = ("runs", "runs_won", "pool_taken", "gems_on_hazards")
RUNS, RUNS_WON, POOL_TAKEN, GEM_ON_HAZARD = range(4)
# The card record, after RECORD in the kit's record (KitGame.record): for each seat, the cards
# it drew and those it played from its hand (laid in a Challenge it built, a Gem dug for one
# included; beating a card of a Challenge; a Bug or a Bug Fix), one bit per name of its deck
# file, so a deck file names MAX_NAMES cards at most. The games table's cards_drawn and
# cards_played (game.py) hold them, a list a game, seat 1 first.
MAX_SEATS = 8
MAX_NAMES = 64
START_BITS = 6  # Rules.start_gems: a seat's Gems at the start, below a target of 40 at most
CARD_RECORD = (tuple(f"drawn{q}" for q in range(1, MAX_SEATS + 1))
               + tuple(f"played{q}" for q in range(1, MAX_SEATS + 1)))
DRAWN, PLAYED = len(RECORD), len(RECORD) + MAX_SEATS

# State.ph: where the turn stands.
(PHASE, CREATOR, RUNNER, POS, PLACED_HAZARDS, PLACED_CHAINS, EDGE, BUG_ON, NEXT_SEAT, AFTER,
 NO_REFILL, BUGS_PLAYED, GEM_GONE, RESOLVED, PH_SLOTS) = range(15)
# ph[CREATOR] and ph[RUNNER] hold a seat, or AUTOMA (balance/kit/state.py) for the Computer;
# ph[GEM_GONE]: the Challenge's Gem has left it (won or pooled); ph[RESOLVED]: the run is over
# and the Challenge waits on the table to be discarded when the next is built.
# ph[AFTER]: what a discard decision leads to.
AFTER_RUN, AFTER_BUILD = 0, 1

MAX_HAND = 12  # a hand's room: the largest hand size, a kept Bug and Bug Fix, a dug card
MAX_CHALLENGE = 24
MAX_DECKS = 4
HEROES = ("bit_boy", "giga_girl", "cache_cat", "data_dog")
# Rules.play: the way to play, as compiled (rules.py reads `auto` by the seat count).
HEAD_TO_HEAD, COMPUTER = 0, 1
# Rules.bug_rule.
BUGS_OFF, BUGS_GLITCH = 0, 1


class Rules(NamedTuple):
    players: int
    play: int  # HEAD_TO_HEAD, COMPUTER (auto read by the seat count)
    decks: int
    hero1: int  # each deck's hero, an index of HEROES
    hero2: int
    hero3: int
    hero4: int
    target: int  # Gems that win
    hand: int
    pair_hand: int  # each seat's hand when two or more seats face the Computer
    base_hazards: int  # Hazards a Challenge holds without a Chain
    chain_adds: int  # Hazards each Chain adds
    stronger_beats: int  # an Element also beats the Element it is stronger than
    bug_rule: int  # BUGS_OFF, BUGS_GLITCH
    hazards: int  # each deck's counts, taken from its file in order
    bosses: int
    gems: int
    chains: int
    bugs: int
    bug_fixes: int
    computer_hand: int
    computer_gem: int  # 0: a Pool Gem first, 1: its own first
    computer_supers: int  # 0: Super Needs first, 1: ignored
    computer_repeats: int  # 0: repeated Elements first, 1: ignored
    max_turns: int
    # the setting `without` as compiled: the card name taken out of every deck in play, as
    # its index in decks.all_names(); -1 none. new_tables reads it; no rule of play does.
    without: int
    first_gems: int  # Gems in the first seat's Stack at the start, from its deck
    first_cards: int  # cards dealt to the first seat beyond its hand
    # the setting `start_gems` as compiled: each seat's Gems at the start (seat 1's less
    # first_gems), START_BITS bits a seat, seat 1's lowest (each below the target, at most
    # 40); new_tables reads it, no rule of play does
    start_gems: int


class Tables(NamedTuple):
    card: np.ndarray  # (cards, CARD_FIELDS): every card of the game, decks one after another
    seat_deck: np.ndarray  # (seats + 1,): the deck each seat draws from; the last, the Computer's
    # (cards,) float: the share of the game's cards that beat each one, what every seat may
    # know of how hard its Need is (rules.py, new_tables)
    beaten: np.ndarray
    # (seats,): the Gems each seat's Stack holds at the start, taken from its deck before the
    # deal (the compensations first_gems and catch_up_gems, rules.py start_gems)
    start_gems: np.ndarray


class State(NamedTuple):
    kit: tuple
    hand: np.ndarray  # (seats, MAX_HAND): each seat's cards, hand[q, :hand_n[q]], private
    hand_n: np.ndarray  # (seats,)
    deck0: np.ndarray  # (deck size,): each deck's draw pile, face down, drawn from the end
    deck0_n: np.ndarray  # (1,)
    deck1: np.ndarray
    deck1_n: np.ndarray
    deck2: np.ndarray
    deck2_n: np.ndarray
    deck3: np.ndarray
    deck3_n: np.ndarray
    disc: np.ndarray  # (MAX_DECKS, deck size): each deck's discard pile, face up
    disc_n: np.ndarray  # (MAX_DECKS,)
    comp: np.ndarray  # (MAX_HAND,): the Computer's cards, face up
    comp_n: np.ndarray  # (1,)
    stack: np.ndarray  # (seats + 1, cards): the Gems each won, the most recent last
    stack_n: np.ndarray  # (seats + 1,): the Computer's is the last
    pool: np.ndarray  # (cards,)
    pool_n: np.ndarray  # (1,)
    chal: np.ndarray  # (MAX_CHALLENGE,): the Challenge, left to right; its Gem last
    under: np.ndarray  # (MAX_CHALLENGE,): the card that beat each, -1 none
    chal_n: np.ndarray  # (1,)
    ph: np.ndarray  # (PH_SLOTS,)
    plan_w: np.ndarray  # (4,) float: the Computer's weights for its plans (plans_nb.py)
    scratch: np.ndarray  # (MAX_HAND,): a copy of the cards a plan searches
    dfs: np.ndarray  # (MAX_CHALLENGE + 1, 6): a plan's search stack
    dfs_v: np.ndarray  # (MAX_CHALLENGE + 1,) float: the value at each depth of it
    # (cards, CARD_FIELDS): Tables.card, copied at the start, for the invariants, which the
    # kit checks without the tables (broken_nb(state, rules)); read as `tables` there.
    card: np.ndarray
