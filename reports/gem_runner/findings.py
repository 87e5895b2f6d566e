"""Gem Runner's verdicts on the report's first screen (reports/outcomes/findings.py, Verdict): one
plain sentence per question, each naming the players whose play it describes, with its
statistics one click away.

- The Computer: per player, seat count and decks, the seats' share of the games against it
  (95% Wilson), and each deck's own (one deck, a seat alone);
- Decks: deck against deck, seats swapped on the same seeds (analysis.deck_matrix);
- First player: head to head, the first seat's share of the games a seat won (95% Wilson);
- What evens the first player: per run and player count that plays the first seat's
  compensations, the one nearest its fair share (paired, Wilson on each share);
- Length: the main player's games; per run that changes the target, the hands or the decks'
  counts, how the length moves (paired);
- The Pool: how often it decides a game, and how often the side behind collects it;
- Verdicts by player: per run that changes the players alone, how the answers move (paired);
  per run that plays two players beside other levers, each answer for both on the same
  shuffles, and whether it holds or moves (by_player.py)."""

from __future__ import annotations

import polars as pl

from balance.contract.labels import value_words
from balance.games.gem_runner.game import GAME
from balance.stats import paired
from balance.stats.intervals import wilson
from reports.gem_runner.analysis import Analysis
from reports.gem_runner.by_player import COMPUTER as COMPUTER_Q
from reports.gem_runner.by_player import DECK
from reports.gem_runner.by_player import POOL as POOL_Q
from reports.gem_runner.levers import FIRST_KIND, LENGTH_KIND, PLAYERS_KIND, Pair
from reports.outcomes import findings
from reports.outcomes.findings import Verdict, who_of
from reports.render import text
from reports.tables.variants import by_run

# Changes a setting may make and still count as the rulebook's game for a verdict: the way to
# play and the decks (which heroes, how many) are what every question sweeps.
LARGEST = 3  # the versions a length verdict names
PLAIN = {"", "play", "decks", "hero1", "hero2", "hero3", "hero4"}


def player_words(name: str) -> str:
    """A player's name as a designer reads it; seats of different players joined."""
    return ", ".join(value_words(GAME, "heuristic", n) for n in name.split(", "))


def plain(a: Analysis) -> pl.DataFrame:
    """The levers of the settings that play the rulebook's game (PLAIN)."""
    ok = a.levers["changed"].map_elements(lambda c: set(c.split(", ")) <= PLAIN,
                                          return_dtype=pl.Boolean)
    return a.levers.filter(ok)


def main_player(a: Analysis) -> str | None:
    """The player of the plain settings with the most games: the one whose games the
    verdicts read; the others are read in Verdicts by player. Among players with as many
    games, the run's first (by variant), as Verdicts by player takes it for the reference: a
    run that plays runner, random and search alike is read with the runner, not by name."""
    lv = plain(a).filter(~pl.col("heuristic").str.contains(","))
    if lv.height == 0:
        return None
    per = lv.group_by("heuristic").agg(pl.col("games").sum(), pl.col("variant").min()).sort(
        "games", "variant", descending=[True, False])
    return per["heuristic"][0]


def pooled(df: pl.DataFrame, groups: pl.DataFrame, by: list[str], wins: str = "wins",
           games: str = "games") -> list[dict]:
    """A rate pooled over `groups`' settings, per value of the levers' columns `by`: those
    columns, games, wins, win_rate and its 95% Wilson interval."""
    r = df.join(groups.select("setting", "players", *[c for c in by if c != "players"]),
                on=["setting", "players"])
    out = []
    for key, g in r.group_by(*by, maintain_order=True):
        n, k = int(g[games].sum()), int(g[wins].sum())
        if n:
            lo, hi = wilson(k, n)
            out.append({**dict(zip(by, key, strict=True)), "games": n, "wins": k,
                        "win_rate": k / n, "ci_low": lo, "ci_high": hi})
    return sorted(out, key=lambda x: tuple(x[c] for c in by))


def rate_text(r: dict) -> str:
    return text.rate(r["win_rate"], r["ci_low"], r["ci_high"])


def band(values: list[float], fmt=lambda x: text.pct(x, 1)) -> str:
    lo, hi = fmt(min(values)), fmt(max(values))
    return lo if lo == hi else f"{lo} to {hi}"


