"""Rusship's sections of the report page, one per question a designer asks of the game: is
there a first-player advantage and which compensation fixes it (First player); is the
catch-up strong enough and which power is strongest (Powers and catch-up); how long is a game
and how it grows with the board (Length); and how the answers move with the players
(Verdicts by player). Each reads the analysis (reports/rusship/analysis.py) for rates with
their 95% Wilson intervals, and the runs' comparisons (reports/rusship/levers.py) for paired
differences between variants on common seeds.

Nothing here reads the clock or the environment, every table is sorted and every number goes
through `reports.render.text`, so the same analysis always gives the same page."""

from __future__ import annotations

import polars as pl

from balance.contract.labels import value_words
from balance.games.rusship.engine.state import POWER_NAMES
from balance.games.rusship.game import GAME
from balance.games.rusship.rules import POWER_WORDS
from balance.stats.intervals import wilson
from reports.outcomes import findings
from reports.render import text
from reports.render.section import (
    BOXES,
    DIST_HEADERS,
    Block,
    Section,
    Table,
    dist_row,
    figure,
    paired_cell,
    slug,
)
from reports.render.text import DASH
from reports.rusship import figures, length
from reports.rusship.analysis import Analysis
from reports.rusship.levers import BOX_KIND, COMPENSATION_KIND, PLAYERS_KIND, Pair
from reports.tables.variants import by_run

FOLD_ROWS = 12  # a per-setting table longer than this is folded under its caption
HOLM = "* survives Holm's correction over every difference of its run's comparison."


# -- cells ----------------------------------------------------------------------------------

def rate_row(df: pl.DataFrame, setting: str) -> dict | None:
    r = df.filter(pl.col("setting") == setting)
    return r.row(0, named=True) if r.height else None


def rate_cell(r: dict | None) -> str:
    return DASH if r is None or not r["games"] else text.rate(r["win_rate"], r["ci_low"],
                                                              r["ci_high"])


def against_half(r: dict | None) -> str:
    """Where a rate's 95% interval lies against 50%."""
    if r is None or not r["games"] or text.missing(r["ci_low"]):
        return DASH
    if r["ci_low"] > 0.5:
        return f"above 50% ({text.signed_points(r['win_rate'] - 0.5, 1)})"
    if r["ci_high"] < 0.5:
        return f"below 50% ({text.signed_points(r['win_rate'] - 0.5, 1)})"
    return "within chance of 50%"


def compensation_text(r: dict) -> str:
    parts = [value_words(GAME, k, r[k]) for k in ("second_tokens", "second_bonus") if r[k]]
    return ", ".join(parts) or "none"


def fold(n: int) -> str:
    return "closed" if n > FOLD_ROWS else ""


def order(a: Analysis, settings) -> list[str]:
    mine = set(settings)
    return [s for s in a.settings() if s in mine]


# -- First player ---------------------------------------------------------------------------

def closest(pairs: list[Pair]) -> list[tuple[Pair | None, dict]]:
    """The compensations whose first player's wins are nearest 50% (over the paired games),
    each with its row, ties named together (findings.nearest over each arm's 95% Wilson
    interval); the unchanged rules count as a candidate (None). Against the unchanged rules
    the paired difference decides: a compensation whose paired interval excludes 0 is told
    apart from them, whatever the two arms' intervals."""
    options = []
    for p in pairs:
        r = p.row("starter")
        if r is None or not r["pairs"]:
            continue
        n = int(r["pairs"])
        if not options:
            options.append(((None, r), r["baseline"], *wilson(round(r["baseline"] * n), n)))
        options.append(((p, r), r["value"], *wilson(round(r["value"] * n), n)))
    tied = findings.nearest(options, 0.5)
    if len(tied) < 2:
        return tied
    if tied[0][0] is None:
        return [tied[0]] + [(p, r) for p, r in tied[1:] if not _apart(r)]
    return [(p, r) for p, r in tied if p is not None or not _apart(tied[0][1])]


