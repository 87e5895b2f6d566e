"""The report's section "How the game plays" (summary.py's tables, in words): whether the
game is decided early, whether the leader runs away or the trailing seat comes back, how
balanced, complete and long its games are, and how many choices a player meets. Every
measure is defined, with its source, in the guide's reference/course-measures.md."""

from __future__ import annotations

import polars as pl

from reports.course.summary import BALANCE, IDEAL, Course
from reports.render import figures, text
from reports.render.section import Block, Section, Table, figure

# The curve's lines a chart holds; the table holds every setting.
LINES = 8
# Where a verdict speaks: a leader at half who wins this often runs away; a winner behind at
# half this often comes back often.
RUNAWAY, COMEBACKS = 0.85, 0.30
UNEVEN = 0.10  # a gap between two seats' shares of the wins past this is said

COLUMNS = (("lead_changes", "Lead changes"), ("comeback_half", "Winner behind at half"),
           ("decided_at", "Decided at"), ("drama", "Drama"),
           ("leader_wins_half", "Leader at half wins"), ("settled_at", "Settled at"),
           ("behind_pace_wins", "Behind its pace at half, won"),
           (BALANCE, "Largest gap between seats"), ("completion", "Ended by the rules"),
           ("draws", "Draws"), (IDEAL, "Within the ideal length"),
           ("branching", "Options a decision"), ("decisions", "Decisions a game"))
SHARES = ("decided_at", "settled_at", "completion")  # means that are shares: written as %


def cell(row: dict | None) -> str:
    if row is None or row["value"] is None:
        return text.DASH
    key, v = row["key"], row["value"]
    if row["kind"] == "rate":
        return text.rate(v, row["ci_low"], row["ci_high"])
    if row["kind"] == "gap":
        return f"{round(100 * v)} points"
    if key in SHARES:
        return text.pct(v)
    if key == "drama":
        return text.num(v, 3)
    return text.num(v, 1)


def table(c: Course, labels: list[tuple[str, int]]) -> Table:
    """One row per setting and player count, one column per quantity any row has."""
    keys = [k for k, _ in COLUMNS if k in set(c.rows["key"].to_list())]
    rows = []
    for setting, players in labels:
        got = {r["key"]: r for r in c.rows.filter(
            (pl.col("setting") == setting) & (pl.col("players") == players)).to_dicts()}
        n = next(iter(got.values()))["n"] if got else 0
        rows.append([setting, str(players), text.count(
            c.rows.filter((pl.col("setting") == setting) & (pl.col("players") == players))
            ["games"].max() or n), *[cell(got.get(k)) for k in keys]])
    heads = dict(COLUMNS)
    return Table("How each setting plays (95% intervals)", ["Setting", "Players", "Games",
                 *[heads[k] for k in keys]], rows, left=2)


def curve_figure(c: Course, labels: list[tuple[str, int]]):
    """The chance that the leader at each tenth of the game wins, a line per setting; None
    where no setting has a point (a team's game played with no goal: no pace to be ahead of)."""
    shown = labels[:LINES]
    if not any(c.curve.filter((pl.col("setting") == setting) & (pl.col("players") == players))
               ["value"].drop_nulls().len() for setting, players in shown):
        return None
    colors = figures.palette_of(max(len(shown), 1))
    with figures.canvas(7.0, 4.0) as (fig, (ax,)):
        for i, (setting, players) in enumerate(shown):
            one = c.curve.filter((pl.col("setting") == setting)
                                 & (pl.col("players") == players)).sort("tenth")
            if one["value"].null_count() == one.height:
                continue
            x = one["tenth"].to_numpy() / 10
            y = one["value"].cast(pl.Float64).to_numpy()
            ax.plot(x, y, marker="o", color=colors[i],
                    label=f"{setting}, {text.plural(players, 'player')}")
            ax.fill_between(x, one["ci_low"].cast(pl.Float64).to_numpy(),
                            one["ci_high"].cast(pl.Float64).to_numpy(), color=colors[i],
                            alpha=0.15)
        figures.percent_axis(ax, "x")
        figures.percent_axis(ax, "y")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("Share of the game played")
        ax.set_ylabel("Chance it foretells the outcome")
        ax.set_title("When is it decided?")
        if shown:
            ax.legend(fontsize="small", loc="lower right")
    return fig


def _values(c: Course, key: str) -> list[tuple[str, int, float]]:
    rows = c.rows.filter((pl.col("key") == key) & pl.col("value").is_not_null())
    return [(r["setting"], r["players"], r["value"]) for r in rows.to_dicts()]


def _span(values: list[float], as_pct: bool = True) -> str:
    lo, hi = min(values), max(values)
    say = text.pct if as_pct else (lambda v: text.num(v, 1))
    return say(lo) if say(lo) == say(hi) else f"{say(lo)} to {say(hi)}"


