"""Every analysis of a Gem Runner run the report draws. One pass over the games table adds these
count tables to the neutral ones (reports/tables/tally.py), each with `kid` and `n`:

    side   kid, seats_won, decided, first_won   every game: the seats' side won (against the
                                                Computer: the seat or the team beat it), a
                                                seat or the Computer reached the target, and
                                                seat 1 won
    pool   kid, pool_decides, pool_wins,        every game: the winning Gem's Pool took its
           pool_behind, pool_overtakes          side to the target; the Pools collected, those
                                                by a side behind, those that put it ahead

and the analyses read them per setting and player count (reports/tables/frame.py, GROUP):

- `levers`: what each (setting, players) played: against the Computer or head to head, the
  decks and their heroes, the target, the hands, each deck's counts, from the manifest's rules
  over Gem Runner's defaults (the `auto` way to play and decks read by the seat count);
- `computer`: against the Computer, the share of games the seats win, 95% Wilson;
- `first`: head to head, the first seat's share of the games one seat won, 95% Wilson;
- `pool`: the share of games the Pool decides, of Pool collections made by a side behind,
  and of those that put it ahead, each 95% Wilson;
- `decks`: deck against deck, from the runs that play each pair of heroes both ways round
  on the same seeds (the only table read game by game: a row per shuffle).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import polars as pl

from balance.games.gem_runner.rules import DEFAULTS, against_computer, decks_for
from balance.stats import paired
from balance.stats.intervals import with_wilson
from reports.outcomes import analysis, outcomes
from reports.tables import counts, pieces, tally
from reports.tables.counts import rates
from reports.tables.frame import GROUP, Layout
from reports.tables.variants import LeverTable

COLUMNS = ("first_won", "pool_wins", "pool_decides", "pool_behind", "pool_overtakes")
HEROES = ("hero1", "hero2", "hero3", "hero4")
# What changes a game's length beside the players: the target, the hands, the deck's counts.
LENGTH = ("target", "hand", "pair_hand", "gems", "chains", "bugs", "bug_fixes", "hazards",
          "bosses")
COMPUTER = ("computer_hand", "computer_gem", "computer_supers", "computer_repeats")

LEVER_SCHEMA = {"setting": pl.Utf8, "players": pl.Int64, "variant": pl.Int64, "run": pl.Utf8,
                "heuristic": pl.Utf8, "computer": pl.Boolean, "decks": pl.Int64,
                "hero1": pl.Utf8, "hero2": pl.Utf8, "target": pl.Int64, "hand": pl.Int64,
                "gems": pl.Int64, "chains": pl.Int64, "bugs": pl.Int64, "changed": pl.Utf8,
                "games": pl.Int64}
DECK_SCHEMA = {"run": pl.Utf8, "heuristic": pl.Utf8, "deck": pl.Utf8, "against": pl.Utf8,
               "shuffles": pl.Int64, "share": pl.Float64, "ci_low": pl.Float64,
               "ci_high": pl.Float64, "first": pl.Float64}


class Counter(tally.Counter):
    EMPTY = {
        **tally.Counter.EMPTY,
        "side": {"seats_won": pl.Boolean, "decided": pl.Boolean, "first_won": pl.Boolean},
        "pool": {"pool_decides": pl.Int64, "pool_wins": pl.Int64, "pool_behind": pl.Int64,
                 "pool_overtakes": pl.Int64},
    }

    def piece_counts(self, g: pl.DataFrame) -> dict[str, pl.DataFrame]:
        out = super().piece_counts(g)
        pool = ("pool_decides", "pool_wins", "pool_behind", "pool_overtakes")
        out.update({
            "side": counts.of_rows(g.select(
                "kid", (pl.col("winner").fill_null(0) >= 1).alias("seats_won"),
                (pl.col("end_reason") == "gems").alias("decided"), "first_won"),
                ["kid"], ["seats_won", "decided", "first_won"]),
            "pool": counts.of_rows(g.select("kid", *(pl.col(c).cast(pl.Int64) for c in pool)),
                                   ["kid"], list(pool)),
        })
        return out


@dataclass(frozen=True)
class Analysis(analysis.Analysis, LeverTable):
    levers: pl.DataFrame    # LEVER_SCHEMA: one row per (setting, players)
    computer: pl.DataFrame  # against the Computer: setting, players, games, wins, win_rate, ci
    first: pl.DataFrame     # head to head: the first seat's share of the games a seat won
    pool: pl.DataFrame      # setting, players, games, decides, collections, behind, overtakes
    decides: pl.DataFrame   # the share of games the Pool decides (RATE, Wilson)
    behind: pl.DataFrame    # the share of Pool collections by a side behind (Wilson)
    overtakes: pl.DataFrame  # of those, the share that put it ahead (Wilson)
    decks: pl.DataFrame     # DECK_SCHEMA: deck against deck, seats swapped on the same seeds
    # Which cards matter (reports/gem_runner/cards.py, card_value); None until the report
    # adds it
    cards: pl.DataFrame | None = field(default=None, kw_only=True)
    # Each answer for two players on the same shuffles (reports/gem_runner/by_player.py,
    # SCHEMA); None until the report adds it
    by_player: pl.DataFrame | None = field(default=None, kw_only=True)


def analyse(games, manifest: dict, layout: Layout) -> Analysis:
    manifest = manifest or {}
    t = tally.count(games, manifest, layout, Counter)
    o = outcomes.outcomes(t)
    keys = t.keys.select("kid", *GROUP).cast({"players": pl.Int64})
    levers = levers_of(t.keys, manifest)
    side = t.tables["side"].join(keys, on="kid").join(
        levers.select(*GROUP, "computer"), on=list(GROUP))
    pool = pool_sums(t.tables["pool"].join(keys, on="kid"))
    # The kit records the seats' win against the Computer as the seat whose Gem reached the
    # target (`winner`), so the neutral team table, which counts the games no seat won,
    # holds the Computer's wins alone and would chart the team at 0%: it is the seats' side
    # over the decided games against the Computer instead.
    o = replace(o, team_wins=rates(side.filter(pl.col("computer") & pl.col("decided")),
                                   "seats_won").select(o.team_wins.columns))
    return Analysis(
        kinds=t.keys.select(*t.kinds().columns, "games"), versions=t.versions,
        manifest=manifest, outcomes=o, levers=levers,
        computer=rates(side.filter(pl.col("computer")), "seats_won"),
        first=rates(side.filter(~pl.col("computer") & pl.col("seats_won")), "first_won"),
        pool=pool,
        decides=with_wilson(pool.select(*GROUP, "games", pl.col("decides").alias("wins"))),
        behind=with_wilson(pool.select(*GROUP, pl.col("collections").alias("games"),
                                       pl.col("behind").alias("wins"))),
        overtakes=with_wilson(pool.select(*GROUP, pl.col("behind").alias("games"),
                                          pl.col("overtakes").alias("wins"))),
        decks=deck_matrix(games, manifest))


def pool_sums(c: pl.DataFrame) -> pl.DataFrame:
    """Per (setting, players): games, the games the Pool decides, and the Pool collections in
    all, by a side behind, and of those the ones that put it ahead."""
    n = pl.col("n")
    return (c.group_by(*GROUP).agg(
        n.sum().alias("games"), n.filter(pl.col("pool_decides") > 0).sum().alias("decides"),
        (pl.col("pool_wins") * n).sum().alias("collections"),
        (pl.col("pool_behind") * n).sum().alias("behind"),
        (pl.col("pool_overtakes") * n).sum().alias("overtakes"))
        .cast({c: pl.Int64 for c in ("players", "games", "decides", "collections", "behind",
                                     "overtakes")}).sort(*GROUP))


def rules_of(info: dict) -> dict:
    """A variant's every rule: Gem Runner's defaults, then the manifest's overrides."""
    return {**DEFAULTS, **(info.get("rules") or {})}


