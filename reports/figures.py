"""Charts of the analyses, one function per figure; each takes analysis tables of one setting
and returns a matplotlib Figure on its own Agg canvas. Nothing touches pyplot or the global
backend, so importing this in a notebook leaves its plotting alone. `png_bytes` renders a
figure the same way every time: fixed size and dpi, no software or date stamp.

Distributions are box plots: the box spans the quartiles, the line is the median and the
whiskers reach the 10th and 90th percentiles, as in the tables. They are drawn from counts (one
row per value with `n` games, reports/counts.py), never from the games one by one.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager

import matplotlib
import matplotlib.ticker as mticker
import numpy as np
import polars as pl
import seaborn as sns
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from reports import counts
from reports.text import plural

DPI = 110
STYLE = {**sns.axes_style("whitegrid"), "font.size": 10, "axes.titlesize": 11,
         "axes.labelsize": 10, "legend.fontsize": 9, "xtick.labelsize": 9,
         "ytick.labelsize": 9,
         # Room and content names are the designer's text: "$...$" in one is a name, not
         # mathtext (which would refuse it and stop the report).
         "text.parse_math": False}


@contextmanager
def _figure(width: float, height: float, ncols: int = 1) -> Iterator[tuple[Figure, list]]:
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
        FigureCanvasAgg(fig)
        axes = [fig.add_subplot(1, ncols, i + 1) for i in range(ncols)]
        yield fig, axes


def png_bytes(fig: Figure) -> bytes:
    """The figure as PNG bytes, byte-identical for the same figure."""
    buf = io.BytesIO()
    with matplotlib.rc_context(STYLE):
        fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def _palette(players: list[int]) -> dict[int, tuple]:
    colors = sns.color_palette("colorblind", max(len(players), 1))
    return {p: colors[i] for i, p in enumerate(sorted(players))}


def _percent_axis(ax) -> None:
    ax.yaxis.set_major_formatter(mticker.PercentFormatter(xmax=1.0, decimals=0))


def _mark_difficulties(ax, named: pl.DataFrame) -> None:
    """Dotted vertical lines at the named difficulties, labelled along the top."""
    marks = named.select("difficulty", "target").unique().sort("target", "difficulty")
    for i, (name, target) in enumerate(marks.rows()):
        ax.axvline(target, color="0.35", linestyle=":", linewidth=1)
        # Alternate two rows of labels so that neighbouring difficulties do not overlap.
        ax.annotate(f"{name} {target}", xy=(target, 1.0), xycoords=("data", "axes fraction"),
                    xytext=(0, 3 + 11 * (i % 2)), textcoords="offset points", ha="center",
                    va="bottom", fontsize=8, color="0.25")


def difficulty_curve_figure(curve: pl.DataFrame, named: pl.DataFrame, fixed: pl.DataFrame,
                            title: str, xlim: tuple[float, float] | None = None) -> Figure:
    """Win rate against target, one line per player count with its 95% Wilson band; named
    difficulties marked; games played to a fixed target as points with error bars. `xlim`:
    the same target axis for every setting's chart."""
    players = sorted(set(curve["players"].to_list()) | set(fixed["players"].to_list()))
    colors = _palette(players)
    with _figure(8.0, 4.8) as (fig, (ax,)):
        for p in players:
            c = curve.filter(pl.col("players") == p).sort("target")
            if c.height:
                ax.plot(c["target"], c["win_rate"], color=colors[p], label=plural(p, 'player'))
                ax.fill_between(c["target"], c["ci_low"], c["ci_high"], color=colors[p],
                                alpha=0.2, linewidth=0)
            f = fixed.filter(pl.col("players") == p)
            if f.height:
                rate = f["win_rate"].to_numpy()
                err = np.vstack([rate - f["ci_low"].to_numpy(), f["ci_high"].to_numpy() - rate])
                ax.errorbar(f["target"], rate, yerr=err, fmt="o", color=colors[p], capsize=3,
                            markersize=5,
                            label=f"{plural(p, 'player')}, played to the target" if c.height else
                            plural(p, 'player'))
        _mark_difficulties(ax, named)
        ax.set_ylim(-0.02, 1.02)
        if xlim:
            ax.set_xlim(*xlim)
        _percent_axis(ax)
        ax.set_xlabel("Crisis target (team points)")
        ax.set_ylabel("Games won (%)")
        ax.set_title(title, pad=30)
        ax.legend(loc="lower left", frameon=True)
    return fig


