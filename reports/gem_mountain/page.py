"""Gem Mountain's sections of the report page, one per question a designer asks of the game: is
there a first-seat advantage and which compensation evens it (First seat); which action is
strongest and whether Steal decides games between the others (Actions); how majority scoring
plays (Majority scoring); how long a game is and how the map changes it (Length and the map);
and how the answers move with the players (Verdicts by player). Each reads the analysis
(reports/gem_mountain/analysis.py) for rates with their 95% Wilson intervals, and the runs'
comparisons (reports/gem_mountain/levers.py) for paired differences on common seeds.

Every table is sorted and every number goes through `reports.render.text`, so the same
analysis always gives the same page."""

from __future__ import annotations

import polars as pl

from balance.contract.labels import value_words
from balance.games.gem_mountain.game import GAME
from reports.gem_mountain import figures, kingmaker
from reports.gem_mountain.analysis import Analysis
from reports.gem_mountain.findings import (
    DEFINITION,
    UNCHANGED,
    action_effects,
    main_player,
    measures_steals,
    one_seat,
    player_words,
    pooled_by_count,
    unchanged,
)
from reports.gem_mountain.levers import (
    ACTIONS_KIND,
    COMPENSATION_KIND,
    MAP_KIND,
    PLAYERS_KIND,
    Pair,
)
from reports.render import text
from reports.render.section import Block, Section, Table, figure, paired_cell
from reports.render.text import DASH
from reports.tables.variants import by_run

FOLD_ROWS = 12  # a per-setting table longer than this is folded under its caption
FIGURE_ROWS = 12  # more settings than this, each named in full, would make a chart unreadable
HOLM = "* survives Holm's correction over every difference of its run's comparison."
PAIRED = ("Each variant is compared with its run's baseline game by game: both play game i "
          "from the same seed, so the difference's 95% interval (Tango's score interval for "
          "a rate, the paired t interval for a mean) is much narrower than two independent "
          "intervals. ")


def fold(n: int) -> str:
    return "closed" if n > FOLD_ROWS else ""


def rate_cell(r: dict | None, prefix: str = "") -> str:
    if r is None or not r.get(f"{prefix}games", r.get("games")):
        return DASH
    return text.rate(r[f"{prefix}win_rate"], r[f"{prefix}ci_low"], r[f"{prefix}ci_high"])


def against(r: dict | None, fair: float, prefix: str = "") -> str:
    """Where a share's 95% interval lies against its fair share."""
    if r is None or text.missing(r.get(f"{prefix}ci_low")):
        return DASH
    share = r[f"{prefix}win_rate"]
    if r[f"{prefix}ci_low"] > fair:
        return f"above ({text.signed_points(share - fair, 1)})"
    if r[f"{prefix}ci_high"] < fair:
        return f"below ({text.signed_points(share - fair, 1)})"
    return "within chance"


def value_cell(r: dict | None, rate: bool) -> str:
    if r is None:
        return DASH
    return text.pct(r["value"], 1) if rate else text.num(r["value"])


def row_of(df: pl.DataFrame, setting: str, players: int) -> dict | None:
    r = df.filter((pl.col("setting") == setting) & (pl.col("players") == players))
    return r.row(0, named=True) if r.height else None


def map_text(lv: dict) -> str:
    return f"{lv['rows']}×{lv['cols']}, {lv['colours']} colours"


def start_text(lv: dict) -> str:
    """The start's compensation in the rulebook's words."""
    parts = []
    if lv["start_tiles"] != "none":
        parts.append(value_words(GAME, "start_tiles", lv["start_tiles"]))
    if lv["start_arrow"] != "corner":
        parts.append(value_words(GAME, "start_arrow", lv["start_arrow"]))
    return ", ".join(parts) or "none"


