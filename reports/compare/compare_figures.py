"""Charts of a comparison (reports/compare/compare.py): a forest plot of each version's difference
from its baseline, and each numeric lever against the outcome with its band. Versions keep the
order the designer gave them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import polars as pl

from reports.compare.compare import Comparison
from reports.render.figures import canvas, palette_of

if TYPE_CHECKING:  # matplotlib is imported only to draw (reports/render/figures.py, style)
    from matplotlib.figure import Figure

MAX_FOREST_ROWS = 40  # a longer forest is unreadable: the table has every row


def forest_figure(cmp: Comparison, quantity: str, title: str, ranked: str = "") -> Figure | None:
    """Each version's difference from its baseline in one quantity, with its 95% interval;
    filled where it survives Holm's correction. None when no version has that quantity.
    With `ranked` (a swept key, e.g. "hand_limit="), the versions are ranked by the difference,
    largest on top, and named by that key's value."""
    d = cmp.differences.filter(pl.col("quantity") == quantity)
    if ranked:
        d = d.sort("difference", descending=True).with_columns(
            pl.col("label").str.extract(f"{ranked}([^,]+)").fill_null(pl.col("label")))
    d = d.head(MAX_FOREST_ROWS)
    if d.height == 0:
        return None
    rate = d["kind"][0] == "rate"
    scale = 100.0 if rate else 1.0
    height = 1.2 + 0.32 * d.height
    with canvas(7.5, height) as (fig, (ax,)):
        ys = list(range(d.height))[::-1]
        for y, r in zip(ys, d.iter_rows(named=True), strict=True):
            color = "#1f77b4" if r["found"] else "#999999"
            ax.plot([scale * r["ci_low"], scale * r["ci_high"]], [y, y], color=color, lw=2)
            ax.plot([scale * r["difference"]], [y], "o", color=color,
                    mfc=color if r["holm"] else "white", ms=6)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_yticks(ys)
        ax.set_yticklabels([r["label"] if ranked else cmp.words(r["variant"], differs=True)
                            for r in d.iter_rows(named=True)])
        ax.set_xlabel(("difference (percentage points)" if rate else "difference") +
                      ": version minus baseline")
        ax.set_title(title)
    return fig


_NUMBER_KEY = re.compile(r"^(?P<key>[^=,]+)=(?P<value>-?\d+(?:\.\d+)?)$")


def numeric_levers(cmp: Comparison) -> dict[str, dict[int, float]]:
    """Swept keys whose values are numbers and take at least three values, from the labels:
    {key: {variant: value}}. Player counts are settings, not levers."""
    out: dict[str, dict[int, float]] = {}
    for v, label in cmp.variants.select("variant", "label").rows():
        for part in label.split(", "):
            m = _NUMBER_KEY.match(part.strip())
            if m and m["key"] != "players":
                out.setdefault(m["key"], {})[v] = float(m["value"])
    return {k: vals for k, vals in out.items() if len(set(vals.values())) >= 3}


def response_figure(cmp: Comparison, lever: str, values: dict[int, float], quantity: str,
                    title: str) -> Figure | None:
    """The outcome's difference from the baseline against a numeric lever, one line for each
    combination of the other settings, with its 95% band."""
    d = cmp.differences.filter(pl.col("quantity") == quantity)
    if d.height == 0:
        return None
    rate = d["kind"][0] == "rate"
    scale = 100.0 if rate else 1.0
    rows = []
    for r in d.iter_rows(named=True):
        if r["variant"] not in values:
            continue
        rest = ", ".join(p for p in r["label"].split(", ") if not p.startswith(lever + "="))
        rows.append((rest, values[r["variant"]], scale * r["difference"], scale * r["ci_low"],
                     scale * r["ci_high"]))
    # The baselines themselves sit at zero difference.
    for v, label, is_base in cmp.variants.select("variant", "label", "baseline").rows():
        if is_base and v in values:
            rest = ", ".join(p for p in label.split(", ") if not p.startswith(lever + "="))
            rows.append((rest, values[v], 0.0, 0.0, 0.0))
    if len({x[1] for x in rows}) < 3:
        return None
    frame = pl.DataFrame(rows, schema=["rest", "x", "y", "lo", "hi"], orient="row")
    groups = frame["rest"].unique(maintain_order=True).to_list()
    colors = palette_of(max(1, len(groups)))
    with canvas(7.5, 4.0) as (fig, (ax,)):
        for g, color in zip(groups, colors, strict=False):
            s = frame.filter(pl.col("rest") == g).sort("x")
            ax.plot(s["x"], s["y"], "o-", color=color, lw=1.4, label=g or None)
            ax.fill_between(s["x"], s["lo"], s["hi"], color=color, alpha=0.15, lw=0)
        ax.axhline(0, color="black", lw=0.8)
        ax.set_xlabel(lever)
        ax.set_ylabel(d["name"][0] + (" (pp)" if rate else "") + ", against the baseline")
        ax.set_title(title)
        if 1 < len(groups) <= 8:
            ax.legend(frameon=False, fontsize=8)
    return fig
