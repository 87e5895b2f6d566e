"""What opens Rusship's Summary (reports/page/game_report.py, GameReport.lead_blocks): for each
run, the one chart and the few numbers that answer its question, before the verdicts.

- a run of first-player compensations: the first player's wins under each, with its 95% Wilson
  interval against the 50% of a fair start, and the compensation nearest 50% (or the tie);
- a run that takes powers out of the box: what each power adds to the comebacks, paired, and
  the strongest (or the tie);
- a run of board lengths: the turns against the length, and how they grow;
- any other run: the first player's wins per setting, the question every Rusship run answers.

The tables stay in their sections (First player, Powers and catch-up, Length)."""

from __future__ import annotations

from dataclasses import replace

from reports.render import text
from reports.render.section import Block, figure, slug
from reports.rusship import figures, page
from reports.rusship.analysis import COMPENSATION, Analysis
from reports.rusship.levers import BOX_KIND, COMPENSATION_KIND, Pair
from reports.tables.variants import by_run

CHART_MAX = 40  # settings one chart of the first player's wins draws, as First player does


def _lead(b: Block, heading: str) -> Block:
    """A section's block as a lead: its sentences and charts, under `heading`; its figures
    renamed, as the section draws them too."""
    return Block(heading, paragraphs=list(b.paragraphs),
                 figures=[replace(f, name=f"lead-{f.name}") for f in b.figures])


def first_player_chart(a: Analysis, settings: list[str], name: str,
                       words: dict[str, str] | None = None) -> Block | None:
    """The first player's wins in `settings`, one dot each against 50%, each named in
    `words` (the variant's words) or as the page names it."""
    settings = [s for s in settings if s in set(a.starter["setting"].to_list())][:CHART_MAX]
    if not settings:
        return None
    rows = [page.rate_row(a.starter, s) for s in settings]
    lo = min(r["win_rate"] for r in rows)
    hi = max(r["win_rate"] for r in rows)
    games = min(int(r["games"]) for r in rows)
    span = text.pct(lo, 1) if lo == hi else f"{text.pct(lo, 1)} to {text.pct(hi, 1)}"
    return Block("", paragraphs=[
        f"The first player wins {span} of the decided games ({text.count(games)} decided "
        "games or more each, 95% Wilson intervals; 50% is a fair start)."],
        figures=[figure(f"lead-first-player-{slug(name)}.png",
                        "The first player's share of the decided games, with its 95% Wilson "
                        "interval; the dashed line is a fair start (50%). Every setting's "
                        "table is in First player.",
                        figures.rates_figure(a.starter, settings,
                                             lambda s: (words or {}).get(s) or a.name(s),
                                             "The first player's wins", "First player wins"))])


def compensation_lead(a: Analysis, run: str, pairs: list[Pair]) -> Block | None:
    settings = [s for s in [pairs[0].base_setting, *(p.setting for p in pairs)] if s]
    words = {p.setting: p.label for p in pairs if p.setting}
    base = pairs[0]
    if base.base_setting:
        plain = not any(base.base_rules.get(k) for k in COMPENSATION)
        words[base.base_setting] = "the unchanged rules" if plain else base.base_label
    chart = first_player_chart(a, list(dict.fromkeys(settings)), run, words)
    if chart is None:
        return None
    b = Block(f"First player: its wins under each compensation ({run})",
              paragraphs=[page.closest_text(page.closest(pairs), pairs[0].base_label)]
              + chart.paragraphs, figures=chart.figures)
    b.paragraphs = [p for p in b.paragraphs if p]
    return b


def lead_blocks(a: Analysis, pairs: list[Pair]) -> list[Block]:
    """Each run's lead, in the module doc's order."""
    out = []
    for run, mine in by_run(pairs, COMPENSATION_KIND).items():
        b = compensation_lead(a, run, mine)
        if b is not None:
            out.append(b)
    for run, mine in by_run(pairs, BOX_KIND).items():
        b = page.box_block(run, mine)
        if b is not None:
            out.append(_lead(b, f"Powers: what each adds to the comebacks ({run})"))
    for f in page.fits(a):
        out.append(_lead(page.fit_block(a, f),
                         f"Length: the turns against the board's length ({f.group})"))
    if not out and a.starter.height:
        chart = first_player_chart(a, a.settings(), "every-setting")
        if chart is not None:
            out.append(replace(chart, heading="First player: its wins per setting"))
    return out
