"""What opens Gem Rush's Summary (reports/page/game_report.py, GameReport.lead_blocks): for a
Crisis run, the win rate at every named difficulty by player count, in one chart with its bands
and one sentence per difficulty, Journeyman among them: the question a Crisis run answers is
how often a team wins at the difficulty it plays."""

from __future__ import annotations

import polars as pl

from reports.gemrush import findings
from reports.gemrush.figures import difficulty_by_players_figure
from reports.render import text
from reports.render.section import Block, figure, in_order, slug


def crisis_lead(a, cmps: list) -> Block | None:
    """The lead of the Crisis setting the headline reads (findings.headline_setting)."""
    setting, _ = findings.headline_setting(a.difficulty, in_order(a.kinds, a.difficulty),
                                           a.band(cmps))
    if setting is None:
        return None
    d = a.difficulty.filter((pl.col("setting") == setting)
                            & pl.col("difficulty").is_not_null())
    lines = []
    for (name, target), g in d.sort("target", "players").group_by(
            "difficulty", "target", maintain_order=True):
        # The fewest players and the most: the range a designer reads off the chart.
        ends = g.head(1).to_dicts() + (g.tail(1).to_dicts() if g.height > 1 else [])
        said = [f"{text.rate(r['win_rate'], r['ci_low'], r['ci_high'])} with "
                f"{text.plural(r['players'], 'player')}" for r in ends]
        lines.append(f"{name} ({target} points): won {' to '.join(said)}.")
    games = text.count(int(d["games"].min()))
    b = Block(f"Crisis: how often the team wins, {setting}", paragraphs=[
        f"The team's win rate at each difficulty, by player count ({games} games or more "
        "each, 95% Wilson intervals):"])
    b.paragraphs += lines
    b.figures.append(figure(
        f"lead-crisis-{slug(setting)}.png", "The win rate at each named difficulty by player "
        "count, with 95% Wilson bands; every target and setting is in Crisis difficulty.",
        difficulty_by_players_figure(d, f"{setting}: Crisis won at each difficulty")))
    return b
