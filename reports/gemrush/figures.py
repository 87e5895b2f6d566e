"""Gem Rush's charts: the difficulty curves and when each target is reached, room value, the burn
timing, the curves of each player, and the versions' curves of a comparison
(reports/render/figures.py's conventions: one function per figure, its own Agg canvas,
distributions drawn from counts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from reports.compare.compare import Comparison
from reports.render.figures import boxes, canvas, overview_figure, palette, palette_of, percent_axis
from reports.render.text import join_words, plural

if TYPE_CHECKING:  # matplotlib is imported only to draw (reports/render/figures.py, style)
    from matplotlib.figure import Figure


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
    colors = palette(players)
    with canvas(8.0, 4.8) as (fig, (ax,)):
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
        percent_axis(ax)
        ax.set_xlabel("Crisis target (team points)")
        ax.set_ylabel("Games won (%)")
        ax.set_title(title, pad=30)
        ax.legend(loc="lower left", frameon=True)
    return fig


def named_overview_figure(rates: pl.DataFrame, order: list[str], title: str) -> Figure:
    """Every setting's win rate at each named difficulty in one chart: a row per setting and
    player count, a dot per difficulty with its 95% Wilson interval (crisis.difficulty_table's
    rows of the named difficulties; reports/render/figures.py, overview_figure)."""
    names = list(dict.fromkeys(n for n, _ in rates.select("difficulty", "target").unique()
                               .sort("target", "difficulty").rows()))
    return overview_figure(rates, order, "difficulty", names, names, title,
                           xlim=(-0.02, 1.02))


def turn_reached_figure(curve: pl.DataFrame, named: pl.DataFrame, title: str,
                        xlim: tuple[float, float] | None = None,
                        ylim: tuple[float, float] | None = None) -> Figure:
    """Mean player turn at which each target was reached, per player count; `xlim`, `ylim`
    shared by every setting's chart."""
    colors = palette(curve["players"].unique().to_list())
    with canvas(8.0, 4.2) as (fig, (ax,)):
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
    colors = palette(players)
    height = 1.2 + 0.32 * len(ranked)
    with canvas(8.0, height) as (fig, (ax,)):
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


def deck_out_figure(bg: pl.DataFrame, shuffles: pl.DataFrame, title: str) -> Figure:
    """Left: first turn the gem deck ran out, by player count (games where it did; `bg` is
    burn.deck_out_counts). Right: the share of games with each number of reshuffles."""
    players = sorted(bg["players"].unique().to_list())
    colors = palette(players)
    with canvas(9.0, 4.0, ncols=2) as (fig, (left, right)):
        boxes(left, bg, "players", "deck_out_turn", players)
        left.set_xlabel("Players")
        left.set_ylabel("Gem deck first ran out (player turn)")
        width = 0.8 / max(len(players), 1)
        for i, p in enumerate(players):
            s = shuffles.filter(pl.col("players") == p)
            right.bar(s["reshuffles"].to_numpy() + (i - (len(players) - 1) / 2) * width,
                      s["share"], width=width, color=colors[p], label=plural(p, 'player'))
        import matplotlib.ticker as mticker  # only when drawing (reports/render/figures.py, style)

        right.xaxis.set_major_locator(mticker.MaxNLocator(integer=True))
        percent_axis(right)
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
    with canvas(8.0, 4.2) as (fig, (ax,)):
        boxes(ax, slack, "difficulty", "slack_turns", order, hue="players",
               hue_order=players, colors=palette(players))
        ax.set_xlabel("Difficulty reached")
        ax.set_ylabel("Player turns left on the clock")
        ax.legend(title="Players")
        ax.set_title(title)
    return fig


def clock_end_figure(ended: pl.DataFrame, title: str) -> Figure:
    """The player turn at which the burn ended the game, by player count (`ended` is
    burn.clock_end_counts)."""
    players = sorted(ended["players"].unique().to_list())
    with canvas(6.0, 3.8) as (fig, (ax,)):
        boxes(ax, ended, "players", "turns", players)
        ax.set_xlabel("Players")
        ax.set_ylabel("Burn ended the game (player turn)")
        ax.set_title(title)
    return fig


PANELS_A_ROW = 4  # player counts drawn side by side before the next row


