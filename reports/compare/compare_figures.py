"""Charts of a comparison (reports/compare/compare.py): a forest plot of each version's difference
from its baseline, and each numeric lever against the outcome with its band. Versions keep the
order the designer gave them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from balance.contract import labels as designer
from reports.compare.compare import Comparison
from reports.render.figures import canvas, palette_of

if TYPE_CHECKING:  # matplotlib is imported only to draw (reports/render/figures.py, style)
    from matplotlib.figure import Figure

MAX_FOREST_ROWS = 40  # a longer forest is unreadable: the table has every row


def forest_figure(cmp: Comparison, quantity: str, title: str, ranked: str = "") -> Figure | None:
    """Each version's difference from its baseline in one quantity, with its 95% interval;
    filled where it survives Holm's correction. None when no version has that quantity.
    With `ranked` (a swept key, e.g. "hand_limit"), the versions are ranked by the difference,
    largest on top, and named by their value of that key, as the manifest records it, in the
    game's words (labels.value_alone)."""
    d = cmp.differences.filter(pl.col("quantity") == quantity)
    if ranked:
        named = {v: (designer.value_alone(cmp.game, ranked, x) if cmp.game is not None
                     else str(x)) for v, s in cmp.swept.items()
                 if (x := (s or {}).get(ranked)) is not None}
        d = d.sort("difference", descending=True).with_columns(
            pl.col("variant").cast(pl.Int64).replace_strict(named, default=None,
                                                            return_dtype=pl.Utf8)
            .fill_null(pl.col("label")).alias("label"))
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


def numeric_levers(cmp: Comparison) -> dict[str, dict[int, float]]:
    """Swept keys whose values are numbers and take at least three values, as the manifest
    records what each variant sweeps: {key: {variant: value}}. Player counts are settings,
    not levers."""
    out: dict[str, dict[int, float]] = {}
    for v, swept in cmp.swept.items():
        for key, x in swept.items():
            if key != "players" and isinstance(x, int | float) and not isinstance(x, bool):
                out.setdefault(key, {})[v] = float(x)
    return {k: vals for k, vals in out.items() if len(set(vals.values())) >= 3}


def _rest(cmp: Comparison, v: int, lever: str) -> str:
    """What variant `v` sweeps beside `lever`, in the game's words: a line's name."""
    return ", ".join(designer.value_words(cmp.game, k, x) if cmp.game is not None
                     else f"{k}={x}" for k, x in (cmp.swept.get(v) or {}).items()
                     if k != lever and x is not None)


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
        rows.append((_rest(cmp, r["variant"], lever), values[r["variant"]],
                     scale * r["difference"], scale * r["ci_low"], scale * r["ci_high"]))
    # The baselines themselves sit at zero difference.
    for v, is_base in cmp.variants.select("variant", "baseline").rows():
        if is_base and v in values:
            rows.append((_rest(cmp, v, lever), values[v], 0.0, 0.0, 0.0))
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
        ax.set_xlabel(designer.key_words(cmp.game, lever) if cmp.game is not None else lever)
        ax.set_ylabel(d["name"][0] + (" (pp)" if rate else "") + ", against the baseline")
        ax.set_title(title)
        if 1 < len(groups) <= 8:
            ax.legend(frameon=False, fontsize=8)
    return fig
