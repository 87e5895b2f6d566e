"""Gem Runner's sections of the report page, one per question a designer asks of the game: how
hard the Computer is (The Computer); whether the heroes' decks are even (Decks); whether the
first player wins more head to head (First player); how long a game lasts and what changes it
(Length); whether the Pool decides games and helps the side behind (The Pool); and how the
answers move with the players (Verdicts by player). Each reads the analysis
(reports/gem_runner/analysis.py) for rates with their 95% Wilson intervals, the deck matrix
for paired shares, and the runs' comparisons (reports/gem_runner/levers.py) for paired
differences on common seeds.

Every table is sorted and every number goes through `reports.render.text`, so the same
analysis always gives the same page."""

from __future__ import annotations

import polars as pl

from reports.gem_runner import figures
from reports.gem_runner.analysis import HEROES, Analysis
from reports.gem_runner.findings import (
    count_words,
    decks_words,
    hero_words,
    moves_words,
    player_words,
    question_words,
)
from reports.gem_runner.levers import (
    COMPUTER_KIND,
    DECKS_KIND,
    FIRST_KIND,
    LENGTH_KIND,
    PLAYERS_KIND,
    Pair,
)
from reports.render import text
from reports.render.section import Block, Section, Table, figure
from reports.render.text import DASH
from reports.tables.variants import by_run

FOLD_ROWS = 12  # a per-setting table longer than this is folded under its caption
HOLM = "* survives Holm's correction over every difference of its run's comparison."
PAIRED = ("Each variant is compared with its run's baseline game by game: both play game i "
          "from the same seed, so the difference's 95% interval (Tango's score interval for "
          "a rate, the paired t interval for a mean) is much narrower than two independent "
          "intervals. ")


def fold(n: int) -> str:
    return "closed" if n > FOLD_ROWS else ""


def rate_cell(r: dict | None) -> str:
    if r is None or not r.get("games"):
        return DASH
    return text.rate(r["win_rate"], r["ci_low"], r["ci_high"])


def row_of(df: pl.DataFrame, setting: str, players: int) -> dict | None:
    r = df.filter((pl.col("setting") == setting) & (pl.col("players") == players))
    return r.row(0, named=True) if r.height else None


def paired_cell(r: dict | None) -> str:
    if r is None:
        return DASH
    mark = " *" if r["holm"] else ""
    if r["kind"] == "rate":
        return text.difference(r["difference"], r["ci_low"], r["ci_high"]) + mark
    if text.missing(r["ci_low"]):
        return text.signed(r["difference"])
    return (f"{text.signed(r['difference'])} ({text.signed(r['ci_low'])} to "
            f"{text.signed(r['ci_high'])})" + mark)


def value_cell(r: dict | None, key: str = "value") -> str:
    if r is None:
        return DASH
    return text.pct(r[key], 1) if r["kind"] == "rate" else text.num(r[key])


def comparison_table(pairs: list[Pair], caption: str, quantities: list[tuple[str, str]]
                     ) -> Table:
    """Each variant against its baseline: (quantity, header) as value and paired change."""
    headers = ["Variant", "Games"]
    for _, h in quantities:
        headers += [h, "Change (paired 95%)"]
    rows = []
    for p in pairs:
        first = next((r for q, _ in quantities if (r := p.row(q)) is not None), None)
        cells = [p.label, text.count(first["pairs"]) if first else DASH]
        for q, _ in quantities:
            r = p.row(q)
            cells += [value_cell(r), paired_cell(r)]
        rows.append(cells)
    return Table(caption, headers, rows, note=HOLM, fold=fold(len(rows)))


def baseline_line(pairs: list[Pair], quantities: list[tuple[str, str]]) -> str:
    p = pairs[0]
    said = [f"{h.lower()} {value_cell(r, 'baseline')}" for q, h in quantities
            if (r := p.row(q)) is not None]
    return f"The baseline, {p.base_label}: {', '.join(said)}."


def heroes_text(lv: dict) -> str:
    """The heroes of the decks in play, in deck order."""
    return ", ".join(hero_words(lv[h]) for h in HEROES[:min(lv["decks"], 2)]) + (
        ", ..." if lv["decks"] > 2 else "")


# -- The Computer -----------------------------------------------------------------------------

