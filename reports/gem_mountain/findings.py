"""Gem Mountain's verdicts on the report's first screen (reports/outcomes/findings.py, Verdict):
one plain sentence per question, stated once over the player counts (their band), each naming
the players whose play it describes, with its statistics one click away.

- First seat: the default player's games on the unchanged rules, per player count, the first
  seat's share of the games one player won against 1/players (95% Wilson);
- Compensation: per run that plays the start's compensations, the one nearest the fair share;
- Strongest action: per run that takes actions out of the box, the action whose absence moves
  the first seat's share most (paired);
- Steal: the games one seat's steals decide between the other players (kingmaker.py);
- Least's penalty, Margin, Shared majorities, Length: the unchanged rules' games, their band
  over the player counts;
- Map: per run that changes the map, how length, margin and the first seat move with it;
- Players: per run that changes the players alone, the search player's strength and how the
  answers move (paired)."""

from __future__ import annotations

import polars as pl

from balance.contract.labels import value_words
from balance.games.gem_mountain.game import GAME
from balance.stats.intervals import wilson
from reports.gem_mountain import kingmaker
from reports.gem_mountain.analysis import Analysis
from reports.gem_mountain.levers import (
    ACTIONS_KIND,
    COMPENSATION_KIND,
    MAP_KIND,
    PLAYERS_KIND,
    Pair,
)
from reports.outcomes import findings
from reports.outcomes.findings import Verdict, who_of
from reports.render import text
from reports.tables.variants import by_run

UNCHANGED = "unchanged rules"


def player_words(heuristic: str) -> str:
    return value_words(GAME, "heuristic", heuristic)


def main_player(a: Analysis) -> str | None:
    """The player of the unchanged rules with the most games (one player on every seat): the
    one whose games the verdicts read; the others are read in Verdicts by player."""
    lv = a.levers.filter((pl.col("changed") == "") & ~pl.col("heuristic").str.contains(","))
    if lv.height == 0:
        return None
    per = lv.group_by("heuristic").agg(pl.col("games").sum()).sort("games", "heuristic",
                                                                   descending=[True, False])
    return per["heuristic"][0]


def unchanged(a: Analysis) -> pl.DataFrame:
    """(setting, players) of the main player's unchanged rules."""
    h = main_player(a)
    return a.levers.filter((pl.col("changed") == "") & (pl.col("heuristic") == h)).select(
        "setting", "players")


def pooled_by_count(df: pl.DataFrame, groups: pl.DataFrame, wins: str = "wins",
                    games: str = "games") -> list[dict]:
    """A rate per player count, pooled over `groups`' settings: players, games, wins, win_rate
    and its 95% Wilson interval."""
    r = df.join(groups, on=["setting", "players"])
    out = []
    for (players,), g in r.group_by("players", maintain_order=True):
        n, k = int(g[games].sum()), int(g[wins].sum())
        if n:
            lo, hi = wilson(k, n)
            out.append({"players": int(players), "games": n, "wins": k, "win_rate": k / n,
                        "ci_low": lo, "ci_high": hi})
    return sorted(out, key=lambda x: x["players"])


def side(r: dict, fair: float) -> str:
    """Where a share's 95% interval lies against its fair share."""
    if r["ci_low"] > fair:
        return findings.ABOVE
    if r["ci_high"] < fair:
        return findings.BELOW
    return findings.EVEN_KIND


def shares_text(rows: list[dict]) -> str:
    """Each player count's share against its fair one: "53.1% at 2 players (fair 50.0%)";
    one count's without its count, which the sentence names already."""
    if len(rows) == 1:
        return f"{text.pct(rows[0]['win_rate'], 1)} (fair {text.pct(1 / rows[0]['players'], 1)})"
    return text.join_words([f"{text.pct(r['win_rate'], 1)} at {r['players']} players (fair "
                            f"{text.pct(1 / r['players'], 1)})" for r in rows])


def counts_text(players: list[int]) -> str:
    return text.join_words([str(p) for p in players]) + " players"


def _who(a: Analysis) -> str:
    h = main_player(a)
    return who_of([player_words(h)] if h else [], UNCHANGED)


