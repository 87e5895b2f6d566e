"""What a designer decides from, on the report's first screen: one plain sentence per verdict,
each naming the player whose play it describes, with its statistics one click away.

The neutral verdicts, for any game (each only where the run has what it needs):
- the seats against their fair share (the first player's advantage), or the team's win rate;
- each lever's largest effect (every run that compares versions of the game).
A game's report chooses its verdicts and their order (reports/page/game_report.py,
GameReport.verdicts), these among them.

A verdict says "clearly" only where the difference survives Holm's correction over every
difference it was picked from: picking the largest of many finds one by chance otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from balance.stats import paired
from reports.render import text


@dataclass
class Verdict:
    topic: str  # what it is about, first in bold: "Seats", "Versions compared", ...
    sentence: str
    who: str  # whose play, and where: "greedy players; my-run run"
    details: list[str] = field(default_factory=list)  # the statistics, folded under it


def who_of(players: list[str], where: str = "") -> str:
    who = f"{text.join_words(players)} players" if players else "scripted players"
    return f"{who}; {where}" if where else who


def _seat_text(r: dict) -> str:
    return (f"seat {r['seat']} of {r['players']} wins {text.pct(r['win_rate'], 1)} "
            f"of the games against a fair share of {text.pct(r['fair_share'], 1)}")


def _seat_stat(r: dict) -> str:
    p = "not tested" if r["p_fair"] is None or r["p_fair"] != r["p_fair"] else \
        f"p = {r['p_fair']:.3g}"
    return (f"{text.players_label(r['players'])}, seat {r['seat']}: "
            f"{text.rate(r['win_rate'], r['ci_low'], r['ci_high'])} of "
            f"{text.count(r['games'])} games, fair share {text.pct(r['fair_share'], 1)}; "
            f"exact binomial test of its wins among the games one seat won, {p}")


# How far from its aim a rate may be and still read as even (a fair start, a catch-up
# that evens out): an interval inside aim ± EVEN says "even"; one that reaches past it on
# both sides of the aim cannot tell even from uneven, so it gets no verdict.
EVEN = 0.05

ABOVE, BELOW, EVEN_KIND = "above", "below", "even"


def side_of(lo: float, hi: float, aim: float = 0.5, margin: float = EVEN) -> str | None:
    """Where a rate's 95% interval puts it against `aim`: ABOVE or BELOW beyond chance,
    EVEN_KIND within `margin` of it, or None: too few games to tell."""
    if lo > aim:
        return ABOVE
    if hi < aim:
        return BELOW
    if aim - margin <= lo and hi <= aim + margin:
        return EVEN_KIND
    return None


def fair_margin(fair: float) -> float:
    """How far from a seat's fair share its wins may be and still read as fair: a tenth of
    the share, as EVEN is of an even 50%; with seven seats, 5 points would be a third."""
    return EVEN * fair / 0.5


def seat_side(r: dict) -> str | None:
    """Where a seat's share lies against its fair share: ABOVE or BELOW where Holm's
    correction over every seat tested allows it (off_fair), EVEN_KIND where its 95% interval
    lies within fair_margin of it, else None: too few games to tell."""
    if r.get("off_fair"):
        return ABOVE if r["win_rate"] > r["fair_share"] else BELOW
    side = side_of(r["ci_low"], r["ci_high"], r["fair_share"], fair_margin(r["fair_share"]))
    return EVEN_KIND if side is not None else None


def _setting_name(setting: str, players_of: dict[str, list[str]], where: dict[str, str]
                  ) -> str:
    """A setting as a verdict names it among others: its run (or itself), with its players
    where the name does not say them."""
    base = where.get(setting, setting)
    mine = [p for p in players_of.get(setting, []) if p not in base]
    return f"{base} ({text.join_words(mine)})" if mine else base


def _counts(counts: list[int]) -> str:
    """"2 players", "2 to 7 players", "2 and 4 players"."""
    if len(counts) == 1:
        return text.plural(counts[0], "player")
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]} players"
    return text.join_words([str(p) for p in counts]) + " players"


def seat_verdicts(seats: pl.DataFrame, players_of: dict[str, list[str]],
                  where: dict[str, str], topic: str = "Seats", section: str = "Outcomes"
                  ) -> list[Verdict]:
    """One verdict over every setting (`seats`: reports/outcomes/outcomes.py's seat_wins;
    `section`: where every seat is), not one per setting or player: the seats that win
    clearly more or less than their fair share; the settings where every seat's 95% interval
    lies within a tenth of its fair share, with the largest gap; and the settings whose
    intervals are too wide to tell, named apart with no verdict. The test is
    reports/outcomes/outcomes.py's, the one `balance run` prints: each seat's wins among the
    games one seat won against 1/players (exact binomial), Holm's correction over every seat
    tested together."""
    if "games" in seats.columns:  # a seat's share from a handful of games says nothing
        seats = seats.filter(pl.col("games") >= paired.MIN_PAIRS)
    seats = seats.filter(pl.col("players") > 1)
    if seats.height == 0:
        return []
    rows = seats.with_columns((pl.col("win_rate") - pl.col("fair_share")).abs().alias("gap")
                              ).sort("setting", "players", "seat").to_dicts()
    # Each setting at each player count is told apart: a seat off its share with 3 players
    # says nothing of the 2-player game.
    by_row: dict[tuple[str, int], list[dict]] = {}
    for r in rows:
        r["side"] = seat_side(r)
        by_row.setdefault((r["setting"], r["players"]), []).append(r)
    # A row is off where a seat is; even where every seat is; else too few to tell.
    kind = {k: ("off" if any(r["side"] in (ABOVE, BELOW) for r in g) else
                "even" if all(r["side"] == EVEN_KIND for r in g) else "few")
            for k, g in by_row.items()}
    many = len(by_row) > 1
    counts_of: dict[str, list[int]] = {}
    for st, p in by_row:
        counts_of.setdefault(st, []).append(p)
    named = {st: _setting_name(st, players_of, where) for st in counts_of}

    def seat(r: dict) -> str:
        return _seat_text(r) + (f" ({named[r['setting']]})" if len(named) > 1 else "")

    def widest(g: list[dict]) -> dict:
        return max(g, key=lambda r: (r["gap"], -r["players"], -r["seat"]))

    def rows_of(k: str) -> list[tuple[str, int]]:
        return [key for key in sorted(by_row) if kind[key] == k]

    def names(keys: list[tuple[str, int]]) -> str:
        """The settings of `keys`, each with its player counts where it has others."""
        mine: dict[str, list[int]] = {}
        for st, p in keys:
            mine.setdefault(st, []).append(p)
        return text.join_words([
            named[st] + ("" if len(ps) == len(counts_of[st]) else f", {_counts(ps)}")
            for st, ps in mine.items()])

    parts, details = [], []
    off = sorted((r for r in rows if r["side"] in (ABOVE, BELOW)),
                 key=lambda r: (-r["gap"], r["players"], r["seat"]))
    if off:
        more = f" ({len(off) - 3} more in {section})" if len(off) > 3 else ""
        parts.append("Not every seat wins its fair share: "
                     + "; ".join(seat(r) for r in off[:3]) + more + ".")
        details += [_seat_stat(r) for r in off] + [
            "Each survives Holm's correction over every seat tested."]
    even = rows_of("even")
    if even:
        top = widest([r for k in even for r in by_row[k]])
        where_even = (f" in {names(even)}" if many and len(even) < len(by_row) else
                      " in every setting" if len(named) > 1 else "")
        parts.append(f"Every seat wins about its fair share{where_even}: each one's 95% "
                     f"interval lies within a tenth of it, and the largest gap, {seat(top)}, "
                     "is within what chance gives.")
        details += [_seat_stat(top), "No seat's gap survives Holm's correction over every "
                    "seat tested, and every seat's 95% interval lies within a tenth of its "
                    "fair share."]
    few = rows_of("few")
    if few:
        # The widest of each setting's rows too small to tell, not of every player count.
        wide = [widest([r for k in few if k[0] == st for r in by_row[k] if r["side"] is None])
                for st in dict.fromkeys(st for st, _ in few)]
        in_few = f" in {names(few)}" if many and len(few) < len(by_row) else ""
        parts.append(
            f"Too few games to tell{in_few}: no seat is clearly off its fair share, yet not "
            "every seat's 95% interval lies within a tenth of it (the widest gap: "
            + "; ".join(f"seat {r['seat']} of {r['players']} wins "
                        f"{text.rate(r['win_rate'], r['ci_low'], r['ci_high'])} of "
                        f"{text.count(r['games'])} games against a fair share of "
                        f"{text.pct(r['fair_share'], 1)}"
                        + (f" ({named[r['setting']]})" if len(named) > 1 else "")
                        for r in wide) + ").")
        details += [_seat_stat(r) for r in wide] + [
            "Too few to tell: the seat's 95% interval reaches past a tenth of its fair share "
            "and Holm's correction over every seat tested does not set it apart, so these "
            "games cannot say whether the seats are even."]
    span = _counts(sorted({r["players"] for r in rows}))
    players = sorted({p for st in named for p in players_of.get(st, [])})
    runs = list(dict.fromkeys(where.get(st, st) for st in sorted(named)))
    place = runs[0] if len(runs) == 1 else (", ".join(runs) if all(
        st in where for st in named) else text.plural(len(runs), "setting"))
    return [Verdict(topic, " ".join(parts), who_of(players, f"{place}, {span}"), details)]


def band(rows: list[dict]) -> str:
    """One rate with its interval ("55.7% ± 0.9%"), or several as their range ("55%–56%")."""
    if len(rows) == 1:
        r = rows[0]
        return text.rate(r["win_rate"], r["ci_low"], r["ci_high"])
    lo, hi = (text.pct(f(r["win_rate"] for r in rows), 1) for f in (min, max))
    return lo if lo == hi else f"{lo}–{hi}"


def rate_verdict(topic: str, rows: list[tuple[str, dict]], says: dict[str, str], who: str,
                 of: str = "of the decided games", aim: float = 0.5,
                 details: list[str] | None = None) -> Verdict | None:
    """One verdict over every player that played it (`rows`: (player, its rate with win_rate,
    ci_low, ci_high, games)), not one per player: for each side the rates fall on
    (side_of), `says[side]` ("The first player has an advantage: it wins") with the rates'
    band across those players; the players whose interval is too wide to tell are named
    apart, with no verdict. A run of 200 games beside one of 12,000 is then no contradiction."""
    if not rows:
        return None
    groups: dict[str | None, list[tuple[str, dict]]] = {}
    for player, r in rows:
        groups.setdefault(side_of(r["ci_low"], r["ci_high"], aim), []).append((player, r))
    sides = sorted((k for k in groups if k is not None),
                   key=lambda k: -sum(r["games"] for _, r in groups[k]))
    named = len(sides) > 1 or None in groups
    parts = []
    for side in sides:
        mine = groups[side]
        across = (f" across {text.plural(len(mine), 'pairing')} of players"
                  if len(mine) > 1 else "")
        near = (f", within {100 * EVEN:.0f} points of {text.pct(aim)}" if side == EVEN_KIND
                else "")
        whose = f" ({text.join_words([p for p, _ in mine])})" if named else ""
        parts.append(f"{says[side]} {band([r for _, r in mine])} {of}{across}{near}{whose}.")
    if None in groups:
        few = groups[None]
        parts.append(
            f"Too few games to tell with {text.join_words([p for p, _ in few])} ("
            + ", ".join(f"{band([r])} of {text.count(r['games'])} games" for _, r in few)
            + f"): {'its interval holds' if len(few) == 1 else 'each interval holds'} "
            f"{text.pct(aim)} and reaches past {text.pct(aim - EVEN)}–"
            f"{text.pct(aim + EVEN)}, too wide to say which.")
    return Verdict(topic, " ".join(parts), who, details or [])


def _reach(lo: float, hi: float, aim: float) -> tuple[float, float]:
    """How near and how far from `aim` an interval reaches."""
    near = 0.0 if lo <= aim <= hi else min(abs(lo - aim), abs(hi - aim))
    return near, max(abs(lo - aim), abs(hi - aim))


def nearest(options: list[tuple], aim: float) -> list:
    """The options nearest `aim`, ties named together: `options` are (option, value,
    ci_low, ci_high); the nearest by value first, then every other whose 95% interval
    reaches as near `aim` as the nearest's reaches far from it, nearest first. Naming one
    "closest" where the intervals overlap so reads a coin's toss as a finding."""
    if not options:
        return []
    ranked = sorted(options, key=lambda o: abs(o[1] - aim))
    far = _reach(ranked[0][2], ranked[0][3], aim)[1]
    return [o[0] for o in ranked if o is ranked[0] or _reach(o[2], o[3], aim)[0] <= far]