def computer_section(a: Analysis, pairs: list[Pair]) -> Section:
    s = Section("computer", "The Computer", intro=[
        "How often the seats beat the Computer, per setting: by player, alone or as a team, "
        "with one deck (the Computer draws from the seats' deck) or more (it draws from its "
        "own), and by hero; then each change of decks or of the Computer's own rules against "
        "the run's baseline on the same games."])
    s.method = ["A game the Computer wins, or that stops undecided, counts against the seats; "
                "95% Wilson intervals. " + PAIRED + HOLM]
    rows = []
    for setting, players in a.groups():
        lv, r = a.lever(setting, players), row_of(a.computer, setting, players)
        if r is None:
            continue
        rows.append([setting, player_words(lv["heuristic"]), str(players),
                     decks_words(lv["decks"]), heroes_text(lv), str(lv["hand"]),
                     text.count(r["games"]), rate_cell(r)])
    if not rows:
        s.missing.append("No setting here plays against the Computer: `balance run "
                         "experiments/gem_runner/gem-runner-computer.toml` plays it.")
        return s
    b = Block("The seats against the Computer, per setting", tables=[Table(
        "The seats' share of the games against the Computer (95% Wilson)",
        ["Setting", "Player", "Seats", "Decks", "Heroes", "Hand", "Games", "Seats win"], rows,
        left=5, fold=fold(len(rows)))])
    shown = [(st, p) for st, p in a.groups() if row_of(a.computer, st, p) is not None]
    if 1 < len(shown) <= FOLD_ROWS:
        b.figures.append(figure(
            "computer.png", "The seats' share of the games against the Computer, per setting, "
            "with its 95% Wilson interval.", figures.rates_figure(
                a.computer, shown, "The seats' wins against the Computer (%)",
                "How hard the Computer is")))
    s.blocks.append(b)
    q = [("automa", "The Computer wins"), ("computer_gems", "The Computer's Gems")]
    for kind, what in ((DECKS_KIND, "decks"), (COMPUTER_KIND, "Computer's rules")):
        for run, mine in by_run(pairs, kind).items():
            mine = [p for p in mine if p.computer]
            if mine:
                s.blocks.append(Block(f"The {what} in {run}", paragraphs=[
                    baseline_line(mine, q)], tables=[comparison_table(
                        mine, f"Each version against {mine[0].base_label}, on the same games",
                        q)]))
    return s


def computer_lead(a: Analysis) -> Block | None:
    """The Summary's chart: the seats' share against the Computer per setting."""
    shown = [(st, p) for st, p in a.groups() if row_of(a.computer, st, p) is not None]
    if not shown or len(shown) > FOLD_ROWS * 2:
        return None
    return Block("How hard the Computer is", figures=[figure(
        "computer-lead.png", "The seats' share of the games against the Computer, per "
        "setting, with its 95% Wilson interval.", figures.rates_figure(
            a.computer, shown, "The seats' wins against the Computer (%)",
            "The seats against the Computer"))])


# -- Decks ------------------------------------------------------------------------------------

def decks_section(a: Analysis) -> Section:
    s = Section("decks", "Decks", intro=[
        "Are the four heroes' decks even? Head to head, each pair of decks is played twice on "
        "every shuffle, once with each deck in the first seat, so that neither the seat nor "
        "the cards dealt favour one. A deck's share is its wins over both games."])
    s.method = ["A win counts 1, a game stopped undecided 1/2; each shuffle's share is the "
                "mean of its two games, and the 95% interval the t interval over the "
                "shuffles (paired: the same cards in both games). Seat 1's share over the "
                "same games is beside it, whatever its deck."]
    if a.decks.height == 0:
        s.missing.append("No run here plays two decks head to head both ways round: `balance "
                         "run experiments/gem_runner/gem-runner-decks.toml` plays them.")
        return s
    for (run, h), g in a.decks.group_by("run", "heuristic", maintain_order=True):
        heroes = list(dict.fromkeys(g["deck"].to_list()))
        by = {(r["deck"], r["against"]): r for r in g.to_dicts()}
        rows = [[hero_words(d), *(text.rate(x["share"], x["ci_low"], x["ci_high"])
                                  if (x := by.get((d, o))) else DASH for o in heroes)]
                for d in heroes]
        firsts = g.filter(pl.col("share") >= 0.5)
        s.blocks.append(Block(
            f"Deck against deck{f' in {run}' if run else ''} ({player_words(h)} players)",
            paragraphs=[f"{text.count(int(g['shuffles'].min()))} shuffles a pairing, each "
                        f"played both ways round; seat 1 wins "
                        f"{_band(firsts['first'].to_list())} of them."],
            tables=[Table("Each deck's share of its games against the column's deck "
                          "(paired 95%)", ["Deck", *(hero_words(o) for o in heroes)], rows,
                          left=1)]))
    return s


def _band(values: list[float]) -> str:
    lo, hi = text.pct(min(values), 1), text.pct(max(values), 1)
    return lo if lo == hi else f"{lo} to {hi}"


# -- First player -----------------------------------------------------------------------------

