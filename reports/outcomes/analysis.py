"""What the report framework knows of an analysis of a run (a game's report adds its own, as a
subclass): the kinds of game played, the engine versions, the manifest and the neutral outcomes
(reports/outcomes/outcomes.py). Nothing here draws, so a notebook's analysis needs no matplotlib.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from reports.outcomes import outcomes

# The core columns the neutral analyses read; a table missing one is refused.
REQUIRED = ("variant", "game", "players", "heuristic", "won", "winner", "score", "scores",
            "turns", "end_reason")


@dataclass(frozen=True)
class Analysis:
    """Every analysis of a run the page draws: a game's report adds its own (a subclass)."""

    kinds: pl.DataFrame            # one row per kind of game, with its games (tally keys)
    versions: list[str]            # engine versions of the games
    manifest: dict
    outcomes: outcomes.Outcomes    # the games the neutral outcomes read
    # Each seat's tallies (reports/tallies/tallies.py, by_seat) of a game that declares them;
    # None for one that does not. Keyword-only, so a game's subclass adds fields after it.
    tallies: pl.DataFrame | None = field(default=None, kw_only=True)

    @property
    def games(self) -> int:
        return int(self.kinds["games"].sum()) if self.kinds.height else 0

    def games_of(self, column: str) -> dict:
        """Games per value of a key column (variant, ...)."""
        if self.kinds.height == 0:
            return {}
        return dict(self.kinds.group_by(column).agg(pl.col("games").sum()).rows())
