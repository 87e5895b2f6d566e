"""Gem Rush's verdicts on the report's first screen (reports/outcomes/findings.py's, with the
Crisis and the rooms of Gem Rush), in this order, each only where the run has what it needs:
- the named difficulty closest to an even game, for the first Crisis setting (the others are in
  the win-rate table);
- the Rush seats against their fair share;
- the strongest and the weakest skill, and the skill variants against Normal;
- each lever's largest effect (every run that compares versions of the game);
- how far the target moves between players;
- the room worth most in an ablation run, when its interval sets it apart.
The targets to print for the chosen win rates come as a table beside them (reports/gemrush/
page.py).
"""

from __future__ import annotations

import polars as pl

from balance.stats import paired
from reports.gemrush import ablation, players, skills
from reports.outcomes.findings import (
    Verdict,
    effect_text,
    holm_text,
    lever_verdicts,
    measured_with,
    seat_verdicts,
    who_of,
)
from reports.render import text


def _named(difficulty: pl.DataFrame) -> pl.DataFrame:
    """The win rates at the named difficulties, off the curve where there is one."""
    d = difficulty.filter(pl.col("difficulty").is_not_null() & pl.col("win_rate").is_not_null())
    if "source" in d.columns:  # "to exhaustion" sorts first
        d = d.sort("source").unique(["setting", "players", "difficulty"], keep="first")
    return d


def headline_setting(difficulty: pl.DataFrame, order: list[str],
                     band: players.Band | None = None) -> tuple[str | None, object]:
    """(the setting the Crisis headline reads, players.headline's choice or None): the first
    Crisis setting in the designer's order, or the strongest full-count player's setting of
    its band (players.headline)."""
    d = _named(difficulty)
    if d.height == 0:
        return None, None
    rank = {x: i for i, x in enumerate(order)}
    setting = sorted(set(d["setting"].to_list()), key=lambda x: (rank.get(x, len(rank)), x))[0]
    choice = players.headline(band, setting) if band is not None else None
    if choice is not None and choice.setting in set(d["setting"].to_list()):
        setting = choice.setting
    return setting, choice


def crisis_verdicts(difficulty: pl.DataFrame, order: list[str],
                    players_of: dict[str, list[str]], where: dict[str, str],
                    band: players.Band | None = None) -> list[Verdict]:
    """For the first Crisis setting, in the designer's order (or the setting of the strongest
    player of its band that played its full game count, players.headline): the named
    difficulty closest to an even game over the player counts, how rarely the harder ones
    are won, which player it comes from, and how far it moves across the players of its band
    (`band`: none, and the verdict names its one player)."""
    d = _named(difficulty)
    if d.height == 0:
        return []
    setting, choice = headline_setting(d, order, band)
    g = d.filter(pl.col("setting") == setting).with_columns(
        (pl.col("win_rate") - 0.5).abs().alias("gap"))
    best = g.sort("gap", "players").row(0, named=True)
    lo_p, hi_p = int(g["players"].min()), int(g["players"].max())
    who = text.plural(lo_p, "player") if lo_p == hi_p else f"{lo_p} to {hi_p} players"
    rates = g.filter(pl.col("difficulty") == best["difficulty"]).sort("players")
    lo_r, hi_r = text.pct(rates["win_rate"].min()), text.pct(rates["win_rate"].max())
    span = lo_r if lo_r == hi_r else f"{lo_r} to {hi_r}"
    harder = g.filter(pl.col("target") > best["target"])
    tail = ""
    if harder.height and harder["win_rate"].max() < 0.05:
        tail = (f"; no harder difficulty is won more than "
                f"{text.pct(harder['win_rate'].max(), 1)} of the time")
    details = [f"{text.players_label(r['players'])}: "
               f"{text.rate(r['win_rate'], r['ci_low'], r['ci_high'])}"
               + (f" of {text.count(r['games'])} games" if r.get("games") else "")
               for r in rates.iter_rows(named=True)]
    me = band.of(setting) if band is not None else None
    player = (me["player"] if me else
              text.join_words(players_of.get(setting, [])) or "scripted players")
    each = " a player count" if lo_p != hi_p else ""
    by = f" by {player}" + (f" ({choice.games} games{each})" if choice else "")
    sentence = (f"{best['difficulty']} ({best['target']} points) is the difficulty closest to "
                f"an even game, won {span} of the time{by} with {who}{tail}.")
    more: list[str] = []
    if choice is not None:
        sentence += " " + _source(choice, len(choice.full))
        more += _source_details(choice)
    if me is not None:
        across = players.rates_at(band, setting, int(best["target"]))
        sentence += " " + _across(across, me["player"], best["difficulty"])
        more += _across_details(across, best["difficulty"], where)
    return [Verdict(
        "Crisis difficulty", sentence,
        who_of(players_of.get(setting, []), where.get(setting, setting)),
        [f"{best['difficulty']}'s win rate by {player}, with its 95% Wilson interval:",
         *details, *more])]