def largest(options: list[tuple]) -> list:
    """The options with the largest effect, ties named together: `options` are (option,
    effect, ci_low, ci_high); the largest first, then every other whose 95% interval reaches
    the largest's lower bound, largest first."""
    if not options:
        return []
    ranked = sorted(options, key=lambda o: -o[1])
    low = ranked[0][2]
    return [o[0] for o in ranked if o is ranked[0] or o[3] >= low]


def effect_text(r: dict, unit: str, scale: float = 1.0) -> str:
    return (f"{scale * r['difference']:+.1f}{unit} (95% paired interval "
            f"{scale * r['ci_low']:+.1f} to {scale * r['ci_high']:+.1f}, "
            f"{text.count(r['pairs'])} games)")


def holm_text(r: dict, family: int) -> str:
    return (f"clear after Holm's correction over {family} differences" if r["holm"] else
            f"not clear after Holm's correction over {family} differences")


def player_part(cmp, v: int) -> str | None:
    """The player variant `v` of a comparison names, in the game's words ("Reference"), or
    None where the run does not sweep the player (Comparison.variants, its `player`)."""
    row = cmp.variants.filter(pl.col("variant") == v)
    return row["player"].item() if "player" in row.columns and row.height else None


def lever_part(cmp, v: int) -> str:
    """Variant `v` without its player, in the game's words: the lever's version ("hand
    limit 6"; Comparison.variants, its `lever`)."""
    row = cmp.variants.filter(pl.col("variant") == v)
    return (row["lever"].item() or "") if "lever" in row.columns and row.height else ""


