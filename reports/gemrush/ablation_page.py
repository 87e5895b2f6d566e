"""The ablation block that opens Room value: every ablation run of the report side by side,
one column per way of ablating and quantity (reports/gemrush/ablation.py), signed so that a
positive number means the room helps, ranked by the first run's question, beside the
association Room value measures."""

from __future__ import annotations

import polars as pl

from reports.gemrush import ablation
from reports.render import text
from reports.render.section import Block, Table


def ablation_block(runs: list, association: pl.DataFrame | None) -> Block:
    """`runs`: (run name, Comparison) of every ablation run the page reads."""
    b = Block("What each room adds (ablation): a positive number means the room helps")
    for name, cmp in runs:
        label, what = ablation.METHODS[ablation.how_of_comparison(cmp)]
        b.paragraphs.append(f"{label} ({name} run): {what}.")
    hows = {ablation.how_of_comparison(c) for _, c in runs}
    if hows == set(ablation.METHODS):
        b.paragraphs.append(
            "The two ways answer different questions, so they can disagree: taking a room out "
            "also changes which rooms come up, while making it plain keeps the box as it is "
            "and takes away its ability alone.")
    b.paragraphs.append(
        ablation.SIGN + " Each number is the game with the room minus the game without it, on "
        "the same games, with the paired 95% interval (* survives Holm's correction over the "
        "run's comparison). This is a cause, unlike the association below it (games that go "
        "well build more rooms).")
    columns, order = [], []
    for name, cmp in runs:
        label = ablation.METHODS[ablation.how_of_comparison(cmp)][0]
        e = ablation.effects(cmp)
        lead = ablation.lead_quantity(cmp)
        tname = e.filter(pl.col("quantity") == lead)["name"].first() if e.height else None
        b.paragraphs.append(f"{label} ({name} run): "
                            + ablation.most_sentence(e, lead, tname or "the mean team score"))
        ranked = ablation.by_room(e)
        order += [room for room, _ in ranked]
        target = ablation.headline_target(cmp)
        if target:
            columns.append((f"{label}: {tname} (pp)", dict(ranked), target, 100.0))
        columns.append((f"{label}: mean team score", dict(ranked), "score:mean", 1.0))
    if any(cmp.alike for _, cmp in runs):
        b.paragraphs.append("No game changed: without the room every game went exactly as with "
                            "it, seed by seed, so its ability never made a difference here.")
    assoc = _association(association)
    rows = []
    for room in dict.fromkeys(order):  # the first run's ranking, then rooms only later runs have
        cells = [room]
        for _, found, q, scale in columns:
            x = found.get(room, {}).get(q)
            cells.append(text.DASH if x is None else ablation.cell(x, scale))
        rows.append([*cells, assoc.get(room, text.DASH)])
    first = ablation.lead_quantity(runs[0][1])
    sort_name = next((c[0] for c in columns if c[2] == first), columns[0][0]) if columns \
        else ""
    b.tables.append(Table(f"Every room, ranked by {sort_name}",
                          ["Room", *(c[0] for c in columns), "Association (Room value)"],
                          rows, fold="open"))
    return b


def _association(association: pl.DataFrame | None) -> dict[str, str]:
    """Room value's difference in win rate (built early or not), averaged over player counts."""
    if association is None or not association.height or "diff" not in association.columns:
        return {}
    return {room: text.difference(d, lo, hi) for room, d, lo, hi in association.group_by(
        "room").agg(pl.col("diff").mean(), pl.col("diff_low").mean(),
                    pl.col("diff_high").mean()).rows()}
