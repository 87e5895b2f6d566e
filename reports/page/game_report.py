"""What a game's report gives the report framework, and the neutral report every game gets
without one.

A game names its report in its declaration (balance/contract/game.py, `Game.report`:
"reports.<game>.report:REPORT", an instance of a GameReport subclass). The framework (build,
page, comparison_page, headline, compare, merge) calls only the methods below, so it never
names anything of a game. This class is the neutral report: the outcomes of the core columns
(reports/outcomes/outcomes.py, reports/outcomes/outcome_page.py), the neutral verdicts
(reports/outcomes/findings.py), and the comparison of the core columns and the measures
(reports/compare/compare.py, Quantities).
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from balance.contract import compat, registry
from balance.contract import labels as designer
from balance.contract.game import Game
from reports.compare.compare import Comparison, Quantities
from reports.outcomes import findings, lead, outcome_page, outcomes
from reports.outcomes.analysis import REQUIRED, Analysis
from reports.render import text
from reports.render.section import Block, Figure, Section, Table, in_order
from reports.tables import frame, tally
from reports.tallies import tallies, tallies_page


class GameReport:
    """The neutral report of a game; a game's own report subclasses it."""

    # A key column naming the kind of game (a cooperative or a race, say), that the page
    # counts games by and never merges across; "" when the game has one kind.
    kind_column = ""
    # Manifest keys of a variant that must agree for games of two runs to be counted
    # together (reports/page/merge.py), beside the neutral ones.
    played_alike: tuple[str, ...] = ()

    def __init__(self, game: Game):
        self.game = game
        self.layout = frame.Layout.of_table(game.games_table.columns, game=game)

    # -- analysis -------------------------------------------------------------------------

    def analyse(self, data, levels: tuple[float, ...] | None = None) -> Analysis:
        """Every analysis of a run (anything with .games and .manifest, and the game's other
        tables by name); refuses a games table that lacks a column the analyses read."""
        manifest = data.manifest or {}
        frame.check_columns(data.games, REQUIRED, "games table")
        t = tally.count(data.games, manifest, self.layout)
        kinds = t.keys.select(*t.kinds().columns, "games")
        return Analysis(kinds=kinds, versions=t.versions, manifest=manifest,
                        outcomes=outcomes.outcomes(t), tallies=self.seat_tallies(data, kinds))

    def seat_tallies(self, data, kinds: pl.DataFrame) -> pl.DataFrame | None:
        """Each seat's tallies of a run (Analysis.tallies), or None when the game declares
        none or the run has no seats table; a game's own analysis may call it too."""
        seats = tallies.table_of(data, self.game.tallies)
        return None if seats is None else tallies.by_seat(seats, self.game.tallies, kinds)

    def words(self, a: Analysis, merged: list) -> outcome_page.Words:
        """How the outcome section speaks of this game's games."""
        team = self.game.cooperative is True
        return outcome_page.Words(
            unit=self.game.length_unit, score_unit=self.game.score_unit,
            # The unit's note said once, in the method, not in every sentence of length.
            length_words=(f"Game length is counted in {self.game.length_unit}: "
                          f"{self.game.length_note}." if self.game.length_note else ""),
            **({"intro": outcome_page.Words.TEAM_INTRO,
                "method": outcome_page.Words.TEAM_METHOD} if team else {}),
            endings=tuple((e, self.game.end_word(e).capitalize()) for e in self.game.end_reasons),
            merged=merged_by_setting(merged),
            seat_one=self.game.seat_name(1) if self.game.starter else "the first player")

    # -- the page -------------------------------------------------------------------------

    def sections(self, a: Analysis, cmps: list, merged: list) -> list[Section]:
        """The game's sections, between the Comparison and About this run."""
        return [outcome_page.outcome_section(a.outcomes, a.kinds, self.words(a, merged)),
                *self.tally_sections(a)]

    def tally_sections(self, a: Analysis) -> list[Section]:
        """Tallies by seat, for a run whose analysis has them (reports/tallies/)."""
        if a.tallies is None:
            return []
        return [tallies_page.tally_section(a.tallies, a.kinds, self.game.tallies,
                                            self.game.tally_word)]

    def verdicts(self, a: Analysis, cmps: list, players_of: dict[str, list[str]],
                 where: dict[str, str]) -> list[findings.Verdict]:
        """The verdicts of the first screen, in order (reports/outcomes/findings.py)."""
        return findings.verdicts(a.outcomes.seat_wins, a.outcomes.team_wins,
                                 [(n, c) for n, c in cmps if self.in_comparison(c)],
                                 players_of, where)

    def lead_blocks(self, a: Analysis, cmps: list) -> list[Block]:
        """What opens the Summary, before the verdicts: for each kind of run the page reads,
        the one chart and the few numbers that answer its question (the game's choice: a
        game's report names its lead chart per run kind). The neutral report's: each seat's
        share of the wins, or the team's win rate, per version (reports/outcomes/lead.py), so
        that a new game opens on a picture."""
        o = a.outcomes
        return lead.neutral_lead(o.seat_wins, o.team_wins,
                                 in_order(a.kinds, o.seat_wins, o.team_wins))

    def summary_blocks(self, a: Analysis, players_of: dict[str, list[str]],
                       cmps: list | None = None) -> list[Block]:
        """Blocks of the Summary after the verdicts (e.g. a table of values to print);
        `cmps` as for verdicts."""
        return []

    def summary_tables(self, a: Analysis) -> list[Table]:
        """Folded tables of the Summary, before its every finding."""
        return []

    def sentences(self, a: Analysis) -> list[str]:
        """Every finding of the sections, one sentence each."""
        return outcome_page.sentences(a.outcomes, self.words(a, []))

    def players(self, a: Analysis) -> dict[str, set[str]]:
        """The players of any other label a verdict names (e.g. a setting less its player)."""
        return {}

    def facts(self, a: Analysis) -> list[list[str]]:
        """Rows of the run's facts (About this run) after its file and hash."""
        return []

    def variant_columns(self) -> list[tuple[str, Callable[[dict], str]]]:
        """The variants table's columns before the rules changed: (header, the cell of a
        variant as the manifest records it)."""
        return [("Players", lambda v: str(v.get("players", text.DASH))),
                ("Played by", lambda v: designer.value_words(self.game, "heuristic",
                                                             v["heuristic"])
                 if v.get("heuristic") else text.DASH)]

    def apart(self, manifest: dict) -> str:
        """The section a run is read in alone, when it is one whose versions would bury the
        others in every other section (e.g. a run of twenty versions of one rule); ""."""
        return ""

    # -- the comparison -------------------------------------------------------------------

    def quantities(self, game: Game, manifest: dict) -> Quantities:
        """What `balance compare` compares in a run (reports/compare/compare.py)."""
        return Quantities(game, manifest)

    def in_comparison(self, cmp: Comparison) -> bool:
        """Whether a run's comparison is read in the Comparison section (and its levers'
        verdicts), rather than in a section of the game's."""
        return True

    def comparison_blocks(self, name: str, cmp: Comparison, a: Analysis) -> list[Block]:
        """The game's own blocks for a comparison, in place of the versions' (none)."""
        return []

    def comparison_figures(self, name: str, cmp: Comparison) -> list[Figure]:
        """Figures that lead a comparison's block, before its forest plots."""
        return []

    def forest_quantities(self, cmp: Comparison) -> list[tuple[str, str]]:
        """(quantity, name) of each forest plot: the first mean, and the rate nearest an even
        game; else the first quantity."""
        d = cmp.differences
        out = []
        means = d.filter(pl.col("kind") == "mean")
        if means.height:
            out.append(means.select("quantity", "name").row(0))
        rates = d.filter(pl.col("kind") == "rate")
        if rates.height:
            pick = rates.group_by("quantity", "name", maintain_order=True).agg(
                pl.col("baseline").first()).sort((pl.col("baseline") - 0.5).abs(), "quantity")
            out.append(pick.select("quantity", "name").row(0))
        if not out and d.height:
            out.append(d.select("quantity", "name").row(0))
        return out

    def response_quantity(self, cmp: Comparison) -> tuple[str, str] | None:
        """(quantity, name) drawn against a numeric lever: the first mean."""
        means = cmp.differences.filter(pl.col("kind") == "mean")
        return means.select("quantity", "name").row(0) if means.height else None

    # -- the headline ---------------------------------------------------------------------

    def headline(self, run_dir, manifest: dict) -> str | None:
        """The game's own headline of a run, in place of the framework's (none)."""
        return None

    def comparison_lines(self, cmp: Comparison) -> list[str]:
        """Paragraphs after a comparison's short table in the headline."""
        return []

    def variant_lines(self, games: pl.DataFrame, info: dict,
                      off: list[bool | None] | None) -> list[str] | None:
        """The headline lines of one variant's games, or None for the framework's (each
        seat's share, or the team's win rate, and the length)."""
        return None


def merged_by_setting(merged: list, kind: str | None = None) -> dict[str, list[str]]:
    """The sentences of the games merged (reports/page/merge.py) in each setting, of one kind (or
    of every kind)."""
    out: dict[str, list[str]] = {}
    for m in merged:
        if kind is None or m.kind == kind:
            out.setdefault(m.setting, []).append(m.sentence())
    return out


def of(game: Game) -> GameReport:
    """A game's report: its own, or the neutral one."""
    return game.hook("report") if game.report else GameReport(game)


def of_manifest(manifest: dict) -> GameReport:
    """The report of the game a run played (its manifest's `game`; a run that names none:
    balance/contract/compat.py)."""
    return of(registry.get(compat.manifest_game(manifest)))
