"""The paired comparisons of a Gem Mountain report, variant by variant: which lever each variant
moves against its baseline, and the paired differences (reports/compare/compare.py) that say by
how much. Each pair of arms is classed by what differs between them:

- compensation: only the quicker start's tile and who places the arrow (start_tiles,
  start_arrow);
- actions: only the action tiles in the box (an ablation, or an action's count as a lever);
- map: only the map's size and the gems dealt on it (rows, cols, colours, the gems a colour);
- players: only the players (the heuristic, the seats or their knobs);
- expansion: an expansion switched on in the variant and off in its baseline, and nothing else
  changed but what plays only with an expansion (its tiles' counts, its readings);
- other: anything else (the open readings, say: read in the neutral Comparison section)."""

from __future__ import annotations

from dataclasses import dataclass

from balance.games.gem_mountain.rules import DEFAULTS
from reports.gem_mountain.analysis import (
    ACTIONS,
    COMPENSATION,
    EXPANSION_ONLY,
    EXPANSION_SWITCHES,
    MAP,
    rules_of,
)
from reports.gem_mountain.kingmaker import seats_of
from reports.tables.variants import compared_pairs

COMPENSATION_KIND, ACTIONS_KIND, MAP_KIND, PLAYERS_KIND, EXPANSION_KIND, OTHER_KIND = (
    "compensation", "actions", "map", "players", "expansion", "other")


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
    seats: tuple[str, ...]       # the variant's player on each seat
    base_seats: tuple[str, ...]

    def row(self, quantity: str) -> dict | None:
        """The comparison's row of one quantity (DIFFERENCE_SCHEMA)."""
        return self.cmp.row(self.variant, quantity)

    def differs(self) -> set[str]:
        return {k for k in DEFAULTS if self.rules[k] != self.base_rules[k]}


def _players(info: dict) -> tuple:
    return (info.get("heuristic"), tuple(info.get("seats") or ()),
            tuple(sorted((info.get("knobs") or {}).items())))


def kind_of(rules: dict, base: dict, info: dict, base_info: dict) -> str:
    differ = {k for k in DEFAULTS if rules[k] != base[k]}
    if int(info.get("players") or 0) != int(base_info.get("players") or 0):
        return OTHER_KIND
    if _players(info) != _players(base_info):
        return PLAYERS_KIND if not differ else OTHER_KIND
    switched = differ & set(EXPANSION_SWITCHES)
    if switched and differ <= set(EXPANSION_ONLY) and all(rules[k] for k in switched):
        return EXPANSION_KIND
    if differ and differ <= set(COMPENSATION):
        return COMPENSATION_KIND
    if differ and differ <= set(ACTIONS):
        return ACTIONS_KIND
    if differ and differ <= set(MAP):
        return MAP_KIND
    return OTHER_KIND


def pairs_of(cmps: list, manifest: dict) -> list[Pair]:
    """Every variant of every comparison against its baseline, classed (module doc)."""
    out = []
    for name, cmp, v, against, info, base in compared_pairs(cmps, manifest):
        rules, base_rules = rules_of(info), rules_of(base)
        kind = kind_of(rules, base_rules, info, base)
        label, base_label = ((map_words(rules), map_words(base_rules)) if kind == MAP_KIND
                             else (cmp.words(v, differs=True), cmp.words(against)))
        out.append(Pair(name, cmp, v, against, label, base_label, kind, rules, base_rules,
                        int(info.get("players") or 0), tuple(seats_of(info)),
                        tuple(seats_of(base))))
    return out


def map_words(rules: dict) -> str:
    """A map as a designer names it: "the 5×6 map, 4 colours" (the colours when not the
    box's default)."""
    colours = (f", {rules['colours']} colours" if rules["colours"] != DEFAULTS["colours"]
               else "")
    return f"the {rules['rows']}×{rules['cols']} map{colours}"