def hero_words(hero: str) -> str:
    """A hero as the box names it: "Cache Cat"."""
    return hero.replace("_", " ").title()


def seats_words(players: int) -> str:
    return "alone" if players == 1 else f"as a team of {players}"


# A small count in words, as the settings' own words write the decks ("two decks").
_SMALL = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def decks_words(decks: int) -> str:
    said = _SMALL[decks] if 0 <= decks < len(_SMALL) else f"{decks:,}"
    return f"{said} deck{'' if decks == 1 else 's'}"


# -- The Computer -----------------------------------------------------------------------------

def computer(a: Analysis) -> list[Verdict]:
    rows = pooled(a.computer, plain(a), ["heuristic", "players", "decks"])
    if not rows:
        return []
    parts, details = [], []
    for (h, p), mine in _group(rows, ("heuristic", "players")).items():
        said = text.join_words([f"{rate_text(r)} with {decks_words(r['decks'])}"
                                for r in mine])
        parts.append(f"{player_words(h)} {seats_words(p)} wins {said}")
        details += [f"{player_words(h)} {seats_words(p)}, {decks_words(r['decks'])}: "
                    f"{text.count(r['wins'])} of {text.count(r['games'])} games"
                    for r in mine]
    who = [player_words(h) for h in dict.fromkeys(r["heuristic"] for r in rows)]
    out = [Verdict("How hard the Computer is", "Against the Computer, " + "; ".join(parts)
                   + ".", who_of(who, "the rulebook's Computer"),
                   details + ["95% Wilson intervals over every game; a game the Computer "
                              "wins or that stops undecided counts against the seats."])]
    heroes = pooled(a.computer, plain(a).filter((pl.col("decks") == 1)
                                                & (pl.col("players") == 1)),
                    ["heuristic", "hero1"])
    for h, mine in _group(heroes, ("heuristic",)).items():
        if len(mine) < 2:
            continue
        top = max(mine, key=lambda r: r["win_rate"])
        low = min(mine, key=lambda r: r["win_rate"])
        apart = top["ci_low"] > low["ci_high"]
        say = (f"With one deck, {player_words(h[0])} alone beats the Computer in "
               f"{band([r['win_rate'] for r in mine])} of games by the deck: "
               + (f"{hero_words(top['hero1'])}'s deck {rate_text(top)} is clearly "
                  f"easier than {hero_words(low['hero1'])}'s {rate_text(low)}."
                  if apart else "no deck's intervals lie clear of another's, so the decks "
                  "cannot be told apart against the Computer on these games."))
        out.append(Verdict("Each deck against the Computer", say, who_of([player_words(h[0])]),
                           [f"{hero_words(r['hero1'])}: {rate_text(r)} of "
                            f"{text.count(r['games'])} games" for r in mine]))
    return out


def _group(rows: list[dict], by: tuple[str, ...]) -> dict[tuple, list[dict]]:
    out: dict[tuple, list[dict]] = {}
    for r in rows:
        out.setdefault(tuple(r[c] for c in by), []).append(r)
    return out


# -- Deck against deck ------------------------------------------------------------------------

def decks(a: Analysis) -> list[Verdict]:
    out = []
    for (run, h), g in a.decks.group_by("run", "heuristic", maintain_order=True):
        rows = g.filter(pl.col("share") >= 0.5).sort("share", descending=True).to_dicts()
        if not rows:
            continue
        clear = [r for r in rows if r["ci_low"] > 0.5]
        if clear:
            top = clear[0]
            say = (f"The decks are not even head to head: {_match(top)}"
                   + (f", and {len(clear) - 1} more pairings lean beyond chance"
                      if len(clear) > 1 else "") + ".")
        else:
            say = (f"The decks are even head to head: on the same shuffles with the seats "
                   f"swapped, every deck's share against every other is within chance of "
                   f"50% (the widest, {_match(rows[0])}).")
        out.append(Verdict("Deck against deck", say,
                           who_of([player_words(h)], f"{run} run" if run else ""),
                           [_match(r) + f", {text.count(r['shuffles'])} shuffles"
                            for r in rows] + [
                               "Each shuffle is played twice, deck A in seat 1 then in seat "
                               "2; a deck's share is its wins over both (a game stopped "
                               "undecided counts a half), with the paired t interval."]))
    return out


