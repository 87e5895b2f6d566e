"""Gem Runner's report, as the report framework reaches it (reports/page/game_report.py; named in
the declaration, balance/games/gem_runner/game.py): the neutral report with the game's endings
in words. Its own sections (the Computer's difficulty, deck against deck, the Pool, the cards
that matter) are still to come (issue 52)."""

from __future__ import annotations

from dataclasses import replace

from balance.games.gem_runner.game import GAME
from reports.outcomes import outcome_page
from reports.page import game_report


class Report(game_report.GameReport):
    def __init__(self):
        super().__init__(GAME)

    def words(self, a, merged: list) -> outcome_page.Words:
        return replace(super().words(a, merged), what="race to the Gem target",
                       endings=(("gems", "Gem target"), ("cap", "Turn cap"),
                                ("no gem", "No Gem left to dig")),
                       ended=(("cap", "stop at the turn cap"),
                              ("no gem", "stop with no Gem left to dig")))


REPORT = Report()