def first_section(a: Analysis, pairs: list[Pair] = ()) -> Section:
    s = Section("first-player", "First player", intro=[
        "Head to head, seat 1 builds the first Challenge. Here is its share of the games a "
        "player won, against its fair share (one in as many as there are players), per "
        "setting; then each compensation (Gems in seat 1's Stack, extra cards for it, Gems "
        "at the start seat by seat) against the unchanged rules on the same games."])
    s.method = ["A game stopped undecided is won by no seat, so the share is over the games "
                "a player won, with its 95% Wilson interval; \"above\" or \"below\" when the "
                "interval lies clear of the fair share. " + PAIRED + HOLM]
    rows = []
    for setting, players in a.groups():
        lv, r = a.lever(setting, players), row_of(a.first, setting, players)
        if r is None or lv["computer"]:
            continue
        fair = 1 / players
        rows.append([setting, player_words(lv["heuristic"]), str(players),
                     decks_words(lv["decks"]), text.count(r["games"]), rate_cell(r),
                     _against(r, fair), text.pct(fair, 1)])
    if not rows:
        s.missing.append("No setting here plays head to head: `balance run "
                         "experiments/gem_runner/gem-runner-first-player.toml` plays it.")
        return s
    s.blocks.append(Block("", tables=[Table(
        "The first player's share of the games a player won (95% Wilson)",
        ["Setting", "Player", "Players", "Decks", "Games a player won", "First player",
         "Against fair", "Fair share"], rows, left=4, fold=fold(len(rows)))]))
    q = [("first", "First player")]
    for run, mine in by_run(pairs, FIRST_KIND).items():
        # Each player against its own unchanged rules, where a run plays two.
        groups = list(dict.fromkeys((p.players, p.seats) for p in mine))
        for n, seats in sorted(groups, key=lambda g: g[0]):
            at = [p for p in mine if (p.players, p.seats) == (n, seats)]
            who = (f", {player_words(', '.join(dict.fromkeys(seats)))}"
                   if sum(g[0] == n for g in groups) > 1 else "")
            s.blocks.append(Block(
                f"Compensation in {run}, {n} players{who} (fair share {text.pct(1 / n, 1)})",
                paragraphs=[baseline_line(at, q)], tables=[comparison_table(
                    at, f"Each compensation against {at[0].base_label}, on the same games",
                    q)]))
    return s


def _against(r: dict, fair: float) -> str:
    if r["ci_low"] > fair:
        return f"above ({text.signed_points(r['win_rate'] - fair, 1)})"
    if r["ci_high"] < fair:
        return f"below ({text.signed_points(r['win_rate'] - fair, 1)})"
    return "within chance"


# -- Length -----------------------------------------------------------------------------------

def length_section(a: Analysis, pairs: list[Pair]) -> Section:
    s = Section("length", "Length", intro=[
        "How long a game lasts, per setting, with the Gem target, the hand and the deck's "
        "counts of Gems, Chains and Bugs it was played with; then each change of those "
        "against the run's baseline on the same games."])
    s.method = ["A turn is one run at a Challenge (the Computer's included). " + PAIRED
                + HOLM]
    rows = []
    for setting, players in a.groups():
        lv = a.lever(setting, players)
        n = row_of(a.outcomes.lengths, setting, players)
        rows.append([setting, player_words(lv["heuristic"]), str(players),
                     "Computer" if lv["computer"] else "head to head", str(lv["target"]),
                     str(lv["hand"]), f"{lv['gems']}, {lv['chains']}, {lv['bugs']}",
                     _mean_cell(n)])
    s.blocks.append(Block("", tables=[Table(
        "Length (turns) per setting", ["Setting", "Player", "Players", "Against", "Target",
                                       "Hand", "Gems, Chains, Bugs a deck", "Length"],
        rows, left=4, fold=fold(len(rows)))]))
    q = [("length:mean", "Length"), ("pool_gems", "Pool Gems"), ("first", "Seat 1 wins")]
    for run, mine in by_run(pairs, LENGTH_KIND).items():
        s.blocks.append(Block(f"What changes the length in {run}", paragraphs=[
            baseline_line(mine, q)], tables=[comparison_table(
                mine, f"Each version against {mine[0].base_label}, on the same games", q)]))
    return s


def _mean_cell(d: dict | None) -> str:
    if d is None or text.missing(d.get("mean")):
        return DASH
    return f"{text.num(d['mean'])} (10–90%: {text.spread(d)})"


# -- The Pool ---------------------------------------------------------------------------------