def played(info: dict) -> tuple[bool, int]:
    """(against the Computer, decks in play) of a variant, `auto` read by its seat count."""
    r, seats = rules_of(info), int(info.get("players") or 0)
    computer = against_computer(r["play"], seats)
    return computer, decks_for(r["decks"], computer, seats)


def changed(rules: dict) -> str:
    """The settings a variant plays off the defaults, by name ("target, hand"); "" none."""
    return ", ".join(k for k in DEFAULTS if rules[k] != DEFAULTS[k])


def seats_of(info: dict) -> list[str]:
    """A variant's player on each seat (its `seats`, or its one `heuristic` on every seat)."""
    if info.get("seats"):
        return [str(x) for x in info["seats"]]
    return [str(info.get("heuristic") or "")] * int(info.get("players") or 0)


def players_text(info: dict) -> str:
    """The players of a variant: one name, or each seat's joined by commas."""
    seats = seats_of(info)
    return seats[0] if len(set(seats)) == 1 else ", ".join(seats)


def levers_of(keys: pl.DataFrame, manifest: dict) -> pl.DataFrame:
    """LEVER_SCHEMA: each (setting, players)'s first variant and what it played."""
    info = {int(v["variant"]): v for v in manifest.get("variants", []) if "variant" in v}
    if keys.height == 0:
        return pl.DataFrame(schema=LEVER_SCHEMA)
    per = (keys.with_columns(pl.col("players").cast(pl.Int64))
           .group_by(*GROUP).agg(pl.col("variant").min(), pl.col("games").sum(),
                                 pl.col("heuristic").first().cast(pl.Utf8)))
    rows = []
    for setting, players, variant, games, heuristic in per.select(
            *GROUP, "variant", "games", "heuristic").rows():
        v = {"players": players, "heuristic": heuristic, **info.get(int(variant), {})}
        r = rules_of(v)
        computer, decks = played(v)
        rows.append((setting, int(players), int(variant), v.get("run") or v.get("from_run"),
                     players_text(v), computer, decks, r["hero1"], r["hero2"],
                     int(r["target"]), int(r["pair_hand"] if computer and players > 1
                                           else r["hand"]),
                     int(r["gems"]), int(r["chains"]), int(r["bugs"]), changed(r), int(games)))
    return pl.DataFrame(rows, schema=LEVER_SCHEMA, orient="row").sort("variant")