def _apart(r: dict) -> bool:
    """A paired difference whose 95% interval excludes 0."""
    return not text.missing(r["ci_low"]) and (r["ci_low"] > 0 or r["ci_high"] < 0)


TIE_NAMED = 3  # a tie of more options is counted, not listed


def closest_text(tied: list[tuple[Pair | None, dict]], base: str) -> str:
    """The sentence that names the compensation nearest 50%, or the tie."""
    if not tied:
        return ""
    p, r = tied[0]
    if len(tied) == 1 and p is None:
        return (f"None of the compensations brings the first player's wins nearer 50% than "
                f"the unchanged rules ({base}: {text.pct(r['baseline'], 1)}).")
    if len(tied) == 1:
        return (f"{p.label} brings the first player's wins closest to 50%: "
                f"{text.pct(r['value'], 1)}, against {text.pct(r['baseline'], 1)} with the "
                f"unchanged rules ({base}); paired difference "
                f"{text.difference(r['difference'], r['ci_low'], r['ci_high'])} over "
                f"{text.count(r['pairs'])} games.")
    if len(tied) > TIE_NAMED:  # a list of every option would bury the answer: too few games
        values = [x["baseline"] if q is None else x["value"] for q, x in tied]
        lo, hi = text.pct(min(values), 1), text.pct(max(values), 1)
        among = ", the unchanged rules among them" if any(q is None for q, _ in tied) else ""
        return (f"A tie among {len(tied)} options{among} ({lo} to {hi}): their 95% intervals "
                "cannot tell them apart on these games, so none is the closest (the table "
                "lists each). More games, or another reason, decide between them.")
    # Labels hold commas ("second_tokens=1, second_bonus=2"): semicolons keep them apart.
    named = [f"{'the unchanged rules, ' + base if q is None else q.label} "
             f"({text.pct(x['baseline'] if q is None else x['value'], 1)})" for q, x in tied]
    return (f"A tie: {'; '.join(named[:-1])} and {named[-1]} bring the first player's wins "
            "as near 50% as each other; their 95% intervals cannot tell them apart on these "
            "games, so none is the closest. More games, or another reason, decide between "
            "them.")


def first_player_section(a: Analysis, pairs: list[Pair]) -> Section:
    s = Section("first-player", "First player", intro=[
        "Who plays first is rolled for (the higher die plays first). Here is how often that "
        "side wins the decided games, against the 50% of a fair start, per setting; then "
        "each compensation the runs played (second_tokens: tokens the second player starts "
        "with on the track; second_bonus: added to each die of its first turn) against the "
        "unchanged rules on the same games."])
    s.method = [
        "The first player's share is over the decided games (a game stopped at max_turns "
        "counts for nobody), with its 95% Wilson interval. A compensation is compared with "
        "the run's baseline game by game: both arms play game i from the same seed, so the "
        "difference's 95% interval (Tango's score interval for paired proportions) is much "
        "narrower than two independent intervals. " + HOLM]
    settings = a.settings()
    if not settings or a.starter.height == 0:
        s.missing.append("The run has no decided games.")
        return s
    rows = []
    for st in settings:
        lv = a.levers.filter(pl.col("setting") == st).row(0, named=True)
        r = rate_row(a.starter, st)
        rows.append([a.name(st), str(lv["length"]), compensation_text(lv),
                     text.count(r["games"] if r else 0), rate_cell(r), against_half(r)])
    b = Block("The first player's wins, per setting", tables=[Table(
        "The first player's share of the decided games (95% Wilson)",
        ["Setting", "Length", "Compensation", "Decided games", "First player wins",
         "Against 50%"], rows, left=3, fold=fold(len(rows)))])
    if 1 < len(settings) <= 40:
        b.figures.append(figure(
            "first-player.png", "The first player's share of the decided games, per setting, "
            "with its 95% Wilson interval; the dashed line is a fair start (50%).",
            figures.rates_figure(a.starter, settings, a.name, "The first player's wins",
                                 "First player wins")))
    s.blocks.append(b)
    for run, mine in by_run(pairs, COMPENSATION_KIND).items():
        s.blocks.append(compensation_block(run, mine))
    return s


