"""Numbers and sentences for the page. Every number goes through a fixed format here, so the
same data always prints the same text, and a missing value prints as a dash, never "nan".

Rates print with their 95% interval in percentage points: "62% ± 1%" when the interval is
symmetric at the printed precision, otherwise as a range, "100% (96–100%)". The precision
follows the interval: whole points when it is a point or wider, then tenths, then hundredths.
"""

from __future__ import annotations

import math

import polars as pl

from reports.gemrush.crisis import TO_TARGET

DASH = "—"


def missing(x) -> bool:
    return x is None or (isinstance(x, float) and not math.isfinite(x))


def count(n) -> str:
    return DASH if missing(n) else f"{int(n):,}"


def num(x, decimals: int = 1) -> str:
    """A number with at most `decimals` decimals, whole numbers without any: 9, 9.5."""
    if missing(x):
        return DASH
    text = f"{float(x):.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def pct(p, decimals: int = 0) -> str:
    return DASH if missing(p) else f"{100 * float(p):.{decimals}f}%"


def signed_points(d, decimals: int = 0) -> str:
    """A difference of rates in percentage points: +12 pp, −3 pp."""
    if missing(d):
        return DASH
    text = f"{100 * float(d):+.{decimals}f}"
    if float(text) == 0:
        text = f"{0:.{decimals}f}"
    return text.replace("-", "−") + " pp"


def _decimals(width_pp: float) -> int:
    if width_pp >= 0.95:
        return 0
    if width_pp >= 0.095:
        return 1
    return 2


def rate(p, lo, hi) -> str:
    """A rate with its interval: "62% ± 1%", or "100% (96–100%)" when asymmetric."""
    if missing(p):
        return DASH
    if missing(lo) or missing(hi):
        return pct(p)
    below, above = 100 * (p - lo), 100 * (hi - p)
    d = _decimals(max(below, above))
    b, a = f"{below:.{d}f}", f"{above:.{d}f}"
    if b == a:
        return f"{pct(p, d)} ± {b}%"
    return f"{pct(p, d)} ({100 * lo:.{d}f}–{100 * hi:.{d}f}%)"


def difference(d, lo, hi) -> str:
    """A difference of rates with its interval, in percentage points: "+12 pp (5 to 19)"."""
    if missing(d):
        return DASH
    if missing(lo) or missing(hi):
        return signed_points(d)
    dec = _decimals(100 * max(d - lo, hi - d))

    def pp(x: float) -> str:
        t = f"{100 * x:.{dec}f}"
        return ("0" if float(t) == 0 else t).replace("-", "−")

    return f"{signed_points(d, dec)} ({pp(lo)} to {pp(hi)})"


def spread(row: dict, lo: str = "q10", hi: str = "q90") -> str:
    """The middle of a distribution row: "7–12" (10th to 90th percentile)."""
    if missing(row.get(lo)) or missing(row.get(hi)):
        return DASH
    a, b = num(row[lo]), num(row[hi])
    return a if a == b else f"{a}–{b}"


def plural(n: int, noun: str) -> str:
    """"1 player", "3 players"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def players_label(players: int) -> str:
    return f"{players}-player"


def level_label(level: float) -> str:
    return f"{num(100 * level, 0)}%"


def join_words(items: list[str]) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# --- summary sentences -------------------------------------------------------------------------

def crisis_sentences(difficulty: pl.DataFrame) -> list[str]:
    """One sentence per (setting, players): the win rate at every named difficulty, from
    games played to exhaustion where there are any, else from games played to each target."""
    out = []
    named = difficulty.filter(pl.col("difficulty").is_not_null())
    for (setting, players), g in sorted(named.group_by("setting", "players"),
                                        key=lambda kv: kv[0]):
        from_curve = g.filter(pl.col("source") == "to exhaustion")
        rows = (from_curve if from_curve.height else g).sort("target")
        parts = []
        for i, r in enumerate(rows.iter_rows(named=True)):
            unit = " points" if i == 0 else ""
            parts.append(f"{rate(r['win_rate'], r['ci_low'], r['ci_high'])} at "
                         f"{r['difficulty']} ({r['target']}{unit})")
        games = sorted(set(rows["games"].to_list()))
        how = ("played to exhaustion" if from_curve.height else "played to each target")
        n = count(games[0]) if len(games) == 1 else f"{count(games[0])} to {count(games[-1])}"
        out.append(f"{setting}: {players_label(players)} Crisis is won {join_words(parts)} "
                   f"(95% Wilson intervals; {n} games {how}).")
    return out


def target_sentences(targets: pl.DataFrame) -> list[str]:
    """Targets to print for the chosen win rates, per (setting, players)."""
    out = []
    for (setting, players), g in sorted(targets.group_by("setting", "players"),
                                        key=lambda kv: kv[0]):
        g = g.sort("level", descending=True)
        levels = " / ".join(level_label(x) for x in g["level"].to_list())
        values = " / ".join(DASH if missing(t) else str(t) for t in g["target"].to_list())
        out.append(f"{setting}: for {levels} wins with {plural(players, 'player')}, print targets "
                   f"{values} (the targets whose win rates are closest).")
    return out


def room_sentences(ranking: pl.DataFrame, value: pl.DataFrame) -> list[str]:
    """Per (setting, mode): the rooms whose early building goes with the largest rise and fall
    in win rate. An association, not a cause; a room counts only when at least one player
    count's interval excludes zero."""
    out = []
    for (setting, mode), r in sorted(ranking.group_by("setting", "mode"), key=lambda kv: kv[0]):
        v = value.filter((pl.col("setting") == setting) & (pl.col("mode") == mode)
                         & pl.col("diff").is_not_null())
        reference = v["reference"][0] if v.height else ""
        up = v.filter(pl.col("diff_low") > 0)["room"].unique().to_list()
        down = v.filter(pl.col("diff_high") < 0)["room"].unique().to_list()
        r = r.sort("rank")
        best = [x for x in r.rows(named=True) if x["room"] in up and x["diff"] > 0][:3]
        worst = [x for x in reversed(r.rows(named=True))
                 if x["room"] in down and x["diff"] < 0][:3]
        head = (f"{setting} {mode.capitalize()} rooms (a win: {reference}; association, "
                "not cause): ")
        if not best and not worst:
            out.append(head + "no room's win-rate difference is larger than its interval.")
            continue
        parts = []
        if best:
            parts.append("building " + join_words([x["room"] for x in best])
                         + " by the median build turn goes with the most wins ("
                         + ", ".join(signed_points(x["diff"]) for x in best) + ")")
        if worst:
            parts.append("building " + join_words([x["room"] for x in worst])
                         + " early goes with fewer wins ("
                         + ", ".join(signed_points(x["diff"]) for x in worst) + ")")
        out.append(head + "; ".join(parts) + ", averaged over player counts.")
    return out