def comparison_table(pairs: list[Pair], caption: str, quantities: list[tuple[str, str]]
                     ) -> Table:
    """Each variant against its baseline: (quantity, header) as value and paired change."""
    headers = ["Variant", "Games"]
    for _, h in quantities:
        headers += [h, "Change (paired 95%)"]
    rows = []
    for p in pairs:
        cells = [p.label]
        first = next((r for q, _ in quantities if (r := p.row(q)) is not None), None)
        cells.append(text.count(first["pairs"]) if first else DASH)
        for q, _ in quantities:
            r = p.row(q)
            cells += [value_cell(r, r is not None and r["kind"] == "rate"), paired_cell(r)]
        rows.append(cells)
    return Table(caption, headers, rows, note=HOLM, fold=fold(len(rows)))


def baseline_line(pairs: list[Pair], quantities: list[tuple[str, str]]) -> str:
    p = pairs[0]
    said = [f"{h.lower()} {value_cell({'value': r['baseline']}, r['kind'] == 'rate')}"
            for q, h in quantities if (r := p.row(q)) is not None]
    return f"The baseline, {p.base_label}: {', '.join(said)}."


# -- First seat -----------------------------------------------------------------------------

def first_seat_section(a: Analysis, pairs: list[Pair]) -> Section:
    s = Section("first-seat", "First seat", intro=[
        "Seat 1 is the start player. Here is the first seat's share of the games one player "
        "won, against its fair share (one in as many as there are players), per setting and "
        "player count, with the last seat's beside it; then each compensation the runs "
        "played (the quicker start's tile for every player, the start player placing the "
        "arrow) against the unchanged rules on the same games."])
    s.method = [
        "A tied game is won by no seat, so the shares are over the games one player won, "
        "with their 95% Wilson intervals; \"above\" or \"below\" when the interval lies "
        "clear of the fair share. " + PAIRED + HOLM]
    if a.first.height == 0:
        s.missing.append("The run has no game one player won.")
        return s
    rows = []
    for setting, players in a.groups():
        lv, r = a.lever(setting, players), row_of(a.first, setting, players)
        if r is None:
            continue
        fair = 1 / players
        rows.append([setting, str(players), map_text(lv), start_text(lv), text.count(r["games"]),
                     rate_cell(r), against(r, fair), rate_cell(r, "last_"),
                     against(r, fair, "last_"), text.pct(fair, 1)])
    b = Block("The first and the last seat, per setting", tables=[Table(
        "The first and the last seat's share of the games one player won (95% Wilson)",
        ["Setting", "Players", "Map", "Compensation", "Games one player won", "First seat",
         "Against fair", "Last seat", "Against fair", "Fair share"], rows, left=4,
        fold=fold(len(rows)))])
    if 1 < len(rows) <= FIGURE_ROWS:
        b.figures.append(figure(
            "first-seat.png", "The first seat's share of the games one player won, per "
            "setting and player count, with its 95% Wilson interval; the dashed tick is its "
            "fair share.", figures.first_seat_figure(a.first, a.groups())))
    s.blocks.append(b)
    for run, mine in by_run(pairs, COMPENSATION_KIND).items():
        last = f"seat:{mine[0].players}"
        q = [("seat:1", "First seat"), (last, "Last seat")]
        s.blocks.append(Block(f"Compensation in {run}", paragraphs=[baseline_line(mine, q)],
                              tables=[comparison_table(
                                  mine, f"Each compensation against {mine[0].base_label}, on "
                                  "the same games", q)]))
    return s


def first_seat_lead(a: Analysis) -> Block | None:
    """The Summary's chart: the first seat's share on the unchanged rules by player count,
    against its fair share (the verdict First seat reads the same games)."""
    rows = pooled_by_count(a.first, unchanged(a))
    if not rows:
        return None
    who = main_player(a)
    first = pl.DataFrame([{"setting": UNCHANGED, **r} for r in rows])
    return Block("First seat: its share of the wins against its fair share", figures=[figure(
        "first-seat-lead.png", f"The first seat's share of the games one player won on the "
        f"unchanged rules, by player count ({player_words(who)} players, every run pooled), "
        "with its 95% Wilson interval; the dashed tick is its fair share.",
        figures.first_seat_figure(first, [(UNCHANGED, r["players"]) for r in rows],
                                  lambda _, p: f"{p} players"))])