def player_curves_figure(curves: pl.DataFrame, named: pl.DataFrame, title: str) -> Figure:
    """Win rate against target, one panel per player count played by two players or more
    (four a row), one line per player with its 95% Wilson band, a bound dashed: how far the
    verdict moves with the strength of play. `curves` has `player`, `bound`, `games` and, where
    the page reads several runs, `run`; the one legend names each player with its games and
    runs. Panels share their axes; dotted lines mark the named difficulties."""
    counts = sorted(p for p in set(curves["players"].to_list())
                    if curves.filter(pl.col("players") == p)["player"].n_unique() > 1)
    shown = curves.filter(pl.col("players").is_in(counts))
    names = [p for _, p in sorted(set(shown.select("bound", "player").rows()))]
    colors = dict(zip(names, palette_of(max(len(names), 1)), strict=False))
    live = shown.filter(pl.col("win_rate") > 0.001)
    top = max(int((live if live.height else shown)["target"].max()),
              int(named["target"].max()) if named.height else 0) + 3
    cols = min(len(counts), PANELS_A_ROW)
    rows = -(-len(counts) // cols)
    with canvas(min(3.6 * cols + 1.5, 13.5), 3.2 * rows + 1.4, 0) as (fig, _):
        axes = [fig.add_subplot(rows, cols, i + 1) for i in range(len(counts))]
        for ax, p in zip(axes, counts, strict=True):
            for h in names:
                c = shown.filter((pl.col("players") == p) & (pl.col("player") == h))
                if c.height:
                    c = c.sort("target")
                    ax.plot(c["target"], c["win_rate"], color=colors[h], label=_legend(shown, h),
                            linestyle="--" if c["bound"][0] else "-")
                    ax.fill_between(c["target"], c["ci_low"], c["ci_high"], color=colors[h],
                                    alpha=0.2, linewidth=0)
            for t in named.filter(pl.col("players") == p)["target"].unique().to_list():
                ax.axvline(t, color="0.35", linestyle=":", linewidth=1)
            ax.set_xlim(0, top)
            ax.set_ylim(-0.02, 1.02)
            percent_axis(ax)
            ax.set_title(plural(p, "player"))
            if ax is not axes[0]:
                ax.sharex(axes[0])
                ax.sharey(axes[0])
        for i, ax in enumerate(axes):
            if i % cols:
                ax.tick_params(labelleft=False)
            else:
                ax.set_ylabel("Games won (%)")
            if i >= len(axes) - cols:  # the lowest panel of its column
                ax.set_xlabel("Crisis target (team points)")
        seen = {}
        for ax in axes:
            for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
                seen.setdefault(label, handle)
        fig.legend(list(seen.values()), list(seen), loc="outside lower center",
                   ncols=min(2, len(seen)), frameon=False)
        fig.suptitle(title)
    return fig


def _legend(curves: pl.DataFrame, player: str) -> str:
    """"reference (budget 64), 200 games (players run)": a player with the games it played at
    each player count drawn, and the runs they come from."""
    mine = curves.filter(pl.col("player") == player).unique(["players", "setting"])
    lo, hi = int(mine["games"].min()), int(mine["games"].max())
    games = f"{lo:,} games" if lo == hi else f"{lo:,} to {hi:,} games"
    runs = sorted(set(mine["run"].drop_nulls().to_list())) if "run" in mine.columns else []
    return f"{player}, {games}" + (f" ({join_words(runs)} run{'s' if len(runs) > 1 else ''})"
                                   if runs else "")


def _setting(label: str) -> tuple[str, str]:
    """(the player count part of a label, the rest): versions are drawn per player count."""
    parts = label.split(", ")
    players = [p for p in parts if p.startswith("players=")]
    rest = ", ".join(p for p in parts if not p.startswith("players=")) or label
    return (players[0] if players else ""), rest


def curves_figure(cmp: Comparison, title: str) -> Figure | None:
    """Every version's win rate against the target, bands for the 95% interval: one panel per
    player count (sharing their axes), the versions on one axis in each. None when the run
    has no curves (games played to a target)."""
    c = cmp.tables["curve"]
    if c.height == 0:
        return None
    order = cmp.variants["label"].to_list()
    panels = list(dict.fromkeys(_setting(x)[0] for x in order))
    rests = list(dict.fromkeys(_setting(x)[1] for x in order))
    colors = dict(zip(rests, palette_of(len(rests), "colorblind" if len(rests) <= 10 else "husl"),
                      strict=True))
    top = int(c.filter(pl.col("win_rate") > 0.001)["target"].max() or c["target"].max()) + 3
    with canvas(min(4.0 * len(panels), 12.0) + 0.5, 3.6 + 0.22 * min(len(rests), 12),
                 len(panels)) as (fig, axes):
        for ax, panel in zip(axes, panels, strict=True):
            for label in order:
                setting, rest = _setting(label)
                g = c.filter(pl.col("label") == label).sort("target")
                if setting != panel or g.height == 0:
                    continue
                x = g["target"].to_numpy()
                ax.plot(x, g["win_rate"].to_numpy(), color=colors[rest], lw=1.4,
                        label=rest if ax is axes[0] else None)
                ax.fill_between(x, g["ci_low"].to_numpy(), g["ci_high"].to_numpy(),
                                color=colors[rest], alpha=0.15, lw=0)
            percent_axis(ax)
            ax.set_xlim(0, top)
            ax.set_ylim(-0.02, 1.02)
            ax.set_xlabel("target (points)")
            if panel:
                ax.set_title(panel.replace("players=", "") + " players")
        axes[0].set_ylabel("games won")
        if len(rests) <= 12:
            fig.legend(loc="outside lower center", ncols=min(2, len(rests)), frameon=False)
        fig.suptitle(title)
    return fig


def difficulty_by_players_figure(named: pl.DataFrame, title: str) -> Figure:
    """The win rate at each named difficulty against the player count, a line per difficulty
    with its 95% Wilson band (one setting's rows of crisis.difficulty_table): the Summary's
    lead chart of a Crisis run."""
    names = list(dict.fromkeys(n for n, _ in named.select("difficulty", "target").unique()
                               .sort("target", "difficulty").rows()))
    colors = dict(zip(names, palette_of(len(names)), strict=True))
    with canvas(8.0, 4.4) as (fig, (ax,)):
        for n in names:
            d = named.filter(pl.col("difficulty") == n).sort("players")
            target = d["target"][0]
            ax.plot(d["players"], d["win_rate"], marker="o", color=colors[n],
                    label=f"{n} ({target})")
            ax.fill_between(d["players"], d["ci_low"], d["ci_high"], color=colors[n],
                            alpha=0.2, linewidth=0)
        ax.set_ylim(-0.02, 1.02)
        ax.set_xticks(sorted(set(named["players"].to_list())))
        percent_axis(ax)
        ax.set_xlabel("Players")
        ax.set_ylabel("Games won (%)")
        ax.set_title(title)
        ax.legend(loc="upper right", frameon=True)
    return fig
