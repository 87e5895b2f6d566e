"""Causal room value: each room's paired effect, from an ablation run (`ablate = "out"` or
`"plain"` in an experiment, or `balance ablate`): variant 0 plays the unchanged box, every
other variant the box without one room (or with it swapped for a plain room with the same
doors and no ability), on the same seeds.

The two ways measure different things (METHODS), so a report of both shows them side by side.
The effect of a room is what it adds to the game: the unchanged box minus the box without it, so
a positive effect means the room helps. Each effect carries the comparison's 95% paired interval
and Holm's verdict over the whole comparison (reports/compare/compare.py). Rooms are ranked by
the run's question (`lead_quantity`), and one is named as worth most only when its interval is
clear of zero and of the next room's (`standout`).
"""

from __future__ import annotations

import polars as pl

from balance.stats import paired
from reports.compare.compare import Comparison
from reports.render import text

SCHEMA = {"room": pl.Utf8, "quantity": pl.Utf8, "name": pl.Utf8, "effect": pl.Float64,
          "ci_low": pl.Float64, "ci_high": pl.Float64, "found": pl.Boolean, "holm": pl.Boolean,
          "pairs": pl.Int64, "changed": pl.Boolean}

# What each way of ablating measures: (how a column names it, what it takes away).
METHODS = {
    "plain": ("Made plain", "the room swapped for a plain room with the same doors: what its "
              "ability alone is worth"),
    "out": ("Taken out", "the room taken out of the box: its doors and its ability together, "
            "and the other rooms come up more often in a box one room smaller"),
}
SIGN = ("A positive number means the room helps: the game does better with the room than "
        "without it; a negative one, that the game does better without it.")


def is_ablation(manifest: dict) -> bool:
    """A run whose variants sweep the room ablated (as the manifest records what each sweeps)."""
    return any("ablate" in (v.get("swept") or {}) for v in manifest.get("variants", []))


def is_ablation_comparison(cmp: Comparison) -> bool:
    return any("ablate" in swept for swept in cmp.swept.values())


def how_of(manifest: dict) -> str:
    """"plain" when the ablated rooms were made plain, "out" when taken out of the box."""
    for v in manifest.get("variants", []):
        for patch in v.get("patches") or []:
            if patch.get("kind") == "plain":
                return "plain"
    return "out"


def how_of_comparison(cmp: Comparison) -> str:
    """How a comparison's run ablated its rooms (its head, GemRushQuantities.head)."""
    return str(cmp.head.get("ablate") or "out")


def headline_target(cmp: Comparison) -> str | None:
    """The named target whose baseline win rate is nearest 50%: where a room's effect on the
    win rate is easiest to see."""
    d = cmp.differences.filter(pl.col("quantity").str.starts_with("win:"))
    if d.height == 0:
        return None
    base = d.group_by("quantity").agg(pl.col("baseline").first())
    return base.sort((pl.col("baseline") - 0.5).abs(), "quantity").row(0)[0]


def lead_quantity(cmp: Comparison) -> str:
    """What a Crisis ablation asks of each room: how often the team wins without it, at the
    named target nearest an even game (headline_target); the mean score where no target was
    compared."""
    return headline_target(cmp) or "score:mean"


def effects(cmp: Comparison) -> pl.DataFrame:
    """Per room: its effect on the mean team score and on the win rate at the headline target
    (the unchanged box minus the box without it), and whether taking it away changed any game
    (reports/compare/alike.py); the rooms ranked by the effect on lead_quantity, then on the
    mean score, then by name."""
    keep = ["score:mean"]
    target = headline_target(cmp)
    if target:
        keep.append(target)
    d = cmp.differences.filter(pl.col("quantity").is_in(keep))
    unchanged = {v for group in cmp.alike if cmp.baseline in group.variants
                 for v in group.variants}
    rows = []
    for r in d.iter_rows(named=True):
        room = str(cmp.value(r["variant"], "ablate"))
        rows.append((room, r["quantity"], r["name"], -r["difference"], -r["ci_high"],
                     -r["ci_low"], r["found"], r["holm"], r["pairs"],
                     r["variant"] not in unchanged))
    out = pl.DataFrame(rows, schema=SCHEMA, orient="row")
    lead = lead_quantity(cmp)
    rank = (out.filter(pl.col("quantity") == lead).select("room", pl.col("effect").alias("a"))
            .join(out.filter(pl.col("quantity") == "score:mean")
                  .select("room", pl.col("effect").alias("b")), on="room", how="full",
                  coalesce=True)
            .sort(pl.col("a").fill_nan(None), pl.col("b").fill_nan(None), "room",
                  descending=[True, True, False], nulls_last=True)
            .with_row_index("rank").select("room", "rank"))
    return out.join(rank, on="room", how="left").sort("rank", "quantity").drop("rank")