def compensation_block(run: str, pairs: list[Pair]) -> Block:
    base = pairs[0].base_label
    rows = []
    for p in pairs:
        r = p.row("starter")
        if r is None:
            continue
        rows.append([p.label, text.count(r["pairs"]), text.pct(r["value"], 1),
                     paired_cell(r), text.signed_points(r["value"] - 0.5, 1)])
    tied = closest(pairs)
    say = closest_text(tied, base)
    seek = "(`balance tune --goal starter=50%` seeks the value of one lever)."
    more = ("`balance tune --goal starter=50%` seeks the value of one lever." if len(tied) > 1
            else "Picked as the nearest of several: on these games it is the best guess, and "
            f"its own interval says how sure; a designer confirms it with more games {seek}")
    return Block(f"Compensation in {run}", paragraphs=[p for p in (say, more) if p],
        tables=[Table(f"Each compensation against {base}, on the same games",
                      ["Variant", "Games", "First player wins", "Change (paired 95%)",
                       "From 50%"], rows, note=HOLM)])


# -- Powers and catch-up --------------------------------------------------------------------

def powers_section(a: Analysis, pairs: list[Pair]) -> Section:
    s = Section("powers", "Powers and catch-up", intro=[
        "Every attack on a planet hands the attacked side a power: the catch-up. Here is how "
        "often the side attacked first still wins (a comeback), per setting; which power "
        "the side attacked first chose and how often it then won; and, where a run takes "
        "powers out of the box or plays one alone, what each power changes on the same "
        "games."])
    s.method = [
        "A comeback is a decided game won by the side whose planet was attacked first, over "
        "the decided games, with its 95% Wilson interval; 50% would make the first attack "
        "worth nothing. The side attacked first chooses the first power, so the win rate "
        "of the side that chose a power first is how often a comeback follows that choice: "
        "an association (a player picks a power in some positions and not others), not a "
        "cause. The cause is the box runs': each power taken out (or played alone) against "
        "the run's baseline box, game by game on the same seeds (Tango's paired interval "
        "for rates, the paired t interval for the length). " + HOLM]
    settings = a.settings()
    if settings and a.comeback.height:
        rows = []
        for st in settings:
            lv = a.levers.filter(pl.col("setting") == st).row(0, named=True)
            r = rate_row(a.comeback, st)
            rows.append([a.name(st), lv["box"], text.count(r["games"] if r else 0), rate_cell(r),
                         against_half(r)])
        s.blocks.append(Block("Comebacks, per setting", tables=[Table(
            "The share of decided games the side attacked first still won (95% Wilson)",
            ["Setting", "Powers in the box", "Games", "Comebacks", "Against 50%"], rows,
            left=2, fold=fold(len(rows)))]))
        s.blocks.append(first_power_block(a))
    for run, mine in by_run(pairs, BOX_KIND).items():
        b = box_block(run, mine)
        if b is not None:
            s.blocks.append(b)
    if not s.blocks:
        s.missing.append("The run has no decided game with an attack.")
    return s


def first_power_block(a: Analysis) -> Block:
    """Per setting whose box is full: the win rate of the side that chose each power first."""
    full = a.levers.filter(pl.col("in_box") == 5)["setting"].to_list()
    fp = a.first_power.filter(pl.col("setting").is_in(full))
    rows = []
    for st in order(a, fp["setting"].unique().to_list()):
        cells = [a.name(st)]
        for p in POWER_NAMES:
            r = fp.filter((pl.col("setting") == st) & (pl.col("power") == p))
            cells.append(DASH if r.height == 0 else
                         f"{rate_cell(r.row(0, named=True))} of {text.count(r['games'][0])}")
        rows.append(cells)
    return Block("The power chosen first", tables=[Table(
        "The side attacked first, by the power it chose: its share of the games won (95% "
        "Wilson), of the games it chose that power", ["Setting", *POWER_NAMES], rows,
        fold=fold(len(rows)),
        note="Settings with all five powers in the box. An association: see How this is "
             "measured.")])