def sentences(c: Course) -> list[str]:
    """The section's verdicts, each said once for every setting together."""
    out = []
    leader = _values(c, "leader_wins_half")
    if leader:
        v = [x for _, _, x in leader]
        said = (f"The seat ahead at half the game goes on to win {_span(v)} of the games it "
                "leads")
        if min(v) >= RUNAWAY:
            said += ": the leader runs away, and the second half rarely changes the result"
        out.append(said + ".")
    back = _values(c, "comeback_half")
    if back:
        v = [x for _, _, x in back]
        said = f"The winner was behind at half in {_span(v)} of the games a seat won"
        if max(v) >= COMEBACKS:
            said += ": comebacks are common"
        out.append(said + ".")
    decided = _values(c, "decided_at")
    if decided:
        out.append("On average the winner takes the lead for good after "
                   f"{_span([x for _, _, x in decided])} of the game.")
    changes = _values(c, "lead_changes")
    if changes:
        out.append(f"The lead changes hands {_span([x for _, _, x in changes], False)} times "
                   "a game.")
    settled = _values(c, "settled_at")
    if settled:
        out.append("A team's pace against its goal foretells its outcome for good after "
                   f"{_span([x for _, _, x in settled])} of the game.")
    behind = _values(c, "behind_pace_wins")
    if behind:
        out.append("A team behind its pace at half still wins "
                   f"{_span([x for _, _, x in behind])} of those games.")
    gaps = [(s, p, x) for s, p, x in _values(c, BALANCE) if x > UNEVEN]
    if gaps:
        s, p, x = max(gaps, key=lambda r: r[2])
        out.append(f"The seats are uneven: in {s} with {text.plural(p, 'player')} the shares "
                   f"of the wins differ by up to {round(100 * x)} points.")
    ended = [(s, p, x) for s, p, x in _values(c, "completion") if x < 1]
    if ended:
        s, p, x = min(ended, key=lambda r: r[2])
        out.append(f"Not every game ends by the rules: {text.pct(1 - x)} of {s}'s games with "
                   f"{text.plural(p, 'player')} stop at a cap on their length.")
    ideal = _values(c, IDEAL)
    if ideal and c.ideal:
        out.append(f"{_span([x for _, _, x in ideal]).capitalize()} of the games last "
                   f"{c.ideal[0]} to {c.ideal[1]} {c.unit}, the designer's ideal length.")
    return out


METHOD = [
    "Each game's course is each seat's progress (its score, or what the game counts as "
    "progress) at the end of each twentieth of the game. Lead changes count the times the "
    "seat alone ahead changed, after every turn (Ludii's LeadChange). The winner behind at "
    "half: another seat had more progress than the eventual winner at half the game. Decided "
    "at: the share of the game after which the winner is alone ahead at every later "
    "twentieth (Ludii's DecisivenessMoves is one less this). Drama: how far the winner was "
    "behind the one ahead, averaged over the twentieths, as a share of the winner's final "
    "progress (Ludii's Drama). The curve: at each tenth, of the games a seat won with one "
    "seat alone ahead then, the share that seat won.",
    "A cooperative game is measured against its goal: its pace at a point is the goal times "
    "the share of the game played; settled at is the share of the game after which being "
    "ahead of or behind the pace agrees with the outcome at every later twentieth. "
    "Rates carry 95% Wilson intervals, means t intervals; a rate counts the decided games it "
    "applies to. The largest gap between seats is between the shares of the decided games "
    "two seats won. Ended by the rules counts every game, undecided ones too. The guide's "
    "reference/course-measures.md defines each measure and names its source.",
]


def course_section(c: Course | None, labels: list[tuple[str, int]]) -> Section | None:
    """The section, or None for a run whose games record no course."""
    if c is None or c.rows.height == 0:
        return None
    s = Section("course", "How the game plays")
    s.intro = ["Not who wins but how: whether a game is decided early, whether the one ahead "
               "runs away or the one behind comes back, and how many choices a player meets."]
    said = sentences(c)
    teams = set(c.rows.filter(pl.col("team"))["setting"].to_list())
    what = ("The chance that the team's pace (ahead of or behind its goal's) at each tenth of "
            "the game foretells its outcome" if teams and len(teams) == len(labels)
            else "The chance that the one ahead at each tenth of the game wins (a team: that "
            "its pace foretells its outcome)" if teams
            else "The chance that the seat ahead at each tenth of the game wins")
    drawn = curve_figure(c, labels)
    if drawn is None:
        said = [*said, "No curve is drawn: no game here has a seat alone ahead, nor a team a "
                "goal to keep pace with."]
    charts = [] if drawn is None else [figure("course-decided.png",
                                              f"{what} (shaded: 95% interval)", drawn)]
    s.blocks.append(Block("When is it decided?", paragraphs=said, figures=charts))
    s.blocks.append(Block("Every measure", tables=[table(c, labels)]))
    s.method = METHOD
    return s


def labels_of(c: Course, order: list[str]) -> list[tuple[str, int]]:
    """(setting, players) of every row, settings in `order` (the designer's), then by name."""
    found = c.rows.select("setting", "players").unique().rows()
    rank = {s: i for i, s in enumerate(order)}
    return sorted(found, key=lambda r: (rank.get(r[0], len(rank)), r[0], r[1]))
