"""Gem Mountain's charts, few and plain (reports/render/figures.py draws them the same way every
time): the first seat's share against its fair share, and each action's paired effect."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from reports.render.figures import canvas, percent_axis

if TYPE_CHECKING:  # matplotlib is imported only to draw (reports/render/figures.py, style)
    from matplotlib.figure import Figure


def first_seat_figure(first: pl.DataFrame, groups: list[tuple[str, int]], name=None
                      ) -> Figure:
    """One dot per (setting, players), top to bottom in `groups` order (each named by
    `name(setting, players)`), with its 95% interval and a dashed tick at its fair share."""
    by = {(r["setting"], r["players"]): r for r in first.iter_rows(named=True)}
    shown = [g for g in groups if g in by]
    with canvas(8.0, 1.2 + 0.32 * len(shown)) as (fig, (ax,)):
        ys = np.arange(len(shown))[::-1]
        rate = np.array([by[g]["win_rate"] for g in shown])
        lo = np.array([by[g]["ci_low"] for g in shown])
        hi = np.array([by[g]["ci_high"] for g in shown])
        ax.errorbar(rate, ys, xerr=np.vstack([rate - lo, hi - rate]), fmt="o", color="C0",
                    capsize=3)
        for y, g in zip(ys, shown, strict=True):
            ax.plot([1 / g[1]] * 2, [y - 0.35, y + 0.35], color="0.3", linestyle="--",
                    linewidth=1)
        # A setting names every rule it changes: wrapped, a long one leaves the dots room.
        ax.set_yticks(ys, [textwrap.fill(name(s, p) if name else f"{s}, {p} players", 40)
                           for s, p in shown])
        percent_axis(ax, "x")
        ax.set_xlabel("The first seat's share of the games one player won (%)")
        ax.set_title("The first seat against its fair share")
    return fig


def effects_figure(effects: list[dict], title: str) -> Figure:
    """Each action's effect on the first seat's share (percentage points) with its paired
    interval, largest at the top; zero dashed."""
    with canvas(7.0, 1.2 + 0.36 * len(effects)) as (fig, (ax,)):
        ys = np.arange(len(effects))[::-1]
        e = np.array([100 * x["effect"] for x in effects])
        lo = np.array([100 * x["low"] for x in effects])
        hi = np.array([100 * x["high"] for x in effects])
        ax.errorbar(e, ys, xerr=np.vstack([e - lo, hi - e]), fmt="o", color="C0", capsize=3)
        ax.axvline(0, color="0.3", linestyle="--", linewidth=1)
        ax.set_yticks(ys, [x["words"] for x in effects])
        ax.set_xlabel("The first seat's share: with the action in the box minus without "
                      "(percentage points)")
        ax.set_title(title)
    return fig
