"""Gem Rush's sections of the report page: Crisis difficulty, Verdicts by player, Room value,
Deck burn timing and Rush (the Rush games' outcomes, reports/outcomes/outcome_page.py), and its
parts of the Summary (the targets to print, the win rate at each named difficulty).

Nothing here reads the clock or the environment, every table is sorted and every number goes
through `reports.render.text`, so the same analysis always gives the same page.
"""

from __future__ import annotations

import polars as pl

from reports.gemrush import figures as gfigures
from reports.gemrush import rooms, sentences
from reports.gemrush.analysis import Analysis
from reports.gemrush.crisis import TO_EXHAUSTION
from reports.outcomes.outcome_page import Words, outcome_section
from reports.page.game_report import merged_by_setting
from reports.render import text
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
from reports.render.text import DASH


def reference(a: Analysis) -> dict[tuple[str, int], str]:
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
    settings = in_order(a.kinds, a.difficulty, a.curve, a.fixed)
    # A sweep without named difficulties to chart keeps each setting's own charts.
    first = _named_overview(a, settings) if len(settings) > MANY_SETTINGS else None
    many = first is not None
    if many:
        s.blocks.append(first)
    merged_here = merged_by_setting(merged or [], "crisis")
    for setting in settings:
        said = list(merged_here.get(setting, []))
        if many:  # the overview charts it; its tables are a click away
            more = Block("", paragraphs=said, fold=f"{setting}: the win rate at each named "
                         "difficulty, every difficulty's games, the targets to print")
            more.tables += difficulty_tables(of(a.difficulty, setting))
            if of(a.curve, setting).height:
                more.tables.append(targets_table(of(a.targets, setting)))
            s.blocks.append(more)
            continue
        b = Block(setting, paragraphs=said)
        curve, named, fixed = of(a.curve, setting), of(a.named, setting), of(a.fixed, setting)
        b.figures.append(figure(
            f"crisis-curve-{slug(setting)}.png",
            "Share of Crisis games won at each target, by player count; bands and error bars "
            "are 95% Wilson intervals; dotted lines mark the named difficulties.",
            gfigures.difficulty_curve_figure(curve, named, fixed,
                                            f"{setting}: Crisis win rate against target",
                                            xlim)))
        tables = difficulty_tables(of(a.difficulty, setting))
        if len(tables) > 1:  # the named difficulties' table leads; the rest are folded
            b.tables.append(tables.pop(0))
        more = Block("", fold=f"More on {setting}: when each target is reached, every "
                              "difficulty's games, the targets to print")
        if curve.height:
            more.figures.append(figure(
                f"crisis-turn-{slug(setting)}.png",
                "Mean player turn at which the team score first reached each target, over "
                "the games that reached it.",
                gfigures.turn_reached_figure(curve, named,
                                            f"{setting}: when each target is reached",
                                            xlim, ylim)))
        more.tables += tables
        if curve.height:
            more.tables.append(targets_table(of(a.targets, setting)))
        s.blocks.append(b)
        s.blocks.append(more)
    return s


def _named_overview(a: Analysis, settings: list[str]) -> Block | None:
    """The block that opens the section of a sweep (reports/render/section.py, MANY_SETTINGS): every
    setting's win rate at each named difficulty, a row per setting and player count (games
    played to exhaustion where a setting has them); None without named difficulties."""
    rates = []
    for setting in settings:
        named = of(a.difficulty, setting).filter(pl.col("difficulty").is_not_null())
        best = named.filter(pl.col("source") == TO_EXHAUSTION)
        rates.append(best if best.height else named)
    rates = [r for r in rates if r.height]
    if not rates:
        return None
    every = pl.concat(rates, how="diagonal_relaxed")
    b, charts = overview_block(settings, SETTINGS_PER_CHART,
                               "win rate at the named difficulties",
                               " (where the run compares versions, Comparison draws their "
                               "win-rate curves together)")
    for chunk, part, which in charts:
        mine = every.filter(pl.col("setting").is_in(chunk))
        if mine.height:
            b.figures.append(figure(
                f"crisis-named-every-setting{part}.png",
                "Share of Crisis games won at each named difficulty, a row per setting and "
                "player count, with 95% Wilson intervals.",
                gfigures.named_overview_figure(mine, chunk, "Crisis win rate at the named "
                                               f"difficulties, {which}")))
    return b if b.figures else None


