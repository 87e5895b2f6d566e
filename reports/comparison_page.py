"""The report's Comparison section: for each run with versions to compare (reports/compare.py),
the versions' curves on shared axes, a forest plot of their differences from the baseline, a
response plot of each numeric lever, and the table of differences; for an ablation, the rooms'
effects beside the association figures of Room value."""

from __future__ import annotations

import polars as pl

from balance.stats import paired
from reports import compare_figures, text
from reports.compare_text import difference_text, holm_text, value_text
from reports.gemrush import ablation
from reports.page import Block, Section, Table, slug
from reports.page import figure_or_none as _fig

INTRO = ["Each version of the game against its baseline, on the same games."]
METHOD = [
    "Each version is compared with its baseline on the same games (the same seeds), so most "
    "of the luck of the deal cancels: a difference carries a 95% interval that uses the "
    "pairing, and “no difference found” means the interval contains zero. A difference "
    "marked as surviving Holm holds even after correcting for the number of differences "
    "in the run; the others may be chance findings among so many.",
]


def comparison_section(cmps: list, association: pl.DataFrame | None = None) -> Section:
    """`cmps`: (run name, Comparison) for every run whose versions differ by a lever.
    `association`: Room value's table, to set beside an ablation's effects."""
    s = Section("comparison", "Comparison", intro=list(INTRO), method=list(METHOD))
    if not cmps:
        s.missing.append("No run here compares versions (a [grid] lever, patches or an "
                         "ablation), so there is no comparison.")
        return s
    for name, cmp in cmps:
        if ablation.is_ablation({"variants": cmp.variants.to_dicts()}):
            s.blocks.append(_ablation_block(name, cmp, association))
            continue
        b = _versions_block(name, cmp)
        # The curves lead; the forest and response charts and the table are a click away.
        s.blocks += [Block(b.heading, figures=b.figures[:1]),
                     Block("", paragraphs=b.paragraphs, figures=b.figures[1:], tables=b.tables,
                           fold=f"More on {name}: each difference with its interval")]
    return s


def _versions_block(name: str, cmp) -> Block:
    b = Block(name)
    key = slug(name)
    for f in (
        _fig(f"compare-curves-{key}.png", "Each version's share of Crisis games won at each "
             "target, one panel per player count (shared axes), 95% Wilson bands.",
             compare_figures.curves_figure(cmp, f"{name}: win rate by version")),
        *[_fig(f"compare-forest-{slug(q)}-{key}.png", f"Each version against its baseline: "
               f"{label}, with the 95% paired interval; a filled dot survives Holm, a grey "
               "line found no difference.",
               compare_figures.forest_figure(cmp, q, f"{name}: {label}"))
          for q, label in _forest_quantities(cmp)],
        *[_fig(f"compare-response-{slug(lever)}-{key}.png", f"The mean team score against "
               f"{lever}, as a difference from the baseline, with its 95% band; one line per "
               "combination of the other settings.",
               compare_figures.response_figure(cmp, lever, values, "score:mean",
                                               f"{name}: {lever}"))
          for lever, values in compare_figures.numeric_levers(cmp).items()],
    ):
        if f is not None:
            b.figures.append(f)
    rows = [[r["label"], r["name"], value_text(r["baseline"], r["kind"]),
             value_text(r["value"], r["kind"]), difference_text(r), holm_text(r) or text.DASH]
            for r in cmp.differences.iter_rows(named=True)]
    b.tables.append(Table("Every difference, in the order the versions were given",
                          ["Version", "Quantity", "Baseline", "Version's value",
                           "Difference (95% interval)", "Survives Holm"], rows, left=2,
                          ))
    for note in cmp.notes:
        b.paragraphs.append(note)
    return b


def _forest_quantities(cmp) -> list[tuple[str, str]]:
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


def _ablation_block(name: str, cmp, association: pl.DataFrame | None) -> Block:
    b = Block(f"{name}: what each room is worth (ablation)", paragraphs=[
        "Each room in turn taken out of the box, or made plain (the same doors, no ability), "
        "as the experiment's ablate says, against the unchanged box on the same games: its "
        "effect is what the game loses without it (baseline minus variant), with the paired "
        "95% interval. This is a cause, unlike Room value's comparison of games that built "
        "a room with those that did not (an association: games that go well build more "
        "rooms), shown beside it where the run has one."])
    e = ablation.effects(cmp)
    assoc = {}
    if association is not None and association.height and "diff" in association.columns:
        for room, d, lo, hi in (association.group_by("room").agg(
                pl.col("diff").mean(), pl.col("diff_low").mean(), pl.col("diff_high").mean())
                .rows()):
            assoc[room] = text.difference(d, lo, hi)
    rows = []
    target = ablation.headline_target(cmp)
    for room, found in ablation.by_room(e):
        cells = [room]
        for q, scale in (("score:mean", 1.0), (target, 100.0)):
            x = found.get(q) if q else None
            if x is None:
                cells.append(text.DASH)
                continue
            shown = (paired.TOO_FEW if paired.too_few(x["pairs"]) else
                     f"{scale * x['effect']:+.2f} ({scale * x['ci_low']:+.2f} to "
                     f"{scale * x['ci_high']:+.2f})" + (" *" if x["holm"] else "")
                     if x["found"] else "no difference found")
            cells.append(shown)
        cells.append(assoc.get(room, text.DASH))
        rows.append(cells)
    tname = (e.filter(pl.col("quantity") == target)["name"].first() if target else "win rate")
    b.tables.append(Table("Rooms ranked by what the game loses without them (* survives "
                          "Holm)", ["Room", "Mean team score", f"{tname} (pp)",
                                    "Association (Room value)"], rows))
    return b