def _all_games(choice: players.Choice, counts: int) -> str:
    return (f"all {choice.games} games" + (" a player count" if counts > 1 else ""))


def _source(choice: players.Choice, counts: int) -> str:
    """Which player the headline comes from, and why: the strongest that played the full game
    count, where it is clearly stronger than the default."""
    full = _all_games(choice, counts)
    if choice.player != choice.default and choice.lead is not None:
        said = (f"It comes from {choice.player}, the strongest player that played {full}: "
                f"{text.signed(choice.lead.difference, choice.lead.decimals)} points a game "
                f"against {choice.default}.")
    elif not choice.rivals:
        said = f"It comes from {choice.player}, the only player that played {full}."
    else:
        names = text.join_words([p for p, _ in choice.rivals])
        leads = text.join_words([text.signed(s.difference) for _, s in choice.rivals
                                 if s is not None])
        said = (f"It comes from {choice.player}: {names} also played {full} but "
                f"{'is' if len(choice.rivals) == 1 else 'are'} not clearly stronger"
                + (f" ({leads} points a game)." if leads else "."))
    if choice.fewer:
        more = [f"{p} scores {s.difference:.1f} points more but played "
                f"{text.count(n)} games" for p, n, s in choice.fewer]
        said = said[:-1] + "; " + "; ".join(more) + "."
    return said


def _source_details(choice: players.Choice) -> list[str]:
    lines = [f"The headline comes from the strongest player that played the full game count "
             f"at every player count ({choice.games} games), preferred to {choice.default} "
             f"only where its mean team score is clearly higher (the 95% interval above 0); "
             f"a bound that sees the deck (the clairvoyant) is never chosen."]
    if choice.lead is not None:
        lines.append(f"{choice.player} against {choice.default}: {choice.lead.said()}.")
    for p, s in choice.rivals:
        lines.append(f"{p} against {choice.default}: "
                     + (s.said() if s is not None else "no score to compare") + ".")
    for p, n, s in choice.fewer:
        lines.append(f"{p} against {choice.player}: {s.said()}; it played "
                     f"{text.count(n)} games at the fewest.")
    return lines


def _across(rates: pl.DataFrame, player: str, difficulty: str) -> str:
    """How far the win rate at the headline's difficulty moves across the players of the
    band, where another player played (a bound apart: no team plays it); or that one player
    did. At one player count every player's rate is listed; over several, each other
    player's gap from the headline's player."""
    counts = sorted(set(rates["players"].to_list()))
    shared = [p for p in counts if rates.filter(pl.col("players") == p).height > 1]
    if not shared:
        return (f"Measured with {player} only: no other player played this setting, so it "
                "is not checked across players.")
    if len(shared) == 1:
        said = f"Across players with {text.plural(shared[0], 'player')}, {difficulty} is " \
            f"won {_listed(rates.filter(pl.col('players') == shared[0]))}."
    else:
        mine = dict(rates.filter(pl.col("player") == player).select("players", "win_rate")
                    .rows())
        others = rates.filter((pl.col("player") != player) & pl.col("players").is_in(shared))
        said = "Across players: " + "; ".join(
            _gap(g, who, player, mine) for (who,), g in
            sorted(others.group_by("player"), key=lambda kv: (kv[1]["bound"][0], kv[0]))) + "."
    alone = [p for p in counts if p not in shared]
    if alone:
        said += f" At {_player_counts(alone)} only {player} played."
    return said