PLAYERS_INTRO = [
    "The same setting played by different players: how far the targets move with the "
    "strength of play.",
]
PLAYERS_METHOD = [
    "Every figure of this report comes from a scripted player, and a stronger player can move a "
    "verdict as far as a change of the content can. Where a setting was played by several "
    "players, in one run or in several runs that played the same game (the same edition, "
    "content, rules and code), their difficulty curves are drawn together and the targets to "
    "print for chosen win rates are compared; the band is the least and the most target any "
    "player would print, and the spread how far apart they are.",
    "A player is the heuristic with the knobs its run set (the reference's budget: its "
    "rollouts a decision). Where one player played a setting in several runs, the run with "
    "the most games speaks for it. The clairvoyant bound sees the deck: it marks what good "
    "play could score, and no team at the table can play it.",
]


def curve_label(r: dict, where: dict[str, str] | None = None) -> str:
    """"reference (budget 64), 200 games (players run)": a curve's player, games and run."""
    run = (where or {}).get(r["setting"])
    return f"{r['player']}, {text.count(r['games'])} games" + (f" ({run})" if run else "")


def players_section(a: Analysis) -> Section:
    # Each curve names its run where the page reads several.
    where = ({x: f"{run} run" for x, run in a.roster.select("setting", "run").rows() if run}
             if a.roster.height else {})
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
            # The legend names each curve's run where the page reads several.
            curves = curves.join(a.roster.select("setting", "run"), on="setting", how="left")
            b.figures.append(figure(
                f"players-curve-{slug(base)}.png",
                "Share of Crisis games won at each target, one line per player (its games "
                "and run in the legend; a bound that sees the deck dashed), with 95% Wilson "
                "bands; dotted lines mark the named difficulties.",
                gfigures.player_curves_figure(curves, named,
                                             f"{base}: Crisis win rate by player")))
        t = a.player_targets.filter(pl.col("base_setting") == base)
        if t.height:
            b.tables.append(band_table(t, where))
        s.blocks.append(b)
    return s


def band_table(t: pl.DataFrame, where: dict[str, str] | None = None) -> Table:
    """Per player count and win rate: the target each player would print, the band (the
    least and the most) and how far apart they are (players.target_spread of one band)."""
    # The bounds last: the band is the players' alone.
    names = [p for _, p in sorted(set(t.select("bound", "player").rows()))]
    rows = []
    for (n, level), g in sorted(t.group_by("players", "level"),
                                key=lambda kv: (kv[0][0], -kv[0][1])):
        by = dict(g.select("player", "target").rows())
        r = g.row(0, named=True)
        band = DASH if text.missing(r["low"]) else (
            str(r["low"]) if r["low"] == r["high"] else f"{r['low']}–{r['high']}")
        rows.append([str(n), text.level_label(level)]
                    + [DASH if text.missing(by.get(p)) else str(by[p]) for p in names]
                    + [band, DASH if text.missing(r["spread"]) else str(r["spread"])])
    games = []
    for (n,), g in sorted(t.unique(["players", "player"]).group_by("players"),
                          key=lambda kv: kv[0]):
        games.append(f"{text.plural(n, 'player')}: " + ", ".join(
            curve_label(r, where) for r in g.sort("bound", "player").iter_rows(named=True)))
    return Table("Targets to print for chosen win rates, by player (the target whose win "
                 "rate is closest), and the band across players",
                 ["Players", "Wins wanted", *names, "Band", "Moves by (points)"], rows,
                 left=2, note="Games played to exhaustion: " + "; ".join(games) + "."
                 + (" The band leaves the bound out: it sees the deck, and no team at the "
                    "table can play it." if t["bound"].any() else ""))


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
                            + [text.plural(p, "player") for p in players], rows, left=1))
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
    "turn of its first build (in Rush, its round: a Rush game is counted in rounds, each "
    "player's turn in a round), the points scored through its doors and the ability uses per "
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
    said = sentences.room_sentences(a.room_ranking, value)
    # A sweep's settings keep their sentences and tables, not a chart each
    # (reports/render/section.py, MANY_SETTINGS).
    charts = value.height == 0 or value["setting"].n_unique() <= MANY_SETTINGS
    for (setting, mode), v in sorted(value.group_by("setting", "mode"), key=lambda kv: kv[0]):
        ranking = a.room_ranking.filter((pl.col("setting") == setting)
                                        & (pl.col("mode") == mode))
        reference = v["reference"][0]
        # The sentence leads; the chart and the tables are a click away.
        s.blocks.append(Block(f"{setting}, {mode.capitalize()}", paragraphs=[
            x for x in said if x.startswith(f"{setting} {mode.capitalize()} rooms")]))
        note = [f"A win here means: {reference}."]
        if not ranking.height:
            note.append("No room was built in enough games to compare win rates.")
        more = Block("", fold=f"Every room of {setting}, {mode.capitalize()}, by player count: "
                              "how often, how early and how much it was built and used")
        if not charts:
            more.paragraphs += note  # what a win means, beside the tables that count it
        else:
            b = Block("", paragraphs=note,
                      fold=f"The rooms of {setting}, {mode.capitalize()}, ranked in a chart")
            if ranking.height:
                cut = (f" Of {ranking.height} rooms, the {TOP_ROOMS} most and {TOP_ROOMS} "
                       "least valuable are shown, split by a dashed line."
                       if ranking.height > 2 * TOP_ROOMS else "")
                b.figures.append(figure(
                    f"rooms-{mode}-{slug(setting)}.png",
                    "Rooms ranked by the difference in win rate between games that built them "
                    "by their median build turn and the rest, averaged over player counts; one "
                    "marker per player count with its 95% interval. Association, not cause."
                    + cut,
                    gfigures.room_value_figure(v, ranking, f"{setting} {mode.capitalize()}: "
                                              "room value (association, not cause)",
                                              top=TOP_ROOMS)))
            s.blocks.append(b)
        for players in sorted(set(v["players"].to_list())):
            more.tables.append(room_table(v.filter(pl.col("players") == players), players))
        s.blocks.append(more)
    return s


