"""Causal room value: each room's paired effect, from an ablation run (`ablate = "out"` or
`"plain"` in an experiment, or `balance ablate`): variant 0 plays the unchanged box, every
other variant the box without one room (or with it swapped for a plain room with the same
doors and no ability), on the same seeds.

The effect of a room is what the game loses without it: baseline minus variant, so a room
worth having has a positive effect. Each effect carries the comparison's 95% paired interval
and Holm's verdict over the whole comparison (reports/compare/compare.py).
"""

from __future__ import annotations

import polars as pl

from balance.stats import paired
from reports.compare.compare import Comparison

SCHEMA = {"room": pl.Utf8, "quantity": pl.Utf8, "name": pl.Utf8, "effect": pl.Float64,
          "ci_low": pl.Float64, "ci_high": pl.Float64, "found": pl.Boolean, "holm": pl.Boolean,
          "pairs": pl.Int64}


def is_ablation(manifest: dict) -> bool:
    return any("ablate" in (v.get("label") or "") for v in manifest.get("variants", []))


def how_of(manifest: dict) -> str:
    """"plain" when the ablated rooms were made plain, "out" when taken out of the box."""
    for v in manifest.get("variants", []):
        for patch in v.get("patches") or []:
            if patch.get("kind") == "plain":
                return "plain"
    return "out"


def headline_target(cmp: Comparison) -> str | None:
    """The named target whose baseline win rate is nearest 50%: where a room's effect on the
    win rate is easiest to see."""
    d = cmp.differences.filter(pl.col("quantity").str.starts_with("win:"))
    if d.height == 0:
        return None
    base = d.group_by("quantity").agg(pl.col("baseline").first())
    return base.sort((pl.col("baseline") - 0.5).abs(), "quantity").row(0)[0]


def effects(cmp: Comparison) -> pl.DataFrame:
    """Per room: the effect on the mean team score and on the win rate at the headline
    target (baseline minus variant), largest score effect first."""
    keep = ["score:mean"]
    target = headline_target(cmp)
    if target:
        keep.append(target)
    d = cmp.differences.filter(pl.col("quantity").is_in(keep))
    labels = dict(cmp.variants.select("variant", "label").rows())
    rows = []
    for r in d.iter_rows(named=True):
        room = labels[r["variant"]].split("ablate=", 1)[-1]
        rows.append((room, r["quantity"], r["name"], -r["difference"], -r["ci_high"],
                     -r["ci_low"], r["found"], r["holm"], r["pairs"]))
    out = pl.DataFrame(rows, schema=SCHEMA, orient="row")
    order = (out.filter(pl.col("quantity") == "score:mean").sort("effect", descending=True)
             .with_row_index("rank").select("room", "rank"))
    return out.join(order, on="room", how="left").sort("rank", "quantity").drop("rank")


def by_room(e: pl.DataFrame) -> list[tuple[str, dict[str, dict]]]:
    """effects() as (room, {quantity: row}), in rank order: what a table of rooms lists."""
    out: dict[str, dict[str, dict]] = {}
    for r in e.iter_rows(named=True):
        out.setdefault(r["room"], {})[r["quantity"]] = r
    return list(out.items())


def ranking_text(cmp: Comparison, how: str) -> str:
    """The rooms ranked by what the game loses without them, for the terminal."""
    e = effects(cmp)
    target = headline_target(cmp)
    what = "taken out of the box" if how == "out" else "swapped for a plain room (same doors)"
    lines = [f"Each room {what}: what the game loses without it (baseline minus variant),",
             "95% paired intervals; * survives Holm's correction over the whole comparison.",
             ""]
    tname = None
    if target:
        tname = e.filter(pl.col("quantity") == target)["name"].first()
    head = f"{'room':<28} {'mean team score':>24}"
    if tname:
        head += f"  {tname:>30}"
    lines.append(head)
    for room, rows in by_room(e):
        cells = []
        for q, scale, unit in (("score:mean", 1, ""), (target, 100, " pp")):
            if q is None:
                continue
            x = rows.get(q)
            if x is None:
                cells.append("-")
                continue
            if paired.too_few(x["pairs"]):
                cells.append(paired.TOO_FEW)
                continue
            star = "*" if x["holm"] else " "
            cells.append(f"{scale * x['effect']:+.2f}{unit} ({scale * x['ci_low']:+.2f} to "
                         f"{scale * x['ci_high']:+.2f}){star}" if x["found"] else
                         f"none found ({scale * x['ci_low']:+.2f} to "
                         f"{scale * x['ci_high']:+.2f}{unit})")
        line = f"{room[:28]:<28} {cells[0]:>24}"
        if len(cells) > 1:
            line += f"  {cells[1]:>30}"
        lines.append(line)
    return "\n".join(lines)