def first_seat(a: Analysis) -> list[Verdict]:
    rows = pooled_by_count(a.first, unchanged(a))
    last = pooled_by_count(a.first, unchanged(a), "last_wins")
    if not rows:
        return []
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(side(r, 1 / r["players"]), []).append(r)
    says = {findings.ABOVE: "The first seat has an advantage at {n}: of the games one "
                            "player won it wins {band}",
            findings.BELOW: "The first seat is at a disadvantage at {n}: of the games "
                            "one player won it wins {band}",
            findings.EVEN_KIND: "No first-seat advantage shows at {n}: the first seat wins "
                                "{band}, within chance"}
    parts = []
    for key in (findings.ABOVE, findings.BELOW, findings.EVEN_KIND):
        mine = groups.get(key)
        if mine:
            parts.append(says[key].format(
                n=counts_text([r["players"] for r in mine]), band=shares_text(mine)) + ".")
    low = [x for x in last if side(x, 1 / x["players"]) == findings.BELOW]
    if low:
        parts.append(f"The last seat wins less than its share at "
                     f"{counts_text([x['players'] for x in low])}: {shares_text(low)}.")
    details = [f"{r['players']} players: the first seat {_rate(r)}"
               f" of {text.count(r['games'])} games one player won, fair "
               f"{text.pct(1 / r['players'], 1)}; the last seat "
               f"{_rate(x)}"
               for r, x in zip(rows, last, strict=False)]
    return [Verdict("First seat", " ".join(parts), _who(a),
                    details + ["95% Wilson intervals; a tie is won by no seat, so the fair "
                               "share of a game one player won is 1/players."])]


def seat_share(p: Pair, seat: int) -> dict | None:
    return p.row(f"seat:{seat}")


def compensation(pairs: list[Pair], players_of: dict[str, list[str]]) -> list[Verdict]:
    out = []
    for run, mine in by_run(pairs, COMPENSATION_KIND).items():
        fair = 1 / mine[0].players
        options = []
        for p in mine:
            r = seat_share(p, 1)
            if r is None or not r["pairs"]:
                continue
            n = int(r["pairs"])
            if not options:
                options.append(((None, r), r["baseline"], *wilson(round(r["baseline"] * n), n)))
            options.append(((p, r), r["value"], *wilson(round(r["value"] * n), n)))
        tied = findings.nearest(options, fair)
        if not tied:
            continue
        best, r = tied[0]
        base = mine[0].base_label
        if len(tied) > 1:
            names = [("the unchanged rules" if q is None else q.label) for q, _ in tied]
            say = (f"No one compensation stands out at {mine[0].players} players: the first "
                   f"seat's share is as near its fair {text.pct(fair, 1)}, within chance, "
                   f"with {text.join_words(names, 'or')} on these games.")
        elif best is None:
            say = (f"No compensation brings the first seat nearer its fair share "
                   f"({text.pct(fair, 1)}) than the unchanged rules "
                   f"({text.pct(r['baseline'], 1)}).")
        else:
            say = (f"{best.label[:1].upper() + best.label[1:]} brings the first seat closest to "
                   f"its fair share at {best.players} players: {text.pct(r['value'], 1)} "
                   f"against {text.pct(r['baseline'], 1)} with the unchanged rules (fair "
                   f"{text.pct(fair, 1)}), a paired change of "
                   f"{text.difference(r['difference'], r['ci_low'], r['ci_high'])}.")
        details = [f"{p.label}: the first seat {text.pct(x['value'], 1)}, "
                   f"{findings.effect_text(x, ' percentage points', 100.0)}"
                   for p in mine if (x := seat_share(p, 1)) is not None]
        out.append(Verdict("Compensation", say, who_of(players_of.get(run, []), f"{run} run"),
                           details + [f"Against {base}, on the same games."]))
    return out


def removed(p: Pair) -> str | None:
    """The action a pair takes out of the box (its count from some to none), or None."""
    d = p.differs()
    if len(d) == 1:
        [k] = d
        if p.rules[k] == 0 and p.base_rules[k] > 0:
            return k
    return None


def action_effects(pairs: list[Pair]) -> list[dict]:
    """Per action taken out: its effect on the first seat's share (what the box with it gives
    minus without it) and its row; largest effect (either way) first."""
    out = []
    for p in pairs:
        k = removed(p)
        r = seat_share(p, 1)
        if k is None or r is None or not r["pairs"]:
            continue
        effect, lo, hi = -r["difference"], -r["ci_high"], -r["ci_low"]
        out.append({"action": k, "words": value_words(GAME, "ablate", k).removeprefix(
            "without "), "pair": p, "row": r, "effect": effect, "low": lo, "high": hi})
    return sorted(out, key=lambda e: -abs(e["effect"]))


def _size(lo: float, hi: float) -> tuple[float, float]:
    """The interval of an effect's size (its absolute value) from the effect's interval."""
    if lo * hi > 0:
        return min(abs(lo), abs(hi)), max(abs(lo), abs(hi))
    return 0.0, max(abs(lo), abs(hi))