def pool_section(a: Analysis) -> Section:
    s = Section("pool", "The Pool", intro=[
        "A Gem nobody wins goes to the Pool, and whoever next wins a Challenge's Gem collects "
        "it whole. How often does that decide the game, and does the Pool go to the side "
        "behind (a catch-up) or to the side ahead?"])
    s.method = [
        "The Pool decides a game when the winning Gem's Pool took its side to the target and "
        "the run's own Gems did not. A side (a seat, or against the Computer the team and the "
        "Computer) is behind when another side holds more Gems as it collects the Pool; it "
        "overtakes when the Pool leaves it ahead of every other side. 95% Wilson intervals "
        "over the games, the Pools collected, and the Pools the side behind collected."]
    rows = []
    for setting, players in a.groups():
        lv, p = a.lever(setting, players), row_of(a.pool, setting, players)
        if p is None:
            continue
        rows.append([setting, player_words(lv["heuristic"]), str(players),
                     "Computer" if lv["computer"] else "head to head", text.count(p["games"]),
                     rate_cell(row_of(a.decides, setting, players)),
                     text.num(p["collections"] / p["games"] if p["games"] else 0.0, 2),
                     rate_cell(row_of(a.behind, setting, players)),
                     rate_cell(row_of(a.overtakes, setting, players))])
    if not rows:
        s.missing.append("The run has no games.")
        return s
    s.blocks.append(Block("", tables=[Table(
        "How the Pool plays, per setting", ["Setting", "Player", "Players", "Against",
                                           "Games", "The Pool decides", "Pools a game",
                                           "Collected by the side behind",
                                           "Of those, put it ahead"], rows, left=4,
        fold=fold(len(rows)))]))
    return s


# -- Verdicts by player -----------------------------------------------------------------------

def players_section(a: Analysis, pairs: list[Pair]) -> Section:
    s = Section("players", "Verdicts by player", intro=[
        "Every answer above is what its players did. Where a run plays the same rules with "
        "two players, here is each answer for both on the same shuffles (the first player's "
        "share, a deck's share, the seats' wins against the Computer, the games the Pool "
        "decides), the paired difference "
        "and whether the answer holds for both players or moves; where a run changes the "
        "players alone, how the first seat's wins, the length and the Pool move."])
    s.method = [BY_PLAYER, PAIRED + HOLM]
    _answers(s, a)
    q = [("first", "Seat 1 wins"), ("length:mean", "Length"), ("pool_gems", "Pool Gems")]
    for run, mine in by_run(pairs, PLAYERS_KIND).items():
        s.blocks.append(Block(f"The players in {run}", paragraphs=[baseline_line(mine, q)],
                              tables=[comparison_table(
                                  mine, f"Each player against {mine[0].base_label}, on the "
                                  "same games", q)]))
    if not s.blocks:
        s.missing.append("No run here plays the same rules with two players: `balance run "
                         "experiments/gem_runner/gem-runner-first-player-search.toml` plays "
                         "the runner and the search player on the same shuffles.")
    return s


def _upper(said: str) -> str:
    return said[:1].upper() + said[1:]


BY_PLAYER = ("Two variants of a run that differ in their players alone play game i from the "
             "same seed, so each answer is paired shuffle by shuffle: the first player's "
             "share over the shuffles a seat won in both, the seats' share against the "
             "Computer over every shuffle (a game the Computer wins or that stops undecided "
             "counts against them) and the games the Pool decided over every shuffle, with "
             "Tango's paired interval (the Pool's only where it decided a game with either "
             "player); a deck's share of the "
             "two games of a shuffle played both ways round, with the paired t interval. An "
             "answer holds for both players when the interval of the difference holds zero "
             "(each read alone, with no correction for the run's other questions). The "
             "reference is the run's first player.")


def _answers(s: Section, a: Analysis) -> None:
    """The by-player answers (by_player.py): one table per run and pair of players."""
    if a.by_player is None or a.by_player.height == 0:
        return
    for (run, pa, pb), g in a.by_player.group_by("run", "a", "b", maintain_order=True):
        rows = [[_upper(question_words(r)), count_words(r), text.pct(r["value_a"], 1),
                 text.pct(r["value_b"], 1), text.difference(r["difference"], r["ci_low"],
                                                            r["ci_high"]),
                 moves_words(r, short=True)] for r in g.to_dicts()]
        s.blocks.append(Block(
            f"{player_words(pa)} and {player_words(pb)}{f' in {run}' if run else ''}",
            tables=[Table(f"Each answer for {player_words(pa)} and {player_words(pb)} on the "
                          "same shuffles (paired 95%)",
                          ["Answer", "Paired", player_words(pa), player_words(pb),
                           "Change (paired 95%)", "Verdict"], rows, left=1,
                          fold=fold(len(rows)))]))
