"""Gem runner's report, as the report framework reaches it (reports/page/game_report.py; named in
the declaration, balance/games/gem_runner/game.py): the neutral report with the game's endings
in words. A section of the game's own goes in `sections` (Rusship's, reports/rusship/, is the
example)."""

from __future__ import annotations

from dataclasses import replace

from balance.games.gem_runner.game import GAME
from reports.outcomes import outcome_page
from reports.page import game_report


class Report(game_report.GameReport):
    def __init__(self):
        super().__init__(GAME)

    def words(self, a, merged: list) -> outcome_page.Words:
        return replace(super().words(a, merged), what="race",
                       endings=(("goal", "Goal"), ("cap", "Turn cap")),
                       ended=(("cap", "stop at the turn cap"),))


REPORT = Report()
