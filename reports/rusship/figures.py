"""Rusship's charts, few and plain (reports/render/figures.py draws them the same way every time):
a rate per setting against 50%, each power's paired effect, and the turns against the board's
length with its fitted line."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from reports.render.figures import canvas, percent_axis
from reports.tables.counts import box_stats

if TYPE_CHECKING:  # matplotlib is imported only to draw (reports/render/figures.py, style)
    from matplotlib.figure import Figure


def rates_figure(rates: pl.DataFrame, settings: list[str], name, title: str, label: str
                 ) -> Figure:
    """One dot per setting (top to bottom in `settings` order, each named by `name`) with
    its 95% interval, and a dashed line at 50%."""
    shown = [s for s in settings if s in set(rates["setting"].to_list())]
    r = rates.filter(pl.col("setting").is_in(shown))
    by = {row["setting"]: row for row in r.iter_rows(named=True)}
    with canvas(8.0, 1.2 + 0.32 * len(shown)) as (fig, (ax,)):
        ys = np.arange(len(shown))[::-1]
        rate = np.array([by[s]["win_rate"] for s in shown])
        lo = np.array([by[s]["ci_low"] for s in shown])
        hi = np.array([by[s]["ci_high"] for s in shown])
        ax.errorbar(rate, ys, xerr=np.vstack([rate - lo, hi - rate]), fmt="o", color="C0",
                    capsize=3)
        ax.axvline(0.5, color="0.3", linestyle="--", linewidth=1)
        ax.set_yticks(ys, [name(s) for s in shown])
        percent_axis(ax, "x")
        ax.set_xlabel(f"{label} (%)")
        ax.set_title(title)
    return fig


def effects_figure(effects: list[dict], title: str) -> Figure:
    """Each power's effect on the comebacks (percentage points) with its paired interval,
    strongest at the top; zero dashed."""
    with canvas(7.0, 1.2 + 0.36 * len(effects)) as (fig, (ax,)):
        ys = np.arange(len(effects))[::-1]
        e = np.array([100 * x["effect"] for x in effects])
        lo = np.array([100 * x["low"] for x in effects])
        hi = np.array([100 * x["high"] for x in effects])
        ax.errorbar(e, ys, xerr=np.vstack([e - lo, hi - e]), fmt="o", color="C0", capsize=3)
        ax.axvline(0, color="0.3", linestyle="--", linewidth=1)
        ax.set_yticks(ys, [x["power"] for x in effects])
        ax.set_xlabel("Comebacks: with the power in the box minus without (percentage points)")
        ax.set_title(title)
    return fig


def length_figure(counts: pl.DataFrame, fit, title: str) -> Figure:
    """Box plots of the turns at each length, at the lengths' own places (`counts`: setting,
    turns, n, length), the means and the fitted curve."""
    lengths = sorted(fit.lengths["length"].to_list())
    gap = min((b - a for a, b in zip(lengths, lengths[1:], strict=False)), default=1)
    with canvas(7.5, 4.0) as (fig, (ax,)):
        stats = []
        for L in lengths:
            c = counts.filter(pl.col("length") == L).group_by("turns").agg(pl.col("n").sum())
            stats.append(box_stats(c["turns"].to_numpy(), c["n"].to_numpy()))
        ax.bxp(stats, positions=lengths, widths=0.6 * gap, patch_artist=True,
               showfliers=False, manage_ticks=False,
               boxprops={"facecolor": "#c6dbef", "edgecolor": "0.3"},
               medianprops={"color": "0.1"}, whiskerprops={"color": "0.3"},
               capprops={"color": "0.3"})
        ax.plot(fit.lengths["length"].to_list(), fit.lengths["mean"].to_list(), "o",
                color="C0", label="mean")
        xs = np.linspace(lengths[0], lengths[-1], 100)
        ax.plot(xs, [fit.at(x) for x in xs], color="C3", linewidth=1.5,
                label=f"fit: {fit.scale:.2f} x length^{fit.exponent:.2f}")
        ax.set_xticks(lengths, [str(L) for L in lengths])
        ax.set_xlabel("Spaces between the planets (length)")
        ax.set_ylabel("Turns per game")
        ax.set_title(title)
        ax.legend(loc="upper left")
    return fig