def _match(r: dict) -> str:
    return (f"{hero_words(r['deck'])}'s deck wins "
            f"{text.rate(r['share'], r['ci_low'], r['ci_high'])} against "
            f"{hero_words(r['against'])}'s")


# -- First player -----------------------------------------------------------------------------

def first_player(a: Analysis) -> list[Verdict]:
    h = main_player(a)
    rows = pooled(a.first, plain(a).filter(pl.col("heuristic") == h), ["players"])
    if not rows:
        return []
    sides: dict[str, list[dict]] = {}
    for r in rows:
        fair = 1 / r["players"]
        side = ("has an advantage" if r["ci_low"] > fair else
                "is at a disadvantage" if r["ci_high"] < fair else "is even")
        sides.setdefault(side, []).append(r)
    parts = [f"the first player {side} at "
             f"{text.join_words([str(r['players']) for r in mine])} players: it wins "
             + text.join_words([f"{rate_text(r)} (fair {text.pct(1 / r['players'], 1)})"
                                for r in mine]) + " of the games a player won"
             for side, mine in sides.items()]
    return [Verdict("First player", "Head to head, " + "; ".join(parts) + ".",
                    who_of([player_words(h)]),
                    [f"{r['players']} players: {text.count(r['wins'])} of "
                     f"{text.count(r['games'])} games a player won; 95% Wilson"
                     for r in rows])]


def at_count(label: str, players: int) -> str:
    """A variant's words without its player count, where a sentence names it already."""
    for cut in (f"{players} players, ", f", {players} players"):
        label = label.replace(cut, "")
    return label


def compensation(pairs: list[Pair], players_of: dict[str, list[str]]) -> list[Verdict]:
    """Per run, player count and player that plays the first seat's compensations: the one
    that brings seat 1 nearest its fair share, ties named together. A run of two players
    (the player a setting) is read player by player, each against its own unchanged rules."""
    out = []
    for run, mine in by_run(pairs, FIRST_KIND).items():
        groups = list(dict.fromkeys((p.players, p.seats) for p in mine))
        for n, seats in sorted(groups, key=lambda g: g[0]):
            at = [p for p in mine if (p.players, p.seats) == (n, seats)]
            who = player_words(", ".join(dict.fromkeys(seats)))
            named = sum(g[0] == n for g in groups) > 1
            verdict = _nearest(at, n, who if named else "")
            if verdict is not None:
                say, details = verdict
                out.append(Verdict("What evens the first player", say,
                                   who_of(players_of.get(run, []), f"{run} run"),
                                   details + [f"Against {at[0].base_label}, on the same "
                                              "games; nearest: 95% Wilson intervals on each "
                                              "share."]))
    return out


def _nearest(at: list[Pair], n: int, who: str) -> tuple[str, list[str]] | None:
    """The sentence and details of the compensations `at` (one player, n players); `who`
    names the player where the run plays more than one."""
    fair, options = 1 / n, []
    for p in at:
        r = p.row("first")
        if r is None or not r["pairs"]:
            continue
        k = int(r["pairs"])
        if not options:
            options.append(((None, r), r["baseline"], *wilson(round(r["baseline"] * k), k)))
        options.append(((p, r), r["value"], *wilson(round(r["value"] * k), k)))
    tied = findings.nearest(options, fair)
    if not tied:
        return None
    # The comma keeps the count of players (and the player) apart from the words that follow:
    # "At 4 players, 2 settings", "At 2 players with Runner, a Gem for seat 1".
    where = f"At {n} players" + (f" with {who}" if who else "") + ","

    def named(p: Pair) -> str:
        label = at_count(p.label, n)
        for cut in (f"{who}, ", f", {who}"):
            label = label.replace(cut, "") if who else label
        return label

    best, r = tied[0]
    if len(tied) > 1:
        names = [("the unchanged rules" if q is None else named(q)) for q, _ in tied]
        # A compensation's words may hold commas: the tied ones are set apart.
        say = (f"{where} {len(names)} settings bring the first player as near its fair "
               f"{text.pct(fair, 1)} as each other on these games: " + "; ".join(names)
               + ".")
    elif best is None:
        say = (f"{where} no compensation brings the first player nearer its fair share "
               f"({text.pct(fair, 1)}) than the unchanged rules "
               f"({text.pct(r['baseline'], 1)}).")
    else:
        say = (f"{where} {named(best)} evens the first player best: "
               f"{text.pct(r['value'], 1)} of the games a player won against "
               f"{text.pct(r['baseline'], 1)} with the unchanged rules (fair "
               f"{text.pct(fair, 1)}), a paired change of "
               f"{text.difference(r['difference'], r['ci_low'], r['ci_high'])}"
               + _other_seats(best, n) + ".")
    details = [f"{at_count(p.label, n)}: the first player {text.pct(x['value'], 1)}, "
               f"{findings.effect_text(x, ' percentage points', 100.0)}"
               for p in at if (x := p.row("first")) is not None]
    return say, details


