"""Charts of the analyses, one function per figure; each takes analysis tables of one setting
and returns a matplotlib Figure on its own Agg canvas. Nothing touches pyplot or the global
backend, so importing this in a notebook leaves its plotting alone. `png_bytes` renders a
figure the same way every time: fixed size and dpi, no software or date stamp.

Distributions are box plots: the box spans the quartiles, the line is the median and the
whiskers reach the 10th and 90th percentiles, as in the tables. They are drawn from counts (one
row per value with `n` games, reports/tables/counts.py), never from the games one by one.
"""

from __future__ import annotations

import io
import pickle
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from reports.render.text import plural
from reports.tables import counts

if TYPE_CHECKING:
    from matplotlib.figure import Figure

DPI = 110
OWN_STYLE = {"font.size": 10, "axes.titlesize": 11, "axes.labelsize": 10,
             "legend.fontsize": 9, "xtick.labelsize": 9, "ytick.labelsize": 9,
             # Names in a game's content are the designer's text: "$...$" in one is a name,
             # not mathtext (which would refuse it and stop the report).
             "text.parse_math": False}


# seaborn's whitegrid style (seaborn 0.13's axes_style("whitegrid")) and its colour-blind
# palette, held here: importing seaborn, with the scipy.stats and pandas it imports, was 1.2 to
# 1.7 s of every process that draws (each `balance report`, each of its figure workers), and
# it is needed only for these constants. tests/test_figure_style.py checks them against the
# seaborn installed. Left out: seaborn's default colour map, "rocket", which exists only once
# seaborn is imported (no figure here draws an image). matplotlib itself is imported when a
# figure is first drawn: the command line's children that print a headline or a comparison
# draw nothing.
WHITEGRID = {
    "figure.facecolor": "white", "axes.labelcolor": ".15", "xtick.direction": "out",
    "ytick.direction": "out", "xtick.color": ".15", "ytick.color": ".15",
    "axes.axisbelow": True, "grid.linestyle": "-", "text.color": ".15",
    "font.family": ["sans-serif"],
    "font.sans-serif": ["Arial", "DejaVu Sans", "Liberation Sans", "Bitstream Vera Sans",
                        "sans-serif"],
    "lines.solid_capstyle": "round", "patch.edgecolor": "w", "patch.force_edgecolor": True,
    "xtick.top": False, "ytick.right": False, "axes.grid": True, "axes.facecolor": "white",
    "axes.edgecolor": ".8", "grid.color": ".8", "axes.spines.left": True,
    "axes.spines.bottom": True, "axes.spines.right": True, "axes.spines.top": True,
    "xtick.bottom": False, "ytick.left": False}
COLORBLIND = ["#0173B2", "#DE8F05", "#029E73", "#D55E00", "#CC78BC", "#CA9161", "#FBAFE4",
              "#949494", "#ECE133", "#56B4E9"]


def style() -> dict:
    """seaborn's whitegrid style with ours over it: every figure is drawn inside it."""
    return {**WHITEGRID, **OWN_STYLE}


def palette_of(n: int, name: str = "colorblind") -> list[tuple]:
    """n colours of a seaborn palette (colour-blind safe by default), as RGB tuples."""
    if name == "colorblind" and n <= len(COLORBLIND):
        from matplotlib.colors import to_rgb  # only when drawing (see WHITEGRID)

        return [to_rgb(c) for c in COLORBLIND[:n]]
    # lazy: another palette (husl, for more than ten settings in one panel) is seaborn's own
    import seaborn as sns

    return list(sns.color_palette(name, n))


@contextmanager
def canvas(width: float, height: float, ncols: int = 1) -> Iterator[tuple[Figure, list]]:
    import matplotlib  # only when drawing (see style)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    with matplotlib.rc_context(style()):
        fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
        FigureCanvasAgg(fig)
        axes = [fig.add_subplot(1, ncols, i + 1) for i in range(ncols)]
        yield fig, axes


def png_bytes(fig: Figure) -> bytes:
    """The figure as PNG bytes, byte-identical for the same figure."""
    import matplotlib  # only when drawing (see style)

    buf = io.BytesIO()
    with matplotlib.rc_context(style()):
        fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


# A report's figures are most of its time (0.1 to 0.2 s each, a hundred for a run of twenty
# settings). Inside `rendered_by`, `later` hands each figure past the first few to worker
# processes, pickled (the PNG is byte-identical), while the report goes on building.
INLINE_FIRST = 8  # a small report renders here: starting workers would cost more
_RENDERING: ContextVar[dict | None] = ContextVar("figure_rendering", default=None)


@contextmanager
def rendered_by(jobs: int) -> Iterator[None]:
    """Figures that `later` takes inside this block render in up to `jobs` processes, started
    for the block and stopped at its end: have every figure's bytes inside it."""
    state = {"jobs": jobs, "made": 0, "pool": None} if jobs > 1 else None
    previous = _RENDERING.set(state)
    done = False
    try:
        yield
        done = True
    finally:
        _RENDERING.reset(previous)
        if state is not None and state["pool"] is not None:
            state["pool"].shutdown(wait=done, kill_workers=not done)