def _listed(g: pl.DataFrame) -> str:
    """"in 35% of 40 games by reference (budget 8) and 63% of 400 by greedy (28 percentage
    points apart), and in 100% of 40 by the clairvoyant bound (budget 8), which sees the
    deck": every player's rate at one player count, the bound apart."""
    fair = g.filter(~pl.col("bound"))
    said = "in " + text.join_words([
        f"{text.pct(r['win_rate'])} of {text.count(r['games'])}"
        + (" games" if i == 0 else "") + f" by {r['player']}"
        for i, r in enumerate(fair.iter_rows(named=True))])
    if fair.height > 1:
        apart = round(100 * (fair["win_rate"].max() - fair["win_rate"].min()))
        said += f" ({text.plural(apart, 'percentage point')} apart)"
    for r in g.filter(pl.col("bound")).iter_rows(named=True):
        said += (f", and in {text.pct(r['win_rate'])} of {text.count(r['games'])} by the "
                 f"{r['player']}, which sees the deck")
    return said


def _gap(g: pl.DataFrame, who: str, player: str, mine: dict[int, float]) -> str:
    """One other player's win rate against the headline player's over the player counts it
    played: "greedy wins it −4 to +1 percentage points against learned with 1 to 7 players
    (2,000 games each)"."""
    g = g.sort("players")
    name = f"the {who}, which sees the deck," if g["bound"][0] else who
    games = sorted(set(g["games"].to_list()))
    many = (f"{text.count(games[0])} games" + (" each" if g.height > 1 else "")
            if len(games) == 1 else f"{text.count(games[0])} to {text.count(games[-1])} games")
    if g.height == 1:
        r = g.row(0, named=True)
        return (f"{name} wins it {text.pct(r['win_rate'])} of {text.count(r['games'])} games "
                f"with {text.plural(r['players'], 'player')}, against "
                f"{text.pct(mine.get(r['players']))} for {player}")
    gaps = [round(100 * (r - mine[p])) for p, r in g.select("players", "win_rate").rows()
            if p in mine]
    lo, hi = f"{min(gaps):+d}".replace("-", "−"), f"{max(gaps):+d}".replace("-", "−")
    span = lo if lo == hi else f"{lo} to {hi}"
    return (f"{name} wins it {span} percentage points against {player} with "
            f"{_player_counts(g['players'].to_list())} ({many})")


def _player_counts(counts: list[int]) -> str:
    counts = sorted(counts)
    if len(counts) == 1:
        return text.plural(counts[0], "player")
    if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return f"{counts[0]} to {counts[-1]} players"
    return text.join_words([str(p) for p in counts]) + " players"


def _across_details(rates: pl.DataFrame, difficulty: str, where: dict[str, str]) -> list[str]:
    if rates.filter(pl.col("players").is_duplicated()).height == 0:
        return []
    return [f"{difficulty}'s win rate by every player of the setting (95% Wilson intervals):"] + [
        f"{text.players_label(r['players'])}, {r['player']}: "
        f"{text.rate(r['win_rate'], r['ci_low'], r['ci_high'])} of {text.count(r['games'])} "
        f"games" + (f" ({where[r['setting']]})" if r["setting"] in where else "")
        for r in rates.filter(pl.col("players").is_duplicated()).iter_rows(named=True)]


