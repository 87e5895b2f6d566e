"""Rusship's verdicts on the report's first screen (reports/outcomes/findings.py, Verdict): one
plain sentence per question, each naming the players whose play it describes, with its statistics
one click away.

- First player and Catch-up: the unchanged rules' games of each player, pooled over the
  settings that play them (runs kept apart play different seeds, so their games are
  different games), against 50%, 95% Wilson;
- Compensation: per run that plays the first-player levers, the setting nearest 50%, paired
  against the unchanged rules;
- Strongest power: per box run, the power whose presence changes the comebacks most (paired),
  and the power whose first chooser wins most often (an association);
- Length: the unchanged rules' turns (each length sweep's slope is its run's lead, above the
  verdicts: reports/rusship/lead.py, stated once);
- Players: per run that changes the players alone, how the answers move (paired);
- the neutral verdict of a lever the sections above do not read."""

from __future__ import annotations

import polars as pl

from balance.contract.labels import value_words
from balance.games.rusship.game import GAME
from balance.stats.intervals import wilson
from reports.outcomes import findings
from reports.outcomes.findings import Verdict, who_of
from reports.render import text
from reports.rusship import page
from reports.rusship.analysis import Analysis
from reports.rusship.levers import BOX_KIND, COMPENSATION_KIND, OTHER_KIND, PLAYERS_KIND, Pair
from reports.tables import counts
from reports.tables.variants import by_run

UNCHANGED = "unchanged rules"


def unchanged(a: Analysis) -> dict[str, list[str]]:
    """The settings that play Rusship's unchanged rules, by their players (in words: "Racer",
    "Reference (Humanity) vs Racer")."""
    out: dict[str, list[str]] = {}
    for st, h in a.levers.filter(pl.col("changed") == "").select("setting", "heuristic").rows():
        out.setdefault(value_words(GAME, "heuristic", h), []).append(st)
    return out


def pooled(df: pl.DataFrame, settings: list[str]) -> dict | None:
    """A rate pooled over settings: games, wins, rate and its 95% Wilson interval."""
    r = df.filter(pl.col("setting").is_in(settings))
    n, k = int(r["games"].sum()), int(r["wins"].sum())
    if n == 0:
        return None
    lo, hi = wilson(k, n)
    return {"games": n, "wins": k, "win_rate": k / n, "ci_low": lo, "ci_high": hi}


def _where(settings: list[str]) -> str:
    return UNCHANGED + (f", {text.plural(len(settings), 'setting')} pooled"
                        if len(settings) > 1 else "")


def _rate_stat(label: str, r: dict) -> str:
    return (f"{label}: {text.rate(r['win_rate'], r['ci_low'], r['ci_high'])} of "
            f"{text.count(r['games'])} games, 95% Wilson interval")


def _per_setting(a: Analysis, df: pl.DataFrame, settings: list[str]) -> list[str]:
    return [_rate_stat(a.name(st), r) for st in settings
            if (r := page.rate_row(df, st)) is not None and r["games"]]


def _players_where(a: Analysis) -> tuple[list[str], list[str]]:
    """The players of the unchanged rules, and every setting they played."""
    mine = unchanged(a)
    return list(mine), [st for settings in mine.values() for st in settings]


def _once(a: Analysis, df: pl.DataFrame, topic: str, says: dict[str, str]) -> list[Verdict]:
    """One verdict over every player of the unchanged rules (findings.rate_verdict): each
    player's rate pooled over its settings, the per-setting rates in the details."""
    rows, details = [], []
    for h, settings in unchanged(a).items():
        r = pooled(df, settings)
        if r is None:
            continue
        rows.append((h, r))
        details += [_rate_stat(f"{h}, {_where(settings)}", r),
                    *(f"  {x}" for x in _per_setting(a, df, settings) if len(settings) > 1)]
    players, settings = _players_where(a)
    v = findings.rate_verdict(topic, rows, says, who_of(players, _where(settings)),
                              details=details)
    return [v] if v is not None else []


def first_player(a: Analysis) -> list[Verdict]:
    return _once(a, a.starter, "First player", {
        findings.ABOVE: "The first player has an advantage: it wins",
        findings.BELOW: "The first player is at a disadvantage: it wins",
        findings.EVEN_KIND: "No first-player advantage shows: the first player wins"})