def measured_with(players: list[str]) -> str:
    """The sentence that says which player a verdict was measured with, when it was one."""
    return f" Measured with {players[0]} only." if len(players) == 1 else ""


def lever_verdicts(cmps: list, players_of: dict[str, list[str]], prefer: str = "score:mean",
                   leave_out: tuple[str, ...] = ()) -> list[Verdict]:
    """Per run that compares versions by a lever: its largest clear difference, on the
    `prefer` quantity where there is one, else on a rate, else on any quantity; or that none
    is clear. Where the run sweeps the player beside the lever, the effect is given for each
    player (each compared with its own baseline, reports/tables/variants.py) and how far it moves
    between them; where one player played, the verdict says so. A version whose label holds
    one of `leave_out` is never the verdict (its difference still counts in Holm's family)."""
    out = []
    for name, cmp in cmps:
        d = cmp.differences.filter(~pl.any_horizontal(
            [pl.lit(False)] + [pl.col("label").str.contains(x, literal=True)
                               for x in leave_out]))
        d = d.filter(pl.col("difference").is_not_nan() & pl.col("ci_low").is_not_nan())
        if d.height == 0:
            continue
        clear = d.filter(pl.col("holm"))
        pick = clear if clear.height else d
        score = pick.filter(pl.col("quantity") == prefer)
        rates = pick.filter(pl.col("kind") == "rate")
        pick = score if score.height else rates if rates.height else pick
        r = pick.sort(pl.col("difference").abs(), "label", descending=[True, False]).row(
            0, named=True)
        base = cmp.label(r.get("against", cmp.baseline))
        scale, unit = (100.0, " percentage points") if r["kind"] == "rate" else \
            (1.0, _unit(cmp, r["quantity"]))
        b = r.get("against", cmp.baseline)
        each = _by_player(cmp, d, r, b)
        # In the game's words (Comparison.words); by player, the lever's part alone.
        version, against = (lever_part(cmp, r["variant"]), lever_part(cmp, b)) if each else \
            (_words(cmp, r.get("variant"), r["label"]), _words(cmp, b, base))
        way = "raises" if r["difference"] > 0 else "lowers"
        size = f"{abs(scale * r['difference']):.1f}{unit}"
        if clear.height:
            sentence = (f"{version} {way} {_the(cmp, r['name'])} by {size} against "
                        f"{against}")
        else:
            sentence = (f"No version differs clearly from {against}. The largest difference, "
                        f"{version} on {_the(cmp, r['name'])} ({way} it by {size}), is within what "
                        "chance gives on these games")
        if each:
            sentence += _player_spread(cmp, each, player_part(cmp, r["variant"]) or "",
                                       scale, unit)
        else:
            sentence += "." + measured_with(players_of.get(name, []))
        out.append(Verdict(_topic(cmp, name), sentence,
                           who_of(players_of.get(name, []), f"{name} run"), [
            f"{_words(cmp, x.get('variant'), x['label'])} against "
            f"{_words(cmp, x.get('against', b), cmp.label(x.get('against', b)))}, "
            f"{x['name']}: "
            f"{effect_text(x, unit, scale)}; {holm_text(x, cmp.family)}."
            for x in (each or [r])] + ["Every difference is in the Comparison section."]))
    return out