def skill_verdicts(cmps: list, players_of: dict[str, list[str]]) -> list[Verdict]:
    """The strongest and the weakest skill (each_skill runs) by their paired effect on the
    mean team score, and the variants' shifts against the baseline (runs sweeping skills)."""
    out = []
    for name, cmp in cmps:
        if skills.is_skill_effects(cmp):
            e = skills.effects(cmp, ("score:mean",)).filter(
                pl.col("pairs") >= paired.MIN_PAIRS)
            if e.height < 2:
                continue
            top, low = e.row(0, named=True), e.row(-1, named=True)

            def said(r: dict) -> str:
                d = r["difference"]
                if not r["found"]:
                    return f"{r['skill']}, no different from No Skills"
                return f"{r['skill']}, {abs(d):.1f} points {'more' if d > 0 else 'less'}"

            out.append(Verdict(
                "Skills", f"The strongest skill is {said(top)} of mean team score than "
                f"without skills, when the whole team holds it; the weakest is {said(low)}."
                + measured_with(players_of.get(name, [])),
                who_of(players_of.get(name, []), f"{name} run"),
                [f"{r['skill']}: {effect_text(r, ' points')}; {holm_text(r, cmp.family)}"
                 for r in (top, low)]
                + [f"Every skill's effect is in the Skills section ({e.height} skills)."]))
        elif skills.is_skill_variants(cmp):
            shifts = skills.variant_shifts(cmp).filter(pl.col("pairs") >= paired.MIN_PAIRS)
            if shifts.height == 0:
                continue
            base = str(cmp.value(cmp.baseline, skills.VARIANTS) or "")
            base = skills.VARIANT_NAMES.get(base, base or "the baseline")

            def named(v: str) -> str:
                return skills.VARIANT_NAMES.get(v, v)

            clear = shifts.filter(pl.col("holm")).sort("difference")
            down = [f"{abs(r['difference']):.1f} points with {named(r['variant_name'])}"
                    for r in clear.filter(pl.col("difference") < 0).iter_rows(named=True)]
            up = [f"{r['difference']:.1f} with {named(r['variant_name'])}"
                  for r in clear.filter(pl.col("difference") > 0).iter_rows(named=True)]
            moves = ([f"falls {text.join_words(down)}"] if down else []) + \
                ([f"rises {text.join_words(up)}"] if up else [])
            said = (f"Against {base}, the mean team score " + ", and ".join(moves) if moves
                    else f"No skill variant clearly moves the mean team score away from {base}")
            out.append(Verdict(
                "Skill variants", said + "." + measured_with(players_of.get(name, [])),
                who_of(players_of.get(name, []), f"{name} run"),
                [f"{named(r['variant_name'])}: {effect_text(r, ' points')}; "
                 f"{holm_text(r, cmp.family)}" for r in shifts.iter_rows(named=True)]))
    return out


def player_verdicts(player_targets: pl.DataFrame, players_of: dict[str, list[str]],
                    where: dict[str, str]) -> list[Verdict]:
    """Where the target to print moves most between the players of a band (players.
    target_spread; a bound is named apart, outside the band): at that player count and win
    rate, each player's target."""
    t = player_targets
    if t.height == 0 or "spread" not in t.columns:
        return []
    t = t.filter(pl.col("spread").is_not_null())
    if t.height == 0:
        return []
    r = t.sort("spread", descending=True).row(0, named=True)
    at = t.filter((pl.col("base_setting") == r["base_setting"])
                  & (pl.col("players") == r["players"]) & (pl.col("level") == r["level"])
                  & pl.col("target").is_not_null())
    fair, bound = at.filter(~pl.col("bound")), at.filter(pl.col("bound"))
    parts = ", ".join(f"{x['player']} {x['target']}" for x in fair.iter_rows(named=True))
    aside = "".join(f"; the {x['player']}, which sees the deck, {x['target']}"
                    for x in bound.iter_rows(named=True))
    head = ("The player moves the verdict" if r["spread"] else
            "The players print the same target")
    band = f"{r['low']} to {r['high']}, " if r["spread"] else ""
    runs = sorted({where[x] for x in at["setting"].to_list() if x in where})
    return [Verdict(
        "Player strength", f"{head}: the target won {text.level_label(r['level'])} of the "
        f"time with {text.plural(r['players'], 'player')} is {parts} ({band}{r['spread']} "
        f"points apart, on {text.count(at['games'].min())} games or more each){aside}.",
        who_of(players_of.get(r["base_setting"], []),
               ", ".join(runs) or where.get(r["setting"], r["base_setting"])),
        [f"{x['player']}: {x['target']}, won "
         f"{text.rate(x['win_rate'], x['rate_low'], x['rate_high'])} of "
         f"{text.count(x['games'])} games" + (f" ({where[x['setting']]})"
                                              if x["setting"] in where else "")
         for x in at.iter_rows(named=True)]
        + ["Verdicts by player compares every target the players would print."])]