def box_rows(pairs: list[Pair]) -> list[tuple[str, Pair]]:
    """(what changed, pair) of every variant whose box differs from its baseline's by one
    power: "without X" or "X added" ("X alone" against an empty box)."""
    out = []
    for p in pairs:
        if len(p.out) == 1 and not p.added:
            out.append((f"without {power_words(p.out[0])}", p))
        elif len(p.added) == 1 and not p.out:
            alone = not [x for x in p.base_rules if x.startswith("box_") and p.base_rules[x]]
            out.append((f"{power_words(p.added[0])} alone" if alone
                        else f"{power_words(p.added[0])} added", p))
    return out


def power_words(name: str) -> str:
    """A power as the rulebook's token reads: "the +1 power" for plus_one."""
    return f"the {POWER_WORDS.get(name, name)} power"


def power_effects(pairs: list[Pair]) -> list[dict]:
    """Per power of a box run: its effect on the comebacks (what the game has with it minus
    without it, in the direction of the power), ranked strongest first."""
    out = []
    for what, p in box_rows(pairs):
        r = p.row("comeback")
        if r is None:
            continue
        sign = -1.0 if what.startswith("without") else 1.0
        out.append({"what": what, "power": power_words((p.out or p.added)[0]), "pair": p,
                    "row": r,
                    "effect": sign * r["difference"], "low": sign * (r["ci_high"] if sign < 0
                                                                     else r["ci_low"]),
                    "high": sign * (r["ci_low"] if sign < 0 else r["ci_high"])})
    return sorted(out, key=lambda e: (-e["effect"], e["power"]))


def unchanged_games(p: Pair) -> bool:
    """Every game of the pair kept its length and its winner (every pair's difference 0):
    the change never came into play."""
    rows = [p.row("length:mean"), p.row("seat:1")]
    return all(r is not None and r["difference"] == 0 and r["ci_low"] == 0 == r["ci_high"]
               for r in rows[:1]) and rows[1] is not None and rows[1]["p_value"] == 1.0 \
        and rows[1]["difference"] == 0


def box_block(run: str, pairs: list[Pair]) -> Block | None:
    effects = power_effects(pairs)
    if not effects:
        return None
    base = effects[0]["pair"].base_label
    rows = []
    for e in effects:
        p = e["pair"]
        rows.append([e["what"], text.count(e["row"]["pairs"]), text.pct(e["row"]["value"], 1),
                     paired_cell(e["row"]), paired_cell(p.row("starter")),
                     paired_cell(p.row("length:mean"))])
    idle = [e["power"] for e in effects if unchanged_games(e["pair"])]
    tied = findings.largest([(i, e["effect"], e["low"], e["high"])
                             for i, e in enumerate(effects)])
    # A tie or a strongest is named only where a power clearly changes the comebacks: the
    # Summary's verdict says none does otherwise, and the two must not disagree.
    clear = bool(effects[0]["row"]["found"])  # the largest, as the verdict reads it
    b = Block(f"What each power changes, in {run}", paragraphs=[
        f"Against {base} (comebacks {text.pct(effects[0]['row']['baseline'], 1)}), ranked by "
        "what each power adds to the comebacks: "
        + ("no power clearly adds to them on these games (the largest one's paired 95% "
           "interval holds 0)." if not clear else
           f"{text.join_words([effects[i]['power'] for i in tied])} tie for the strongest "
           "catch-up (their paired 95% intervals overlap)." if len(tied) > 1
           else "the first is the strongest catch-up.")] + ([
            f"Changing {text.join_words(idle)} changed no game's length or winner: the "
            "players never chose it on these games, so this run cannot rank it (a player "
            "that ranks the powers reaches its last only when the others are gone)."]
            if idle else []),
        tables=[Table(f"Each power against {base}, on the same games (paired 95%)",
                      ["Change", "Games", "Comebacks", "Comebacks change",
                       "First player's wins change", "Length change (turns)"], rows,
                      note=HOLM)])
    b.figures.append(figure(
        f"powers-{slug(run)}.png", "What each power adds to the comeback rate (with it minus "
        "without it, percentage points), with its paired 95% interval.",
        figures.effects_figure(effects, f"{run}: each power's effect on the comebacks")))
    return b