def _words(cmp, v: int | None, label: str) -> str:
    # A comparison's variant in the game's words; its label where it holds none.
    return cmp.words(v) if v is not None and hasattr(cmp, "words") else label


def _unit(cmp, quantity: str) -> str:
    """What a mean quantity counts, as its measure declares it (Measure.unit, a space
    before it); a score in the game's score unit, " points" where the comparison names no
    game; else nothing."""
    game = getattr(cmp, "game", None)
    name = quantity.split(":", 1)[0]
    m = next((m for m in getattr(game, "measures", ()) if m.name == name), None)
    if m is not None and m.unit:
        return f" {m.unit}"
    if name == "score":
        return f" {getattr(game, 'score_unit', '') or 'points'}"
    return ""


def _the(cmp, name: str) -> str:
    """A quantity's name inside a sentence: "the first player's wins" for "First player's
    wins", "the least decides" for "The least decides"; a name that starts with a seat's own
    name (a side: "North wins") keeps its capital."""
    game = getattr(cmp, "game", None)
    if name.startswith("The "):
        return "the " + name[4:]
    if any(name.startswith(seat) for seat in getattr(game, "seat_names", ()) or ()):
        return "the " + name
    return "the " + name[:1].lower() + name[1:]


def _topic(cmp, name: str) -> str:
    """A lever verdict's topic: "Players compared" for a run whose versions differ by their
    player alone, else "Versions compared" (its run is named in the verdict's players)."""
    if "player" in cmp.variants.columns and cmp.variants["player"].null_count() == 0 \
            and not any(cmp.variants["lever"].to_list()):
        return "Players compared"
    return "Versions compared"


