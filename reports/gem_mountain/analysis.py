"""Every analysis of a Gem Mountain run the report draws, from counts (reports/tables/tally.py): one
pass over the games table adds these count tables to the neutral ones, each with `kid` and `n`:

    least   kid, least_decides       every game: the least's penalty gave another winner
    tied    kid, tied_colours        every game: colours whose most two or more players share
    steals  kid, steals              every game: the steals made

and the analyses read them per setting and player count (reports/tables/frame.py, GROUP):

- `levers`: what each (setting, players) played: the map, the colours, the start's
  compensation, each action's tiles, from the manifest's rules over Gem Mountain's defaults;
- `first`: the first seat's and the last seat's share of the games one player won, against
  1/players, 95% Wilson (the neutral seat table, reports/outcomes/outcomes.py);
- `least`: the share of games the least's penalty decides, 95% Wilson;
- `tied`: the shared majorities' distribution, and the share of games with one, 95% Wilson;
- `steals`: the steals' distribution;
- `kingmaker`: the games a seat's steals decide (reports/gem_mountain/kingmaker.py), from the
  runs that seat a player who never steals beside the same players who do.

Only the kingmaker table reads games one by one (the baseline's and the honest seat's, paired
by seed); every other table is counts, so the report of millions of games fits in memory."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from balance.games.gem_mountain.rules import (
    ACTION_WORDS,
    ALL_ACTION_WORDS,
    DARK_WORDS,
    DEFAULTS,
    X_ACTION_WORDS,
)
from reports.gem_mountain import kingmaker
from reports.outcomes import analysis, outcomes
from reports.tables import counts, tally
from reports.tables.counts import rates
from reports.tables.frame import GROUP, Layout
from reports.tables.variants import LeverTable

COMPENSATION = ("start_tiles", "start_arrow")
# Every action tile's count: an ablation takes the expansions' out too (experiment.py).
ACTIONS = tuple(ALL_ACTION_WORDS)
# The expansions' switches, and the settings that play only with one on (their tiles' counts
# and their readings): a variant that switches one on against one that does not plays an
# expansion against the game without it.
EXPANSION_SWITCHES = ("dark_tunnels", "gemshards", "golden_actions")
EXPANSION_ONLY = (*EXPANSION_SWITCHES, *DARK_WORDS, "multiply_by", "halved", "quartered",
                  "wildcard", "wild_value", *X_ACTION_WORDS, "rumble_connected")
# What changes the map or the gems dealt on it: a map-size run grows the box with the map.
MAP = ("rows", "cols", "colours", "ones", "twos", "threes")

LEVER_SCHEMA = {"setting": pl.Utf8, "players": pl.Int64, "variant": pl.Int64, "run": pl.Utf8,
                "heuristic": pl.Utf8, "rows": pl.Int64, "cols": pl.Int64,
                "colours": pl.Int64, "start_tiles": pl.Utf8, "start_arrow": pl.Utf8,
                "actions_in_box": pl.Utf8, "changed": pl.Utf8, "games": pl.Int64}


class Counter(tally.Counter):
    EMPTY = {
        **tally.Counter.EMPTY,
        "least": {"least_decides": pl.Boolean},
        "tied": {"tied_colours": pl.Int64},
        "steals": {"steals": pl.Int64},
    }

    def piece_counts(self, g: pl.DataFrame) -> dict[str, pl.DataFrame]:
        out = super().piece_counts(g)
        out.update({
            "least": counts.of_rows(g.select("kid", "least_decides"), ["kid"],
                                    ["least_decides"]),
            "tied": counts.of_rows(g.select("kid", pl.col("tied_colours").cast(pl.Int64)),
                                   ["kid"], ["tied_colours"]),
            "steals": counts.of_rows(g.select("kid", pl.col("steals").cast(pl.Int64)),
                                     ["kid"], ["steals"]),
        })
        return out


@dataclass(frozen=True)
class Analysis(analysis.Analysis, LeverTable):
    levers: pl.DataFrame      # LEVER_SCHEMA: one row per (setting, players)
    first: pl.DataFrame       # setting, players, games, wins, win_rate, ci_*, fair, last_*
    least: pl.DataFrame       # setting, players, games, wins, win_rate, ci_low, ci_high
    tied: pl.DataFrame        # counts.distribution of tied_colours per (setting, players)
    shared: pl.DataFrame      # games with a shared majority: setting, players, games, wins, ...
    steals: pl.DataFrame      # counts.distribution of steals per (setting, players)
    kingmaker: pl.DataFrame   # kingmaker.SCHEMA: per run and honest seat


def analyse(games, manifest: dict, layout: Layout) -> Analysis:
    manifest = manifest or {}
    t = tally.count(games, manifest, layout, Counter)
    o = outcomes.outcomes(t)
    keys = t.keys.select("kid", *GROUP).cast({"players": pl.Int64})

    def per_group(name: str) -> pl.DataFrame:
        return t.tables[name].join(keys, on="kid")

    least = per_group("least")
    tied_counts = per_group("tied").group_by(*GROUP, "tied_colours").agg(pl.col("n").sum())
    steal_counts = per_group("steals").group_by(*GROUP, "steals").agg(pl.col("n").sum())
    shared = tied_counts.with_columns((pl.col("tied_colours") > 0).alias("any"))
    levers = levers_of(t.keys, manifest)
    return Analysis(
        kinds=t.keys.select(*t.kinds().columns, "games"), versions=t.versions,
        manifest=manifest, outcomes=o, levers=levers, first=first_and_last(o.seat_wins),
        least=rates(least, "least_decides"), shared=rates(shared, "any"),
        tied=counts.distribution(tied_counts.sort(*GROUP, "tied_colours"), "tied_colours",
                                 list(GROUP)),
        steals=counts.distribution(steal_counts.sort(*GROUP, "steals"), "steals", list(GROUP)),
        kingmaker=kingmaker.kingmaker(games, manifest, t.keys))


def first_and_last(seat_wins: pl.DataFrame) -> pl.DataFrame:
    """The first seat's row of the neutral seat table beside the last seat's (`last_*`),
    with the fair share of a game one player won, 1/players."""
    cols = ["setting", "players", "games", "wins", "win_rate", "ci_low", "ci_high", "off_fair"]
    first = seat_wins.filter(pl.col("seat") == 1).select(cols)
    last = seat_wins.filter(pl.col("seat") == pl.col("players")).select(
        "setting", "players", *(pl.col(c).alias(f"last_{c}") for c in cols[3:]))
    return (first.join(last, on=list(GROUP), how="left")
            .with_columns((1.0 / pl.col("players")).alias("fair")).sort(*GROUP))


def rules_of(info: dict) -> dict:
    """A variant's every rule: Gem Mountain's defaults, then the manifest's overrides."""
    return {**DEFAULTS, **(info.get("rules") or {})}


def actions_text(rules: dict) -> str:
    """The actions in the box, as the rulebook names them: "all five", or those left."""
    inside = [w for k, w in ACTION_WORDS.items() if rules[k]]
    if len(inside) == len(ACTION_WORDS):
        return "all five"
    return ", ".join(inside) if inside else "none"


def changed(rules: dict) -> str:
    """The settings a variant plays off the defaults, by name ("rows, steal"); "" for none."""
    return ", ".join(k for k in DEFAULTS if rules[k] != DEFAULTS[k])


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
        v = info.get(int(variant), {})
        r = rules_of(v)
        rows.append((setting, int(players), int(variant), v.get("run") or v.get("from_run"),
                     heuristic, int(r["rows"]), int(r["cols"]), int(r["colours"]),
                     r["start_tiles"], r["start_arrow"], actions_text(r), changed(r),
                     int(games)))
    return pl.DataFrame(rows, schema=LEVER_SCHEMA, orient="row").sort("variant")
