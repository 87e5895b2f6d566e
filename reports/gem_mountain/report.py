"""Gem Mountain's report, as the report framework reaches it (reports/page/game_report.py;
named in the declaration, balance/games/gem_mountain/game.py): its analysis (reports/
gem_mountain/analysis.py), its six sections before the neutral Outcomes (reports/gem_mountain/
page.py; the expansions' in reports/gem_mountain/expansions.py), their verdicts (reports/
gem_mountain/findings.py, expansions.py), and the comparison of its measures
less the margin the neutral comparison already gives."""

from __future__ import annotations

from dataclasses import replace

import polars as pl

from balance.games.gem_mountain.game import GAME
from balance.games.gem_mountain.rules import COLOUR_NAMES
from reports.compare.compare import Quantities, seat_rows
from reports.gem_mountain import analysis, expansions, findings, page
from reports.gem_mountain.levers import pairs_of
from reports.outcomes import outcome_page
from reports.outcomes.analysis import REQUIRED
from reports.page import game_report
from reports.render.section import Block, Section
from reports.tables.frame import check_columns
from reports.tallies import tallies_page

# The game's columns its analyses read, beside the neutral ones.
COLUMNS = ("least_decides", "tied_colours", "steals")


# What a seat's share of the wins is a share of, in this game's comparison.
SOLE = "games one player won"


class MountainQuantities(Quantities):
    """The neutral comparison, less the game's measure `margin`: the game records the same
    number (the winner's points over the second's) that the neutral comparison reads from
    the scores as the winner's margin, and a page would show it twice. The measure stays for
    `balance tune` and `--precision`, which read the measures.

    Each seat's share of the wins is over the games one player won in both arms: a shared
    win (3 to 14% of games, more with more players) is no seat's, and the First seat section
    and the verdicts read a share against the fair 1/players, which holds only there."""

    def rows(self, pairs: pl.DataFrame, ib: dict, iv: dict, v: int, label: str,
             *args, **kw) -> list[dict]:
        rows = [r for r in super().rows(pairs, ib, iv, v, label, *args, **kw)
                if r["quantity"] != "margin"]
        sole = (pairs["winner"].is_not_null() & pairs["winner_v"].is_not_null()).to_numpy()
        seats = [r for r in seat_rows(pairs, int(ib.get("players") or 0),
                                      int(iv.get("players") or 0), v, label, sole, self.game,
                                      of=SOLE) if r["quantity"].startswith("seat:")]
        at = next((i for i, r in enumerate(rows) if r["quantity"].startswith("seat:")),
                  len(rows))
        return [*rows[:at], *seats,
                *(r for r in rows[at:] if not r["quantity"].startswith("seat:"))]


class Report(game_report.GameReport):
    def __init__(self):
        super().__init__(GAME)

    def analyse(self, data, levels: tuple[float, ...] | None = None) -> analysis.Analysis:
        check_columns(data.games, (*REQUIRED, *COLUMNS), "games table")
        a = analysis.analyse(data.games, data.manifest or {}, self.layout)
        return replace(a, tallies=self.seat_tallies(data, a.kinds))

    def words(self, a, merged: list) -> outcome_page.Words:
        return replace(super().words(a, merged), what="grab",
                       endings=(("gems", "No gem left"),), ended=())

    def sections(self, a, cmps: list, merged: list) -> list[Section]:
        pairs = pairs_of(cmps, a.manifest)
        return [page.first_seat_section(a, pairs), page.actions_section(a, pairs),
                page.scoring_section(a), page.map_section(a, pairs),
                page.players_section(a, pairs), expansions.section(pairs),
                *super().sections(a, cmps, merged)]

    def tally_sections(self, a) -> list[Section]:
        """Tallies by seat, less the colours no setting's box holds (the box's `colours`
        counts from ruby: a box of 5 has no onyx, whose tally is always 0)."""
        if a.tallies is None:
            return []
        used = int(a.levers["colours"].max()) if a.levers.height else len(COLOUR_NAMES)
        unused = set(COLOUR_NAMES[used:])
        names = tuple(t for t in self.game.tallies if t not in unused)
        seats = a.tallies.filter(~pl.col("tally").is_in(list(unused)))
        return [tallies_page.tally_section(seats, a.kinds, names, self.game.tally_word)]

    def quantities(self, game, manifest: dict) -> Quantities:
        return MountainQuantities(game, manifest)

    def verdicts(self, a, cmps: list, players_of: dict[str, list[str]],
                 where: dict[str, str]) -> list:
        pairs = pairs_of(cmps, a.manifest)
        return (findings.verdicts(a, pairs, players_of)
                + expansions.verdicts(pairs, players_of))

    def lead_blocks(self, a, cmps: list) -> list[Block]:
        """The first seat against its fair share, per setting: the question every run of
        Gem Mountain answers first."""
        lead = page.first_seat_lead(a)
        return [lead] if lead is not None else super().lead_blocks(a, cmps)


REPORT = Report()
