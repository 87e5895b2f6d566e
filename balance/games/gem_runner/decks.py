"""Gem Runner's decks as content: one file a hero (data/decks/<hero>.toml), each card with its
kind and its Play, VS and Need sections, read and checked here and laid out as the rows of
Tables.card. The card texts are not public: the shipped files are reconstructed (their own
headers say how), and a designer replaces them. A broken file is refused naming the file, the
card and the field, before any game is played."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from balance.errors import InputError, Problem
from balance.games.gem_runner.codes import (
    ANY,
    BOSS,
    BUG,
    BUG_FIX,
    CARD_FIELDS,
    CHAIN,
    ELEMENTS,
    GEM,
    HAZARD,
    HEROES,
    KINDS,
    MAX_NAMES,
    NAME,
)
from balance.textfile import read_toml

DECKS = Path(__file__).parent / "data" / "decks"
ACTION_NAME = re.compile(r"[a-z][a-z_]*")
SUPER = "super_"  # a Super move's name begins so ("super_run")
# The sections each kind of card has (a Bug has none; a Chain's Play is any Element).
SECTIONS = {"hazard": ("play", "vs", "need"), "boss": ("play", "vs", "need"),
            "gem": ("play", "need"), "chain": (), "bug": (), "bug_fix": ()}
FIELDS = {"play": ("element", "action"), "vs": ("left", "right"), "need": ("element", "action")}
# The rules' count of each kind a deck holds (Rules.hazards, ...), by kind.
COUNTS = {HAZARD: "hazards", BOSS: "bosses", GEM: "gems", CHAIN: "chains", BUG: "bugs",
          BUG_FIX: "bug_fixes"}


def deck_file(hero: str) -> Path:
    return DECKS / f"{hero}.toml"


def card_problems(path: str, i: int, card) -> list[Problem]:
    """What is wrong with the i-th card of a deck file (from 0)."""
    if not isinstance(card, dict):
        return [Problem(path, f"card {i + 1}", "", "must be a table ([[cards]])")]
    name = card.get("name")
    where = f'card {i + 1} "{name}"' if isinstance(name, str) else f"card {i + 1}"
    if not isinstance(name, str) or not name:
        return [Problem(path, where, "name", "is missing: every card has a name")]
    kind = card.get("kind")
    if kind not in KINDS:
        return [Problem(path, where, "kind", f"must be one of {', '.join(KINDS)}, got "
                        f"{kind!r}")]
    probs = [Problem(path, where, str(k), f"is no section of a {kind} card (it has: "
                     f"{', '.join(('kind', 'name') + SECTIONS[kind])})")
             for k in card if k not in ("kind", "name") + SECTIONS[kind]]
    for section in SECTIONS[kind]:
        part = card.get(section)
        if not isinstance(part, dict):
            probs.append(Problem(path, where, section, f"is missing: a {kind} card has "
                                 f"{', '.join(f'{section}.{f}' for f in FIELDS[section])}"))
            continue
        for f in part:
            if f not in FIELDS[section]:
                probs.append(Problem(path, where, f"{section}.{f}", "is no field of the "
                                     f"{section} section (it has: "
                                     f"{', '.join(FIELDS[section])})"))
        for f in FIELDS[section]:
            v = part.get(f)
            if f == "action":
                if not isinstance(v, str) or not ACTION_NAME.fullmatch(v):
                    probs.append(Problem(path, where, f"{section}.{f}", "must be an action's "
                                         "name in lower case (punch, super_run), got "
                                         f"{v!r}"))
            elif v not in ELEMENTS:
                probs.append(Problem(path, where, f"{section}.{f}", "must be an Element ("
                                     f"{', '.join(ELEMENTS)}), got {v!r}"))
    return probs


@cache
def read_deck(hero: str) -> tuple[dict, ...]:
    """A hero's cards from its file, checked: every problem of the file in one InputError."""
    path = deck_file(hero)
    data = read_toml(path, "deck file")
    probs = []
    for key in data:
        if key not in ("hero", "element", "cards"):
            probs.append(Problem(str(path), "", key, "is no field of a deck file (it has: "
                                 "hero, element, cards)"))
    if not isinstance(data.get("hero"), str):
        probs.append(Problem(str(path), "", "hero", "is missing: the hero's name"))
    if data.get("element") not in ELEMENTS:
        probs.append(Problem(str(path), "", "element", f"must be an Element ("
                             f"{', '.join(ELEMENTS)}), got {data.get('element')!r}"))
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        probs.append(Problem(str(path), "", "cards", "is missing: a deck lists its cards "
                             "([[cards]] tables)"))
        cards = []
    for i, card in enumerate(cards):
        probs += card_problems(str(path), i, card)
    names = {c.get("name") for c in cards if isinstance(c, dict)}
    if len(names) > MAX_NAMES:
        probs.append(Problem(str(path), "", "cards", f"name {len(names)} cards; a deck names "
                             f"{MAX_NAMES} at most (the record of the cards each seat drew "
                             "and played keeps one bit a name)"))
    if probs:
        raise InputError(probs)
    return tuple(cards)


