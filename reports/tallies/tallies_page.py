"""The report's section "Tallies by seat", for a game that declares per-seat tallies
(Game.tallies): each seat's mean of every tally, per setting, with its 95% interval and the
tally's share of all that seat tallied (tallies.by_seat). One grouped bar chart leads it, the
numbers are in a folded table. A game that declares no tallies has no such section.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from reports.render import figures, text
from reports.render.section import Block, Section, Table, figure, in_order

SID = "tallies"
TITLE = "Tallies by seat"
# The chart's groups (a seat of a setting) at most: past them the chart would be unreadable,
# and the table holds every setting.
CHART_GROUPS = 24


def mean_text(mean, low, high) -> str:
    """"4.25 (3.9–4.6)": a mean with its interval, or the mean alone where it has none."""
    if text.missing(low) or text.missing(high):
        return text.num(mean, 2)
    return f"{text.num(mean, 2)} ({text.num(low, 2)}–{text.num(high, 2)})"


def tally_section(seats: pl.DataFrame, kinds: pl.DataFrame, names: tuple[str, ...],
                  word=str) -> Section:
    """The section from tallies.by_seat's table, the settings in the designer's order (from
    `kinds`); `word` names a tally as the page writes it (Game.tally_word)."""
    s = Section(SID, TITLE, intro=[
        f"What each seat counted in its games ({text.join_words([word(t) for t in names])}), "
        "per setting: "
        "its mean per game and each tally's share of all that seat counted."],
        method=["A seat's mean is over every game it played in the setting, with a 95% t "
                "interval; a tally's share is its sum over the sum of every tally of the "
                "seat. `balance compare` pairs each seat's mean game by game between "
                "versions."])
    if not seats.height:
        s.missing.append("The run has no seats table rows, so there are no tallies.")
        return s
    settings = in_order(kinds, seats)
    b = Block("")
    groups = (seats.select("setting", "players", "seat").unique(maintain_order=True)
              .sort(pl.col("setting").replace_strict({x: i for i, x in enumerate(settings)}),
                    "players", "seat"))
    shown = groups.head(CHART_GROUPS)
    more = "" if groups.height <= CHART_GROUPS else (
        f" The first {CHART_GROUPS} of {groups.height} seats; the table holds every one.")
    b.figures.append(figure(
        f"{SID}-by-seat.png",
        "Each seat's mean tally per game, with 95% t intervals, grouped by setting and seat."
        + more, tallies_figure(seats, shown, names, word)))
    rows = []
    for setting in settings:
        for r in seats.filter(pl.col("setting") == setting).iter_rows(named=True):
            rows.append([setting, str(r["players"]), str(r["seat"]), word(r["tally"]),
                         text.count(r["n"]), mean_text(r["mean"], r["ci_low"], r["ci_high"]),
                         text.pct(r["share"])])
    b.tables.append(Table("Each seat's tallies (mean per game, 95% interval; share of the "
                          "seat's tallies)",
                          ["Setting", "Players", "Seat", "Tally", "Games", "Mean (95% interval)",
                           "Share"], rows, left=4, fold="closed"))
    s.blocks.append(b)
    return s


def tallies_figure(seats: pl.DataFrame, groups: pl.DataFrame, names: tuple[str, ...],
                   word=str):
    """One grouped bar chart: a group per (setting, players, seat) of `groups`, a bar per
    tally, with its interval."""
    labels = [f"{g['setting']}, {g['players']}p, seat {g['seat']}"
              for g in groups.iter_rows(named=True)]
    keyed = {(r["setting"], r["players"], r["seat"], r["tally"]): r
             for r in seats.iter_rows(named=True)}
    colours = figures.palette_of(len(names))
    width = 0.8 / len(names)
    xs = np.arange(groups.height)
    # The setting labels stand at 45 degrees below the bars: a long one needs the height.
    longest = max((len(x) for x in labels), default=0)
    with figures.canvas(max(6.0, 0.5 * groups.height * max(1, len(names)) / 2 + 2),
                        max(4.0, 2.5 + 0.075 * longest)) as (fig, (ax,)):
        for i, t in enumerate(names):
            got = [keyed.get((*g, t)) for g in groups.rows()]
            mean = np.array([r["mean"] if r else np.nan for r in got], float)
            low = np.array([r["ci_low"] if r else np.nan for r in got], float)
            high = np.array([r["ci_high"] if r else np.nan for r in got], float)
            err = np.nan_to_num(np.vstack([mean - low, high - mean]))
            ax.bar(xs - 0.4 + width * (i + 0.5), mean, width, yerr=err, capsize=2,
                   color=colours[i], label=word(t))
        ax.set_xticks(xs, labels, rotation=45, ha="right")
        ax.set_ylabel("Mean per game")
        ax.set_title("Tallies by seat")
        ax.legend(loc="upper left", bbox_to_anchor=(1, 1))
    return fig