def _other_seats(p: Pair, n: int) -> str:
    """Beyond two players, where the seats' shares land with the compensation: the seat
    furthest from its fair share, so that a rule that evens seat 1 by lifting another seat
    above its share is read as such."""
    rows = [(k, r) for k in range(2, n + 1) if (r := p.row(f"seat:{k}")) is not None]
    if n < 3 or not rows:
        return ""
    k, r = max(rows, key=lambda x: abs(x[1]["value"] - 1 / n))
    return (f"; the seat furthest from its share is then seat {k}, with "
            f"{text.pct(r['value'], 1)} ({text.pct(r['baseline'], 1)} with the unchanged "
            "rules)")


# -- Length -----------------------------------------------------------------------------------

def length(a: Analysis, pairs: list[Pair], players_of: dict[str, list[str]]
           ) -> list[Verdict]:
    h = main_player(a)
    groups = plain(a).filter(pl.col("heuristic") == h)
    d = a.outcomes.lengths.join(groups.select("setting", "players", "computer"),
                                on=["setting", "players"])
    out = []
    if d.height:
        parts = []
        for (c,), g in d.group_by("computer", maintain_order=True):
            n = g["games"].cast(pl.Float64)
            mean = float((g["mean"] * n).sum() / n.sum())
            where = "against the Computer" if c else "head to head"
            parts.append(f"{text.num(mean)} turns {where}")
        out.append(Verdict("Length", f"A game lasts {text.join_words(parts)} on average "
                           "(every Challenge run counted as a turn).", who_of([player_words(h)]),
                           [f"{s}, {text.plural(p, 'player')}: {text.num(m)} turns (10–90%: "
                            f"{text.spread(r)})" for s, p, m, r in
                            ((r["setting"], r["players"], r["mean"], r)
                             for r in d.to_dicts())]))
    for run, mine in by_run(pairs, LENGTH_KIND).items():
        rows = [(p, r) for p in mine if (r := p.row("length:mean")) is not None]
        if not rows:
            continue
        moved = [(p, r) for p, r in rows if r["holm"]]
        # A sweep of many versions names its largest changes; the rest are in the details.
        named = sorted(rows, key=lambda x: -abs(x[1]["difference"]))[:LARGEST]
        said = text.join_words([f"{p.label} {_turns(r)}" for p, r in named]) + (
            f" (the largest of {len(rows)} versions)" if len(rows) > LARGEST else "")
        out.append(Verdict("What changes the length", (
            f"Against {rows[0][0].base_label} ({text.num(rows[0][1]['baseline'])} turns): "
            f"{said}; " + (f"{len(moved)} of {len(rows)} beyond chance." if moved else
                           "none beyond chance.")),
            who_of(players_of.get(run, []), f"{run} run"),
            [f"{p.label}: {text.num(r['value'])} turns, {_turns(r)}" for p, r in rows]
            + ["Paired t intervals on the same seeds; beyond chance: Holm over the run's "
               "differences."]))
    return out


def _turns(r: dict) -> str:
    if text.missing(r["ci_low"]):
        return f"{text.signed(r['difference'])} turns"
    return (f"{text.signed(r['difference'])} turns ({text.signed(r['ci_low'])} to "
            f"{text.signed(r['ci_high'])})")


# -- The Pool ---------------------------------------------------------------------------------

