"""The paired comparisons of a Gem Runner report, variant by variant: which lever each variant
moves against its baseline, and the paired differences (reports/compare/compare.py) that say by
how much. Each pair of arms is classed by what differs between them:

- decks: only the decks in play and their heroes (decks, hero1 ... hero4);
- computer: only the Computer's own levers (its hand, its Gem rule, its priorities);
- length: only the target, the hands or the decks' counts (analysis.LENGTH);
- first: only the seats' compensations (seat 1's Gems and extra cards, each seat's Gems at
  the start);
- players: only the players (the heuristic, the seats or their knobs);
- other: anything else (the readings, the way to play: read in the neutral Comparison)."""

from __future__ import annotations

from dataclasses import dataclass

from balance.games.gem_runner.rules import DEFAULTS
from reports.gem_runner.analysis import COMPUTER, HEROES, LENGTH, played, rules_of, seats_of
from reports.tables.variants import compared_pairs

DECKS_KIND, COMPUTER_KIND, LENGTH_KIND, PLAYERS_KIND, OTHER_KIND = (
    "decks", "computer", "length", "players", "other")
FIRST_KIND = "first"
DECKS = ("decks", *HEROES)
FIRST = ("first_gems", "first_cards", "start_gems")


@dataclass(frozen=True)
class Pair:
    """One variant of a run against its baseline, on the games both played."""

    run: str
    cmp: object         # reports.compare.compare.Comparison
    variant: int
    against: int
    label: str          # the variant in the game's words
    base_label: str
    kind: str
    rules: dict
    base_rules: dict
    players: int
    computer: bool      # the seats play against the Computer (in both arms)
    seats: tuple[str, ...]       # the variant's player on each seat
    base_seats: tuple[str, ...]

    def row(self, quantity: str) -> dict | None:
        """The comparison's row of one quantity (DIFFERENCE_SCHEMA)."""
        return self.cmp.row(self.variant, quantity)

    def differs(self) -> set[str]:
        return {k for k in DEFAULTS if self.rules[k] != self.base_rules[k]}


def _players(info: dict) -> tuple:
    return (tuple(seats_of(info)), tuple(sorted((info.get("knobs") or {}).items())))


def kind_of(info: dict, base_info: dict) -> str:
    rules, base = rules_of(info), rules_of(base_info)
    differ = {k for k in DEFAULTS if rules[k] != base[k]}
    if (int(info.get("players") or 0) != int(base_info.get("players") or 0)
            or played(info)[0] != played(base_info)[0]):
        return OTHER_KIND
    if _players(info) != _players(base_info):
        return PLAYERS_KIND if not differ else OTHER_KIND
    for kind, levers in ((DECKS_KIND, DECKS), (COMPUTER_KIND, COMPUTER),
                         (LENGTH_KIND, LENGTH), (FIRST_KIND, FIRST)):
        if differ and differ <= set(levers):
            return kind
    return OTHER_KIND


def pairs_of(cmps: list, manifest: dict) -> list[Pair]:
    """Every variant of every comparison against its baseline, classed (module doc)."""
    return [Pair(name, cmp, v, against, cmp.words(v, differs=True), cmp.words(against),
                 kind_of(info, base), rules_of(info), rules_of(base),
                 int(info.get("players") or 0), played(info)[0], tuple(seats_of(info)),
                 tuple(seats_of(base)))
            for name, cmp, v, against, info, base in compared_pairs(cmps, manifest)]