# -- Actions --------------------------------------------------------------------------------

def actions_section(a: Analysis, pairs: list[Pair]) -> Section:
    s = Section("actions", "Actions", intro=[
        "Which action is strongest, and does Steal decide games between the other players? "
        "Where a run takes actions out of the box (or changes how many tiles of one it "
        "holds), each version against the full box on the same games; where a run seats a "
        "player who never steals beside players who do, the games one seat's steals "
        "decide."])
    s.method = [PAIRED + "An action's strength is how far the first seat's share moves "
                "when it is taken out of the box. " + DEFINITION + " " + HOLM]
    q = [("seat:1", "First seat"), ("margin:mean", "Margin"), ("length:mean", "Length"),
         ("least_decides", "The least decides")]
    for run, mine in by_run(pairs, ACTIONS_KIND).items():
        b = Block(f"The box's actions in {run}", paragraphs=[baseline_line(mine, q)],
                  tables=[comparison_table(mine, f"Each version of the box against "
                                           f"{mine[0].base_label}, on the same games", q)])
        effects = action_effects(mine)
        if len(effects) > 1:
            b.figures.append(figure(
                f"actions-{run}.png", "What each action in the box adds to the first seat's "
                "share (the box with it minus without it), with its paired 95% interval.",
                figures.effects_figure(effects, f"Each action's effect ({run})")))
        s.blocks.append(b)
    s.blocks.append(steal_block(a))
    return s


def steal_block(a: Analysis) -> Block:
    km = a.kingmaker
    if km.height == 0:
        return Block("Steal as kingmaker", paragraphs=[
            "None of these runs seats a player who never steals beside players who do, so "
            "the games Steal decides between others are not measured here: `balance run "
            "experiments/gem_mountain/steal-kingmaker.toml` plays them."])
    rows = []
    for run, seat, _, player, n, changed, others, own, stole in km.rows():
        rows.append([run, str(seat), player_words(player), text.count(n), text.count(stole),
                     rate_cell(_share(n, changed)), rate_cell(_share(n, others)),
                     rate_cell(_share(n, own))])
    pooled = kingmaker.pooled(km, "others")
    return Block("Steal as kingmaker", paragraphs=[
        DEFINITION, f"Every seat pooled: one seat's steals decide the game between two other "
        f"players in {rate_cell(pooled)} of {text.count(pooled['games'])} games."],
        tables=[Table("The games one seat's steals decide (95% Wilson)",
                      ["Run", "Seat that never steals", "Other seats", "Games",
                       "Games with a steal", "Result changed", "Between two others",
                       "For the seat itself"], rows, left=3)])


def _share(n: int, k: int) -> dict:
    return kingmaker.pooled(pl.DataFrame({"games": [n], "x": [k]}), "x")


# -- Majority scoring -----------------------------------------------------------------------

def scoring_section(a: Analysis) -> Section:
    s = Section("scoring", "Majority scoring", intro=[
        "How the majorities decide the game, per setting and player count: how often the "
        "least's penalty gives another winner, how far the winner leads the second, and how "
        "often players share the most of a colour."])
    s.method = [
        "The least decides a game when, without the least's penalties, another player "
        "would have won or shared the win; its share of the games has a 95% Wilson "
        "interval. The margin is the winner's points over the second's (0 in a tie). A "
        "shared majority is a colour whose most two or more players hold."]
    rows = []
    for setting, players in a.groups():
        least, m = row_of(a.least, setting, players), row_of(a.outcomes.margins, setting,
                                                               players)
        shared, tied = row_of(a.shared, setting, players), row_of(a.tied, setting, players)
        if least is None:
            continue
        rows.append([setting, str(players), text.count(least["games"]), rate_cell(least),
                     _mean_cell(m), rate_cell(shared), _mean_cell(tied)])
    if not rows:
        s.missing.append("The run has no games.")
        return s
    s.blocks.append(Block("", tables=[Table(
        "The least's penalty, the margin and the shared majorities",
        ["Setting", "Players", "Games", "The least decides", "Margin (points)",
         "Games with a shared majority", "Shared majorities a game"], rows, left=2,
        fold=fold(len(rows)))]))
    return s


