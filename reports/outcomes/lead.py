"""What opens the Summary of a game with no report of its own (reports/page/game_report.py,
GameReport.lead_blocks), so that a new game is born with a picture on its first screen: each
seat's share of the wins against its fair share, or the team's win rate, per version and player
count, in one chart with its 95% Wilson intervals and a few sentences. A game's own report may
lead with these too, for the runs whose question is the seats'."""

from __future__ import annotations

import polars as pl

from reports.render import figures, text
from reports.render.section import SETTINGS_PER_CHART, Block, figure

# A lead says so many rows of the team's win rate in words; the chart holds every row.
SAID = 6


def _rows(df: pl.DataFrame, order: list[str]) -> list[tuple[str, int]]:
    """(setting, players) of every row the chart draws, in the designer's order."""
    return [(s, p) for s in order
            for p in sorted(df.filter(pl.col("setting") == s)["players"].unique().to_list())]


def _label(setting: str, players: int, counts: dict[str, int]) -> str:
    return setting if counts[setting] == 1 else f"{setting}, {text.plural(players, 'player')}"


def _shown(order: list[str]) -> tuple[list[str], str]:
    """The settings one chart draws, and what the block says of those it leaves out."""
    if len(order) <= SETTINGS_PER_CHART:
        return order, ""
    return order[:SETTINGS_PER_CHART], (f" The chart holds the first {SETTINGS_PER_CHART} "
                                        f"of {len(order)} settings; Outcomes holds every one.")


def _counts(rows: list[tuple[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for s, _ in rows:
        out[s] = out.get(s, 0) + 1
    return out


def _span(values: pl.Series, decimals: int = 0) -> str:
    lo, hi = (text.pct(x, decimals) for x in (values.min(), values.max()))
    return lo if lo == hi else f"{lo} to {hi}"


def _gaps(lo: float, hi: float) -> str:
    """The range of a seat's gaps from its fair share: "−2 to +3 points", "+4 points"."""
    a, b = (f"{round(100 * d):+d}".replace("-", "−").replace("+0", "0") for d in (lo, hi))
    return f"{a} points" if a == b else f"{a} to {b} points"


def seat_lead(seats: pl.DataFrame, order: list[str], heading: str, what: str = "version",
              title: str = "Each seat's share of the wins", file: str = "lead-seats.png"
              ) -> Block | None:
    """Each seat's share of the wins against its fair share (`seats`: reports/outcomes/
    outcomes.py's seat_wins), per setting in `order` and player count: one chart, and a
    sentence per row, or over more rows, seat 1's range and the seat farthest from its share."""
    seats = seats.filter(pl.col("players") > 1)
    order = [s for s in order if s in set(seats["setting"].to_list())]
    if seats.height == 0 or not order:
        return None
    order, left = _shown(order)
    seats = seats.filter(pl.col("setting").is_in(order))
    rows = _rows(seats, order)
    counts = _counts(rows)
    gap = pl.col("win_rate") - pl.col("fair_share")
    if len(rows) <= 2:  # every seat of each row, in words
        lines = []
        for setting, players in rows:
            g = seats.filter((pl.col("setting") == setting) & (pl.col("players") == players)
                             ).sort("seat")
            said = ", ".join(f"seat {r['seat']} "
                             f"{text.rate(r['win_rate'], r['ci_low'], r['ci_high'])}"
                             for r in g.iter_rows(named=True))
            lines.append(f"{_label(setting, players, counts)}: {said} (a fair share is "
                         f"{text.pct(g['fair_share'][0], 1)}).")
    else:  # seat 1 over every row, and the seat farthest from its share
        one = seats.filter(pl.col("seat") == 1).with_columns(gap.alias("gap"))
        far = seats.with_columns(gap.alias("gap")).sort(
            pl.col("gap").abs(), "players", "seat", descending=[True, False, False]
        ).row(0, named=True)
        lines = [
            f"Seat 1 wins {_span(one['win_rate'])} of the games, against fair shares of "
            f"{_span(one['fair_share'], 1)}: {_gaps(one['gap'].min(), one['gap'].max())} "
            "from its fair share.",
            f"The seat farthest from its fair share: seat {far['seat']} of {far['players']}"
            f"{' (' + far['setting'] + ')' if len(order) > 1 else ''}, "
            f"{text.rate(far['win_rate'], far['ci_low'], far['ci_high'])} against "
            f"{text.pct(far['fair_share'], 1)}."]
    games = text.count(int(seats["games"].min()))
    b = Block(heading, paragraphs=[
        f"Each seat's share of the wins against its fair share (the dashed tick), per {what} "
        f"and player count ({games} games or more each, 95% Wilson intervals).{left}"])
    b.paragraphs += lines
    b.figures.append(figure(
        file, "Each seat's share of the wins with its 95% Wilson "
        "interval; the dashed tick is its fair share (what every seat would win if the seat "
        "did not matter). Every seat's test is in Outcomes.",
        figures.seat_wins_overview_figure(seats, order, title)))
    return b


def team_lead(team: pl.DataFrame, order: list[str], heading: str, what: str = "version",
              title: str = "The team's win rate", file: str = "lead-team.png") -> Block | None:
    """The team's win rate (`team`: reports/outcomes/outcomes.py's team_wins), per setting in
    `order` and player count: one chart, and a sentence per row (the highest and the lowest
    where there are more than SAID)."""
    order = [s for s in order if s in set(team["setting"].to_list())]
    if team.height == 0 or not order:
        return None
    order, left = _shown(order)
    team = team.filter(pl.col("setting").is_in(order))
    rows = _rows(team, order)
    counts = _counts(rows)
    lines = []
    for setting, players in rows:
        r = team.filter((pl.col("setting") == setting) & (pl.col("players") == players)
                        ).row(0, named=True)
        lines.append((r["win_rate"], f"{_label(setting, players, counts)}: the team wins "
                      f"{text.rate(r['win_rate'], r['ci_low'], r['ci_high'])}."))
    more = ""
    if len(lines) > SAID:
        ranked = sorted(range(len(lines)), key=lambda i: lines[i][0])
        lines = [lines[ranked[-1]], lines[ranked[0]]]
        more = " The highest and the lowest; the chart holds every one."
    games = text.count(int(team["games"].min()))
    b = Block(heading, paragraphs=[
        f"How often the team wins, per {what} and player count ({games} games or more each, "
        f"95% Wilson intervals):{more}{left}"])
    b.paragraphs += [line for _, line in lines]
    b.figures.append(figure(
        file, "The team's win rate with its 95% Wilson interval. "
        "Every player count's games are in Outcomes.",
        figures.team_wins_overview_figure(team, order, title)))
    return b


def neutral_lead(seats: pl.DataFrame, team: pl.DataFrame, order: list[str]) -> list[Block]:
    """The neutral report's lead: the seats' shares, and the team's win rate, where the run
    has games of each."""
    found = [seat_lead(seats, order, "Who wins: each seat against its fair share"),
             team_lead(team, order, "How often the team wins")]
    return [b for b in found if b is not None]
