"""The report's Comparison section: for each run with versions to compare
(reports/compare/compare.py), the game's leading figures (reports/page/game_report.py,
GameReport.comparison_figures), a forest plot of the versions' differences from the baseline, a
response plot of each numeric lever, and the table of differences; or the game's own blocks for a
run it reads its own way."""

from __future__ import annotations

from reports.compare import compare_figures
from reports.compare.compare_text import difference_text, holm_text, value_text
from reports.render import text
from reports.render.section import Block, Section, Table, slug
from reports.render.section import figure_or_none as _fig

INTRO = ["Each version of the game against its baseline, on the same games."]
METHOD = [
    "Each version is compared with its baseline on the same games (the same seeds), so most "
    "of the luck of the deal cancels: a difference carries a 95% interval that uses the "
    "pairing, and “no difference found” means the interval contains zero. A difference "
    "marked as surviving Holm holds even after correcting for the number of differences "
    "in the run; the others may be chance findings among so many.",
]


def comparison_section(cmps: list, a, report) -> Section:
    """`cmps`: (run name, Comparison) for every run whose versions differ by a lever; `a` the
    page's analysis and `report` the game's (reports/page/game_report.py)."""
    s = Section("comparison", "Comparison", intro=list(INTRO), method=list(METHOD))
    if not cmps:
        s.missing.append("No run here compares versions (a [grid] lever, patches or an "
                         "ablation), so there is no comparison.")
        return s
    for name, cmp in cmps:
        own = report.comparison_blocks(name, cmp, a)
        if own:
            s.blocks += own
            continue
        b = versions_block(name, cmp, report)
        # The first chart leads; the others and the table are a click away.
        s.blocks += [Block(b.heading, paragraphs=[x.sentence() for x in cmp.alike],
                           figures=b.figures[:1]),
                     Block("", paragraphs=b.paragraphs, figures=b.figures[1:], tables=b.tables,
                           fold=f"More on {name}: each difference with its interval")]
    return s


def versions_block(name: str, cmp, report) -> Block:
    b = Block(name)
    key = slug(name)
    b.figures += report.comparison_figures(name, cmp)
    response = report.response_quantity(cmp)
    for f in (
        *[_fig(f"compare-forest-{slug(q)}-{key}.png", f"Each version against its baseline: "
               f"{label}, with the 95% paired interval; a filled dot survives Holm, a grey "
               "line found no difference.",
               compare_figures.forest_figure(cmp, q, f"{name}: {label}"))
          for q, label in report.forest_quantities(cmp)],
        *[_fig(f"compare-response-{slug(lever)}-{key}.png", f"The {response[1]} against "
               f"{lever}, as a difference from the baseline, with its 95% band; one line per "
               "combination of the other settings.",
               compare_figures.response_figure(cmp, lever, values, response[0],
                                               f"{name}: {lever}"))
          for lever, values in (compare_figures.numeric_levers(cmp).items() if response
                                else ())],
    ):
        if f is not None:
            b.figures.append(f)
    rows = [[cmp.words(r["variant"]), r["name"], value_text(r["baseline"], r["kind"]),
             value_text(r["value"], r["kind"]), difference_text(r), holm_text(r) or text.DASH]
            for r in cmp.differences.iter_rows(named=True)]
    b.tables.append(Table("Every difference, in the order the versions were given",
                          ["Version", "Quantity", "Baseline", "Version's value",
                           "Difference (95% interval)", "Survives Holm"], rows, left=2,
                          ))
    for note in cmp.notes:
        b.paragraphs.append(note)
    return b