def _render_pickled(blob: bytes) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # only when drawing (style)

    fig = pickle.loads(blob)
    FigureCanvasAgg(fig)
    return png_bytes(fig)


def later(fig: Figure) -> Callable[[], bytes]:
    """The figure's PNG bytes, had by calling the result: rendered by a worker inside
    `rendered_by` once INLINE_FIRST figures were rendered here, else here and now."""
    state = _RENDERING.get()
    if state is not None:
        state["made"] += 1
        if state["made"] > INLINE_FIRST:
            try:
                blob = pickle.dumps(fig)
            except (pickle.PicklingError, TypeError, AttributeError):
                blob = None  # a figure holding something unpicklable renders here
            if blob is not None:
                if state["pool"] is None:
                    # loky, as the runner's workers, imported only when a report is big. A
                    # pool of the report's own: joblib's runs own loky's shared one.
                    from joblib.externals.loky import ProcessPoolExecutor
                    state["pool"] = ProcessPoolExecutor(max_workers=state["jobs"])
                return state["pool"].submit(_render_pickled, blob).result
    data = png_bytes(fig)
    return lambda: data


def palette(players: list[int]) -> dict[int, tuple]:
    colors = palette_of(max(len(players), 1))
    return {p: colors[i] for i, p in enumerate(sorted(players))}


def percent_axis(ax, which: str = "y") -> None:
    """Ticks of the `which` axis ("x" or "y") as percentages of rates from 0 to 1, on round
    values (reports/render/ticks.py)."""
    from reports.render import ticks  # imports matplotlib: only when drawing (see style)

    axis = getattr(ax, f"{which}axis")
    axis.set_major_locator(ticks.locator())
    axis.set_major_formatter(ticks.PercentTicks())


def boxes(ax, df: pl.DataFrame, x: str, y: str, order: list, hue: str | None = None,
           hue_order: list | None = None, colors: dict | None = None) -> None:
    """Box plots of `y` for each value of `x` (in `order`), side by side per `hue` value, from
    counts of `y` (`n`). Quantiles as in the tables (linear); empty groups are left out."""
    hues = hue_order if hue else [None]
    width = 0.7 / len(hues)
    default = palette_of(1)[0]
    for j, h in enumerate(hues):
        stats, positions = [], []
        for i, key in enumerate(order):
            sel = pl.col(x) == key
            if hue:
                sel = sel & (pl.col(hue) == h)
            have = (df.filter(sel & pl.col(y).is_not_null()).group_by(y)
                    .agg(pl.col("n").sum()))
            if have.height:
                stats.append(counts.box_stats(have[y].to_numpy(), have["n"].to_numpy()))
                positions.append(i + (j - (len(hues) - 1) / 2) * width)
        if not stats:
            continue
        color = (colors or {}).get(h, default)
        ax.bxp(stats, positions=positions, widths=width * 0.85, patch_artist=True,
               showfliers=False, manage_ticks=False,
               boxprops={"facecolor": color, "edgecolor": "0.2"},
               medianprops={"color": "0.1", "linewidth": 1.5},
               whiskerprops={"color": "0.2"}, capprops={"color": "0.2"})
        if hue:
            ax.bar(0, 0, color=color, label=str(h))  # a legend entry, nothing drawn
    ax.set_xticks(range(len(order)), [str(o) for o in order])
    ax.set_xlim(-0.6, len(order) - 0.4)
    ax.grid(False, axis="x")


def seat_wins_figure(seats: pl.DataFrame, title: str) -> Figure:
    """Win rate of each seat with its 95% interval, per player count; the fair share (what
    every seat would win if the seat did not matter) as a dashed line."""
    players = sorted(seats["players"].unique().to_list())
    colors = palette(players)
    with canvas(8.0, 4.0) as (fig, (ax,)):
        x0 = 0
        ticks, labels = [], []
        for p in players:
            s = seats.filter(pl.col("players") == p).sort("seat")
            xs = np.arange(x0, x0 + s.height)
            rate = s["win_rate"].to_numpy()
            err = np.vstack([rate - s["ci_low"].to_numpy(), s["ci_high"].to_numpy() - rate])
            ax.bar(xs, rate, yerr=err, color=colors[p], capsize=3, label=plural(p, 'player'))
            fair = float(s["fair_share"][0])
            ax.hlines(fair, xs[0] - 0.4, xs[-1] + 0.4, colors="0.2", linestyles="--")
            ticks += list(xs)
            labels += [f"seat {k}" for k in s["seat"].to_list()]
            x0 += s.height + 1
        ax.set_xticks(ticks, labels, rotation=45, ha="right")
        percent_axis(ax)
        ax.set_ylabel("Games won (%)")
        ax.set_title(title)
        ax.legend()
    return fig