def _rate(r: dict) -> str:
    return text.rate(r["win_rate"], r["ci_low"], r["ci_high"])


def _diff(e: dict) -> str:
    return text.difference(e["effect"], e["low"], e["high"])


def strongest(pairs: list[Pair], players_of: dict[str, list[str]]) -> list[Verdict]:
    out = []
    for run, mine in by_run(pairs, ACTIONS_KIND).items():
        effects = action_effects(mine)
        if len(effects) < 2:
            continue
        options = [(i, abs(e["effect"]), *_size(e["low"], e["high"]))
                   for i, e in enumerate(effects)]
        tied = findings.largest(options)
        top = effects[0]
        clear = top["row"]["ci_low"] > 0 or top["row"]["ci_high"] < 0
        size = text.difference(top["effect"], top["low"], top["high"])
        if not clear:
            say = (f"No action clearly moves the first seat's share: the largest, "
                   f"{top['words']}, {size}, is within chance on these games.")
        elif len(tied) > 1:
            said = text.join_words([f"{effects[i]['words']} ({_diff(effects[i])})"
                                    for i in tied])
            say = (f"A tie for the strongest action: {said} on the first seat's share; their "
                   "paired 95% intervals overlap, so these games cannot rank them.")
        else:
            say = (f"{top['words']} is the strongest action: in the box it moves the first "
                   f"seat's share by {size} (paired, against the box without it).")
        out.append(Verdict("Strongest action", say, who_of(players_of.get(run, []),
                                                           f"{run} run"),
                           [f"{e['words']}: the first seat {text.pct(e['row']['baseline'], 1)} "
                            f"with it, {text.pct(e['row']['value'], 1)} without; "
                            f"{findings.holm_text(e['row'], e['pair'].cmp.family)}"
                            for e in effects]))
    return out


def steal(a: Analysis, pairs: list[Pair]) -> list[Verdict]:
    km = a.kingmaker
    if km.height == 0:
        return []
    costs = [r for p in pairs if p.kind == PLAYERS_KIND and (x := one_seat(p)) is not None
             and x[1] == kingmaker.HONEST and (r := seat_share(p, x[0])) is not None]
    others, own, changed = (kingmaker.pooled(km, c) for c in ("others", "own", "changed"))
    players = sorted(set(km["player"].to_list()))
    if side_of_zero(others):
        say = (f"Yes: one player's steals decide the game between two other players in "
               f"{_rate(others)} of "
               f"games, and the thief's own result in "
               f"{_rate(own)}." + (_cost(costs) if costs else ""))
    else:
        say = ("No: one player's steals never changed the winner between two other players "
               f"in {text.count(others['games'])} games.")
    return [Verdict("Steal as kingmaker", say, who_of([player_words(p) for p in players],
                                                      ", ".join(sorted(set(km["run"]))) + " run"),
                    [DEFINITION,
                     *(f"Seat {s}: {text.count(n)} games, the result changed in "
                       f"{text.count(c)}, between two others in {text.count(o)}, for itself "
                       f"in {text.count(w)}" for s, n, c, o, w in km.select(
                           "seat", "games", "changed", "others", "own").rows()),
                     f"Any change: {_rate(changed)}."])]


def _cost(rows: list[dict]) -> str:
    lo, hi = (text.signed_points(f(-r["difference"] for r in rows)) for f in (min, max))
    return (f" Stealing is worth {lo if lo == hi else f'{lo} to {hi}'} of a seat's share of "
            "the wins (paired, against the same seat never stealing).")


DEFINITION = ("A seat's steals decide a game between the other players when the same deal, "
              "played with that seat never using Steal (and every other seat as before), ends "
              "with another winner, or a tie in place of a winner, and that seat is the winner "
              "in neither game. 95% Wilson intervals over the paired games, every seat pooled.")


def side_of_zero(r: dict | None) -> bool:
    return r is not None and r["wins"] > 0