# -- Length ---------------------------------------------------------------------------------

def length_section(a: Analysis) -> Section:
    s = Section("length", "Length", intro=[
        "How long a game lasts in turns (each side's turn counted), and the turn of the "
        "first attack on a planet, per setting; where a run sweeps the board's length, how "
        "the turns grow with it."])
    s.method = [
        "Distributions are over every game (the table's columns: median, 10th to 90th "
        "percentile, quartiles, mean). The growth is a power law, turns = scale x "
        "length^exponent, fitted by least squares to each length's mean turns in log-log "
        "(weighted by games), with the 95% t interval of the exponent over the lengths: 1 is "
        "a race where every space costs the same, above 1 a longer board costs more than its "
        "spaces. The largest relative gap between a length's mean and the curve says whether "
        "it is a fair summary. " + BOXES]
    settings = a.settings()
    if not settings or a.turns.height == 0:
        s.missing.append("The run has no games.")
        return s
    rows = []
    for st in settings:
        lv = a.levers.filter(pl.col("setting") == st).row(0, named=True)
        t = a.turns.filter(pl.col("setting") == st)
        f = a.first_attack.filter(pl.col("setting") == st)
        cells = [a.name(st), str(lv["length"])]
        cells += dist_row(t.row(0, named=True)) if t.height else [DASH] * len(DIST_HEADERS)
        cells += ([text.num(f["q50"][0]), text.num(f["mean"][0])] if f.height
                  else [DASH, DASH])
        rows.append(cells)
    s.blocks.append(Block("Turns per game", tables=[Table(
        "Turns per game, and the turn of the first attack",
        ["Setting", "Length", *(f"Turns: {h.lower()}" for h in DIST_HEADERS),
         "First attack: median", "First attack: mean"], rows, left=2,
        fold=fold(len(rows)))]))
    for fit in fits(a):
        s.blocks.append(fit_block(a, fit))
    return s


def fits(a: Analysis) -> list[length.Fit]:
    out = []
    for group, settings in length.sweeps(a.levers):
        f = length.fit(group, settings, a.turn_counts)
        if f is not None:
            out.append(f)
    return out


def fit_text(f: length.Fit) -> str:
    first, last = f.lengths.row(0, named=True), f.lengths.row(-1, named=True)
    k = (f"{f.exponent:.2f}" + (f" (95% {f.exponent_low:.2f} to {f.exponent_high:.2f})"
                                if not text.missing(f.exponent_low) else ""))
    return (f"The turns grow as length^{k}: {text.num(first['mean'])} turns at length "
            f"{first['length']}, {text.num(last['mean'])} at {last['length']} (a board "
            f"{text.num(last['length'] / first['length'])} times longer, a game "
            f"{text.num(last['mean'] / first['mean'])} times longer), over "
            f"{text.count(f.games)} games ({f.group}).")