@cache
def action_names() -> tuple[str, ...]:
    """Every action any hero's deck names, in one order: the index a card's action has in
    Tables.card, shared by the decks so that one hero's card meets another's Need."""
    names = set()
    for hero in HEROES:
        for card in read_deck(hero):
            for section in ("play", "need"):
                if section in card:
                    names.add(card[section]["action"])
    return tuple(sorted(names))


@cache
def card_names(hero: str) -> tuple[str, ...]:
    """The names of a hero's cards, each once, in its file's order: the bit a card sets in
    the card record (codes.CARD_RECORD). Copies of a card share its name, and its bit."""
    return tuple(dict.fromkeys(c["name"] for c in read_deck(hero)))


@cache
def all_names() -> tuple[str, ...]:
    """Every card name of any hero's deck, in one order: the setting `without` as compiled
    (Rules.without, an index here)."""
    return tuple(sorted({n for hero in HEROES for n in card_names(hero)}))


def count_problem(hero: str, counts: dict) -> Problem | None:
    """A count the rules ask of a kind this hero's file holds no card of, or None."""
    held = {KINDS.index(c["kind"]) for c in read_deck(hero)}
    for kind, setting in COUNTS.items():
        if counts[setting] > 0 and kind not in held:
            return Problem(str(deck_file(hero)), "", "cards", f"holds no {KINDS[kind]} card, "
                           f"and the rules ask for {counts[setting]} ({setting}): add one or "
                           f"set {setting} = 0")
    return None


def card_row(card: dict, deck: int, actions: tuple[str, ...], names: tuple[str, ...]
             ) -> list[int]:
    kind = KINDS.index(card["kind"])
    row = [ANY] * CARD_FIELDS
    row[0], row[1] = kind, deck
    row[NAME] = names.index(card["name"])
    if kind == CHAIN:
        return row
    if "play" in card:
        row[2] = ELEMENTS.index(card["play"]["element"])
        row[3] = actions.index(card["play"]["action"])
    if "vs" in card:
        row[4] = ELEMENTS.index(card["vs"]["left"])
        row[5] = ELEMENTS.index(card["vs"]["right"])
    if "need" in card:
        row[6] = ELEMENTS.index(card["need"]["element"])
        row[7] = actions.index(card["need"]["action"])
        row[8] = int(card["need"]["action"].startswith(SUPER))
    return row


def deck_cards(hero: str, counts: dict, without: str = "") -> list[dict]:
    """The deck as the rules ask it, card by card as its file writes them: of each kind,
    `counts` cards, the file's cards of that kind taken in order and again from the first
    when more are asked than it lists; then every copy of the card named `without` taken
    out (the deck is that much smaller)."""
    cards = read_deck(hero)
    out = []
    for kind, setting in COUNTS.items():
        of_kind = [c for c in cards if KINDS.index(c["kind"]) == kind]
        out += [of_kind[i % len(of_kind)] for i in range(counts[setting])]
    return [c for c in out if c["name"] != without] if without else out


def deck_rows(hero: str, deck: int, counts: dict, without: str = "") -> list[list[int]]:
    """deck_cards as rows of Tables.card."""
    actions, names = action_names(), card_names(hero)
    return [card_row(c, deck, actions, names) for c in deck_cards(hero, counts, without)]