def burn_sentences(deck_out: pl.DataFrame, slack: pl.DataFrame, clock_end: pl.DataFrame,
                   reference: dict[tuple[str, int], str]) -> list[str]:
    """Per (setting, players): when the deck first runs out, the slack at the reference
    difficulty, and when the burn ends the game."""
    out = []
    for row in deck_out.iter_rows(named=True):
        key = (row["setting"], row["players"])
        text = f"{row['setting']}: with {plural(row['players'], 'player')} the gem deck "
        if row["n"] == 0:
            text += "never ran out"
        else:
            text += (f"first runs out at player turn {num(row['q50'])} (median; 10–90%: "
                     f"{spread(row)})")
            if row["missing"] > 0:
                text += f" and never in {pct(row['missing'])} of games"
        if row.get("source") == TO_TARGET:
            text += " (from games that stop at their target)"
        s = slack.filter((pl.col("setting") == key[0]) & (pl.col("players") == key[1])
                         & (pl.col("difficulty") == reference.get(key, "")))
        if s.height:
            r = s.row(0, named=True)
            text += (f"; at {r['difficulty']} ({r['target']}) the team has "
                     f"{num(r['q50'])} player turns (about {num(r['cards_median'], 0)} cards) "
                     f"left on the clock (median; 10–90%: {spread(r)} turns)")
        c = clock_end.filter((pl.col("setting") == key[0]) & (pl.col("players") == key[1]))
        if c.height and c["n"][0] > 0:
            r = c.row(0, named=True)
            text += f"; the burn ends the game at turn {num(r['q50'])} (median; {spread(r)})"
        out.append(text + ".")
    return out


def rush_sentences(seats: pl.DataFrame, rounds: pl.DataFrame, margin: pl.DataFrame,
                   endings: pl.DataFrame) -> list[str]:
    out = []
    for row in rounds.iter_rows(named=True):
        setting, players = row["setting"], row["players"]

        def pick(df: pl.DataFrame, setting=setting, players=players) -> pl.DataFrame:
            return df.filter((pl.col("setting") == setting) & (pl.col("players") == players))

        text = f"{setting}: {players_label(players)} Rush lasts {num(row['q50'])} rounds " \
               f"(median; 10–90%: {spread(row)})"
        first = pick(seats).filter(pl.col("seat") == 1)
        if players > 1 and first.height:
            s = first.row(0, named=True)
            text += (f"; the first player wins {rate(s['win_rate'], s['ci_low'], s['ci_high'])}"
                     f" of games (a fair share is {pct(s['fair_share'])})")
        m = pick(margin)
        if m.height:
            text += f"; the winner leads by {num(m['q50'][0])} points (median)"
        for reason, what in (("sealed", "end in a sealed mine"),
                             ("rooms_out", "run out of room tiles"),
                             ("turn_cap", "hit the round cap")):
            c = pick(endings).filter((pl.col("end_reason") == reason) & (pl.col("wins") > 0))
            if c.height:
                r = c.row(0, named=True)
                text += f"; {rate(r['win_rate'], r['ci_low'], r['ci_high'])} of games {what}"
        out.append(text + ".")
    return out