def scoring(a: Analysis) -> list[Verdict]:
    groups = unchanged(a)
    who = _who(a)
    out = []
    least = pooled_by_count(a.least, groups)
    if least:
        lo, hi = (text.pct(f(r["win_rate"] for r in least), 1) for f in (min, max))
        band = lo if lo == hi else f"{lo} to {hi}"
        out.append(Verdict("The least's penalty", (
            f"The least's penalty decides the winner in {band} of games at "
            f"{counts_text([r['players'] for r in least])}: without it another player would "
            "have won or shared the win."), who,
            [f"{r['players']} players: {text.rate(r['win_rate'], r['ci_low'], r['ci_high'])} of "
             f"{text.count(r['games'])} games" for r in least]))
    means = _means(a.outcomes.margins, groups)
    if means:
        lo, hi = (text.num(f(m for _, m, _ in means)) for f in (min, max))
        out.append(Verdict("Margin", (
            f"The winner leads the second by {lo if lo == hi else f'{lo} to {hi}'} points on "
            f"average at {counts_text([p for p, _, _ in means])}; fewer players, wider "
            "margins." if len(means) > 1 else
            f"The winner leads the second by {lo} points on average."), who,
            [f"{p} players: {text.num(m)} points (median {text.num(d['q50'])}, 10–90%: "
             f"{text.spread(d)})" for p, m, d in means]))
    shared = pooled_by_count(a.shared, groups)
    tied = _means(a.tied, groups)
    if shared and tied:
        lo, hi = (text.pct(f(r["win_rate"] for r in shared)) for f in (min, max))
        mlo, mhi = (text.num(f(m for _, m, _ in tied)) for f in (min, max))
        out.append(Verdict("Shared majorities", (
            f"{lo if lo == hi else f'{lo} to {hi}'} of games end with a colour whose most two "
            f"or more players share, {mlo if mlo == mhi else f'{mlo} to {mhi}'} colours a "
            "game on average."), who,
            [f"{r['players']} players: {text.rate(r['win_rate'], r['ci_low'], r['ci_high'])} "
             f"of games, {text.num(m)} colours a game" for r, (_, m, _) in
             zip(shared, tied, strict=False)]))
    lengths = _means(a.outcomes.lengths, groups)
    if lengths:
        lo, hi = (text.num(f(m for _, m, _ in lengths)) for f in (min, max))
        out.append(Verdict("Length", (
            f"A game lasts {lo if lo == hi else f'{lo} to {hi}'} turns on average at "
            f"{counts_text([p for p, _, _ in lengths])} (every player's turn counted)."), who,
            [f"{p} players: {text.num(m)} turns (10–90%: {text.spread(d)})"
             for p, m, d in lengths]))
    return out


def _means(dist: pl.DataFrame, groups: pl.DataFrame) -> list[tuple[int, float, dict]]:
    """(players, mean, row) of a distribution per (setting, players), weighted over the
    groups' settings of each player count."""
    r = dist.join(groups, on=["setting", "players"])
    out = []
    for (players,), g in r.group_by("players", maintain_order=True):
        n = g["games"].cast(pl.Float64)
        if n.sum() > 0:
            out.append((int(players), float((g["mean"] * n).sum() / n.sum()),
                        g.sort("games", descending=True).row(0, named=True)))
    return sorted(out, key=lambda x: x[0])


def map_size(a: Analysis, pairs: list[Pair], players_of: dict[str, list[str]]
             ) -> list[Verdict]:
    out = []
    for run, mine in by_run(pairs, MAP_KIND).items():
        rows = [(p, p.row("length:mean"), p.row("margin:mean"), seat_share(p, 1))
                for p in mine]
        rows = [x for x in rows if all(y is not None for y in x[1:])]
        if not rows:
            continue
        base = mine[0]
        ends = [(base.base_label, base.row("length:mean")["baseline"],
                 base.row("margin:mean")["baseline"])]
        ends += [(p.label, n["value"], m["value"]) for p, n, m, _ in rows]
        short, long_ = min(ends, key=lambda x: x[1]), max(ends, key=lambda x: x[1])
        say = (f"Length follows the map: from {text.num(short[1])} turns on {short[0]} to "
               f"{text.num(long_[1])} on {long_[0]}, and the margin from "
               f"{text.num(short[2])} to {text.num(long_[2])} points. ")
        moved = [x for x in rows if x[3]["holm"]]
        if moved:
            top = max(moved, key=lambda x: abs(x[3]["difference"]))
            say += (f"The first seat's share moves most with {top[0].label}: "
                    f"{text.difference(top[3]['difference'], top[3]['ci_low'], top[3]['ci_high'])}"
                    f" ({text.pct(top[3]['value'], 1)}).")
        else:
            say += ("No map moves the first seat's share beyond chance (Holm over the run's "
                    "differences).")
        out.append(Verdict("Map", say, who_of(players_of.get(run, []), f"{run} run"),
                           [f"{p.label}: {text.num(n['value'])} turns, margin "
                            f"{text.num(m['value'])}, first seat {text.pct(s['value'], 1)} "
                            f"({text.difference(s['difference'], s['ci_low'], s['ci_high'])})"
                            for p, n, m, s in rows]))
    return out