def fit_block(a: Analysis, f: length.Fit) -> Block:
    rows = []
    for r in f.lengths.iter_rows(named=True):
        att = a.first_attack.filter(pl.col("setting") == r["setting"])
        rows.append([str(r["length"]), text.count(r["games"]),
                     f"{r['mean']:.2f} ({r['ci_low']:.2f}–{r['ci_high']:.2f})",
                     DASH if r["step"] is None else f"{r['step']:.2f}",
                     f"{f.at(r['length']):.2f}",
                     text.num(att["mean"][0], 2) if att.height else DASH])
    shape = (f"The curve holds: every length's mean is within {text.pct(f.worst, 0)} of it."
             if f.worst < 0.1 else
             f"The curve is a rough summary: one length's mean is {text.pct(f.worst, 0)} off "
             "it (see the table).")
    counts = a.turn_counts.join(f.lengths.select("setting", "length"), on="setting")
    return Block(f"How the length grows with the board ({f.group})",
                 paragraphs=[fit_text(f), shape],
                 figures=[figure(f"length-{slug(f.group)}.png",
                                 "Turns per game at each board length, the means (dots) and "
                                 "the fitted curve. " + BOXES,
                                 figures.length_figure(counts, f, "Turns per game by board "
                                                       "length"))],
                 tables=[Table("Mean turns per game at each length (95% t interval)",
                               ["Length", "Games", "Mean turns", "Turns per added space",
                                "The curve", "First attack (mean turn)"], rows,
                               note="Turns per added space: the mean's rise from the "
                                    "previous length, per space.")])


# -- Verdicts by player ---------------------------------------------------------------------

def player_groups(a: Analysis) -> list[tuple[str, list[str]]]:
    """Settings that differ by their players alone (the same run and rules): (what they
    share, settings), each of two players or more."""
    lv = a.levers
    out = []
    if lv.height == 0:
        return out
    for (run, changed), g in lv.group_by(["run", "changed"], maintain_order=True):
        if g["heuristic"].n_unique() < 2:
            continue
        name = ", ".join(x for x in (changed or "the unchanged rules",
                                     f"{run} run" if run else "") if x)
        out.append((name, order(a, g["setting"].to_list())))
    return out


def players_section(a: Analysis, pairs: list[Pair]) -> Section:
    s = Section("players", "Verdicts by player", intro=[
        "The same rules played by different players (the fast racer, the search-based "
        "reference, or one against the other): how far each answer above moves with the "
        f"strength of play. Seat 1, {GAME.seat_name(1)}, is the first listed player "
        f"({value_words(GAME, 'heuristic', 'reference,racer')}: the reference in seat 1); "
        "who plays first is rolled for either way."])
    s.method = [
        "Rates with 95% Wilson intervals; the changes are paired against the run's "
        "baseline players on the same seeds (the dice are the same, the choices differ). "
        + HOLM]
    for name, settings in player_groups(a):
        rows = []
        for st in settings:
            t = a.turns.filter(pl.col("setting") == st)
            seat = a.outcomes.seat_wins.filter((pl.col("setting") == st)
                                               & (pl.col("seat") == 1))
            rows.append([a.name(st), text.count(t["games"][0] if t.height else 0),
                         rate_cell(rate_row(a.starter, st)),
                         rate_cell(rate_row(a.comeback, st)),
                         text.num(t["mean"][0], 2) if t.height else DASH,
                         rate_cell(seat.row(0, named=True)) if seat.height else DASH])
        s.blocks.append(Block(f"Players on {name}", tables=[Table(
            "Each answer by player (95% Wilson)", ["Players", "Games", "First player wins",
                                                   "Comebacks", "Mean turns", "Seat 1 wins"],
            rows)]))
    for run, mine in by_run(pairs, PLAYERS_KIND).items():
        rows = [[p.label, text.count((p.row("starter") or {}).get("pairs")),
                 paired_cell(p.row("starter")), paired_cell(p.row("comeback")),
                 paired_cell(p.row("length:mean")), paired_cell(p.row("seat:1"))]
                for p in mine]
        s.blocks.append(Block(f"Against {mine[0].base_label} in {run}", tables=[Table(
            f"Each player against {mine[0].base_label}, on the same games (paired 95%)",
            ["Players", "Games", "First player's wins change", "Comebacks change",
             "Length change (turns)", "Seat 1 wins change"], rows, note=HOLM)]))
    if not s.blocks:
        s.missing.append("No run here plays the same rules with different players: a "
                         "players experiment (experiments/rusship/rusship-players.toml) does.")
    return s