def turn_reached_figure(curve: pl.DataFrame, named: pl.DataFrame, title: str,
                        xlim: tuple[float, float] | None = None,
                        ylim: tuple[float, float] | None = None) -> Figure:
    """Mean player turn at which each target was reached, per player count; `xlim`, `ylim`
    shared by every setting's chart."""
    colors = _palette(curve["players"].unique().to_list())
    with _figure(8.0, 4.2) as (fig, (ax,)):
        for p in sorted(colors):
            c = curve.filter((pl.col("players") == p) & pl.col("turn_reached").is_not_null())
            ax.plot(c["target"], c["turn_reached"], color=colors[p], label=plural(p, 'player'))
        _mark_difficulties(ax, named)
        ax.set_xlabel("Crisis target (team points)")
        ax.set_ylabel("Mean turn reached (player turns)")
        if xlim:
            ax.set_xlim(*xlim)
        if ylim:
            ax.set_ylim(*ylim)
        ax.set_title(title, pad=30)
        ax.legend(loc="upper left")
    return fig


def room_value_figure(value: pl.DataFrame, ranking: pl.DataFrame, title: str,
                      top: int = 10) -> Figure:
    """Rooms ranked by how much more often units that built them early won, in percentage
    points, one marker per player count with its 95% interval. With more than 2 x `top`
    rooms, only the `top` most and least valuable are shown."""
    ranked = ranking.sort("rank")["room"].to_list()
    if len(ranked) > 2 * top:
        ranked = ranked[:top] + ranked[-top:]
    players = sorted(value["players"].unique().to_list())
    colors = _palette(players)
    height = 1.2 + 0.32 * len(ranked)
    with _figure(8.0, height) as (fig, (ax,)):
        offsets = np.linspace(-0.25, 0.25, len(players)) if len(players) > 1 else [0.0]
        for off, p in zip(offsets, players, strict=True):
            v = value.filter((pl.col("players") == p) & pl.col("diff").is_not_null()
                             & pl.col("room").is_in(ranked))
            y = [ranked.index(r) + off for r in v["room"].to_list()]
            d = v["diff"].to_numpy() * 100
            err = np.vstack([d - v["diff_low"].to_numpy() * 100,
                             v["diff_high"].to_numpy() * 100 - d])
            ax.errorbar(d, y, xerr=err, fmt="o", color=colors[p], markersize=4, capsize=2,
                        elinewidth=1, label=plural(p, 'player'))
        ax.axvline(0, color="0.2", linewidth=1)
        if len(ranking) > 2 * top:
            ax.axhline(top - 0.5, color="0.5", linestyle="--", linewidth=1)
        ax.set_yticks(range(len(ranked)), ranked)
        ax.set_ylim(len(ranked) - 0.5, -0.5)
        ax.set_xlabel("Win rate when built by the median build turn, minus otherwise "
                      "(percentage points)")
        ax.set_title(title)
        ax.legend(loc="lower right")
    return fig


def _boxes(ax, df: pl.DataFrame, x: str, y: str, order: list, hue: str | None = None,
           hue_order: list | None = None, colors: dict | None = None) -> None:
    """Box plots of `y` for each value of `x` (in `order`), side by side per `hue` value, from
    counts of `y` (`n`). Quantiles as in the tables (linear); empty groups are left out."""
    hues = hue_order if hue else [None]
    width = 0.7 / len(hues)
    default = sns.color_palette("colorblind")[0]
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


def deck_out_figure(bg: pl.DataFrame, shuffles: pl.DataFrame, title: str) -> Figure:
    """Left: first turn the gem deck ran out, by player count (games where it did; `bg` is
    burn.deck_out_counts). Right: the share of games with each number of reshuffles."""
    players = sorted(bg["players"].unique().to_list())
    colors = _palette(players)
    with _figure(9.0, 4.0, ncols=2) as (fig, (left, right)):
        _boxes(left, bg, "players", "deck_out_turn", players)
        left.set_xlabel("Players")
        left.set_ylabel("Gem deck first ran out (player turn)")
        width = 0.8 / max(len(players), 1)
        for i, p in enumerate(players):
            s = shuffles.filter(pl.col("players") == p)
            right.bar(s["reshuffles"].to_numpy() + (i - (len(players) - 1) / 2) * width,
                      s["share"], width=width, color=colors[p], label=plural(p, 'player'))
        right.xaxis.set_major_locator(mticker.MaxNLocator(integer=True))
        _percent_axis(right)
        right.set_xlabel("Reshuffles in the game")
        right.set_ylabel("Games (%)")
        right.legend()
        fig.suptitle(title)
    return fig