def by_room(e: pl.DataFrame) -> list[tuple[str, dict[str, dict]]]:
    """effects() as (room, {quantity: row}), in rank order: what a table of rooms lists."""
    out: dict[str, dict[str, dict]] = {}
    for r in e.iter_rows(named=True):
        out.setdefault(r["room"], {})[r["quantity"]] = r
    return list(out.items())


def standout(e: pl.DataFrame, quantity: str) -> tuple[dict | None, list[dict]]:
    """(the room worth most, None unless its interval on `quantity` is above zero and above
    the next room's; the rooms within chance of the first: each whose interval reaches the
    first's lower end), from effects() in rank order. Rooms on too few games are left out."""
    rows = [r for r in e.filter(pl.col("quantity") == quantity).iter_rows(named=True)
            if not paired.too_few(r["pairs"]) and r["effect"] == r["effect"]]
    if not rows:
        return None, []
    top = rows[0]
    tied = [r for r in rows[1:] if r["ci_high"] >= top["ci_low"]]
    clear = top["ci_low"] > 0 and (len(rows) == 1 or top["ci_low"] > rows[1]["ci_high"])
    return (top if clear else None), [top, *tied]


def cell(x: dict | None, scale: float = 1.0, unit: str = "") -> str:
    """One effect as a table shows it: the effect and its 95% interval, * surviving Holm."""
    if x is None:
        return "-"
    if not x["changed"]:
        return "no game changed"
    if paired.too_few(x["pairs"]):
        return paired.TOO_FEW
    span = f"{scale * x['ci_low']:+.2f} to {scale * x['ci_high']:+.2f}"
    if not x["found"]:
        return f"none found ({span}{unit})"
    return f"{scale * x['effect']:+.2f}{unit} ({span})" + ("*" if x["holm"] else "")


def ranking_text(cmp: Comparison, how: str) -> str:
    """The rooms ranked by what they add to the game, for the terminal."""
    e = effects(cmp)
    target = headline_target(cmp)
    label, what = METHODS[how]
    tname = e.filter(pl.col("quantity") == target)["name"].first() if target else None
    lines = [f"{label}: {what}.", SIGN,
             "Each number is the game with the room minus the game without it, with its 95% "
             "paired interval; * survives Holm's correction over the whole comparison.",
             f"Sorted by {tname or 'the mean team score'}.", ""]
    head = f"{'room':<28} {'mean team score':>28}"
    if tname:
        head += f"  {tname:>34}"
    lines.append(head)
    for room, rows in by_room(e):
        line = f"{room[:28]:<28} {cell(rows.get('score:mean')):>28}"
        if tname:
            line += f"  {cell(rows.get(target), 100, ' pp'):>34}"
        lines.append(line)
    lines += ["", most_sentence(e, lead_quantity(cmp), tname or "the mean team score")]
    return "\n".join(lines)


def most_sentence(e: pl.DataFrame, quantity: str, name: str) -> str:
    """Which room is worth most on `quantity`, or that none can be named (standout)."""
    top, tied = standout(e, quantity)
    scale, unit = (100, " percentage points") if quantity.startswith("win:") else (1, "")
    if top is not None:
        return (f"The room worth most is {top['room']}: {name} is {scale * top['effect']:.1f}"
                f"{unit} higher with it, clear of zero and of every other room.")
    if not tied:
        return "No room can be ranked on so few games."
    if tied[0]["ci_low"] <= 0:
        return (f"No room is clearly worth most: even the first, {tied[0]['room']}, is within "
                f"chance of no effect on {name}.")
    names = [r["room"] for r in tied]
    shown = (", ".join(names[:5]) + f" and {len(names) - 5} more" if len(names) > 5
             else text.join_words(names))
    return (f"No room is clearly worth most: {shown} are within chance of each other on "
            f"{name}.")
