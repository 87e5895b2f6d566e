"""Gem Runner's report, as the report framework reaches it (reports/page/game_report.py; named in
the declaration, balance/games/gem_runner/game.py): its analysis (reports/gem_runner/
analysis.py), its seven sections before the neutral Outcomes (reports/gem_runner/page.py), and
their verdicts (reports/gem_runner/findings.py)."""

from __future__ import annotations

from dataclasses import replace

from balance.games.gem_runner.game import GAME
from reports.gem_runner import analysis, by_player, cards, cards_page, findings, page
from reports.gem_runner.levers import pairs_of
from reports.outcomes import outcome_page
from reports.outcomes.analysis import REQUIRED
from reports.page import game_report
from reports.render.section import Section
from reports.tables.frame import check_columns


class Report(game_report.GameReport):
    def __init__(self):
        super().__init__(GAME)

    def analyse(self, data, levels: tuple[float, ...] | None = None) -> analysis.Analysis:
        check_columns(data.games, (*REQUIRED, *analysis.COLUMNS), "games table")
        a = analysis.analyse(data.games, data.manifest or {}, self.layout)
        return replace(a, tallies=self.seat_tallies(data, a.kinds),
                       cards=cards.card_value(data.games, data.manifest or {}, a.kinds),
                       by_player=by_player.by_player(data.games, data.manifest or {}))

    def words(self, a, merged: list) -> outcome_page.Words:
        return replace(super().words(a, merged), what="race to the Gem target",
                       endings=(("gems", "Gem target"), ("cap", "Turn cap"),
                                ("no gem", "No Gem left to dig")),
                       ended=(("cap", "stop at the turn cap"),
                              ("no gem", "stop with no Gem left to dig")))

    def sections(self, a, cmps: list, merged: list) -> list[Section]:
        pairs = pairs_of(cmps, a.manifest)
        return [page.computer_section(a, pairs), page.decks_section(a),
                page.first_section(a, pairs), page.length_section(a, pairs), page.pool_section(a),
                cards_page.cards_section(a, pairs), page.players_section(a, pairs),
                *super().sections(a, cmps, merged)]

    def lead_blocks(self, a, cmps: list) -> list:
        """The seats against the Computer when a run plays it: the neutral lead reads a game
        the seats win against it as no team's (the kit records a seat as its winner), so it
        would show 0%."""
        lead = page.computer_lead(a)
        return [lead] if lead is not None else super().lead_blocks(a, cmps)

    def verdicts(self, a, cmps: list, players_of: dict[str, list[str]],
                 where: dict[str, str]) -> list:
        return findings.verdicts(a, pairs_of(cmps, a.manifest), players_of)


REPORT = Report()
"""Gem runner's report (report.py): the neutral one, in the game's words, and its own sections."""