def overview_figure(df: pl.DataFrame, order: list[str], key: str, keys: list,
                    names: list[str] | None, title: str, tick: str | None = None,
                    xlim: tuple[float, float] | None = None, row_height: float = 0.38,
                    centre_each_row: bool = False) -> Figure:
    """A sweep's overview: a row per setting (in `order`) and player count, labelled with the
    count only where a setting has several; in each row a dot per value of `key` in `keys`
    (coloured by its place in `keys`, named in the legend by `names`) at its win rate, with
    its 95% interval, each value at its own height in the row, or with `centre_each_row`
    the dots a row has spread over it (a 2-player row among 4-player ones); `tick`, a column
    whose value is marked by a dashed tick in the row (the fair share)."""
    rows = [(s, p) for s in order
            for p in sorted(df.filter(pl.col("setting") == s)["players"].unique().to_list())]
    counts: dict[str, int] = {}
    for s, _ in rows:
        counts[s] = counts.get(s, 0) + 1
    labels = [s if counts[s] == 1 else f"{s}, {plural(p, 'player')}" for s, p in rows]
    colors = palette_of(max(len(keys), 1))
    with canvas(8.0, max(3.0, row_height * len(rows) + 1.4)) as (fig, (ax,)):
        for i, (setting, players) in enumerate(rows):
            y = len(rows) - 1 - i
            r = df.filter((pl.col("setting") == setting) & (pl.col("players") == players))
            present = [k for k, value in enumerate(keys) if r.filter(pl.col(key) == value).height]
            places = present if centre_each_row else list(range(len(keys)))
            step = 0.6 / max(len(places), 1)
            for k in present:
                rate, low, high = r.filter(pl.col(key) == keys[k]).select(
                    "win_rate", "ci_low", "ci_high").row(0)
                j = places.index(k)
                ax.errorbar([rate], [y + (len(places) - 1) / 2 * step - j * step],
                            xerr=[[rate - low], [high - rate]], fmt="o", ms=4, capsize=2,
                            color=colors[k])
            if tick is not None and r.height:
                ax.vlines(float(r[tick][0]), y - 0.4, y + 0.4, colors="0.2", linestyles="--")
        ax.set_yticks(range(len(rows)), list(reversed(labels)))
        ax.set_ylim(-0.6, len(rows) - 0.4)
        if xlim:
            ax.set_xlim(*xlim)
        percent_axis(ax, "x")
        ax.set_xlabel("Games won (%)")
        ax.set_title(title)
        if names:
            from matplotlib.lines import Line2D  # only when drawing (see style)

            # Beside the chart: inside, "best" still hides a row's dots behind it.
            ax.legend([Line2D([], [], marker="o", ls="", color=c) for c in colors[:len(keys)]],
                      names, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    return fig


def seat_wins_overview_figure(seats: pl.DataFrame, order: list[str], title: str) -> Figure:
    """Every setting's seats in one chart: each seat's win rate as a dot with its 95%
    interval, the fair share as a dashed tick (overview_figure)."""
    most = int(seats["seat"].max())
    return overview_figure(seats, order, "seat", list(range(1, most + 1)),
                           [f"seat {k}" for k in range(1, most + 1)], title, tick="fair_share",
                           centre_each_row=True)


def team_wins_overview_figure(team: pl.DataFrame, order: list[str], title: str) -> Figure:
    """Every setting's team win rate in one chart, a dot with its 95% Wilson interval
    (overview_figure)."""
    return overview_figure(team.with_columns(pl.lit(0).alias("_one")), order, "_one", [0],
                           None, title, xlim=(0, 1.02), row_height=0.3)


def length_figure(lengths: pl.DataFrame, right: pl.DataFrame, column: str, label: str,
                  title: str, unit: str = "turns") -> Figure:
    """Left: game length (`lengths`: outcomes.length_counts), by player count. Right: another
    distribution by player count, `column` of `right` (counts), e.g. the winning margin."""
    players = sorted(lengths["players"].unique().to_list())
    with canvas(9.0, 4.0, ncols=2) as (fig, (left, other)):
        boxes(left, lengths, "players", "length", players)
        left.set_xlabel("Players")
        left.set_ylabel(f"Game length ({unit})")
        if right.height:
            boxes(other, right, "players", column,
                  [p for p in players if p in set(right["players"].to_list())])
        other.set_xlabel("Players")
        other.set_ylabel(label)
        fig.suptitle(title)
    return fig


def team_wins_figure(team: pl.DataFrame, title: str) -> Figure:
    """The team's win rate with its 95% interval, per player count (outcomes.team_wins)."""
    t = team.sort("players")
    players = t["players"].to_list()
    colors = palette(players)
    with canvas(6.0, 3.8) as (fig, (ax,)):
        rate = t["win_rate"].to_numpy()
        err = np.vstack([rate - t["ci_low"].to_numpy(), t["ci_high"].to_numpy() - rate])
        ax.bar(range(len(players)), rate, yerr=err, capsize=3,
               color=[colors[p] for p in players])
        ax.set_xticks(range(len(players)), [plural(p, "player") for p in players])
        percent_axis(ax)
        ax.set_ylim(0, 1.02)
        ax.set_ylabel("Games won (%)")
        ax.set_title(title)
    return fig
