"""How a Gem Runner playthrough says its options and events (KitGame.view): a card by its name
and the section that matters where it lies (a Hazard laid by its icons and its Need, a card
played by its Play section), the Computer by name, places from 1. The declaration's formats
(game.py) write the compiled codes; this view is what a person reads in a golden."""

from __future__ import annotations

from balance.games.gem_runner import decks
from balance.games.gem_runner.codes import (
    BEAT,
    BEATEN,
    BUGGED,
    DEALT,
    DIG_CARD,
    DUG,
    FINISHED,
    FIXED,
    HAND_GEM,
    HEROES,
    PLACED,
    PLAY_BUG,
    PLAY_FIX,
    POOL_GEM,
    POOLED,
    PUT_CHAIN,
    PUT_HAZARD,
    STACK_GEM,
    STOP,
    STOPPED,
    THROW,
    THROWN,
    WON,
)
from balance.games.gem_runner.rules import COUNT_NAMES, without_name
from balance.kit.view import View

SOURCES = ("its hand", "the Pool", "its Stack", "the deck")


class RunnerView(View):
    def __init__(self, setup):
        super().__init__(setup)
        rules = setup.rules
        counts = {c: getattr(rules, c) for c in COUNT_NAMES}
        self.cards = [c for d in range(rules.decks)
                      for c in decks.deck_cards(HEROES[getattr(rules, f"hero{d + 1}")], counts,
                                                without_name(rules))]

    def name(self, card: int) -> str:
        return "nothing" if card < 0 else self.cards[card]["name"]

    def laid(self, card: int) -> str:
        """A card of a Challenge: its name, icons and Need."""
        c = self.cards[card]
        if "need" not in c:
            return c["name"]
        icons = f"{c['vs']['left']}|{c['vs']['right']}, " if "vs" in c else ""
        return f"{c['name']} ({icons}needs {c['need']['element']} or {c['need']['action']})"

    def played(self, card: int) -> str:
        """A card played against a Challenge: its name and Play section."""
        c = self.cards[card]
        if "play" not in c:
            return c["name"]
        return f"{c['name']} ({c['play']['element']}, {c['play']['action']})"

    def option(self, seat: int, decision: int, row) -> str | None:
        kind, a, b, c = (int(x) for x in row)
        if kind in (PUT_HAZARD, PUT_CHAIN):
            return f"lay {self.laid(a)}"
        if kind in (HAND_GEM, POOL_GEM, STACK_GEM):
            return f"end with {self.laid(a)} from {SOURCES[kind - HAND_GEM]}"
        if kind == DIG_CARD:
            return f"discard {self.name(a)} and draw" if a >= 0 else "draw"
        if kind == THROW:
            return f"discard {self.name(a)}"
        if kind == BEAT:
            return f"beat place {c} with {self.played(a)}"
        if kind == STOP:
            return f"stop at place {a}"
        if kind in (PLAY_BUG, PLAY_FIX):
            return f"play {self.name(a)}"
        return None  # keep, allow

    def event(self, row) -> str | None:
        turn, seat, code = int(row[0]) + 1, int(row[1]), int(row[2])
        a, b, c, d = (int(x) for x in row[3:7])
        who = "the Computer" if seat < 0 else f"seat {seat + 1}"
        if code == PLACED:
            return f"turn {turn}, {who}: lays {self.laid(a)}"
        if code == FINISHED:
            return (f"turn {turn}, {who}: ends the Challenge with {self.laid(a)} from "
                    f"{SOURCES[b]}: {c} Hazards, {d} Chains")
        if code == DUG:
            return f"turn {turn}, {who}: discards {self.name(a)}, draws {self.name(b)}"
        if code == BEATEN:
            return f"turn {turn}, {who}: beats {self.name(b)} at place {c} with {self.played(a)}"
        if code == STOPPED:
            return f"turn {turn}, {who}: stops at place {a}"
        if code == WON:
            return (f"turn {turn}, {who}: wins {a} Gems ({b} from the Pool), {c} in its "
                    "Stack")
        if code == POOLED:
            return f"turn {turn}: {self.name(a)} goes to the Pool ({b} there)"
        if code == THROWN:
            return f"turn {turn}, {who}: discards {self.name(a)}"
        if code == BUGGED:
            return f"turn {turn}, {who}: plays {self.name(a)} (a Bug)"
        if code == FIXED:
            return f"turn {turn}, {who}: answers with {self.name(a)} (a Bug Fix)"
        if code == DEALT:
            return f"turn {turn}: the Computer is dealt {a} cards face up ({b} kept)"
        return None  # the declaration's line (reshuffled) or the kit's own