def one_seat(p: Pair) -> tuple[int, str] | None:
    """(seat, player) of a variant that seats one player apart from the others, each seat of
    its baseline played by one player alike; None for another change of players."""
    if len(set(p.base_seats)) != 1 or len(p.seats) != len(p.base_seats):
        return None
    apart = [i for i, s in enumerate(p.seats) if s != p.base_seats[0]]
    return (apart[0] + 1, p.seats[apart[0]]) if len(apart) == 1 else None


def measures_steals(pairs: list[Pair]) -> bool:
    """A run that seats the honest player: read for Steal (kingmaker.py), not for strength."""
    return any(kingmaker.HONEST in p.seats for p in pairs)


def seat_players(pairs: list[Pair]) -> list[str]:
    """The players a run's pairs seat, in words, each once."""
    names = dict.fromkeys(s for p in pairs for s in (*p.base_seats, *p.seats))
    return [player_words(n) for n in names]


def players(pairs: list[Pair], players_of: dict[str, list[str]]) -> list[Verdict]:
    out = []
    for run, mine in by_run(pairs, PLAYERS_KIND).items():
        if measures_steals(mine):
            continue
        who = who_of(seat_players(mine), f"{run} run")
        alone = [(x, p) for p in mine if (x := one_seat(p)) is not None]
        rows = [(seat, name, p, r) for (seat, name), p in alone
                if (r := seat_share(p, seat)) is not None]
        for name in sorted({n for _, n, _, _ in rows}):
            mine_rows = [x for x in rows if x[1] == name]
            lo, hi = (text.pct(f(r["value"] for *_, r in mine_rows)) for f in (min, max))
            blo, bhi = (text.pct(f(r["baseline"] for *_, r in mine_rows)) for f in (min, max))
            dlo, dhi = (text.signed_points(f(r["difference"] for *_, r in mine_rows))
                        for f in (min, max))
            out.append(Verdict("Strength", (
                f"{player_words(name)} on one seat against {mine_rows[0][2].base_label} wins "
                f"{lo if lo == hi else f'{lo} to {hi}'} of the games one player won, in each "
                f"seat in turn, where {player_words(mine_rows[0][2].base_seats[0])} wins "
                f"{blo if blo == bhi else f'{blo} to {bhi}'} in that seat: "
                f"{dlo if dlo == dhi else f'{dlo} to {dhi}'} on the same games."), who,
                [f"Seat {s}: {text.pct(r['value'], 1)} against {text.pct(r['baseline'], 1)}, "
                 f"{findings.effect_text(r, ' percentage points', 100.0)}"
                 for s, _, _, r in mine_rows]))
        for p in mine:
            if one_seat(p) is not None:
                continue
            s, m, n, q = (p.row(k) for k in ("seat:1", "margin:mean", "length:mean",
                                              "least_decides"))
            if s is None:
                continue
            parts = [f"the first seat's share moves by "
                     f"{text.difference(s['difference'], s['ci_low'], s['ci_high'])}"]
            if q is not None:
                parts.append("the games the least's penalty decides by "
                             f"{text.difference(q['difference'], q['ci_low'], q['ci_high'])}")
            if m is not None:
                parts.append(f"the margin by {text.signed(m['difference'], 2)} points "
                             f"({text.signed(m['ci_low'], 2)} to {text.signed(m['ci_high'], 2)})")
            moved = [x for x in (s, q, m) if x is not None and x["holm"]]
            out.append(Verdict("Verdicts by player", (
                f"With {p.label} rather than {p.base_label}, {text.join_words(parts)}: "
                + (f"{len(moved)} of them beyond chance." if moved else
                   "none beyond chance, so these answers hold for both players.")), who,
                [f"{x['name']}: {findings.effect_text(x, ' percentage points', 100.0)}"
                 if x["kind"] == "rate" else
                 f"{x['name']}: {x['difference']:+.2f} ({x['ci_low']:+.2f} to "
                 f"{x['ci_high']:+.2f})" for x in (s, q, m, n) if x is not None]))
    return out


def verdicts(a: Analysis, pairs: list[Pair], players_of: dict[str, list[str]]
             ) -> list[Verdict]:
    return (first_seat(a) + compensation(pairs, players_of) + strongest(pairs, players_of)
            + steal(a, pairs) + scoring(a) + map_size(a, pairs, players_of)
            + players(pairs, players_of))
