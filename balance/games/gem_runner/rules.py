"""Gem Runner's settings: the rules' (data/rules.toml: the ways to play, the Gem target, the
hand sizes, the readings the rulebook leaves open, the Computer's levers) and each deck's counts
of each kind of card, read from the heroes' deck files (decks.py); the compiled Rules and Tables
they make (rules_nb.py). The guide's Gem Runner page (balance/docs/guide/games/gem-runner.md)
says which reading each default takes and why."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from balance.contract.game import Setting
from balance.errors import InputError, Problem
from balance.games.gem_runner import decks
from balance.games.gem_runner.codes import (
    BOSS,
    CHAIN,
    COMPUTER,
    GEM,
    HAZARD,
    HEAD_TO_HEAD,
    HEROES,
    KIND,
    MAX_DECKS,
    MAX_HAND,
    NEED_ACT,
    NEED_EL,
    PLAY_ACT,
    PLAY_EL,
    START_BITS,
    Rules,
    Tables,
)
from balance.kit.defaults import read_defaults

DATA = Path(__file__).parent / "data"
RULES_FILE = DATA / "rules.toml"
HERO_NAMES = {"bit_boy": "Bit Boy", "giga_girl": "Giga Girl", "cache_cat": "Cache Cat",
              "data_dog": "Data Dog"}


ORDINALS = ("first", "second", "third", "fourth")


def hero_setting(k: int) -> Setting:
    # Deck k is the opponent's head to head and the Computer's with two decks against it, but
    # a teammate's with three (deck_of): its words say its place only, true in every way to
    # play ("Bit Boy's deck, Cache Cat's deck second").
    return Setting(f"hero{k}", str, f"the hero whose deck is deck {k}", choices=HEROES,
                   label=f"deck {k}",
                   values=tuple((h, f"{w}'s deck" if k == 1 else f"{w}'s deck {ORDINALS[k - 1]}")
                                for h, w in HERO_NAMES.items()))


SETTINGS = (
    Setting("play", str, "the way to play: auto, the rulebook's ways by seat count (one or "
            "two seats against the Computer, more head to head); head_to_head, the seats "
            "against each other (1P vs 1P, more players competitive); computer, the seats as "
            "a team against the Computer. One seat always plays against the Computer",
            choices=("auto", "head_to_head", "computer"), label="way to play",
            values=(("auto", "the ways to play by seat count"),
                    ("head_to_head", "head to head"),
                    ("computer", "against the Computer"))),
    Setting("decks", int, "decks in play; auto: one for every two seats head to head, and "
            "against the Computer one for a seat alone, else one for every two seats and the "
            "Computer's own (at most 4). Head to head two seats share a deck, each deck two "
            "seats at most; against the Computer, with two decks or more, the Computer draws "
            "from the last alone", 1, MAX_DECKS, words=(("auto", 0),), label="decks",
            values=((0, "decks by the way to play"), (1, "one deck"), (2, "two decks"),
                    (3, "three decks"), (4, "four decks"))),
    *(hero_setting(k) for k in range(1, MAX_DECKS + 1)),
    Setting("target", int, "Gems a Stack needs to win", 1, 40, label="Gem target"),
    Setting("hand", int, "cards a seat's hand is refilled to", 1, 8, label="hand size"),
    Setting("pair_hand", int, "cards each seat's hand is refilled to when two or more seats "
            "face the Computer", 1, 8, label="hand size beside a teammate"),
    Setting("base_hazards", int, "Hazards a Challenge may hold without a Chain", 0, 8,
            label="Hazards without a Chain"),
    Setting("chain_adds", int, "Hazards each Chain in a Challenge adds", 0, 8,
            label="Hazards a Chain adds"),
    Setting("stronger_beats", bool, "a card whose Element is stronger than the Need's "
            "(Fire burns Earth, and round the circle) beats it too (reconstructed)",
            label="stronger Elements beat",
            values=((True, "a stronger Element beats"),
                    (False, "only the Need's own Element beats"))),
    Setting("bug_rule", str, "what a Bug does (reconstructed): played by a runner at the "
            "final Gem it lets a Chain win the Gem, unless the creator answers with a Bug "
            "Fix; or Bug cards do nothing", choices=("off", "glitch"), label="Bugs",
            values=(("off", "Bugs do nothing"),
                    ("glitch", "a Bug lets a Chain win a Gem"))),
    Setting("hazards", int, "Hazard cards (not Bosses) a deck holds", 0, 80,
            label="Hazards a deck"),
    Setting("bosses", int, "Boss cards a deck holds", 0, 40, label="Bosses a deck"),
    Setting("gems", int, "Gem cards a deck holds", 1, 60, label="Gems a deck"),
    Setting("chains", int, "Chain cards a deck holds", 0, 20, label="Chains a deck"),
    Setting("bugs", int, "Bug cards a deck holds", 0, 10, label="Bugs a deck"),
    Setting("bug_fixes", int, "Bug Fix cards a deck holds", 0, 10, label="Bug Fixes a deck"),
    Setting("computer_hand", int, "cards dealt face up to the Computer for each Challenge it "
            "makes or runs", 1, 8, label="the Computer's cards"),
    Setting("computer_gem", str, "the Gem the Computer ends a Challenge with: a Pool Gem "
            "before one of its hand (the rulebook's), or its own first",
            choices=("pool_first", "hand_first"), label="the Computer's Gem",
            values=(("pool_first", "the Computer uses the Pool first"),
                    ("hand_first", "the Computer uses its own Gem first"))),
    Setting("computer_supers", str, "among Challenges as long, the Computer prefers Hazards "
            "whose Need has a Super move (the rulebook's), or does not look",
            choices=("first", "ignored"), label="the Computer's Super Needs",
            values=(("first", "the Computer prefers Super Needs"),
                    ("ignored", "the Computer ignores Super Needs"))),
    Setting("computer_repeats", str, "among Challenges as hard, the Computer prefers Needs "
            "whose Element repeats the Gem's (the rulebook's), or does not look",
            choices=("first", "ignored"), label="the Computer's repeated Elements",
            values=(("first", "the Computer repeats Elements"),
                    ("ignored", "the Computer ignores repeated Elements"))),
    Setting("max_turns", int, "turns after which a game stops undecided", 1, 100_000,
            label="turn cap"),
    Setting("without", str, "a card's name, as its deck file writes it: every copy of it "
            "taken out of each deck in play that holds it (the deck that much smaller); \"\" "
            "none. `balance ablate --how cards` takes each card out in turn",
            label="without {}", values=(("", "every card in the decks"),)),
    # Compensations for the first seat, which builds the first Challenge and so runs last
    # (head to head it wins less than its fair share); 0, the rulebook's, gives none.
    Setting("first_gems", int, "Gems in the first seat's Stack at the start, taken from its "
            "deck before the deal (a compensation; the rulebook gives none)", 0, 39,
            label="Gems for seat 1 at the start",
            values=((0, "no Gem for seat 1"), (1, "a Gem for seat 1 at the start"),
                    (2, "two Gems for seat 1 at the start"))),
    Setting("first_cards", int, "cards dealt to the first seat at the start beyond its hand "
            "(a compensation; the rulebook gives none)", 0, 7,
            label="extra cards for seat 1",
            values=((0, "no extra card for seat 1"), (1, "an extra card for seat 1"),
                    (2, "two extra cards for seat 1"))),
    # Seat by seat, for a compensation graded by seat order (3 and 4 players, where one Gem
    # for seat 1 is too little and two too much); added to first_gems on seat 1.
    Setting("start_gems", str, "Gems in each seat's Stack at the start, seat 1's first, "
            "comma-separated (\"1,0,0,1\"; a seat not written gets none), each taken from "
            "its deck before the deal (a compensation; the rulebook gives none); \"\" none",
            label="Gems at the start by seat {}",
            values=(("", "no Gems at the start by seat"),)),
)
COUNT_NAMES = tuple(decks.COUNTS.values())
MAX_DEALT = 8  # the largest hand a seat is dealt (MAX_HAND's room, below)


def against_computer(play: str, seats: int) -> bool:
    """Do the seats play against the Computer? As set; for `auto`, the rulebook's ways to
    play: a seat alone or two seats (1P and 2P vs the Computer) do, more play head to head
    (its Computer rules speak of one or two players); a seat alone always does."""
    if seats == 1:
        return True
    return play == "computer" or (play == "auto" and seats == 2)


def decks_for(value, computer: bool, seats: int) -> int:
    """The decks in play: as set, or for `auto` (0) as the rulebook's ways to play deal them."""
    if value != "auto" and value != 0:
        return int(value)
    if not computer:
        return (seats + 1) // 2
    return 1 if seats == 1 else min(MAX_DECKS, (seats + 1) // 2 + 1)


def deck_of(rules, seat: int) -> int:
    """The deck `seat` draws from (the Computer: seat == rules.players)."""
    if rules.decks == 1:
        return 0
    if rules.play == COMPUTER:  # it holds the last deck alone
        return rules.decks - 1 if seat == rules.players else seat % (rules.decks - 1)
    return seat * rules.decks // rules.players


def setup_problem(values: dict, seats: int, source: str) -> Problem | None:
    """What makes these rules unplayable with `seats` (no single range can say it), or None:
    a deck that cannot deal the hands, more decks than can be drawn from or more seats than
    two a deck head to head, a hero's file without a kind of card the counts ask for."""
    computer = against_computer(values["play"], seats)
    n = decks_for(values["decks"], computer, seats)
    heroes = [values[f"hero{k + 1}"] for k in range(n)]
    for hero in dict.fromkeys(heroes):
        if (bad := decks.count_problem(hero, values)) is not None:
            return bad
    if not computer and n > seats:
        return Problem(source, "", "decks", f"{n} decks for {seats} seats head to head: "
                       "each deck needs a seat to draw from it")
    if not computer and seats > 2 * n:
        return Problem(source, "", "decks", f"{seats} seats head to head on {n} "
                       f"deck{'s' * (n > 1)}: two players a deck at most (the box's "
                       f"\"2 players per deck\"); set decks = {(seats + 1) // 2} or auto")
    if computer and n > seats + 1:
        return Problem(source, "", "decks", f"{n} decks for {seats} seats and the "
                       "Computer: each deck needs someone to draw from it")
    if (bad := without_problem(values, heroes, source)) is not None:
        return bad
    hand = values["pair_hand"] if computer and seats > 1 else values["hand"]
    if hand + values["first_cards"] > MAX_DEALT:
        return Problem(source, "", "first_cards", f"a first hand of {hand} + "
                       f"{values['first_cards']} cards: at most {MAX_DEALT} in all (a hand's "
                       "room holds the largest hand, a kept Bug and Bug Fix and a dug card)")
    if values["first_gems"] >= values["target"]:
        return Problem(source, "", "first_gems", f"{values['first_gems']} Gems at the start "
                       f"reach the target of {values['target']}: the game would be over "
                       "before it begins")
    if (bad := start_problem(values, seats, computer, n, heroes, source)) is not None:
        return bad
    counts = {c: values[c] for c in COUNT_NAMES}
    # The first seat's Gems come from its own deck as played (less a card taken out).
    first = decks.deck_cards(heroes[0], counts, values["without"])
    gems = sum(c["kind"] == "gem" for c in first)
    if values["first_gems"] > gems:
        return Problem(source, "", "first_gems", f"{values['first_gems']} Gems at the start "
                       f"from a deck of {gems} Gems")
    dealt = (seats * hand + values["first_cards"] + sum(seat_gems(values, seats))
             + (values["computer_hand"] if computer else 0))
    cards = sum(len(decks.deck_cards(h, counts, values["without"])) for h in heroes)
    if dealt > cards:
        return Problem(source, "", "hand", f"hands of {dealt} cards in all are dealt from "
                       f"{cards} cards: make the hands smaller or the decks larger")
    return None


def parse_start(text: str) -> list[int] | None:
    """The setting start_gems as Gems per seat, seat 1's first ([] for ""); None when it is
    not whole numbers of 0 or more joined by commas."""
    if not text.strip():
        return []
    parts = [p.strip() for p in text.split(",")]
    if not all(p.isdigit() for p in parts):
        return None
    return [int(p) for p in parts]


def seat_gems(values: dict, seats: int) -> list[int]:
    """The Gems each seat's Stack holds at the start: start_gems, and first_gems on seat 1
    (the settings checked by setup_problem)."""
    out = (parse_start(values["start_gems"]) or []) + [0] * seats
    out = out[:seats]
    out[0] += values["first_gems"]
    return out


def start_problem(values: dict, seats: int, computer: bool, n: int, heroes: list[str],
                  source: str) -> Problem | None:
    """start_gems that cannot play: not Gems per seat, more seats written than play, a seat
    that would start at the target, or more Gems than a deck holds for its seats."""
    text = values["start_gems"]
    given = parse_start(text)
    if given is None:
        return Problem(source, "", "start_gems", f"must be Gems per seat, whole numbers "
                       f"joined by commas, seat 1's first (\"1,0,0,1\"), got {text!r}")
    if not given:  # first_gems alone: its own checks name it
        return None
    if len(given) > seats:
        return Problem(source, "", "start_gems", f"{text!r} writes Gems for {len(given)} "
                       f"seats and {seats} play: write one number a seat at most")
    gems = seat_gems(values, seats)
    for q, g in enumerate(gems):
        if g >= values["target"]:
            return Problem(source, "", "start_gems", f"seat {q + 1} starts with {g} Gems, "
                           f"which reach the target of {values['target']}: the game would "
                           "be over before it begins")
    rules = {"play": COMPUTER if computer else HEAD_TO_HEAD, "decks": n, "players": seats}
    counts = {c: values[c] for c in COUNT_NAMES}
    for d, hero in enumerate(heroes):
        want = sum(g for q, g in enumerate(gems)
                   if deck_of(_Seats(**rules), q) == d)
        held = sum(c["kind"] == "gem" for c in decks.deck_cards(hero, counts,
                                                                values["without"]))
        if want > held:
            return Problem(source, "", "start_gems", f"{want} Gems at the start from deck "
                           f"{d + 1} ({HERO_NAMES[hero]}'s), which holds {held} Gems")
    return None


class _Seats(NamedTuple):
    """What deck_of reads of the compiled rules, before they are compiled."""

    play: int
    decks: int
    players: int


def without_problem(values: dict, heroes: list[str], source: str) -> Problem | None:
    """A `without` that names no card of the decks in play, or leaves one without a Gem."""
    out = values["without"]
    if not out:
        return None
    counts = {c: values[c] for c in COUNT_NAMES}
    held = [h for h in dict.fromkeys(heroes) if out in decks.card_names(h)]
    if not held:
        names = ", ".join(f"{HERO_NAMES[h]}'s deck" for h in dict.fromkeys(heroes))
        return Problem(source, "", "without", f"names no card of the decks in play ({names}), "
                       f"got {out!r}: a card's name as its deck file writes it "
                       f"({decks.deck_file(heroes[0]).name}: {decks.card_names(heroes[0])[0]!r}"
                       ", ...)")
    for h in held:
        if not any(c["kind"] == "gem" for c in decks.deck_cards(h, counts, out)):
            return Problem(source, "", "without", f"takes out every Gem of {HERO_NAMES[h]}'s "
                           f"deck ({out!r}): a deck needs a Gem to end a Challenge")
    return None


def read_all(rules_file: Path = RULES_FILE) -> dict:
    """Every setting's default, checked, with the decks' files (for two seats)."""
    values = read_defaults(rules_file, SETTINGS)
    if (bad := setup_problem(values, 2, str(rules_file))) is not None:
        raise InputError([bad])
    return values


DEFAULTS = read_all()


def kit_rules(values: dict, seats: int) -> Rules:
    """The kit's way to the Rules (KitGame.compile): each setting by name, a word as its index
    among its choices; rules and seats that cannot play are one message."""
    if (bad := setup_problem(values, seats, "rules")) is not None:
        raise InputError([bad])
    out = {"players": seats}
    for s in SETTINGS:
        v = values[s.name]
        if s.name in ("without", "start_gems"):  # a name and a list, compiled below
            continue
        out[s.name] = s.choices.index(v) if s.choices else v if s.words else int(v)
    computer = against_computer(values["play"], seats)
    out["play"] = COMPUTER if computer else HEAD_TO_HEAD
    out["without"] = decks.all_names().index(values["without"]) if values["without"] else -1
    out["decks"] = decks_for(values["decks"], computer, seats)
    out["start_gems"] = sum(g << (START_BITS * q) for q, g in
                            enumerate(seat_gems({**values, "first_gems": 0}, seats)))
    return Rules(**out)


def new_tables(rules: Rules) -> Tables:
    """Every card of the game, deck after deck (each deck as the counts ask it of its hero's
    file), and the deck each seat, and the Computer last, draws from."""
    counts = {c: getattr(rules, c) for c in COUNT_NAMES}
    rows = []
    for d in range(rules.decks):
        rows += decks.deck_rows(HEROES[getattr(rules, f"hero{d + 1}")], d, counts,
                                without_name(rules))
    seat_deck = np.array([deck_of(rules, q) for q in range(rules.players + 1)], np.int64)
    card = np.array(rows, np.int64)
    return Tables(card, seat_deck, beaten_share(card, rules.stronger_beats),
                  start_gems(rules))


def start_gems(rules: Rules) -> np.ndarray:
    """The Gems each seat's Stack holds at the start: start_gems, and seat 1's first_gems."""
    mask = (1 << START_BITS) - 1
    out = np.array([(rules.start_gems >> (START_BITS * q)) & mask
                    for q in range(rules.players)], np.int64)
    out[0] += rules.first_gems
    return out


def without_name(rules: Rules) -> str:
    """The card name the compiled rules take out of the decks; "" none."""
    return decks.all_names()[rules.without] if rules.without >= 0 else ""


def beaten_share(card: np.ndarray, stronger: int) -> np.ndarray:
    """For each card, the share of the cards that beat it as a Hazard or a Gem of a
    Challenge (the rules' beats_nb, with no Bug): a Chain beats any Hazard, a card with a
    Play section what it meets."""
    kind, pe, pa = card[:, KIND], card[:, PLAY_EL][:, None], card[:, PLAY_ACT][:, None]
    ne, na = card[:, NEED_EL][None, :], card[:, NEED_ACT][None, :]
    plays = np.isin(kind, (HAZARD, BOSS, GEM))[:, None]
    meets = plays & ((pe == ne) | (pa == na) | (bool(stronger) & ((pe + 1) % 5 == ne)))
    meets |= (kind == CHAIN)[:, None] & (kind != GEM)[None, :]
    return meets.mean(axis=0)


assert MAX_HAND >= MAX_DEALT + 3  # the largest hand, a kept Bug and Bug Fix, a dug card