def pool(a: Analysis) -> list[Verdict]:
    h = main_player(a)
    groups = plain(a).filter(pl.col("heuristic") == h)
    decides = pooled(a.decides, groups, ["computer"])
    behind = pooled(a.behind, groups, ["computer"])
    over = pooled(a.overtakes, groups, ["computer"])
    if not decides:
        return []
    parts, details = [], []
    for r in decides:
        where = "against the Computer" if r["computer"] else "head to head"
        b = next((x for x in behind if x["computer"] == r["computer"]), None)
        o = next((x for x in over if x["computer"] == r["computer"]), None)
        s = f"{where} the Pool decides {rate_text(r)} of games"
        if b is not None:
            s += (f", and {rate_text(b)} of the Pools collected go to the side behind"
                  + (f", which {rate_text(o)} of the time puts it ahead" if o else ""))
        parts.append(s)
        details.append(f"{where}: {text.count(r['wins'])} of {text.count(r['games'])} games "
                       "decided by the Pool"
                       + (f"; {text.count(b['wins'])} of {text.count(b['games'])} Pools "
                          "collected by the side behind" if b else ""))
    if not any(x["games"] for x in behind):
        others = _collecting(a, h)
        return [Verdict("The Pool", (
            "The Pool decides no game: no Challenge's Gem was won while the Pool held one "
            f"in {text.count(sum(r['games'] for r in decides))} games. A Gem that goes to "
            "the Pool ends the next Challenge (the builder takes a Pool Gem first), so "
            "whoever beats that Challenge wins it; the Pool never grows."
            + (" That is the players' doing, not the rules': it decides "
               + text.join_words([f"{rate_text(r)} of {player_words(r['heuristic'])}'s games"
                                  for r in others]) + "."
               if others else
               f" That is how {player_words(h)} builds, not a rule: a player that does not "
               "end a Challenge with the Pool's Gem lets it grow "
               "(`gem-runner-first-player-search` plays the search player beside it).")),
            who_of([player_words(h)] + [player_words(r["heuristic"]) for r in others]),
            details + [f"{player_words(r['heuristic'])}: {text.count(r['wins'])} of "
                       f"{text.count(r['games'])} games decided by the Pool"
                       for r in others])]
    catch = [x for x in behind if x["ci_low"] > 0.5]
    tail = (" The Pool helps the trailing player catch up: most of it goes to the side "
            "behind." if catch else
            " The Pool is no catch-up rule: the side behind collects no more than half of "
            "it." if behind and all(x["ci_high"] <= 0.5 for x in behind) else "")
    sentence = "; ".join(parts)
    return [Verdict("The Pool", sentence[0].upper() + sentence[1:] + "." + tail,
                    who_of([player_words(h)]), details + [
                        "The Pool decides a game when the winning Gem's Pool took its side to "
                        "the target and the Gems of the run alone did not. A side is behind "
                        "when another holds more Gems as it collects; 95% Wilson."])]


def _collecting(a: Analysis, h: str) -> list[dict]:
    """The other players of the rulebook's settings whose games collect the Pool: where the
    main player's builders always end a Challenge with the Pool's Gem, a player that does not
    (the search) makes the Pool decide games, so the main player's verdict is its play's."""
    lv = plain(a).filter((pl.col("heuristic") != h) & ~pl.col("heuristic").str.contains(","))
    collected = {r["heuristic"] for r in pooled(a.behind, lv, ["heuristic"]) if r["games"]}
    return [r for r in pooled(a.decides, lv, ["heuristic"]) if r["heuristic"] in collected]


# -- Verdicts by player -----------------------------------------------------------------------

def players(pairs: list[Pair], players_of: dict[str, list[str]]) -> list[Verdict]:
    out = []
    for run, mine in by_run(pairs, PLAYERS_KIND).items():
        for p in mine:
            rows = [(name, r) for q, name in (("first", "the first player's wins"),
                                              ("length:mean", "the length"),
                                              ("pool_gems", "the Pool Gems a game"))
                    if (r := p.row(q)) is not None]
            if not rows:
                continue
            moved = [n for n, r in rows if r["holm"]]
            said = text.join_words([f"{n} by {_change(r)}" for n, r in rows])
            out.append(Verdict("Verdicts by player", (
                f"With {p.label} rather than {p.base_label}"
                f"{' against the Computer' if p.computer else ''}, {said}: "
                + (f"{text.join_words(moved)} beyond chance." if moved else
                   "none beyond chance, so these answers hold for both players.")),
                who_of([player_words(s) for s in dict.fromkeys((*p.base_seats, *p.seats))],
                       f"{run} run"),
                [f"{n}: {findings.effect_text(r, ' percentage points', 100.0)}"
                 if r["kind"] == "rate" else f"{n}: {_change(r)}" for n, r in rows]))
    return out