def room_table(v: pl.DataFrame, players: int) -> Table:
    v = v.sort(pl.col("diff").fill_null(-9.0), "room", descending=[True, False])
    mode = str(v["mode"][0]) if v.height and "mode" in v.columns else "crisis"
    unit = rooms.first_build_when(None, players, mode)[1]
    rows = [[r["room"], text.pct(r["built_share"]), text.num(r["copies"], 2),
             text.num(rooms.first_build_when(r["median_turn"], players, mode)[0]),
             text.num(r["points_per_build"], 2),
             text.num(r["uses_per_build"], 2), text.num(r["gained_per_use"], 2),
             text.rate(r["early_rate"], r["early_low"], r["early_high"]),
             text.rate(r["other_rate"], r["other_low"], r["other_high"]),
             text.difference(r["diff"], r["diff_low"], r["diff_high"])]
            for r in v.iter_rows(named=True)]
    games = int(v["games"][0]) if v.height else 0
    return Table(f"{text.plural(players, 'player')} ({text.count(games)} games)",
                 ["Room", "Built (% of games)", "Tiles per game", f"Median first-build {unit}",
                  "Points per tile", "Uses per tile", "Cards per use",
                  "Won, built by the median", "Won otherwise", "Difference (95% interval)"],
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


def burn_section(a: Analysis) -> Section:
    s = Section("burn", "Deck burn timing", intro=list(BURN_INTRO), method=list(BURN_METHOD))
    if a.deck_out_counts.height == 0:
        s.missing.append("The run has no Crisis games, so there is no burn timing.")
        return s
    said = sentences.burn_sentences(a.deck_out, a.slack, a.clock_end, reference(a))
    settings = in_order(a.kinds, a.deck_out)
    # A sweep's settings keep their sentences and tables, not charts each
    # (reports/render/section.py, MANY_SETTINGS).
    charts = len(settings) <= MANY_SETTINGS
    for setting in settings:
        s.blocks.append(Block(setting, paragraphs=[
            x for x in said if x.startswith(f"{setting}: ")]))
        b = Block("", fold=f"{'Charts and tables' if charts else 'Tables'} of {setting}: the "
                           "deck running out, reshuffles, the slack on the clock, the end of "
                           "the clock")
        bg = of(a.deck_out_counts, setting)
        deck, shuffles = of(a.deck_out, setting), of(a.reshuffles, setting)
        if charts:
            b.figures.append(figure(
                f"burn-deck-{slug(setting)}.png",
                "Left: the player turn at which the gem deck first ran out (games where it "
                "did). Right: the share of games with each number of reshuffles. " + BOXES,
                gfigures.deck_out_figure(bg, shuffles, f"{setting}: gem deck running out")))
        b.tables.append(Table(
            "When the gem deck first runs out (player turn, over games where it did)",
            ["Players", "Played", "Games", "Never ran out", *DIST_HEADERS],
            [[str(r["players"]), r["source"], text.count(r["games"]), text.pct(r["missing"]),
              *dist_row(r)] for r in deck.iter_rows(named=True)], left=2))
        b.tables.append(reshuffle_table(shuffles))
        sg = of(a.slack_counts, setting)
        if sg.height and sg.select("players", "difficulty").n_unique() == 1:
            r = sg.row(0, named=True)
            b.paragraphs.append(f"Only {r['difficulty']} at {text.players_label(r['players'])} "
                                "is reached in these games: its slack is in the table.")
        elif sg.height and charts:
            b.figures.append(figure(
                f"burn-slack-{slug(setting)}.png",
                "Player turns left on the clock when each named target was reached, in "
                "exhausted games that reached it. " + BOXES,
                gfigures.slack_figure(sg, f"{setting}: slack on the clock")))
        if sg.height:
            b.tables.append(Table(
                "Slack on the clock when the target is reached (player turns; cards left)",
                ["Players", "Difficulty", "Games reaching it", *DIST_HEADERS,
                 "Cards left (median)", "Cards left (mean)"],
                [[str(r["players"]), f"{r['difficulty']} ({r['target']})",
                  text.count(r["n"]), *dist_row(r), text.num(r["cards_median"]),
                  text.num(r["cards_mean"])]
                 for r in of(a.slack, setting).iter_rows(named=True)], left=2))
        else:
            b.paragraphs.append("No Crisis games played to exhaustion: the slack on the clock "
                                "cannot be measured.")
        ended = of(a.clock_end_counts, setting)
        clock = of(a.clock_end, setting)
        if ended.height and ended["turns"].n_unique() == 1:
            # A chart of a constant says nothing a sentence cannot.
            b.paragraphs.append(f"The burn ends every game at player turn "
                                f"{ended['turns'][0]}, at every player count.")
        elif ended.height and charts:
            b.figures.append(figure(
                f"burn-end-{slug(setting)}.png",
                "The player turn at which the burn ended the game. " + BOXES,
                gfigures.clock_end_figure(ended, f"{setting}: when the burn ends the game")))
        if ended.height:
            b.tables.append(Table(
                "The player turn at which the burn ends the game",
                ["Players", "Played", "Games", *DIST_HEADERS],
                [[str(r["players"]), r["source"], text.count(r["n"]), *dist_row(r)]
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
    "room can move) or the room deck is empty. The round cap stops a game still running. "
    "Scores: the winner's and every seat's, by player count; where the seats were played by "
    "different players, each player's score and wins over the seats it played.",
]

ENDING_HEADERS = {"rush_target": "Target reached", "sealed": "Mine sealed",
                  "rooms_out": "Room deck ran out", "turn_cap": "Round cap"}
# What a Rush game that ended so did, as the Summary's sentences say it.
RUSH_ENDED = (("sealed", "end in a sealed mine"), ("rooms_out", "run out of room tiles"),
              ("turn_cap", "hit the round cap"))


def rush_words(merged: list | None = None) -> Words:
    """How the Rush section speaks of the Rush games' outcomes
    (reports/outcomes/outcome_page.py)."""
    return Words(sid="rush", title="Rush", what="Rush", unit="rounds",
                 endings=tuple(ENDING_HEADERS.items()), ended=RUSH_ENDED,
                 intro=tuple(RUSH_INTRO), method=tuple(RUSH_METHOD),
                 missing="The run has no Rush games.",
                 merged=merged_by_setting(merged or [], "rush"))


def rush_section(a: Analysis, merged: list | None = None) -> Section:
    return outcome_section(a.outcomes, a.kinds, rush_words(merged))
