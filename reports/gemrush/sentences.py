"""Gem Rush's findings in one sentence each, as the Summary lists them: the win rate at every named
difficulty, the targets to print, the rooms' value, the burn timing. (The Rush games' sentences
are the neutral outcomes', reports/outcomes/outcome_page.py.)"""

from __future__ import annotations

import polars as pl

from reports.gemrush.crisis import TO_TARGET
from reports.render.text import (
    DASH,
    count,
    join_words,
    level_label,
    missing,
    num,
    pct,
    players_label,
    plural,
    rate,
    signed_points,
    spread,
)


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