# -- Deck against deck ------------------------------------------------------------------------

def mirrored(manifest: dict) -> list[tuple[int, int, str, str, str, str]]:
    """(variant A-B, variant B-A, hero A, hero B, run, player) of every pair of two-seat,
    two-deck head-to-head variants of one run that swap the two heroes and agree on
    everything else (the players, every other rule), A before B in the heroes' order."""
    variants = [v for v in manifest.get("variants", []) if "variant" in v]

    def key(v: dict) -> tuple | None:
        if int(v.get("players") or 0) != 2 or played(v) != (False, 2):
            return None
        r = {k: x for k, x in rules_of(v).items() if k not in ("hero1", "hero2")}
        return (str(v.get("from_run") or v.get("run") or ""), tuple(seats_of(v)),
                tuple(sorted(r.items())), tuple(sorted((v.get("knobs") or {}).items())))

    by = {}
    for v in variants:
        k = key(v)
        if k is not None:
            r = rules_of(v)
            by.setdefault(k, {})[(r["hero1"], r["hero2"])] = int(v["variant"])
    out = []
    for k, heroes in by.items():
        for (a, b), v in heroes.items():
            back = heroes.get((b, a))
            if a != b and back is not None and HERO_ORDER[a] < HERO_ORDER[b]:
                out.append((v, back, a, b, k[0], players_text({"seats": list(k[1])})))
    return sorted(out, key=lambda x: (x[4], x[5], HERO_ORDER[x[2]], HERO_ORDER[x[3]]))


HERO_ORDER = {h: i for i, h in enumerate(DEFAULTS[k] for k in HEROES)}


def deck_matrix(games, manifest: dict) -> pl.DataFrame:
    """DECK_SCHEMA: for every pair of heroes played both ways round, each deck's share on the
    same shuffles (seat 1 with deck A against deck B, then the seats swapped on the same
    seed): a win counts 1, a game stopped undecided 1/2; the share per shuffle is the mean of
    the two games, and its 95% interval the t interval over the shuffles. `first` is seat 1's
    share over the same games, whatever its deck."""
    pairs = mirrored(manifest or {})
    if not pairs:
        return pl.DataFrame(schema=DECK_SCHEMA)
    wanted = {v for p in pairs for v in p[:2]}
    parts = [p.filter(pl.col("variant").is_in(list(wanted)))
             for p in pieces.of(games, ["variant", "seed", "winner"])]
    g = pl.concat([p for p in parts if p.height] or [parts[0]]).with_columns(
        pl.col("variant").cast(pl.Int64), pl.col("winner").cast(pl.Int64).fill_null(0))
    rows = []
    for ab, ba, a, b, run, player in pairs:
        both = (g.filter(pl.col("variant") == ab).select("seed", pl.col("winner").alias("w1"))
                .join(g.filter(pl.col("variant") == ba).select(
                    "seed", pl.col("winner").alias("w2")), on="seed"))
        if both.height == 0:
            continue
        first = score(both["w1"].to_numpy(), 1)
        second = score(both["w2"].to_numpy(), 2)
        x = (first + second) / 2
        d = paired.mean_difference(np.full(len(x), 0.5), x)
        share = float(x.mean())
        lo, hi = (0.5 + d.low, 0.5 + d.high)
        seat1 = float((first + score(both["w2"].to_numpy(), 1)).mean() / 2)
        rows.append((run, player, a, b, both.height, share, lo, hi, seat1))
        rows.append((run, player, b, a, both.height, 1 - share, 1 - hi, 1 - lo, seat1))
    return pl.DataFrame(rows, schema=DECK_SCHEMA, orient="row")


def score(winner: np.ndarray, seat: int) -> np.ndarray:
    """Seat `seat`'s result (seats from 1, as the games table numbers them; 0 none) in each
    game: 1 won, 0 lost, 1/2 stopped undecided."""
    return np.where(winner == seat, 1.0, np.where(winner < 1, 0.5, 0.0))
