"""Ticks of an axis of rates (0 to 1) shown as percentages. matplotlib's own locator steps by
2.5 where the range asks for it (37.5%, 42.5%) and a PercentFormatter with whole percents
then reads those as 38%, 43%: the labels' spacing looks uneven though the ticks are even.
Here the ticks step only by round amounts (0.5%, 1%, 2%, 5%, 10%, 20%: 1, 2 or 5 times ten to
some exponent), and the labels carry exactly the decimals those ticks need (0.5% steps print
40.5%, whole-percent steps print 40%).

Imported only when drawing, as matplotlib (reports/render/figures.py, style). A class of its
own module, not of a function: a figure is pickled to the report's figure workers."""

from __future__ import annotations

from matplotlib import ticker

ROUND_STEPS = [1, 2, 5, 10]
MOST_DECIMALS = 4


def locator() -> ticker.MaxNLocator:
    return ticker.MaxNLocator(nbins="auto", steps=ROUND_STEPS)


def decimals_of(values) -> int:
    """The fewest decimals that write every percentage of `values` (rates) exactly."""
    for d in range(MOST_DECIMALS + 1):
        if all(abs(v * 100 - round(v * 100, d)) < 1e-6 for v in values):
            return d
    return MOST_DECIMALS


class PercentTicks(ticker.Formatter):
    """Rates as percentages, every tick with the decimals the finest of them needs."""

    def __init__(self) -> None:
        self.decimals = 0

    def set_locs(self, locs) -> None:
        super().set_locs(locs)
        self.decimals = decimals_of(locs)

    def __call__(self, x, pos=None) -> str:
        percent = round(x * 100, self.decimals) + 0.0  # + 0.0: no "-0%"
        return self.fix_minus(f"{percent:.{self.decimals}f}%")