def ablation_verdicts(cmps: list, players_of: dict[str, list[str]]) -> list[Verdict]:
    """Per ablation run: the room worth most on the run's question, only where its interval
    is clear of zero and of the next room's (ablation.standout); else that none stands out."""
    out = []
    for name, cmp in cmps:
        if not ablation.is_ablation_comparison(cmp):
            continue
        e = ablation.effects(cmp)
        lead = ablation.lead_quantity(cmp)
        rows = e.filter(pl.col("quantity") == lead)
        if rows.height == 0 or paired.too_few(rows["pairs"].max()):
            continue  # no room can be ranked on a handful of games
        qname = rows["name"][0]
        scale, unit = (100, " pp") if lead.startswith("win:") else (1, " points")
        _, tied = ablation.standout(e, lead)
        label = ablation.METHODS[ablation.how_of_comparison(cmp)][0]
        out.append(Verdict(
            f"Rooms ({label.lower()})", ablation.most_sentence(e, lead, qname)
            + measured_with(players_of.get(name, [])),
            who_of(players_of.get(name, []), f"{name} run"),
            [f"{r['room']}: {scale * r['effect']:+.1f}{unit} with the room (95% paired "
             f"interval {scale * r['ci_low']:+.1f} to {scale * r['ci_high']:+.1f}, "
             f"{text.count(r['pairs'])} games); "
             + ("clear" if r["holm"] else "not clear")
             + f" after Holm's correction over {cmp.family} differences."
             for r in (tied or rows.head(1).to_dicts())[:5]]
            + ["Every room, side by side with the other ways of ablating, is in Room value."]))
    return out


def verdicts(difficulty: pl.DataFrame, seats: pl.DataFrame, player_targets: pl.DataFrame,
             cmps: list, order: list[str], players_of: dict[str, list[str]],
             where: dict[str, str] | None = None, band: players.Band | None = None
             ) -> list[Verdict]:
    """Every verdict of the first screen, in the module doc's order. `cmps`: (run name,
    Comparison) of every run compared; `players_of`: the players of each setting, base
    setting and run; `where`: the run each setting comes from, where the page reads several;
    `band`: the players of each setting's band (players.Band), for the Crisis verdict."""
    where = where or {}
    levers = [(n, c) for n, c in cmps
              if not skills.is_skill_effects(c) and not skills.is_skill_variants(c)]
    plain = [(n, c) for n, c in levers if not ablation.is_ablation_comparison(c)]
    return (crisis_verdicts(difficulty, order, players_of, where, band)
            + seat_verdicts(seats, players_of, where, "Rush seats", "Rush")
            + skill_verdicts(cmps, players_of)
            # The bound's lead is what the hidden information costs, not a lever a designer
            # can pull; as the largest effect it would hide every real one (Verdicts by
            # player gives it beside the players).
            + lever_verdicts(plain, players_of,
                             leave_out=tuple(f"heuristic={b}" for b in players.BOUNDS))
            + player_verdicts(player_targets, players_of, where)
            + ablation_verdicts(levers, players_of))


def headline_rows(difficulty: pl.DataFrame, order: list[str] | None = None
                  ) -> tuple[list[str], list[list[str]]]:
    """(headers, rows): per setting (in `order`) and player count, the win rate at each named
    difficulty."""
    rank = {x: i for i, x in enumerate(order or [])}
    d = difficulty.filter(pl.col("difficulty").is_not_null()).sort(
        pl.col("setting").replace_strict(rank, default=len(rank)), "players")
    if d.height == 0:
        return [], []
    names = (d.select("difficulty", "target").group_by("difficulty")
             .agg(pl.col("target").min()).sort("target")["difficulty"].to_list())
    rows = []
    for (setting, count), g in d.group_by("setting", "players", maintain_order=True):
        cells = []
        for n in names:
            x = g.filter(pl.col("difficulty") == n)
            cells.append(text.rate(x["win_rate"][0], x["ci_low"][0], x["ci_high"][0])
                         if x.height else text.DASH)
        rows.append([setting, str(count), *cells])
    return ["Setting", "Players", *names], rows
