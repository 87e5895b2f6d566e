"""Rusship's report, as the report framework reaches it (reports/page/game_report.py; named in
Rusship's declaration, balance/games/rusship/game.py): its analysis (reports/rusship/
analysis.py), its four sections before the neutral Outcomes (reports/rusship/page.py), their
verdicts (reports/rusship/findings.py), and which comparisons it reads itself."""

from __future__ import annotations

import textwrap
from dataclasses import replace

import polars as pl

from balance.games.rusship.game import GAME
from reports import headline
from reports.outcomes import outcome_page
from reports.outcomes.analysis import REQUIRED
from reports.page import game_report
from reports.render import text
from reports.render.section import Section
from reports.rusship import analysis, lead, page
from reports.rusship import findings as rfindings
from reports.rusship.analysis import COMPENSATION
from reports.rusship.levers import is_box_sweep, pairs_of
from reports.tables.frame import check_columns

# The game's columns its analyses read, beside the neutral ones.
COLUMNS = ("starter_won", "comeback", "first_power", "first_hit_turn")


class RusshipReport(game_report.GameReport):
    def __init__(self):
        super().__init__(GAME)

    def analyse(self, data, levels: tuple[float, ...] | None = None) -> analysis.Analysis:
        check_columns(data.games, (*REQUIRED, *COLUMNS), "games table")
        return analysis.analyse(data.games, data.manifest or {}, self.layout)

    def words(self, a, merged: list) -> outcome_page.Words:
        """Seat 1 is Humanity (Earth), seat 2 the Alien Empire, whoever the roll-off lets play
        first (the First player section reads that)."""
        return replace(super().words(a, merged), seats="seat 1: Humanity, seat 2: the Alien "
                       "Empire", intro=(
                           "How often each side wins against its fair share, whoever plays "
                           "first (the roll-off decides that: see First player); how long "
                           "the games last and how they end.",), method=(
                           "Seat 1 is Humanity (Earth), seat 2 the Alien Empire; the first "
                           "player is rolled for, so a seat's share says whether the sides "
                           "are even, not whether playing first pays. Win rates by seat "
                           "carry 95% Wilson intervals. A seat is off its fair share when "
                           "its wins among the decided games differ from 1/2 beyond chance "
                           "(the exact binomial test, Holm-corrected over every seat). A "
                           "side's score is the attacks it made; the margin, the winner's "
                           "attacks less the loser's: 1 is a photo finish.",))

    def sections(self, a, cmps: list, merged: list) -> list[Section]:
        pairs = pairs_of(cmps, a.manifest, a.kinds)
        return [page.first_player_section(a, pairs), page.powers_section(a, pairs),
                page.length_section(a), page.players_section(a, pairs),
                *super().sections(a, cmps, merged)]

    def lead_blocks(self, a, cmps: list) -> list:
        """Each run's chart and the few numbers that answer it (reports/rusship/lead.py)."""
        return lead.lead_blocks(a, pairs_of(cmps, a.manifest, a.kinds))

    def verdicts(self, a, cmps: list, players_of: dict[str, list[str]],
                 where: dict[str, str]) -> list:
        return rfindings.verdicts(a, pairs_of(cmps, a.manifest, a.kinds), cmps, players_of)

    def sentences(self, a) -> list[str]:
        every = []
        for st in a.settings():
            s, c = page.rate_row(a.starter, st), page.rate_row(a.comeback, st)
            t = a.turns.filter(a.turns["setting"] == st)
            every.append(f"{st}: the first player wins {page.rate_cell(s)} of the decided "
                         f"games, the side attacked first {page.rate_cell(c)}, in "
                         f"{text.num(t['mean'][0]) if t.height else text.DASH} turns on "
                         "average.")
        every += [page.fit_text(f) for f in page.fits(a)]
        return every + outcome_page.sentences(a.outcomes, self.words(a, []))

    def variant_lines(self, games: pl.DataFrame, info: dict,
                      off: list[bool | None] | None) -> list[str] | None:
        """The framework's seats (shares of the decided games) and length, and where games
        were undecided, that the turn cap stopped them: a Rusship game has no other way to end
        without a winner, and a long board leaves half its games there."""
        undecided = games.filter(pl.col("winner").is_null())
        if undecided.height == 0:
            return None
        cap = int(undecided["turns"].max())
        return headline.seat_lines(games, int(info["players"]), off, self.game.length_unit,
                                   undecided_ends=self.game.undecided_ends, game=self.game) \
            + textwrap.wrap(f"Undecided: the turn cap (max_turns = {cap}) stopped "
                            f"{undecided.height:,} of the {games.height:,} games "
                            "before either planet fell. They count in no seat's share and in "
                            "no fair share; raise max_turns to decide more of them.", 100)

    def forest_quantities(self, cmp) -> list[tuple[str, str]]:
        """A run that sweeps the first-player compensation asks whether the first player
        still wins more: its first chart is the first player's wins, then the neutral ones."""
        out = super().forest_quantities(cmp)
        if not compensates(cmp):
            return out
        lead = cmp.differences.filter(pl.col("quantity") == STARTER)
        if lead.height == 0:
            return out
        first = lead.select("quantity", "name").row(0)
        return [first, *(x for x in out if x[0] != STARTER)]

    def in_comparison(self, cmp) -> bool:
        """A run that sweeps the box (32 versions of it, say) is read in Powers and
        catch-up, where each power is ranked; the others in Comparison too."""
        return not is_box_sweep(cmp)


# The first player's wins (balance/games/rusship/game.py, its measure "starter").
STARTER = "starter"


def compensates(cmp) -> bool:
    """Whether a run's versions differ by the first-player compensation (analysis.COMPENSATION)."""
    return any(k in swept for swept in cmp.swept.values() for k in COMPENSATION)


REPORT = RusshipReport()