def compensation(pairs: list[Pair], players_of: dict[str, list[str]]) -> list[Verdict]:
    out = []
    for run, mine in by_run(pairs, COMPENSATION_KIND).items():
        tied = page.closest(mine)
        if not tied:
            continue
        base = mine[0].base_label
        best, r = tied[0]
        if len(tied) > 1:
            say = page.closest_text(tied, base)
            details = [f"{p.label} against {base}: "
                       f"{findings.effect_text(x, ' percentage points', 100.0)}; "
                       f"{findings.holm_text(x, p.cmp.family)}." for p, x in tied
                       if p is not None] + [
                "Tied: each one's 95% interval reaches as near 50% as the nearest's reaches "
                "far from it (the unchanged rules by the paired difference). The First "
                "player section lists every compensation with its interval."]
        elif best is None:
            say = (f"No compensation brings the first player's wins nearer 50% than the "
                   f"unchanged rules ({text.pct(r['baseline'], 1)}).")
            details = [f"{p.label}: {text.pct(p.row('starter')['value'], 1)}"
                       for p in mine if p.row("starter") is not None]
        else:
            say = (f"{best.label} brings the first player's wins closest to 50%: "
                   f"{text.pct(r['value'], 1)} against {text.pct(r['baseline'], 1)} with "
                   f"the unchanged rules, a paired change of "
                   f"{text.difference(r['difference'], r['ci_low'], r['ci_high'])}.")
            details = [f"{best.label} against {base}: "
                       f"{findings.effect_text(r, ' percentage points', 100.0)}; "
                       f"{findings.holm_text(r, best.cmp.family)}.",
                       "Picked as the nearest of several compensations, none tied with it: "
                       "the First player section lists each with its interval."]
        out.append(Verdict("Compensation", say, who_of(players_of.get(run, []),
                                                       f"{run} run"), details))
    return out


def catch_up(a: Analysis) -> list[Verdict]:
    return _once(a, a.comeback, "Catch-up", {
        findings.ABOVE: "The catch-up more than makes up for being attacked first: that side "
                        "still wins",
        findings.BELOW: "The catch-up does not make up for being attacked first: that side "
                        "wins",
        findings.EVEN_KIND: "The catch-up evens out the first attack: the side attacked first "
                            "wins"})


def strongest(a: Analysis, pairs: list[Pair], players_of: dict[str, list[str]]
              ) -> list[Verdict]:
    out = []
    for run, mine in by_run(pairs, BOX_KIND).items():
        effects = page.power_effects(mine)
        if not effects:
            continue
        top = effects[0]
        r = top["row"]
        clear = [e for e in effects if e["row"]["found"]]
        size = (f"{text.signed_points(top['effect'], 1)} (paired 95% "
                f"{text.signed_points(top['low'], 1)} to {text.signed_points(top['high'], 1)})")
        tied = findings.largest([(i, e["effect"], e["low"], e["high"])
                                 for i, e in enumerate(effects)])
        if top in clear and len(tied) > 1:
            said = text.join_words([
                f"{effects[i]['power']} ({text.signed_points(effects[i]['effect'], 1)}, "
                f"{text.signed_points(effects[i]['low'], 1)} to "
                f"{text.signed_points(effects[i]['high'], 1)})" for i in tied])
            say = (f"A tie for the strongest catch-up power: {said} to the comebacks; their "
                   "paired 95% intervals overlap, so these games cannot rank them.")
        elif top in clear:
            power = top["power"][:1].upper() + top["power"][1:]
            say = (f"{power} is the strongest catch-up power: it adds {size} to the "
                   f"comebacks ({top['what']} against {top['pair'].base_label}).")
        else:
            say = (f"No power clearly changes the comebacks; the largest, {top['power']}, "
                   f"adds {size}, within what chance gives on these games.")
        out.append(Verdict("Strongest power", say, who_of(players_of.get(run, []),
                                                          f"{run} run"),
                           [f"{e['what']}: comebacks {text.pct(e['row']['value'], 1)} against "
                            f"{text.pct(e['row']['baseline'], 1)}, "
                            f"{findings.effect_text(e['row'], ' percentage points', 100.0)}"
                            for e in effects]
                           + [f"The first is {findings.holm_text(r, top['pair'].cmp.family)}."]))
    # Only a report that holds a box run can send the reader to it.
    boxed = sorted(by_run(pairs, BOX_KIND))
    ranks = (f"the box run{'s' if len(boxed) > 1 else ''} ({', '.join(boxed)}) do"
             if boxed else "a run that takes each power out (balance ablate --how powers) "
             "would")
    alone: dict[str, list[tuple[str, dict, int]]] = {}  # one power chosen, by power
    for h, settings in unchanged(a).items():
        fp = a.first_power.filter(pl.col("setting").is_in(settings))
        if fp.height == 0:
            continue
        per = (fp.group_by("power").agg(pl.col("games").sum(), pl.col("wins").sum())
               .filter(pl.col("games") >= 30).sort("power"))
        if per.height == 0:
            continue
        rows = []
        for power, n, k in per.rows():
            power = page.power_words(power)
            lo, hi = wilson(k, n)
            rows.append({"power": power, "games": n, "win_rate": k / n, "ci_low": lo,
                         "ci_high": hi})
        rows.sort(key=lambda x: (-x["win_rate"], x["power"]))
        best = rows[0]
        chosen = int(fp["games"].sum())
        if len(rows) == 1:  # one power in 30 games or more: its rate ranks nothing
            alone.setdefault(best["power"], []).append((h, best, chosen))
            continue
        ahead = len(rows) > 1 and best["ci_low"] > max(x["ci_high"] for x in rows[1:])
        say = (f"The side attacked first wins most often after choosing {best['power']}: "
               f"{text.rate(best['win_rate'], best['ci_low'], best['ci_high'])} of "
               f"{text.count(best['games'])} games"
               + (", clearly ahead of every other power." if ahead else
                  "; its interval overlaps another power's (an association, not a cause)."))
        out.append(Verdict("Power chosen first", say, who_of([h], _where(settings)),
                           [_rate_stat(x["power"], x) for x in rows]
                           + ["Powers chosen first in 30 games or more."]))
    players, settings = _players_where(a)
    for power, each in alone.items():
        # Stated once over the players that chose it, not once per player.
        shares = [r["games"] / chosen for _, r, chosen in each]
        lo, hi = text.pct(min(shares)), text.pct(max(shares))
        how = ("always" if min(shares) == 1 else
               f"in {lo if lo == hi else f'{lo}–{hi}'} of the games")
        across = (f" across {text.plural(len(each), 'pairing')} of players" if len(each) > 1
                  else "")
        out.append(Verdict("Power chosen first", (
            f"The side attacked first chooses {power} first {how}{across} and then wins "
            f"{findings.band([r for _, r, _ in each])}: one choice cannot rank the powers; "
            f"{ranks}."),
            who_of([h for h, _, _ in each], _where(settings)),
            [_rate_stat(f"{h}, {power}", r) + f", chosen first in {text.count(r['games'])} "
             f"of {text.count(chosen)} games" for h, r, chosen in each]))
    return out


