"""Gem Runner's chart, plain (reports/render/figures.py draws it the same way every time): a rate
per setting with its 95% interval."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from reports.render.figures import canvas, percent_axis

if TYPE_CHECKING:  # matplotlib is imported only to draw (reports/render/figures.py, style)
    from matplotlib.figure import Figure


def rates_figure(rates: pl.DataFrame, groups: list[tuple[str, int]], xlabel: str, title: str
                 ) -> Figure:
    """One dot per (setting, players), top to bottom in `groups` order, with its 95%
    interval."""
    by = {(r["setting"], r["players"]): r for r in rates.iter_rows(named=True)}
    shown = [g for g in groups if g in by]
    with canvas(8.0, 1.2 + 0.32 * len(shown)) as (fig, (ax,)):
        ys = np.arange(len(shown))[::-1]
        rate = np.array([by[g]["win_rate"] for g in shown])
        lo = np.array([by[g]["ci_low"] for g in shown])
        hi = np.array([by[g]["ci_high"] for g in shown])
        ax.errorbar(rate, ys, xerr=np.vstack([rate - lo, hi - rate]), fmt="o", color="C0",
                    capsize=3)
        # A setting names every rule it changes: wrapped, a long one leaves the dots room.
        ax.set_yticks(ys, [textwrap.fill(f"{s}, {p} players" if p > 1 else s, 40)
                           for s, p in shown])
        percent_axis(ax, "x")
        ax.set_xlabel(xlabel)
        ax.set_title(title)
    return fig