def question_words(r: dict) -> str:
    """What a by-player row answers (by_player.SCHEMA), with the settings it was played on."""
    if r["question"] == DECK:
        said = f"{hero_words(r['hero'])}'s deck against {hero_words(r['against'])}'s"
    elif r["question"] == COMPUTER_Q:
        said = (f"the seats' wins against the Computer, {seats_words(r['players'])}, "
                f"{decks_words(r['decks'])}")
    elif r["question"] == POOL_Q:
        said = f"the games the Pool decides at {r['players']} players"
    else:
        said = f"the first player's share at {r['players']} players"
    return said + (f" ({r['setting']})" if r["setting"] else "")


def count_words(r: dict) -> str:
    """What a by-player row's pairs are: the shuffles played both ways round, or games."""
    return text.plural(r["pairs"], "shuffle" if r["question"] == DECK else "game")


def moves_words(r: dict, short: bool = False) -> str:
    """The verdict of a by-player row: the answer holds for both players or moves, and by how
    much (the paired 95% interval; `short`: the change alone, for a table that shows it)."""
    if paired.too_few(r["pairs"]):
        return paired.TOO_FEW
    change = text.difference(r["difference"], r["ci_low"], r["ci_high"])
    if r["found"]:
        return (f"moves by {text.signed_points(r['difference'], 1)}" if short else
                f"it moves by {change} with {player_words(r['b'])}")
    return ("holds for both players" if short else
            f"the answer holds for both players ({change}, within chance)")


def by_player_verdicts(a: Analysis) -> list[Verdict]:
    """Per run that plays two players beside another lever and pair of players, how many
    answers hold on the same shuffles, and which move and by how much."""
    if a.by_player is None:
        return []
    out = []
    # A run of the players alone is read by players() from its own comparison.
    mine = a.by_player.filter(~pl.col("lever"))
    for (run, pa, pb), g in mine.group_by("run", "a", "b", maintain_order=True):
        rows = g.to_dicts()
        known = [r for r in rows if not paired.too_few(r["pairs"])]
        if not known:
            continue
        moved = [r for r in known if r["found"]]
        head = (f"With {player_words(pb)} rather than {player_words(pa)} on the same "
                f"shuffles, ")
        if moved:
            say = head + (f"{len(known) - len(moved)} of {len(known)} answers hold; "
                          + "; ".join(f"{question_words(r)} moves by "
                                      + text.difference(r["difference"], r["ci_low"],
                                                        r["ci_high"]) for r in moved) + ".")
        else:
            say = head + (f"every answer holds for both players ({len(known)} of "
                          f"{len(known)}: each paired difference within chance).")
        out.append(Verdict("Verdicts by player", say,
                           who_of([player_words(pa), player_words(pb)],
                                  f"{run} run" if run else ""),
                           [f"{question_words(r)}: {player_words(pa)} "
                            f"{text.pct(r['value_a'], 1)}, {player_words(pb)} "
                            f"{text.pct(r['value_b'], 1)}, {count_words(r)}: "
                            f"{moves_words(r)}" for r in rows]
                           + ["Paired on the same shuffles, 95% intervals (Tango's for a "
                              "share of games, the paired t over the shuffles for a deck's "
                              "share), each read alone, with no correction for the run's "
                              "other questions."]))
    return out


def _change(r: dict) -> str:
    if r["kind"] == "rate":
        return text.difference(r["difference"], r["ci_low"], r["ci_high"])
    if text.missing(r["ci_low"]):
        return text.signed(r["difference"])
    return (f"{text.signed(r['difference'])} ({text.signed(r['ci_low'])} to "
            f"{text.signed(r['ci_high'])})")


def verdicts(a: Analysis, pairs: list[Pair], players_of: dict[str, list[str]]
             ) -> list[Verdict]:
    return (computer(a) + decks(a) + first_player(a) + compensation(pairs, players_of)
            + length(a, pairs, players_of)
            + pool(a) + players(pairs, players_of) + by_player_verdicts(a))
