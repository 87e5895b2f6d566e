"""Gem Mountain's report, as the report framework reaches it (reports/page/game_report.py;
named in the declaration, balance/games/gem_mountain/game.py): the neutral report with the
game's ending in words. Sections of the game's own (the least's penalty, the actions) are
still to come (issue 51)."""

from __future__ import annotations

from dataclasses import replace

from balance.games.gem_mountain.game import GAME
from reports.outcomes import outcome_page
from reports.page import game_report


class Report(game_report.GameReport):
    def __init__(self):
        super().__init__(GAME)

    def words(self, a, merged: list) -> outcome_page.Words:
        return replace(super().words(a, merged), what="grab",
                       endings=(("gems", "No gem left"),), ended=())


REPORT = Report()
