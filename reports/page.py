"""The report page: sections of sentences, figures and tables built from an `Analysis`, and
their rendering into one self-contained HTML file (jinja2, figures as data URIs).

Nothing here reads the clock or the environment, every table is sorted and every number goes
through `reports.text`, so the same analysis always gives the same page.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from importlib import resources

import jinja2
import polars as pl

from reports import figures, text
from reports.gemrush.analysis import Analysis
from reports.gemrush.crisis import TO_EXHAUSTION
from reports.text import DASH


@dataclass
class Table:
    caption: str
    headers: list[str]
    rows: list[list[str]]
    note: str = ""
    left: int = 1          # leading text columns (left-aligned); the rest are numbers
    fold: str = ""         # "open" or "closed": shown in a <details> block under its caption


@dataclass
class Figure:
    name: str              # file name of the PNG beside the page
    caption: str
    png: bytes

    @property
    def data_uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


@dataclass
class Block:
    heading: str
    paragraphs: list[str] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    listing: tuple[str, str] | None = None  # (caption, text): a folded verbatim text
    items: tuple[str, list[str]] | None = None  # (caption, bullets): a folded list
    fold: str = ""  # when set, the block's content is folded under this line
    verdicts: list = field(default_factory=list)  # reports.findings.Verdict: a sentence each,
    #                                               its statistics folded under it


@dataclass
class Section:
    id: str
    title: str
    intro: list[str] = field(default_factory=list)  # plain sentences: what the section shows
    missing: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    method: list[str] = field(default_factory=list)  # how it is measured, folded


def slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-") or "all"


def _figure(name: str, caption: str, fig) -> Figure:
    return Figure(name, caption, figures.png_bytes(fig))


def figure_or_none(name: str, caption: str, fig) -> Figure | None:
    """A figure, or None where a chart had nothing to draw."""
    return None if fig is None else _figure(name, caption, fig)


def _of(df: pl.DataFrame, setting: str) -> pl.DataFrame:
    return df.filter(pl.col("setting") == setting) if df.height else df


def _settings(a: Analysis, *tables: pl.DataFrame) -> list[str]:
    """The settings the tables hold, in the order the designer gave the versions (their
    first variant), then by name."""
    found: set[str] = set()
    for t in tables:
        if t.height:
            found.update(t["setting"].to_list())
    first = {}
    if a.kinds.height and "setting" in a.kinds.columns:
        for setting, variant in a.kinds.select("setting", "variant").rows():
            first[setting] = min(first.get(setting, variant), variant)
    return sorted(found, key=lambda x: (first.get(x, 1 << 30), x))


# --- the sections ----------------------------------------------------------------------------

def build_sections(a: Analysis, comparisons: list | None = None,
                   merged: list | None = None) -> list[Section]:
    """The page's sections; `comparisons` are (run name, reports.compare.Comparison) of the
    runs whose versions differ by a lever; `merged` (reports.merge.Merged) where games of
    different runs were counted together."""
    from reports.comparison_page import comparison_section
    from reports.gemrush import skills
    from reports.gemrush.skills_page import skills_section

    cmps = list(comparisons or [])
    merged = list(merged or [])
    sections = [crisis_section(a, merged), players_section(a), rooms_section(a),
                burn_section(a), rush_section(a, merged), skills_section(a, cmps)]
    # Skill runs are read in the Skills section; the others in Comparison.
    levers = [(n, c) for n, c in cmps
              if not skills.is_skill_effects(c) and not skills.is_skill_variants(c)]
    if levers:
        sections.insert(0, comparison_section(levers, a.room_value if a.has_rooms else None))
    summary = summary_section(a, cmps, merged)
    return [summary, *sections, run_section(a, merged)]


def _reference(a: Analysis) -> dict[tuple[str, int], str]:
    """The named difficulty room value counts wins at, per (setting, players), if it is one."""
    refs = a.references
    named = a.named.cast({"players": pl.Int64})
    out = {}
    for setting, players, target in refs.select("setting", "players", "target").rows():
        hit = named.filter((pl.col("setting") == setting) & (pl.col("players") == players)
                           & (pl.col("target") == target))
        if hit.height:
            out[(setting, players)] = hit["difficulty"][0]
    return out


def players_of(a: Analysis) -> dict[str, list[str]]:
    """The players (heuristics) of each setting and of each base setting (Verdicts by
    player), and of each run by its name."""
    out: dict[str, set[str]] = {}
    if a.kinds.height:
        for setting, h in a.kinds.select("setting", pl.col("heuristic").cast(pl.Utf8)).rows():
            out.setdefault(setting, set()).add(h)
    if a.player_keys.height:
        for base, h in a.player_keys.select("base_setting", "heuristic").rows():
            out.setdefault(base, set()).add(h)
    for r in a.manifest.get("runs") or []:
        out.setdefault(r["name"], set()).update(r.get("heuristics") or [])
    if a.manifest.get("experiment") and not a.manifest.get("runs") and a.kinds.height:
        out.setdefault(str(a.manifest["experiment"]), set()).update(
            a.kinds["heuristic"].cast(pl.Utf8).to_list())
    return {k: sorted(v) for k, v in out.items()}


def where_of(a: Analysis) -> dict[str, str]:
    """Where each setting's games come from, in a verdict's brackets: its run, when the page
    reads several apart, else the setting itself."""
    if "run" not in a.kinds.columns:
        return {}
    return {setting: f"{run} run" for setting, run in
            a.kinds.select("setting", "run").unique().rows() if run is not None}


def summary_section(a: Analysis, cmps: list | None = None, merged: list | None = None
                    ) -> Section:
    """The first screen: the targets to print for the chosen win rates, and one plain
    sentence per verdict with its statistics folded under it (reports/findings.py); the win
    rate at each named difficulty and every sentence the sections compute, folded."""
    from reports.findings import headline_rows, verdicts

    s = Section("summary", "Summary")
    order = _settings(a, a.difficulty)
    if a.games:
        names = sorted(set(a.kinds["heuristic"].cast(pl.Utf8).to_list()))
        s.intro = [f"Played by {text.join_words(names)}; each verdict names its players, and "
                   "a stronger player can move it. Click a verdict for its statistics."]
    found = verdicts(a.difficulty, a.seat_wins, a.player_targets, cmps or [], order,
                     players_of(a), where_of(a))
    if found:
        s.blocks.append(Block("", verdicts=found))
    targets = a.targets.filter(pl.col("target").is_not_null()) if a.targets.height else a.targets
    if targets.height:
        s.blocks.append(Block("", tables=[targets_summary_table(a.targets, order, players_of(a)),
                                          targets_detail_table(a.targets, order)]))
    every = list(text.crisis_sentences(a.difficulty)) + text.target_sentences(a.targets)
    if a.has_rooms:
        every += text.room_sentences(a.room_ranking, a.room_value)
    every += text.burn_sentences(a.deck_out, a.slack, a.clock_end, _reference(a))
    every += text.rush_sentences(a.seat_wins, a.rounds, a.score_margin, a.endings)
    headers, rows = headline_rows(a.difficulty, order)
    b = Block("")
    if rows:
        b.tables.append(Table("The win rate at each named difficulty (95% intervals)",
                              headers, rows, left=2, fold="closed"))
    if every:
        b.items = (f"Every finding of the sections, in one sentence each ({len(every)})", every)
    if b.tables or b.items:
        s.blocks.append(b)
    if a.games == 0:
        s.missing.insert(0, "The run has no games.")
    for m in merged or []:
        s.missing.append(m.sentence())
    unplayed = a.manifest.get("missing_shards") or []
    if unplayed:
        s.missing.insert(0, f"The run is incomplete: {text.count(len(unplayed))} shard(s) "
                         "are not played yet, so these figures cover only the games played "
                         "so far. Rerun `balance run` with the same experiment to finish it.")
    return s


def targets_summary_table(targets: pl.DataFrame, order: list[str],
                          players: dict[str, list[str]]) -> Table:
    """The targets alone, one row per Crisis setting and player count, one column per win
    rate wanted."""
    levels = sorted(set(targets["level"].to_list()), reverse=True)
    rank = {x: i for i, x in enumerate(order)}
    rows = []
    keys = sorted(set(targets.select("setting", "players").rows()),
                  key=lambda k: (rank.get(k[0], len(rank)), k[0], k[1]))
    for setting, n in keys:
        mine = targets.filter((pl.col("setting") == setting) & (pl.col("players") == n))
        by_level = dict(mine.select("level", "target").rows())
        who = players.get(setting, [])
        label = (setting if not who or all(h in setting for h in who)
                 else f"{setting}, by {text.join_words(who)}")
        rows.append([label, str(n)] + [DASH if text.missing(by_level.get(x)) else
                                       str(by_level[x]) for x in levels])
    return Table("Crisis targets to print", ["Setting", "Players"]
                 + [f"{text.level_label(x)} wins" for x in levels], rows, left=2,
                 note="For each win rate wanted, the target whose win rate is closest to it; "
                      "balance tune finds the same target on the same games.")


def _crossing(r: dict) -> str:
    if text.missing(r.get("crossing")):
        return "never crosses it"
    return (f"{r['crossing']:.2f} (95% interval {r['crossing_low']:.2f} to "
            f"{r['crossing_high']:.2f})")


def targets_detail_table(targets: pl.DataFrame, order: list[str]) -> Table:
    """Each target with its win rate and the interval on where the curve crosses the rate
    wanted (balance tune's three numbers), folded."""
    rank = {x: i for i, x in enumerate(order)}
    t = targets.sort(pl.col("setting").replace_strict(rank, default=len(rank)), "setting",
                     "players", pl.col("level"), descending=[False, False, False, True])
    rows = [[r["setting"], str(r["players"]), text.level_label(r["level"]),
             DASH if text.missing(r["target"]) else str(r["target"]),
             text.rate(r["win_rate"], r["rate_low"], r["rate_high"]), _crossing(r),
             text.count(r["games"])]
            for r in t.iter_rows(named=True)]
    return Table("How sure: each target's win rate, and where the win rate crosses the rate "
                 "wanted", ["Setting", "Players", "Wins wanted", "Print", "Its win rate (95%)",
                            "The win rate crosses it at", "Games"], rows, left=3,
                 fold="closed",
                 note="The crossing is interpolated between the two targets either side, and "
                      "its interval is where the 95% bands of the win rate cross the rate "
                      "wanted: balance tune prints the same three numbers. Where the "
                      "crossing is near the middle of two targets, either could be printed; "
                      "more games narrow the interval.")


CRISIS_INTRO = ["How often the team wins at each target, for each player count."]
CRISIS_METHOD = [
    "Played to exhaustion, a Crisis game records the team score after every player turn; the "
    "score never falls, so each game answers “won at target T?” for every T at once (won when "
    "its final score is at least T). The curve gives the share of games won at each target, "
    "with its 95% Wilson interval as a band. Games played to one fixed target count for that "
    "target only; they show as points with error bars and as rows “to the target”.",
    "Target for p% wins: the target whose win rate is closest to p, printed with that rate "
    "and its interval; then where the win rate crosses p, between the two targets either "
    "side, with a 95% interval from where the curve's bands cross p. `balance tune` seeks a "
    "target the same way.",
]


def _merged_here(merged: list, setting: str, mode: str) -> list[str]:
    return [m.sentence() for m in merged if m.setting == setting and m.mode == mode]


def crisis_section(a: Analysis, merged: list | None = None) -> Section:
    s = Section("crisis", "Crisis difficulty", intro=list(CRISIS_INTRO),
                method=list(CRISIS_METHOD))
    if a.games_of("mode").get("crisis", 0) == 0:
        s.missing.append("The run has no Crisis games, so there is no difficulty curve.")
        return s
    if a.curve.height == 0:
        s.missing.append("The run has no Crisis games played to exhaustion, so there is no "
                         "difficulty curve; win rates come from games played to each target.")
    # One quantity across settings: the charts share their axes, so they compare at a glance.
    xlim = ylim = None
    if a.curve.height:
        live = a.curve.filter(pl.col("win_rate") > 0.001)
        top = int((live if live.height else a.curve)["target"].max())
        if a.named.height:
            top = max(top, int(a.named["target"].max()))
        xlim = (0, top + 3)
        turns = a.curve["turn_reached"].drop_nulls()
        if turns.len():
            ylim = (0, float(turns.max()) * 1.05)
    for setting in _settings(a, a.difficulty, a.curve, a.fixed):
        b = Block(setting, paragraphs=_merged_here(merged or [], setting, "crisis"))
        curve, named, fixed = _of(a.curve, setting), _of(a.named, setting), _of(a.fixed, setting)
        b.figures.append(_figure(
            f"crisis-curve-{slug(setting)}.png",
            "Share of Crisis games won at each target, by player count; bands and error bars "
            "are 95% Wilson intervals; dotted lines mark the named difficulties.",
            figures.difficulty_curve_figure(curve, named, fixed,
                                            f"{setting}: Crisis win rate against target",
                                            xlim)))
        tables = difficulty_tables(_of(a.difficulty, setting))
        if len(tables) > 1:  # the named difficulties' table leads; the rest are folded
            b.tables.append(tables.pop(0))
        more = Block("", fold=f"More on {setting}: when each target is reached, every "
                              "difficulty's games, the targets to print")
        if curve.height:
            more.figures.append(_figure(
                f"crisis-turn-{slug(setting)}.png",
                "Mean player turn at which the team score first reached each target, over "
                "the games that reached it.",
                figures.turn_reached_figure(curve, named,
                                            f"{setting}: when each target is reached",
                                            xlim, ylim)))
        more.tables += tables
        if curve.height:
            more.tables.append(targets_table(_of(a.targets, setting)))
        s.blocks.append(b)
        s.blocks.append(more)
    return s


PLAYERS_INTRO = [
    "The same setting played by different players: how far the targets move with the "
    "strength of play.",
]
PLAYERS_METHOD = [
    "Every figure of this report comes from a scripted player, and a stronger player can move a "
    "verdict as far as a change of the content can. Where a setting was played by several "
    "players, their difficulty curves are drawn together and the targets to print for chosen "
    "win rates are compared; the spread is how far the target moves between players.",
]


def players_section(a: Analysis) -> Section:
    s = Section("players", "Verdicts by player", intro=list(PLAYERS_INTRO),
                method=list(PLAYERS_METHOD))
    if a.player_keys.height == 0:
        names = sorted(set(a.kinds["heuristic"].cast(pl.Utf8).to_list())) if a.games else []
        s.intro = [f"Every setting of this run was played by one player "
                   f"({', '.join(names) or 'none'}): every figure is that player's play. Add "
                   "players to an experiment (`heuristic = [...]` in [grid]) to see how far "
                   "the verdicts move."]
        s.method = []
        return s
    for base in sorted(set(a.player_keys["base_setting"].to_list())):
        b = Block(base)
        curves = a.player_curves.filter(pl.col("base_setting") == base)
        named = a.named.join(a.player_keys.filter(pl.col("base_setting") == base)
                             .select("setting"), on="setting")
        if curves.height:
            b.figures.append(_figure(
                f"players-curve-{slug(base)}.png",
                "Share of Crisis games won at each target, one line per player, with 95% "
                "Wilson bands; dotted lines mark the named difficulties.",
                figures.player_curves_figure(curves, named,
                                             f"{base}: Crisis win rate by player")))
        t = a.player_targets.filter(pl.col("base_setting") == base)
        if t.height:
            rows = [[str(r["players"]), f"{r['level']:.0%}", r["heuristic"],
                     "—" if r["target"] is None else str(r["target"]),
                     "—" if r["spread"] is None else str(r["spread"])]
                    for r in t.iter_rows(named=True)]
            b.tables.append(Table("Targets to print for chosen win rates, by player (the "
                                  "target whose win rate is closest)",
                                  ["Players", "Win rate", "Player", "Target",
                                   "Moves by (points)"], rows, left=3))
        s.blocks.append(b)
    return s


def difficulty_tables(d: pl.DataFrame) -> list[Table]:
    named = d.filter(pl.col("difficulty").is_not_null())
    tables = []
    if named.height:
        best = named.filter(pl.col("source") == TO_EXHAUSTION)
        grid_src = best if best.height else named
        players = sorted(set(grid_src["players"].to_list()))
        marks = grid_src.select("difficulty", "target").unique().sort("target", "difficulty")
        rows = []
        for name, target in marks.rows():
            row = [name, str(target)]
            for p in players:
                hit = grid_src.filter((pl.col("players") == p) & (pl.col("target") == target))
                row.append(text.rate(*hit.select("win_rate", "ci_low", "ci_high").row(0))
                           if hit.height else DASH)
            rows.append(row)
        how = "played to exhaustion" if best.height else "played to each target"
        tables.append(Table("Win rate at each named difficulty, by player count (95% Wilson "
                            f"interval; games {how})", ["Difficulty", "Target"]
                            + [f"{p} players" for p in players], rows, left=1))
    rows = [[str(r["players"]), r["difficulty"] or DASH, str(r["target"]), r["source"],
             text.count(r["games"]), text.rate(r["win_rate"], r["ci_low"], r["ci_high"]),
             text.num(r["turn_reached"])]
            for r in d.sort("players", "target", "source").iter_rows(named=True)]
    tables.append(Table(
        "Win rate and mean turn reached, every difficulty and source",
        ["Players", "Difficulty", "Target", "Played", "Games", "Win rate (95% interval)",
         "Mean turn reached"], rows, left=4,
        note="Mean turn reached: the mean player turn at which the team score first reached "
             "the target, over the games that reached it."))
    return tables


def targets_table(t: pl.DataFrame) -> Table:
    rows = [[str(r["players"]), text.level_label(r["level"]),
             DASH if text.missing(r["target"]) else str(r["target"]),
             text.rate(r["win_rate"], r["rate_low"], r["rate_high"]), _crossing(r)]
            for r in t.sort("players", pl.col("level"), descending=[False, True])
            .iter_rows(named=True)]
    return Table("Targets to print for each win rate wanted: the target whose win rate is "
                 "closest, that rate, and where the win rate crosses the rate wanted",
                 ["Players", "Wins wanted", "Print", "Its win rate (95%)",
                  "The win rate crosses it at"], rows, left=2)


TOP_ROOMS = 10  # the room chart shows this many most and least valuable rooms

ROOMS_INTRO = [
    "Which rooms go with winning when they are built early. This is an association, not a "
    "cause: games that go well build more rooms, sooner.",
]
ROOMS_METHOD = [
    "For each room: the share of games in which it was built, tiles built per game, the median "
    "turn of its first build, the points scored through its doors and the ability uses per "
    "tile built, and the cards gained per use (a dash when never used). Setup tiles are not "
    "counted as builds.",
    "The win-rate comparison splits the games (in Rush: the seats) into those that built the "
    "room by its median first-build turn and the rest, each with a 95% Wilson interval, and "
    "gives the difference with Newcombe's interval. It is an association, not a cause: games "
    "that go well build more rooms, sooner. A difference whose interval contains zero is no "
    "difference.",
]


def rooms_section(a: Analysis) -> Section:
    s = Section("rooms", "Room value", intro=list(ROOMS_INTRO), method=list(ROOMS_METHOD))
    if not a.has_rooms:
        s.missing.append("The run has no room data, so room value cannot be shown.")
        return s
    value = a.room_value
    said = text.room_sentences(a.room_ranking, value)
    for (setting, mode), v in sorted(value.group_by("setting", "mode"), key=lambda kv: kv[0]):
        ranking = a.room_ranking.filter((pl.col("setting") == setting)
                                        & (pl.col("mode") == mode))
        reference = v["reference"][0]
        # The sentence leads; the chart and the tables are a click away.
        s.blocks.append(Block(f"{setting}, {mode.capitalize()}", paragraphs=[
            x for x in said if x.startswith(f"{setting} {mode.capitalize()} rooms")]))
        b = Block("", paragraphs=[f"A win here means: {reference}."],
                  fold=f"The rooms of {setting}, {mode.capitalize()}, ranked in a chart")
        if ranking.height:
            cut = (f" Of {ranking.height} rooms, the {TOP_ROOMS} most and {TOP_ROOMS} least "
                   "valuable are shown, split by a dashed line."
                   if ranking.height > 2 * TOP_ROOMS else "")
            b.figures.append(_figure(
                f"rooms-{mode}-{slug(setting)}.png",
                "Rooms ranked by the difference in win rate between games that built them by "
                "their median build turn and the rest, averaged over player counts; one "
                "marker per player count with its 95% interval. Association, not cause."
                + cut,
                figures.room_value_figure(v, ranking, f"{setting} {mode.capitalize()}: room "
                                          "value (association, not cause)", top=TOP_ROOMS)))
        else:
            b.paragraphs.append("No room was built in enough games to compare win rates.")
        s.blocks.append(b)
        more = Block("", fold=f"Every room of {setting}, {mode.capitalize()}, by player count: "
                              "how often, how early and how much it was built and used")
        for players in sorted(set(v["players"].to_list())):
            more.tables.append(room_table(v.filter(pl.col("players") == players), players))
        s.blocks.append(more)
    return s


def room_table(v: pl.DataFrame, players: int) -> Table:
    v = v.sort(pl.col("diff").fill_null(-9.0), "room", descending=[True, False])
    rows = [[r["room"], text.pct(r["built_share"]), text.num(r["copies"], 2),
             text.num(r["median_turn"]), text.num(r["points_per_build"], 2),
             text.num(r["uses_per_build"], 2), text.num(r["gained_per_use"], 2),
             text.rate(r["early_rate"], r["early_low"], r["early_high"]),
             text.rate(r["other_rate"], r["other_low"], r["other_high"]),
             text.difference(r["diff"], r["diff_low"], r["diff_high"])]
            for r in v.iter_rows(named=True)]
    games = int(v["games"][0]) if v.height else 0
    return Table(f"{players} players ({text.count(games)} games)",
                 ["Room", "Built (% of games)", "Tiles per game", "Median first-build turn",
                  "Points per tile", "Uses per tile", "Cards per use",
                  "Won, built by median turn", "Won otherwise", "Difference (95% interval)"],
                 rows)


BURN_INTRO = [
    "When the gem deck runs out, how much of the clock is left when the team reaches each "
    "difficulty, and when the burn ends the game.",
]
BURN_METHOD = [
    "Timings come from Crisis games played to exhaustion, which run the whole clock; a player "
    "count without them uses its games played to a target, which stop at the target and cut "
    "late events short (the “Played” column says which).",
    "Slack on the clock at a target: the player turns the game still had to run when the team "
    "score first reached the target (the game's last turn minus that turn), over the "
    "exhausted games that reached it. In cards: the cards burnt in the whole game minus the "
    "burn per turn for every turn up to the one the target was reached in.",
    "The burn ends the game in the 1st edition when a full burn is no longer possible (the "
    "team loses), in the 2nd when the last card is burnt.",
]


BOXES = "Boxes: quartiles and median; whiskers: 10th to 90th percentile."


def _dist_row(r: dict) -> list[str]:
    return [text.num(r["q50"]), text.spread(r), text.spread(r, "q25", "q75"),
            text.num(r["mean"]), text.spread(r, "min", "max")]


DIST_HEADERS = ["Median", "10–90%", "Quartiles", "Mean", "Range"]


def burn_section(a: Analysis) -> Section:
    s = Section("burn", "Deck burn timing", intro=list(BURN_INTRO), method=list(BURN_METHOD))
    if a.deck_out_counts.height == 0:
        s.missing.append("The run has no Crisis games, so there is no burn timing.")
        return s
    said = text.burn_sentences(a.deck_out, a.slack, a.clock_end, _reference(a))
    for setting in _settings(a, a.deck_out):
        s.blocks.append(Block(setting, paragraphs=[
            x for x in said if x.startswith(f"{setting}: ")]))
        b = Block("", fold=f"Charts and tables of {setting}: the deck running out, "
                           "reshuffles, the slack on the clock, the end of the clock")
        bg = _of(a.deck_out_counts, setting)
        deck, shuffles = _of(a.deck_out, setting), _of(a.reshuffles, setting)
        b.figures.append(_figure(
            f"burn-deck-{slug(setting)}.png",
            "Left: the player turn at which the gem deck first ran out (games where it did). "
            "Right: the share of games with each number of reshuffles. " + BOXES,
            figures.deck_out_figure(bg, shuffles, f"{setting}: gem deck running out")))
        b.tables.append(Table(
            "When the gem deck first runs out (player turn, over games where it did)",
            ["Players", "Played", "Games", "Never ran out", *DIST_HEADERS],
            [[str(r["players"]), r["source"], text.count(r["games"]), text.pct(r["missing"]),
              *_dist_row(r)] for r in deck.iter_rows(named=True)], left=2))
        b.tables.append(reshuffle_table(shuffles))
        sg = _of(a.slack_counts, setting)
        if sg.height and sg.select("players", "difficulty").n_unique() == 1:
            r = sg.row(0, named=True)
            b.paragraphs.append(f"Only {r['difficulty']} at {text.players_label(r['players'])} "
                                "is reached in these games: its slack is in the table.")
        elif sg.height:
            b.figures.append(_figure(
                f"burn-slack-{slug(setting)}.png",
                "Player turns left on the clock when each named target was reached, in "
                "exhausted games that reached it. " + BOXES,
                figures.slack_figure(sg, f"{setting}: slack on the clock")))
        if sg.height:
            b.tables.append(Table(
                "Slack on the clock when the target is reached (player turns; cards left)",
                ["Players", "Difficulty", "Games reaching it", *DIST_HEADERS,
                 "Cards left (median)", "Cards left (mean)"],
                [[str(r["players"]), f"{r['difficulty']} ({r['target']})",
                  text.count(r["n"]), *_dist_row(r), text.num(r["cards_median"]),
                  text.num(r["cards_mean"])]
                 for r in _of(a.slack, setting).iter_rows(named=True)], left=2))
        else:
            b.paragraphs.append("No Crisis games played to exhaustion: the slack on the clock "
                                "cannot be measured.")
        ended = _of(a.clock_end_counts, setting)
        clock = _of(a.clock_end, setting)
        if ended.height and ended["turns"].n_unique() == 1:
            # A chart of a constant says nothing a sentence cannot.
            b.paragraphs.append(f"The burn ends every game at player turn "
                                f"{ended['turns'][0]}, at every player count.")
        elif ended.height:
            b.figures.append(_figure(
                f"burn-end-{slug(setting)}.png",
                "The player turn at which the burn ended the game. " + BOXES,
                figures.clock_end_figure(ended, f"{setting}: when the burn ends the game")))
        if ended.height:
            b.tables.append(Table(
                "The player turn at which the burn ends the game",
                ["Players", "Played", "Games", *DIST_HEADERS],
                [[str(r["players"]), r["source"], text.count(r["n"]), *_dist_row(r)]
                 for r in clock.iter_rows(named=True)], left=2))
        else:
            b.paragraphs.append("No game here ended by the burn.")
        s.blocks.append(b)
    return s


def reshuffle_table(shuffles: pl.DataFrame) -> Table:
    counts = sorted(set(shuffles["reshuffles"].to_list()))
    rows = []
    for players in sorted(set(shuffles["players"].to_list())):
        mine = shuffles.filter(pl.col("players") == players)
        share = dict(zip(mine["reshuffles"].to_list(), mine["share"].to_list(), strict=True))
        rows.append([str(players)] + [text.pct(share.get(c, 0.0)) for c in counts])
    return Table("Reshuffles of the gem deck (% of games)",
                 ["Players"] + [f"{c} reshuffle{'s' if c != 1 else ''}" for c in counts], rows)


RUSH_INTRO = [
    "How often each seat wins against its fair share, how long the races last and how they "
    "end.",
]
RUSH_METHOD = [
    "A round is one turn of every player. Seat 1 plays first. Win rates by seat carry 95% "
    "Wilson intervals; a tied game is won by no seat, so the fair share of each seat is the "
    "share of untied games divided by the players. The margin is the winner's lead over the "
    "second score. A game ends when a player has reached the target at the start of a round, "
    "or when nobody can score again: the mine is sealed (no door faces an empty space and no "
    "room can move) or the room deck is empty. The round cap stops a game still running.",
]

ENDING_HEADERS = {"rush_target": "Target reached", "sealed": "Mine sealed",
                  "rooms_out": "Room deck ran out", "turn_cap": "Round cap"}


def rush_section(a: Analysis, merged: list | None = None) -> Section:
    s = Section("rush", "Rush", intro=list(RUSH_INTRO), method=list(RUSH_METHOD))
    if a.rounds_counts.height == 0:
        s.missing.append("The run has no Rush games.")
        return s
    for setting in _settings(a, a.rounds):
        lead = Block(setting, paragraphs=_merged_here(merged or [], setting, "rush"))
        seats = _of(a.seat_wins, setting)
        multi = seats.filter(pl.col("players") > 1)
        if multi.height:
            lead.figures.append(_figure(
                f"rush-seats-{slug(setting)}.png",
                "Share of games won by each seat (seat 1 plays first), with 95% intervals; "
                "dashed: the fair share.",
                figures.seat_wins_figure(multi, f"{setting}: Rush win rate by seat")))
        s.blocks.append(lead)
        b = Block("", fold=f"More on {setting}: every seat's share, game length, the "
                           "winner's margin, how the games ended")
        b.figures.append(_figure(
            f"rush-length-{slug(setting)}.png",
            "Left: game length in rounds. Right: the winner's lead over the second score. "
            + BOXES,
            figures.rush_length_figure(_of(a.rounds_counts, setting),
                                       _of(a.margin_counts, setting),
                                       f"{setting}: Rush length and margin")))
        b.tables.append(Table(
            "Win rate by seat (seat 1 plays first)",
            ["Players", "Seat", "Games", "Won (95% interval)", "Fair share"],
            [[str(r["players"]), str(r["seat"]), text.count(r["games"]),
              text.rate(r["win_rate"], r["ci_low"], r["ci_high"]), text.pct(r["fair_share"])]
             for r in seats.iter_rows(named=True)], left=2))
        b.tables.append(Table(
            "Game length (rounds)", ["Players", "Games", *DIST_HEADERS],
            [[str(r["players"]), text.count(r["games"]), *_dist_row(r)]
             for r in _of(a.rounds, setting).iter_rows(named=True)]))
        ends = {(r["players"], r["end_reason"]): r
                for r in _of(a.endings, setting).iter_rows(named=True)}
        b.tables.append(Table(
            "How the games ended (% of games, 95% intervals)",
            ["Players", "Games", *ENDING_HEADERS.values()],
            [[str(p), text.count(ends[p, "turn_cap"]["games"]),
              *(text.rate(ends[p, e]["win_rate"], ends[p, e]["ci_low"], ends[p, e]["ci_high"])
                for e in ENDING_HEADERS)]
             for p in sorted({p for p, _ in ends})]))
        margin = _of(a.score_margin, setting)
        if margin.height:
            ties = {p: t for p, t in seats.select("players", "ties").unique().rows()}
            b.tables.append(Table(
                "Winning margin (points over the second score)",
                ["Players", "Games", *DIST_HEADERS, "Tied games"],
                [[str(r["players"]), text.count(r["n"]), *_dist_row(r),
                  text.pct(ties.get(r["players"]))]
                 for r in margin.iter_rows(named=True)]))
        s.blocks.append(b)
    return s


def run_section(a: Analysis, merged: list | None = None) -> Section:
    """Every run the page reads (build_report's manifest `runs`), what was merged, the
    facts of the games, the variants and the experiment files."""
    m = a.manifest
    runs = m.get("runs") or []
    s = Section("run", "About these runs" if len(runs) > 1 else "About this run")
    contents = sorted({str(v.get("content")) for v in m.get("variants", []) if v.get("content")})
    versions = a.versions
    by_mode = ", ".join(f"{text.count(n)} {mode}" for mode, n in
                        sorted(a.games_of("mode").items())) if a.games else "none"
    if len(runs) > 1:
        b = Block("", tables=[Table(
            "The runs this page reads", ["Run", "Folder", "What it is", "Games", "Seed",
                                         "Played by", "Read in"],
            [[r["name"], r["folder"], str(r.get("description") or DASH),
              text.count(r["games"]), str(r.get("seed", DASH)),
              ", ".join(r.get("heuristics") or []) or DASH, r["read_in"]] for r in runs],
            left=3)])
        if m.get("merged"):
            b.paragraphs.append(
                "Merged on request (--merge): games of different runs played under the same "
                "setting and player count are counted together"
                + (": " + " ".join(x.sentence() for x in merged) if merged else
                   "; no two runs share one, so nothing was counted together."))
        else:
            b.paragraphs.append(
                "The runs are kept apart: each setting is named with its run, and no game of "
                "one run is counted with another's. `balance report --merge` counts the games "
                "of different runs played under the same setting together.")
        b.tables.append(Table(
            "What identifies each run", ["Run", "Experiment file", "Experiment hash",
                                         "Code hash", "Engine version"],
            [[r["name"], str(r.get("file") or DASH), str(r.get("hash") or DASH),
              str(r.get("source_hash") or DASH), str(r.get("engine_version") or DASH)]
             for r in runs], left=5, fold="closed"))
        s.blocks.append(b)
    facts = [
        ["Experiment", str(m.get("experiment", DASH))],
        ["Description", str(m.get("description", DASH))],
        ["Experiment file", str(m.get("file", DASH))],
        ["Experiment hash", str(m.get("hash", DASH))],
        ["Content", ", ".join(contents) or DASH],
        ["Games", f"{text.count(a.games)} ({by_mode})"],
        ["Games per variant", text.count(m.get("games_per_variant"))],
        ["Seed", str(m.get("seed", DASH))],
        ["Engine version", str(m.get("engine_version") or ", ".join(versions) or DASH)],
    ]
    if len(runs) > 1:
        facts = [["Runs", ", ".join(r["name"] for r in runs if r["read_in"] != "Skills")],
                 *facts[4:]]
    if versions and m.get("engine_version") and versions != [m.get("engine_version")]:
        facts.append(["Engine versions in the games", ", ".join(versions)])
    packages = m.get("packages") or {}
    if packages:
        facts.append(["Packages", ", ".join(f"{k} {packages[k]}" for k in sorted(packages))])
    caption = ("The games of every section but Skills" if len(runs) > 1 and
               any(r["read_in"] == "Skills" for r in runs) else
               "The games" if len(runs) > 1 else "The run")
    b = Block("", tables=[Table(caption, ["Item", "Value"], facts, left=2)])
    b.tables.append(variants_table(a, len(runs) > 1))
    s.blocks.append(b)
    texts = [(r["name"], r.get("file"), r.get("text")) for r in runs] if runs else \
        [(None, m.get("file"), m.get("text"))]
    for name, file, body in texts:
        if body:
            s.blocks.append(Block("", listing=(
                f"The experiment file{' of ' + name if name and len(texts) > 1 else ''}, "
                f"{file or 'as run'}", str(body))))
    return s


def variants_table(a: Analysis, by_run: bool = False) -> Table:
    per_variant = a.games_of("variant")
    rows = []
    for v in sorted(a.manifest.get("variants", []), key=lambda v: int(v.get("variant", 0))):
        rules = v.get("rules") or {}
        target = v.get("target")
        rows.append(([str(v.get("from_run", DASH)), str(v.get("run_variant", DASH))]
                     if by_run else [str(v.get("variant", DASH))])
                    + [str(v.get("edition", DASH)),
                       str(v.get("content", DASH)), str(v.get("mode", DASH)),
                       str(v.get("players", DASH)), str(v.get("heuristic", DASH)),
                       "to exhaustion" if v.get("exhaust") else
                       (DASH if target is None else str(target)),
                       ", ".join(f"{k}={rules[k]}" for k in sorted(rules)) or DASH,
                       text.count(per_variant.get(int(v.get("variant", -1)), 0))])
    lead = ["Run", "Variant"] if by_run else ["Variant"]
    return Table("Variants" + (" (each numbered within its run)" if by_run else ""),
                 [*lead, "Edition", "Content", "Mode", "Players", "Heuristic", "Target",
                  "Rules changed", "Games"], rows, left=len(lead) + 7, fold="closed")


# --- rendering -------------------------------------------------------------------------------

def render(sections: list[Section], title: str, subtitle: str = "") -> str:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_template), autoescape=True, keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    return env.get_template("report.html.j2").render(title=title, subtitle=subtitle,
                                                     sections=sections)


def _template(name: str) -> str:
    return resources.files("reports").joinpath("templates", name).read_text(encoding="utf-8")