def length(a: Analysis) -> list[Verdict]:
    out, means, details = [], [], []
    for h, settings in unchanged(a).items():
        c = (a.turn_counts.filter(pl.col("setting").is_in(settings)).group_by("turns")
             .agg(pl.col("n").sum()).with_columns(pl.lit("all").alias("g")))
        if c.height == 0:
            continue
        d = counts.distribution(c, "turns", ["g"]).row(0, named=True)
        means.append((h, d))
        details.append(f"{h}: {text.num(d['mean'])} turns on average (median "
                       f"{text.num(d['q50'])}, 10–90%: {text.spread(d)}), "
                       f"{text.count(d['games'])} games")
    if len(means) == 1:
        d = means[0][1]
        out.append(Verdict("Length", f"A game lasts {text.num(d['mean'])} turns on average "
                           f"(median {text.num(d['q50'])}, 10–90%: {text.spread(d)}).",
                           who_of([means[0][0]], _where(unchanged(a)[means[0][0]])),
                           [f"{text.count(d['games'])} games; turns count each side's turn."]))
    elif means:
        # Stated once, its band over the players, not once per player.
        lo, hi = (text.num(f(d["mean"] for _, d in means)) for f in (min, max))
        players, settings = _players_where(a)
        out.append(Verdict("Length", f"A game lasts {lo if lo == hi else f'{lo}–{hi}'} turns "
                           f"on average across {text.plural(len(means), 'pairing')} of "
                           "players.", who_of(players, _where(settings)),
                           details + ["Turns count each side's turn."]))
    return out


def players(pairs: list[Pair], players_of: dict[str, list[str]]) -> list[Verdict]:
    out = []
    for run, mine in by_run(pairs, PLAYERS_KIND).items():
        for p in mine:
            s, c, seat = p.row("starter"), p.row("comeback"), p.row("seat:1")
            if s is None or c is None:
                continue
            moved = [n for n, r in (("the first player's wins", s), ("the comebacks", c))
                     if r["found"]]
            say = (f"With {p.label} rather than {p.base_label}, "
                   f"the first player's wins move by "
                   f"{text.difference(s['difference'], s['ci_low'], s['ci_high'])} and "
                   f"the comebacks by "
                   f"{text.difference(c['difference'], c['ci_low'], c['ci_high'])}: "
                   + (f"{text.join_words(moved)} move beyond chance"
                      if moved else "neither beyond chance")
                   + (f"; {GAME.seat_name(1)} wins {text.pct(seat['value'], 0)} of the "
                      "games."
                      if seat is not None else "."))
            out.append(Verdict("Players", say, who_of(players_of.get(run, []), f"{run} run"),
                               [f"{n}: {findings.effect_text(r, ' percentage points', 100.0)}"
                                for n, r in (("First player's wins", s), ("Comebacks", c),
                                             (f"{GAME.seat_name(1)} wins", seat))
                                if r is not None]))
    return out


def verdicts(a: Analysis, pairs: list[Pair], cmps: list, players_of: dict[str, list[str]]
             ) -> list[Verdict]:
    others = {p.run for p in pairs if p.kind == OTHER_KIND}
    return (first_player(a) + compensation(pairs, players_of) + catch_up(a)
            + strongest(a, pairs, players_of) + length(a) + players(pairs, players_of)
            + findings.lever_verdicts([(n, c) for n, c in cmps if n in others], players_of,
                                      prefer="starter"))
