"""Gem Rush's report, as the report framework reaches it (reports/page/game_report.py; named in Gem
Rush's declaration, balance/games/gemrush/game.py): its analysis, its sections and verdicts,
its parts of the Summary and of About this run, its comparison, and its headline."""

from __future__ import annotations

import dataclasses

import polars as pl

from balance.games.gemrush.game import GAME
from reports.compare.compare import Comparison, compare_run
from reports.gemrush import ablation, analysis, findings, frame, headline, page, sentences, skills
from reports.gemrush.ablation_page import ablation_block
from reports.gemrush.compare import GemRushQuantities
from reports.gemrush.figures import curves_figure
from reports.gemrush.lead import crisis_lead
from reports.gemrush.skills_page import skills_section
from reports.outcomes import outcome_page
from reports.outcomes.lead import seat_lead
from reports.page import game_report
from reports.render.section import Block, Figure, Section, Table, figure_or_none, in_order, slug
from reports.render.text import DASH


class GemRushReport(game_report.GameReport):
    kind_column = "mode"
    played_alike = ("edition", "content", "content_sha256")

    def __init__(self):
        super().__init__(GAME)
        self.layout = frame.LAYOUT

    def analyse(self, data, levels: tuple[float, ...] | None = None) -> analysis.Analysis:
        return analysis.analyse(data.games, getattr(data, "rooms", None), data.manifest, levels)

    # -- the page -------------------------------------------------------------------------

    def sections(self, a, cmps: list, merged: list) -> list[Section]:
        rooms = page.rooms_section(a)
        removed = [(n, c) for n, c in cmps if ablation.is_ablation_comparison(c)]
        if removed:
            rooms.blocks.insert(0, ablation_block(removed, a.room_value if a.has_rooms
                                                  else None))
        return [page.crisis_section(a, merged), page.players_section(a), rooms,
                page.burn_section(a), page.rush_section(a, merged), skills_section(a, cmps)]

    def verdicts(self, a, cmps: list, players_of: dict[str, list[str]],
                 where: dict[str, str]) -> list:
        return findings.verdicts(a.difficulty, a.seat_wins, a.player_targets, cmps,
                                 in_order(a.kinds, a.difficulty), players_of, where,
                                 a.band(cmps))

    def lead_blocks(self, a, cmps: list) -> list[Block]:
        """A Crisis run's win rate at every difficulty by player count (lead.py); a Rush
        run's seats against their fair share by player count: whether the first seat has an
        edge (reports/outcomes/lead.py)."""
        crisis = crisis_lead(a, cmps) if a.difficulty.height else None
        rush = seat_lead(a.seat_wins, in_order(a.kinds, a.seat_wins),
                         "Rush: each seat against its fair share, by player count",
                         what="setting", title="Rush: each seat's share of the wins",
                         file="lead-seats-rush.png")
        return [b for b in (crisis, rush) if b is not None]

    def summary_blocks(self, a, players_of: dict[str, list[str]],
                       cmps: list | None = None) -> list[Block]:
        """The targets to print for the chosen win rates, and how sure each is; the rows of
        the setting the Crisis headline reads come first (its player may not be the first
        setting's)."""
        targets = a.targets.filter(pl.col("target").is_not_null()) if a.targets.height \
            else a.targets
        if not targets.height:
            return []
        order = in_order(a.kinds, a.difficulty)
        first, _ = findings.headline_setting(a.difficulty, order, a.band(cmps or []))
        if first is not None:
            order = [first] + [x for x in order if x != first]
        # Folded: the lead chart answers the run's question; a table of every setting's
        # targets (104 rows for a room ablation) would push the verdicts off the first screen.
        tables = [page.targets_summary_table(a.targets, order, players_of),
                  page.targets_detail_table(a.targets, order)]
        return [Block("", tables=[dataclasses.replace(t, fold=t.fold or "closed")
                                  for t in tables])]

    def summary_tables(self, a) -> list[Table]:
        headers, rows = findings.headline_rows(a.difficulty, in_order(a.kinds, a.difficulty))
        if not rows:
            return []
        return [Table("The win rate at each named difficulty (95% intervals)", headers, rows,
                      left=2, fold="closed")]

    def sentences(self, a) -> list[str]:
        every = (sentences.crisis_sentences(a.difficulty)
                 + sentences.target_sentences(a.targets))
        if a.has_rooms:
            every += sentences.room_sentences(a.room_ranking, a.room_value)
        every += sentences.burn_sentences(a.deck_out, a.slack, a.clock_end, page.reference(a))
        return every + outcome_page.sentences(a.outcomes, page.rush_words())

    def players(self, a) -> dict[str, set[str]]:
        """The players of each base setting (Verdicts by player)."""
        out: dict[str, set[str]] = {}
        if a.player_keys.height:
            for base, h in a.player_keys.select("base_setting", "heuristic").rows():
                out.setdefault(base, set()).add(h)
        return out

    def facts(self, a) -> list[list[str]]:
        contents = sorted({str(v.get("content")) for v in a.manifest.get("variants", [])
                           if v.get("content")})
        return [["Content", ", ".join(contents) or DASH]]

    def variant_columns(self):
        def target(v: dict) -> str:
            t = v.get("target")
            return "to exhaustion" if v.get("exhaust") else DASH if t is None else str(t)

        return [("Edition", lambda v: str(v.get("edition", DASH))),
                ("Content", lambda v: str(v.get("content", DASH))),
                ("Mode", lambda v: str(v.get("mode", DASH))),
                *super().variant_columns(), ("Target", target)]

    def apart(self, manifest: dict) -> str:
        """A run whose versions differ by the skill held or the skill variant is read in the
        Skills section; in the others its 20-odd versions of the game would bury the rest."""
        measured = any(k in (v.get("swept") or {}) for v in manifest.get("variants", [])
                       for k in ("skill", "skills"))
        return "Skills" if measured else ""

    # -- the comparison -------------------------------------------------------------------

    def quantities(self, game, manifest: dict) -> GemRushQuantities:
        return GemRushQuantities(game, manifest)

    def in_comparison(self, cmp: Comparison) -> bool:
        """Skill runs are read in the Skills section, ablation runs side by side in Room
        value; the others in Comparison."""
        return not (skills.is_skill_effects(cmp) or skills.is_skill_variants(cmp)
                    or ablation.is_ablation_comparison(cmp))

    def comparison_figures(self, name: str, cmp: Comparison) -> list[Figure]:
        f = figure_or_none(
            f"compare-curves-{slug(name)}.png", "Each version's share of Crisis games won at "
            "each target, one panel per player count (shared axes), 95% Wilson bands.",
            curves_figure(cmp, f"{name}: win rate by version"))
        return [f] if f is not None else []

    def forest_quantities(self, cmp: Comparison) -> list[tuple[str, str]]:
        """The mean score, and the win rate at the named target nearest an even game."""
        out = []
        target = ablation.headline_target(cmp)
        if target:
            name = cmp.differences.filter(pl.col("quantity") == target)["name"][0]
            out.append((target, name))
        if (cmp.differences["quantity"] == "score:mean").any():
            out.append(("score:mean", "mean team score"))
        if not out and cmp.differences.height:
            q, n = cmp.differences.select("quantity", "name").row(0)
            out.append((q, n))
        return out

    def response_quantity(self, cmp: Comparison) -> tuple[str, str] | None:
        return ("score:mean", "mean team score")

    # -- the headline ---------------------------------------------------------------------

    def headline(self, run_dir, manifest: dict) -> str | None:
        if len(manifest["variants"]) > 1 and ablation.is_ablation(manifest):
            return ablation.ranking_text(compare_run(run_dir), ablation.how_of(manifest))
        return None

    def comparison_lines(self, cmp: Comparison) -> list[str]:
        typical = skills.run_median_skill(cmp)
        return [] if typical is None else skills.median_sentences(typical)

    def variant_lines(self, games: pl.DataFrame, info: dict,
                      off: list[bool | None] | None) -> list[str]:
        if info.get("mode") == "rush":
            return headline.rush_lines(games, info, off)
        return headline.crisis_lines(games, info)


REPORT = GemRushReport()
