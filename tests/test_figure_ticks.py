"""A chart of rates shows its ticks as percentages on round values, each written exactly:
Gem Runner's lead chart once read "38%, 40%, 43%, 45%" (ticks at 37.5%, 42.5% rounded to whole
percents), so the spacing looked uneven."""

from __future__ import annotations

import math
import pickle

import polars as pl
import pytest

from reports.gem_runner.figures import rates_figure
from reports.render import figures
from reports.render.ticks import decimals_of


def _labels(fig, which="x"):
    fig.canvas.draw()
    ax = fig.axes[0]
    return [t.get_text() for t in getattr(ax, f"get_{which}ticklabels")() if t.get_text()]


def _values(labels):
    return [float(t.rstrip("%").replace("\u2212", "-")) for t in labels]


def _evenly_spaced(labels):
    v = _values(labels)
    steps = {round(b - a, 9) for a, b in zip(v, v[1:], strict=False)}
    return len(steps) == 1, steps


@pytest.mark.parametrize("low, high", [(0.37, 0.56), (0.43, 0.78), (0.0, 1.02), (0.601, 0.617),
                                       (0.2, 0.31)])
def test_percent_ticks_are_round_and_read_evenly(low, high):
    with figures.canvas(6.0, 3.0) as (fig, (ax,)):
        ax.plot([low, high], [0, 1])
        ax.set_xlim(low, high)
        figures.percent_axis(ax, "x")
    labels = _labels(fig)
    assert len(labels) >= 3, labels
    even, steps = _evenly_spaced(labels)
    assert even, (labels, steps)
    step = steps.pop()
    # a step of 1, 2 or 5 times a power of ten, never 2.5
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 6) in (1, 2, 5), (labels, step)
    # exactly the decimals the ticks need: none more
    assert decimals_of([v / 100 for v in _values(labels)]) == max(
        (len(t.rstrip("%").partition(".")[2]) for t in labels), default=0), labels


def test_the_lead_chart_of_the_seats_against_the_computer():
    rates = pl.DataFrame({"setting": ["a", "b", "c"], "players": [1, 1, 1],
                          "win_rate": [0.45, 0.50, 0.53], "ci_low": [0.375, 0.43, 0.47],
                          "ci_high": [0.52, 0.57, 0.555]})
    fig = rates_figure(rates, [("a", 1), ("b", 1), ("c", 1)], "wins (%)", "t")
    labels = _labels(fig)
    assert "38%" not in labels and "43%" not in labels, labels
    assert _evenly_spaced(labels)[0], labels


def test_narrow_ticks_carry_their_decimals_and_pickle():
    with figures.canvas(6.0, 3.0) as (fig, (ax,)):
        ax.plot([0, 1], [0.601, 0.617])
        ax.set_ylim(0.601, 0.617)
        figures.percent_axis(ax, "y")
    labels = _labels(fig, "y")
    assert all("." in t for t in labels), labels
    # a figure renders in the report's workers, pickled
    again = pickle.loads(pickle.dumps(fig))
    assert figures.png_bytes(again)[:4] == b"\x89PNG"


def test_negative_rates_and_zero():
    assert decimals_of([0.0, 0.05, 0.1]) == 0
    assert decimals_of([0.405, 0.41]) == 1
    from reports.render.ticks import PercentTicks
    f = PercentTicks()
    f.set_locs([-0.1, -1e-18, 0.1])
    assert [f(v) for v in (-0.1, -1e-18, 0.1)] == ["\u221210%", "0%", "10%"]