def slack_figure(slack: pl.DataFrame, title: str) -> Figure:
    """Player turns left on the clock when each named target was reached, by player count
    (`slack` is burn.slack_counts)."""
    order = (slack.select("difficulty", "target").unique().sort("target")
             ["difficulty"].to_list())
    players = sorted(slack["players"].unique().to_list())
    with _figure(8.0, 4.2) as (fig, (ax,)):
        _boxes(ax, slack, "difficulty", "slack_turns", order, hue="players",
               hue_order=players, colors=_palette(players))
        ax.set_xlabel("Difficulty reached")
        ax.set_ylabel("Player turns left on the clock")
        ax.legend(title="Players")
        ax.set_title(title)
    return fig


def clock_end_figure(ended: pl.DataFrame, title: str) -> Figure:
    """The player turn at which the burn ended the game, by player count (`ended` is
    burn.clock_end_counts)."""
    players = sorted(ended["players"].unique().to_list())
    with _figure(6.0, 3.8) as (fig, (ax,)):
        _boxes(ax, ended, "players", "turns", players)
        ax.set_xlabel("Players")
        ax.set_ylabel("Burn ended the game (player turn)")
        ax.set_title(title)
    return fig


def seat_wins_figure(seats: pl.DataFrame, title: str) -> Figure:
    """Win rate of each seat with its 95% interval, per player count; the fair share (what
    every seat would win if the seat did not matter) as a dashed line."""
    players = sorted(seats["players"].unique().to_list())
    colors = _palette(players)
    with _figure(8.0, 4.0) as (fig, (ax,)):
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
        _percent_axis(ax)
        ax.set_ylabel("Games won (%)")
        ax.set_title(title)
        ax.legend()
    return fig


def rush_length_figure(rush: pl.DataFrame, margins: pl.DataFrame, title: str) -> Figure:
    """Left: game length in rounds. Right: the winning margin in points. By player count
    (`rush` is rush.rounds_counts, `margins` rush.margin_counts)."""
    players = sorted(rush["players"].unique().to_list())
    with _figure(9.0, 4.0, ncols=2) as (fig, (left, right)):
        _boxes(left, rush, "players", "rounds", players)
        left.set_xlabel("Players")
        left.set_ylabel("Game length (rounds)")
        if margins.height:
            _boxes(right, margins, "players", "margin", [p for p in players if p > 1])
        right.set_xlabel("Players")
        right.set_ylabel("Winning margin (points over second place)")
        fig.suptitle(title)
    return fig


def player_curves_figure(curves: pl.DataFrame, named: pl.DataFrame, title: str) -> Figure:
    """Win rate against target, one panel per player count played by two players or more,
    one line per player with its 95% Wilson band: how far the verdict moves with the strength
    of play. Panels share their axes; dotted lines mark the named difficulties."""
    counts = sorted(p for p in set(curves["players"].to_list())
                    if curves.filter(pl.col("players") == p)["heuristic"].n_unique() > 1)
    names = sorted(set(curves["heuristic"].to_list()))
    colors = sns.color_palette("colorblind", max(len(names), 1))
    with _figure(min(4.5 * len(counts) + 2.5, 13.5), 4.2, len(counts)) as (fig, axes):
        for ax, p in zip(axes, counts, strict=True):
            for i, h in enumerate(names):
                c = curves.filter((pl.col("players") == p) & (pl.col("heuristic") == h))
                if c.height:
                    c = c.sort("target")
                    ax.plot(c["target"], c["win_rate"], color=colors[i], label=h)
                    ax.fill_between(c["target"], c["ci_low"], c["ci_high"], color=colors[i],
                                    alpha=0.2, linewidth=0)
            marks = named.filter(pl.col("players") == p).select("target").unique()
            for t in marks["target"].to_list():
                ax.axvline(t, color="0.35", linestyle=":", linewidth=1)
            ax.set_ylim(-0.02, 1.02)
            _percent_axis(ax)
            ax.set_title(plural(p, "player"))
            if ax is not axes[0]:
                ax.sharex(axes[0])
                ax.sharey(axes[0])
        axes[0].set_ylabel("Games won (%)")
        fig.supxlabel("Crisis target (team points); dotted: the named difficulties")
        seen = {}
        for ax in axes:
            for h, label in zip(*ax.get_legend_handles_labels(), strict=True):
                seen.setdefault(label, h)
        axes[0].legend(list(seen.values()), list(seen), loc="lower left", frameon=True)
        fig.suptitle(title)
    return fig