def _by_player(cmp, d: pl.DataFrame, r: dict, b: int) -> list[dict]:
    """Every player's difference for the version `r` shows, where the run sweeps the player
    beside a lever (none where it sweeps one of them: the player is then the lever)."""
    lever = lever_part(cmp, r["variant"])
    if player_part(cmp, r["variant"]) is None or lever == lever_part(cmp, b):
        return []
    same = d.filter(pl.col("quantity") == r["quantity"]).to_dicts()
    return sorted((x for x in same if lever_part(cmp, x["variant"]) == lever),
                  key=lambda x: player_part(cmp, x["variant"]) or "")


def _player_spread(cmp, each: list[dict], player: str, scale: float, unit: str) -> str:
    """", with Reference; by player: Greedy +1.0, Reference +2.1 (1.1 points apart).": the
    effect of one version of the lever for each player."""
    said = ", ".join(f"{player_part(cmp, x['variant'])} {scale * x['difference']:+.1f}"
                     for x in each)
    values = [scale * x["difference"] for x in each]
    gap = f" ({max(values) - min(values):.1f}{unit} apart)" if len(each) > 1 else ""
    return f", with {player}; by player: {said}{gap}."


def team_verdicts(team: pl.DataFrame, players_of: dict[str, list[str]],
                  where: dict[str, str], topic: str = "Team wins") -> list[Verdict]:
    """Per setting of a cooperative game: how often the team wins, over the player counts
    (`team`: reports/outcomes/outcomes.py's team_wins)."""
    out = []
    for (setting,), g in sorted(team.group_by("setting"), key=lambda kv: kv[0]):
        g = g.sort("players")
        lo_p, hi_p = int(g["players"].min()), int(g["players"].max())
        counts = (text.plural(lo_p, "player") if lo_p == hi_p
                  else f"{lo_p} to {hi_p} players")
        lo_r, hi_r = text.pct(g["win_rate"].min()), text.pct(g["win_rate"].max())
        span = lo_r if lo_r == hi_r else f"{lo_r} to {hi_r}"
        out.append(Verdict(
            topic, f"The team wins {span} of its games with {counts}.",
            who_of(players_of.get(setting, []), where.get(setting, setting)),
            [f"{text.players_label(r['players'])}: "
             f"{text.rate(r['win_rate'], r['ci_low'], r['ci_high'])} of "
             f"{text.count(r['games'])} games, 95% Wilson interval"
             for r in g.iter_rows(named=True)]))
    return out


def verdicts(seats: pl.DataFrame, team: pl.DataFrame, cmps: list,
             players_of: dict[str, list[str]], where: dict[str, str] | None = None
             ) -> list[Verdict]:
    """The neutral verdicts of the first screen, in the module doc's order. `cmps`: (run name,
    Comparison) of every run compared; `players_of`: the players of each setting and run;
    `where`: the run each setting comes from, where the page reads several."""
    where = where or {}
    return (seat_verdicts(seats, players_of, where) + team_verdicts(team, players_of, where)
            + lever_verdicts(cmps, players_of))
