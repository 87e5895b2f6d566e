"""The report's section on how games come out, for any game (reports/outcomes/outcomes.py computes
it): per setting, who wins (each seat against its fair share, or the team's win rate) first, then a
click away the length, the margin, how the games ended, and the scores by player count and by
player. Past MANY_SETTINGS settings (a sweep), one chart shows every setting's seats or team
first, and each setting's tables are folded under its name, without charts of their own. One
sentence per setting and player count for the Summary (`sentences`).

A game's report sets the words: what its games are called ("race"), the unit of length, the
name of each end reason and what a game that ended so did.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from reports.outcomes.outcomes import Outcomes
from reports.render import figures, text
from reports.render.section import (
    BOXES,
    DIST_HEADERS,
    MANY_SETTINGS,
    SETTINGS_PER_CHART,
    Block,
    Section,
    Table,
    dist_row,
    figure,
    in_order,
    of,
    overview_block,
    slug,
)


@dataclass(frozen=True)
class Words:
    """How a game's report speaks of its games' outcomes."""

    sid: str = "outcomes"  # the section's id
    title: str = "Outcomes"  # the section's title
    what: str = ""  # what the games are called in a sentence ("race"); "" for "games"
    unit: str = "turns"  # the unit of length (reports/outcomes/outcomes.py gives rounds or turns)
    score_unit: str = "points"  # what a score counts, plural (Game.score_unit)
    # The end reasons, in the order the tables list them, with their column headers.
    endings: tuple[tuple[str, str], ...] = ()
    # What a game that ended so did, for the Summary's sentence ("end in a sealed mine"):
    # only the reasons worth saying.
    ended: tuple[tuple[str, str], ...] = ()
    intro: tuple[str, ...] = (
        "How often each seat wins against its fair share (the first player's advantage), or "
        "how often the team wins; how long the games last, how they end, and the scores.",)
    method: tuple[str, ...] = (
        "Seat 1 plays first. Win rates by seat carry 95% Wilson intervals; a tied game is won "
        "by no seat, so the fair share of each seat is the share of untied games divided by "
        "the players. A seat is off its fair share when its wins among the games one seat "
        "won differ from 1/players beyond chance (the exact binomial test, Holm-corrected "
        "over every seat). The margin is the winner's lead over the second score. By player, "
        "where the seats were played by different players (heuristics): every seat each "
        "played, its score, and how often it won against the fair share of a seat.",)
    missing: str = "The run has no games, so there are no outcomes."
    # What seat 1 is, in the seat tables' captions: a game whose seats do not play in turn
    # order (the first player rolled for, say) names them otherwise.
    seats: str = "seat 1 plays first"
    # Seat 1 in the Summary's sentences: "the first player" only where seat 1 always plays
    # first; a game whose rules choose who starts names the seat (Game.seat_name).
    seat_one: str = "the first player"
    # What the intro and the method say of a cooperative game (the team wins or loses).
    TEAM_INTRO = ("How often the team wins, how long the games last, how they end, and the "
                  "scores.",)
    TEAM_METHOD = ("The team's win rate carries a 95% Wilson interval. The scores: the team's, "
                   "and every seat's, by player count; where the seats were played by different "
                   "players (heuristics), each player's score over the seats it played.",)
    length_words: str = ""  # how the length is measured, e.g. "A round is one turn of every
    #                         player." (added to the method)
    merged: dict = field(default_factory=dict)  # setting -> sentences of games merged there

    def ending_title(self, reason: str) -> str:
        return dict(self.endings).get(reason) or reason.replace("_", " ").capitalize()

    @property
    def win_rate(self) -> str:
        """"race win rate", or "win rate" for games with no name of their own."""
        return f"{self.what} win rate" if self.what else "win rate"


def _who_wins(o: Outcomes, setting: str, words: Words, lead: Block,
              draw: bool = True) -> Table | None:
    """The lead block's chart (seats, or the team; not when `draw` is off, for the overview
    draws them) and the table of every seat, if any."""
    seats = of(o.seat_wins, setting)
    multi = seats.filter(pl.col("players") > 1)
    what = words.win_rate
    if multi.height and draw:
        lead.figures.append(figure(
            f"{words.sid}-seats-{slug(setting)}.png",
            f"Share of games won by each seat ({words.seats}), with 95% intervals; "
            "dashed: the fair share.",
            figures.seat_wins_figure(multi, f"{setting}: {what} by seat")))
    team = of(o.team_wins, setting)
    if team.height and draw:
        lead.figures.append(figure(
            f"{words.sid}-team-{slug(setting)}.png",
            "Share of games the team won, by player count, with 95% Wilson intervals.",
            figures.team_wins_figure(team, f"{setting}: {what} of the team")))
    if team.height:
        lead.tables.append(Table(
            "The team's win rate", ["Players", "Games", "Won (95% interval)"],
            [[str(r["players"]), text.count(r["games"]),
              text.rate(r["win_rate"], r["ci_low"], r["ci_high"])]
             for r in team.iter_rows(named=True)]))
    if not seats.height:
        return None
    return Table(
        f"Win rate by seat ({words.seats})",
        ["Players", "Seat", "Games", "Won (95% interval)", "Fair share"],
        [[str(r["players"]), str(r["seat"]), text.count(r["games"]),
          text.rate(r["win_rate"], r["ci_low"], r["ci_high"]), text.pct(r["fair_share"])]
         for r in seats.iter_rows(named=True)], left=2)


def outcome_section(o: Outcomes, kinds: pl.DataFrame, words: Words = Words()) -> Section:
    """The section: one lead block per setting (in the order the designer gave the versions,
    from `kinds`, a tally's keys), and its tables folded under it."""
    method = [*words.method, *([words.length_words] if words.length_words else [])]
    s = Section(words.sid, words.title, intro=list(words.intro), method=method)
    if o.empty:
        s.missing.append(words.missing)
        return s
    settings = in_order(kinds, o.lengths)
    # Many settings with no seats or team to chart (one-player games) keep their own charts.
    first = _overview(o, settings, words) if len(settings) > MANY_SETTINGS else None
    overview = first is not None
    if overview:
        s.blocks.append(first)
    for setting in settings:
        lead = Block(setting, paragraphs=list(words.merged.get(setting, [])))
        seat_table = _who_wins(o, setting, words, lead, draw=not overview)
        if not overview or lead.paragraphs or lead.tables:  # else its fold names it
            s.blocks.append(lead)
        competitive = of(o.margin_counts, setting).height > 0 or seat_table is not None
        b = Block("", fold=f"More on {setting}: "
                           + ("every seat's share, " if seat_table else "")
                           + "game length, " + ("the winner's margin, " if competitive else "")
                           + "how the games ended, the scores")
        lengths = of(o.length_counts, setting)
        right, column, label = ((of(o.margin_counts, setting), "margin",
                                 "Winning margin (points over second place)") if competitive
                                else (of(o.result_counts, setting), "score",
                                      "The team's score"))
        if not overview:  # the tables below say the same, and the fold's chart is one more
            b.figures.append(figure(
                f"{words.sid}-length-{slug(setting)}.png",
                f"Left: game length in {words.unit}. Right: "
                + ("the winner's lead over the second score. " if competitive
                   else "the team's score. ") + BOXES,
                figures.length_figure(lengths, right, column, label,
                                      f"{setting}: {words.what or 'game'} length and "
                                      + ("margin" if competitive else "score"), words.unit)))
        if seat_table is not None:
            b.tables.append(seat_table)
        b.tables.append(Table(
            f"Game length ({words.unit})", ["Players", "Games", *DIST_HEADERS],
            [[str(r["players"]), text.count(r["games"]), *dist_row(r)]
             for r in of(o.lengths, setting).iter_rows(named=True)]))
        b.tables.append(endings_table(of(o.endings, setting), words))
        margin = of(o.margins, setting)
        if margin.height:
            seats = of(o.seat_wins, setting)
            ties = {p: t for p, t in seats.select("players", "ties").unique().rows()}
            b.tables.append(Table(
                "Winning margin (points over the second score)",
                ["Players", "Games", *DIST_HEADERS, "Tied games"],
                [[str(r["players"]), text.count(r["n"]), *dist_row(r),
                  text.pct(ties.get(r["players"]))]
                 for r in margin.iter_rows(named=True)]))
        b.tables += score_tables(o, setting, competitive)
        s.blocks.append(b)
    return s


def _overview(o: Outcomes, settings: list[str], words: Words) -> Block | None:
    """The block that opens a section of many settings (reports/render/section.py, MANY_SETTINGS):
    every setting's seats (or team) in a chart, in the designer's order. None when no setting
    has two seats or a team to chart."""
    what = words.win_rate[0].upper() + words.win_rate[1:]
    b, charts = overview_block(settings, SETTINGS_PER_CHART, "share of the games won")
    seats = o.seat_wins.filter(pl.col("players") > 1) if o.seat_wins.height else o.seat_wins
    for chunk, part, which in charts:
        mine = seats.filter(pl.col("setting").is_in(chunk)) if seats.height else seats
        if mine.height:
            b.figures.append(figure(
                f"{words.sid}-seats-every-setting{part}.png",
                f"Share of games won by each seat ({words.seats}), with 95% intervals, a row "
                "per setting; dashed: the fair share.",
                figures.seat_wins_overview_figure(mine, chunk, f"{what} by seat, {which}")))
        team = (o.team_wins.filter(pl.col("setting").is_in(chunk)) if o.team_wins.height
                else o.team_wins)
        if team.height:
            b.figures.append(figure(
                f"{words.sid}-team-every-setting{part}.png",
                "Share of games the team won, with 95% Wilson intervals, a row per setting.",
                figures.team_wins_overview_figure(team, chunk, f"{what} of the team, "
                                                  f"{which}")))
    return b if b.figures else None


def endings_table(ends: pl.DataFrame, words: Words) -> Table:
    """How the games ended: a column per reason, a row per player count."""
    by = {(r["players"], r["end_reason"]): r for r in ends.iter_rows(named=True)}
    reasons = list(dict.fromkeys([r for r, _ in words.endings]
                                 + sorted({e for _, e in by})))
    reasons = [e for e in reasons if any(k[1] == e for k in by)]
    return Table(
        "How the games ended (% of games, 95% intervals)",
        ["Players", "Games", *(words.ending_title(e) for e in reasons)],
        [[str(p), text.count(by[p, reasons[0]]["games"]),
          *(text.rate(by[p, e]["win_rate"], by[p, e]["ci_low"], by[p, e]["ci_high"])
            if (p, e) in by else text.DASH for e in reasons)]
         for p in sorted({p for p, _ in by})])


def score_tables(o: Outcomes, setting: str, competitive: bool) -> list[Table]:
    """The scores by player count (the game's, and every seat's) and, where seats were played
    by different players, by player."""
    out = []
    results = of(o.results, setting)
    seats = of(o.seat_scores, setting)
    if results.height:
        whose = "The winner's score" if competitive else "The team's score"
        rows = [[str(r["players"]), whose, text.count(r["games"]), *dist_row(r)]
                for r in results.iter_rows(named=True)]
        rows += [[str(r["players"]), "Every seat's score", text.count(r["n"]), *dist_row(r)]
                 for r in seats.iter_rows(named=True)]
        rows.sort(key=lambda x: (int(x[0]), x[1] != whose))
        out.append(Table("Scores by player count", ["Players", "Score", "Counted",
                                                    *DIST_HEADERS], rows, left=2))
    players = of(o.by_player, setting)
    # One player in every seat wins its fair share by definition: the table says nothing.
    if players.height and players["player"].n_unique() > 1:
        rows = [[str(r["players"]), r["player"], text.count(r["seats"]), text.num(r["mean"]),
                 text.num(r["q50"]), text.spread(r)]
                + ([text.rate(r["win_rate"], r["ci_low"], r["ci_high"]),
                    text.pct(r["fair_share"])] if competitive else [])
                for r in players.iter_rows(named=True)]
        out.append(Table("Scores and wins by player (every seat it played)",
                         ["Players", "Player", "Seats", "Mean score", "Median", "10–90%"]
                         + (["Won (95% interval)", "Fair share"] if competitive else []),
                         rows, left=2))
    return out


def sentences(o: Outcomes, words: Words = Words()) -> list[str]:
    """One sentence per (setting, players): the length, the first seat's share of the wins
    (or the team's win rate), the winner's lead, and the endings worth saying."""
    out = []
    for row in o.lengths.iter_rows(named=True):
        setting, players = row["setting"], row["players"]

        def pick(df: pl.DataFrame, setting=setting, players=players) -> pl.DataFrame:
            return df.filter((pl.col("setting") == setting) & (pl.col("players") == players))

        subject = (f"{text.players_label(players)} {words.what} lasts" if words.what
                   else f"{text.players_label(players)} games last")
        said = (f"{setting}: {subject} {text.num(row['q50'])} {words.unit} "
                f"(median; 10–90%: {text.spread(row)})")
        first = pick(o.seat_wins).filter(pl.col("seat") == 1)
        if players > 1 and first.height:
            s = first.row(0, named=True)
            said += (f"; {words.seat_one} wins "
                     f"{text.rate(s['win_rate'], s['ci_low'], s['ci_high'])} of games (a "
                     f"fair share is {text.pct(s['fair_share'])})")
        team = pick(o.team_wins)
        if team.height:
            t = team.row(0, named=True)
            said += (f"; the team wins {text.rate(t['win_rate'], t['ci_low'], t['ci_high'])} "
                     "of games")
        m = pick(o.margins)
        if m.height:
            lead = m["q50"][0]
            unit = words.score_unit[:-1] if lead == 1 and words.score_unit.endswith("s") \
                else words.score_unit
            said += f"; the winner leads by {text.num(lead)} {unit} (median)"
        for reason, what in words.ended:
            c = pick(o.endings).filter((pl.col("end_reason") == reason) & (pl.col("wins") > 0))
            if c.height:
                r = c.row(0, named=True)
                said += f"; {text.rate(r['win_rate'], r['ci_low'], r['ci_high'])} of games {what}"
        out.append(said + ".")
    return out