def _mean_cell(d: dict | None) -> str:
    if d is None or text.missing(d.get("mean")):
        return DASH
    return f"{text.num(d['mean'])} (10–90%: {text.spread(d)})"


# -- Length and the map ---------------------------------------------------------------------

def map_section(a: Analysis, pairs: list[Pair]) -> Section:
    s = Section("map", "Length and the map", intro=[
        "How long a game lasts, and how the length, the margin and the first seat's share "
        "change with the map's size and the number of colours: per setting, then each map "
        "against the run's baseline map on the same games."])
    s.method = ["A game's length counts every player's turn. " + PAIRED + HOLM]
    rows = []
    for setting, players in a.groups():
        lv = a.lever(setting, players)
        n, m = row_of(a.outcomes.lengths, setting, players), row_of(a.outcomes.margins,
                                                                     setting, players)
        f = row_of(a.first, setting, players)
        rows.append([setting, str(players), map_text(lv), str(lv["rows"] * lv["cols"]),
                     _mean_cell(n), _mean_cell(m), rate_cell(f)])
    s.blocks.append(Block("", tables=[Table(
        "Length (turns), margin (points) and the first seat's share, per setting",
        ["Setting", "Players", "Map", "Cells", "Length", "Margin", "First seat"], rows,
        left=3, fold=fold(len(rows)))]))
    q = [("length:mean", "Length"), ("margin:mean", "Margin"), ("seat:1", "First seat")]
    for run, mine in by_run(pairs, MAP_KIND).items():
        s.blocks.append(Block(f"The map in {run}", paragraphs=[baseline_line(mine, q)],
                              tables=[comparison_table(
                                  mine, f"Each map against {mine[0].base_label}, on the same "
                                  "games", q)]))
    return s


# -- Verdicts by player ---------------------------------------------------------------------

def players_section(a: Analysis, pairs: list[Pair]) -> Section:
    s = Section("players", "Verdicts by player", intro=[
        "Every answer above is what its players did. Where a run changes the players alone, "
        "here is how strong each is against the other (one seat apart, each seat in turn) "
        "and how the answers move when every seat changes player, on the same games."])
    s.method = [PAIRED + "A player's strength is its seat's share of the games one player "
                "won, against the share the baseline's player wins in that seat. " + HOLM]
    for run, mine in by_run(pairs, PLAYERS_KIND).items():
        if measures_steals(mine):
            continue
        apart = [p for p in mine if one_seat(p) is not None]
        whole = [p for p in mine if one_seat(p) is None]
        b = Block(f"The players in {run}")
        if apart:
            rows = []
            for p in apart:
                seat, name = one_seat(p)
                r = p.row(f"seat:{seat}")
                rows.append([player_words(name), str(seat), text.count(r["pairs"]) if r else
                             DASH, value_cell({"value": r["baseline"]}, True) if r else DASH,
                             value_cell(r, True), paired_cell(r)])
            b.tables.append(Table(
                f"One seat's player against {apart[0].base_label}: that seat's share of the "
                "games one player won", ["Player", "Seat", "Games", "Baseline's player",
                                         "This player", "Change (paired 95%)"], rows,
                note=HOLM))
        if whole:
            q = [("seat:1", "First seat"), ("least_decides", "The least decides"),
                 ("margin:mean", "Margin"), ("length:mean", "Length")]
            b.tables.append(comparison_table(whole, f"Every seat changed, against "
                                             f"{whole[0].base_label}", q))
        s.blocks.append(b)
    if not s.blocks:
        s.missing.append("No run here changes the players alone: `balance run "
                         "experiments/gem_mountain/player-strength.toml` plays the majority "
                         "and the search player on the same games.")
    return s
