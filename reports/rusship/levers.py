"""The paired comparisons of a Rusship report, variant by variant: which lever each variant moves
against its baseline, and the paired differences (reports/compare/compare.py) that say by how much.

A run's comparison (reports/compare/compare.py, Comparison) numbers the variants as its run does;
the report's manifest names them (one run: as they are; several: each with its `from_run` and
`run_variant`, reports/tables/combine.py), and gives each its rules, so every pair of arms is
classed by what differs between them:

- compensation: only second_tokens and second_bonus (the first-player levers);
- box: only which powers are in the box (an ablation, a power alone against the empty box);
- length: only the board's length;
- players: only the players (the heuristic, the seats or their knobs);
- other: anything else (read in the neutral Comparison section alone)."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from balance.games.rusship.rules import DEFAULTS
from reports.rusship.analysis import BOX, COMPENSATION, box_of, rules_of
from reports.tables.variants import compared_pairs

COMPENSATION_KIND, BOX_KIND, LENGTH_KIND, PLAYERS_KIND, OTHER_KIND = (
    "compensation", "box", "length", "players", "other")


@dataclass(frozen=True)
class Pair:
    """One variant of a run against its baseline, on the games both played."""

    run: str            # the run's name (the report's comparisons are named by run)
    cmp: object         # reports.compare.compare.Comparison
    variant: int        # in the run's numbering
    against: int
    label: str
    base_label: str
    kind: str
    rules: dict         # the variant's every rule
    base_rules: dict
    setting: str | None  # the analysis' setting of the variant (None: not in the analysis)
    base_setting: str | None

    def row(self, quantity: str) -> dict | None:
        """The comparison's row of one quantity (reports/compare/compare.py, DIFFERENCE_SCHEMA)."""
        return self.cmp.row(self.variant, quantity)

    @property
    def out(self) -> tuple[str, ...]:
        """The powers the baseline's box has and the variant's lacks."""
        mine = box_of(self.rules)
        return tuple(p for p in box_of(self.base_rules) if p not in mine)

    @property
    def added(self) -> tuple[str, ...]:
        theirs = box_of(self.base_rules)
        return tuple(p for p in box_of(self.rules) if p not in theirs)


def _players(info: dict) -> tuple:
    return (info.get("heuristic"), tuple(info.get("seats") or ()),
            tuple(sorted((info.get("knobs") or {}).items())))


def kind_of(rules: dict, base: dict, info: dict, base_info: dict) -> str:
    differ = {k for k in DEFAULTS if rules[k] != base[k]}
    if _players(info) != _players(base_info):
        return PLAYERS_KIND if not differ else OTHER_KIND
    if differ and differ <= set(COMPENSATION):
        return COMPENSATION_KIND
    if differ and differ <= set(BOX):
        return BOX_KIND
    if differ == {"length"}:
        return LENGTH_KIND
    return OTHER_KIND


def pairs_of(cmps: list, manifest: dict, kinds: pl.DataFrame) -> list[Pair]:
    """Every variant of every comparison against its baseline, classed (module doc)."""
    setting_of: dict[int, str] = {}
    if kinds.height:
        setting_of = dict(kinds.select(pl.col("variant").cast(pl.Int64), "setting")
                          .unique("variant").rows())
    combined = {}
    for v in manifest.get("variants", []):
        combined[(v.get("from_run"), int(v.get("run_variant", v["variant"])))] = int(
            v["variant"])
    out = []
    for name, cmp, v, against, info, base in compared_pairs(cmps, manifest):
        run = info.get("from_run")  # one run's variants share it (run_variants' groups)
        rules, base_rules = rules_of(info), rules_of(base)
        out.append(Pair(
            name, cmp, v, against, cmp.words(v), cmp.words(against),
            kind_of(rules, base_rules, info, base), rules, base_rules,
            setting_of.get(combined.get((run, v), -1)),
            setting_of.get(combined.get((run, against), -1))))
    return out


def is_box_sweep(cmp) -> bool:
    """A run that sweeps the box_* rules in its grid (e.g. each power alone against the empty
    box): read in Powers and catch-up, where its many versions are ranked, not in
    Comparison."""
    return any(k.startswith("box_") for swept in cmp.swept.values() for k in swept)
