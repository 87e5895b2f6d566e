"""Verdicts by player: the same setting played by different players (greedy, the learned
player, the search-based reference at its budgets, the clairvoyant bound), to show how far a
verdict moves with the strength of play.

A *band* (`base_setting`) is a setting without its player. It spans the runs a report reads:
the settings of every run that played the same game (the edition, the content file and its
text, the rules and the code: what `--merge` requires, reports/page/merge.py, less the player) are
one band, so greedy's 10,000 games a player count of one run sit beside the reference's 200 of
another. Runs that did not play alike stay apart, each band named with its runs.

A *player* is the heuristic with its knobs ("reference (budget 64)"). Where a player played a
band at a player count in several runs, the run with the most games speaks for it (the
`lineup`): the same player's few games would only blur the band.

The main job's headline comes from one player (`headline`): the strongest player, by the mean
team score, among those that played the headline's full game count at every player count; a
player is preferred to the default (the designer's first setting) only when it is clearly
stronger, and the page says which and why.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import polars as pl

from balance.contract.experiment import KNOB_PREFIX
from balance.contract.labels import value_words
from balance.games.gemrush.game import GAME
from balance.stats import paired
from balance.stats.distributions import normal_quantile, t_quantile
from balance.stats.intervals import UPPER
from reports.gemrush.frame import GROUP, with_base_setting
from reports.render import text
from reports.tables.variants import run_variants

# The players that see what no seat can see (the deck): an upper bound on play, drawn in the
# band but never the headline's player.
BOUNDS = ("clairvoyant",)
# What two runs' settings must agree on to be one band: reports/page/merge.py's PLAYED_ALIKE and
# GemRushReport.played_alike, less the keys that make the player (heuristic, seats, knobs).
ALIKE = ("edition", "content", "content_sha256", "rules")
# The code that played a run (reports/page/merge.py's CODE): another version of the engine or the
# players is another game.
CODE = ("source_hash", "engine_version")

ROSTER = {"base_setting": pl.Utf8, "setting": pl.Utf8, "heuristic": pl.Utf8,
          "player": pl.Utf8, "bound": pl.Boolean, "run": pl.Utf8, "order": pl.Int64}
LINEUP = {"base_setting": pl.Utf8, "players": pl.Int64, "player": pl.Utf8,
          "bound": pl.Boolean, "setting": pl.Utf8, "games": pl.Int64}
SCORES = {"setting": pl.Utf8, "players": pl.Int64, "games": pl.Int64, "mean": pl.Float64,
          "var": pl.Float64}
PAIRS = {"setting": pl.Utf8, "against": pl.Utf8, "players": pl.Int64, "pairs": pl.Int64,
         "difference": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
SEEDED = {"setting": pl.Utf8, "players": pl.Int64, "seed": pl.Int64, "score": pl.Int64}


# -- who played what ------------------------------------------------------------------------

def player_label(heuristic: str, knobs: dict | None = None) -> str:
    """"Greedy", "Reference (budget 64)", "Clairvoyant bound (budget 8)": the heuristic, as
    the game names its player, and the knobs the run set, which make another player (a
    budget buys strength)."""
    title = value_words(GAME, "heuristic", heuristic)
    name = f"{title} bound" if heuristic in BOUNDS else title
    set_ = ", ".join(f"{k} {text.num(v, 3)}" for k, v in sorted((knobs or {}).items()))
    return f"{name} ({set_})" if set_ else name


def _variants(manifest: dict | None) -> dict[int, dict]:
    return {int(v["variant"]): v for v in (manifest or {}).get("variants", [])
            if "variant" in v}


def _alike(v: dict, codes: dict[str, list]) -> str:
    """What a variant's games must share with another run's to be one band."""
    key = [v.get(k) or None for k in ALIKE] + codes.get(str(v.get("from_run")), [])
    return json.dumps(key, sort_keys=True, default=str)


def roster(kinds: pl.DataFrame, manifest: dict | None) -> pl.DataFrame:
    """Every setting of `kinds` (a tally's kinds, or games with a setting) with its band
    (`base_setting`), its `player` label, its heuristic, whether it is a `bound` (BOUNDS), its
    run (null in a report of one run or of merged runs) and `order`, its first variant (the
    designer's order)."""
    if kinds.height == 0:
        return pl.DataFrame(schema=ROSTER)
    # The run and a swept knob name a run and a player, not the game: a band spans both.
    bare = kinds.drop([c for c in kinds.columns if c == "run" or c.startswith(KNOB_PREFIX)])
    base = with_base_setting(bare).select("setting", "base_setting")
    info = _variants(manifest)
    codes = {str(r.get("name")): [r.get(k) for k in CODE]
             for r in (manifest or {}).get("runs") or []}
    run = pl.col("run").cast(pl.Utf8) if "run" in kinds.columns else pl.lit(None, pl.Utf8)
    firsts = (kinds.select("setting", pl.col("variant").cast(pl.Int64),
                           pl.col("heuristic").cast(pl.Utf8), run.alias("run"))
              .sort("variant").unique("setting", keep="first"))
    rows = []
    for setting, variant, heuristic, run_name in firsts.rows():
        v = info.get(variant, {})
        rows.append((setting, heuristic, player_label(str(v.get("heuristic", heuristic)),
                                                      v.get("knobs")),
                     run_name, variant, _alike(v, codes)))
    r = pl.DataFrame(rows, schema={"setting": pl.Utf8, "heuristic": pl.Utf8, "player": pl.Utf8,
                                   "run": pl.Utf8, "order": pl.Int64, "alike": pl.Utf8},
                     orient="row").join(base.unique("setting"), on="setting")
    return (_split_unlike(r).with_columns(pl.col("heuristic").is_in(BOUNDS).alias("bound"))
            .select(list(ROSTER)).sort("base_setting", "order"))


def _split_unlike(r: pl.DataFrame) -> pl.DataFrame:
    """Settings of one label whose runs did not play alike are bands apart, each named with
    its runs: "2e (my-rules, other-rules)"."""
    kinds = r.group_by("base_setting").agg(pl.col("alike").n_unique().alias("_kinds"))
    runs = r.group_by("base_setting", "alike").agg(
        pl.col("run").drop_nulls().unique().sort().str.join(", ").alias("_runs"))
    split = (pl.col("_kinds") > 1) & (pl.col("_runs") != "")
    return (r.join(kinds, on="base_setting").join(runs, on=["base_setting", "alike"])
            .with_columns(pl.when(split).then(pl.col("base_setting") + " (" + pl.col("_runs")
                                              + ")").otherwise(pl.col("base_setting"))
                          .alias("base_setting")))


def lineup(roster_: pl.DataFrame, curve: pl.DataFrame) -> pl.DataFrame:
    """Per band, player count and player: the setting that speaks for the player there (the
    one with the most games played to exhaustion; the designer's first on a tie)."""
    if roster_.height == 0 or curve.height == 0:
        return pl.DataFrame(schema=LINEUP)
    games = curve.group_by("setting", "players").agg(pl.col("games").max())
    return (games.join(roster_, on="setting")
            .sort(["games", "order"], descending=[True, False])
            .unique(["base_setting", "players", "player"], keep="first", maintain_order=True)
            .select(list(LINEUP)).cast({"players": pl.Int64, "games": pl.Int64})
            .sort("base_setting", "players", "player"))


def several(lineup_: pl.DataFrame) -> pl.DataFrame:
    """The lineup's rows where two players or more played the band at that player count."""
    if lineup_.height == 0:
        return lineup_
    n = lineup_.group_by("base_setting", "players").agg(pl.col("player").n_unique().alias("_n"))
    return lineup_.join(n, on=["base_setting", "players"]).filter(pl.col("_n") > 1).drop("_n")


def settings_by_player(roster_: pl.DataFrame, lineup_: pl.DataFrame | None = None
                       ) -> pl.DataFrame:
    """The roster of every band played by two players or more (at one player count at
    least, when the `lineup_` is given); empty when each band has one player."""
    if roster_.height == 0:
        return roster_
    if lineup_ is not None:
        keep = several(lineup_)["base_setting"].unique().to_list()
    else:
        n = roster_.group_by("base_setting").agg(pl.col("player").n_unique().alias("n"))
        keep = n.filter(pl.col("n") > 1)["base_setting"].to_list()
    return roster_.filter(pl.col("base_setting").is_in(keep)).sort("base_setting", "player")


def curves_by_player(curve: pl.DataFrame, lineup_: pl.DataFrame) -> pl.DataFrame:
    """The difficulty curve (crisis.difficulty_curve) of each player of the lineup, where two
    players or more played, labelled by band and player."""
    keys = several(lineup_).drop("games")
    return curve.join(keys, on=["setting", "players"]).sort("base_setting", "players",
                                                            "player", "target")


def target_spread(targets: pl.DataFrame, lineup_: pl.DataFrame) -> pl.DataFrame:
    """Per band, player count and win rate, where two players or more played: each player's
    target for that rate (crisis.targets_for_win_rates), and the band: `low` and `high`, the
    least and the most a player would print (a bound left out: no team plays it), and
    `spread`, how far apart they are."""
    keys = several(lineup_).drop("games")
    t = targets.join(keys, on=["setting", "players"])
    if t.height == 0:
        return t.with_columns(pl.lit(None, pl.Int64).alias("low"),
                              pl.lit(None, pl.Int64).alias("high"),
                              pl.lit(None, pl.Int64).alias("spread"))
    fair = pl.col("target").filter(~pl.col("bound"))
    band = (t.group_by("base_setting", "players", "level")
            .agg(fair.min().alias("low"), fair.max().alias("high"))
            .with_columns((pl.col("high") - pl.col("low")).alias("spread")))
    return t.join(band, on=["base_setting", "players", "level"]).sort(
        "base_setting", "players", pl.col("level"), "player",
        descending=[False, False, True, False])


# -- how strong each player is ----------------------------------------------------------------

def score_table(t) -> pl.DataFrame:
    """Per setting and player count, over the Crisis games played to exhaustion (a
    tally.Tallies): games, the mean team score and its variance."""
    s = t.table("score", *GROUP)
    if s.height == 0:
        return pl.DataFrame(schema=SCORES)
    x, n = pl.col("score").cast(pl.Float64), pl.col("n").cast(pl.Float64)
    mean = (x * n).sum() / n.sum()
    return (s.group_by(*GROUP).agg(
        n.sum().cast(pl.Int64).alias("games"), mean.alias("mean"),
        ((n * (x - mean) ** 2).sum() / (n.sum() - 1)).alias("var"))
        .cast({"players": pl.Int64}).select(list(SCORES)).sort(*GROUP))


def paired_scores(cmps: list, kinds: pl.DataFrame, manifest: dict | None) -> pl.DataFrame:
    """Every paired difference of the mean team score between two settings at one player
    count (`setting` less `against`), from the runs' comparisons (reports/compare/compare.py: the
    same games played by both, in one run), as PAIRS."""
    if not cmps or kinds.height == 0:
        return pl.DataFrame(schema=PAIRS)
    where = dict(kinds.select(pl.col("variant").cast(pl.Int64),
                              pl.struct("setting", pl.col("players").cast(pl.Int64)))
                 .unique("variant").rows())
    rows = []
    for name, cmp in cmps:
        number = {local: int(v["variant"]) for local, v in
                  run_variants(name, cmp, manifest or {}).items()}
        d = cmp.differences.filter((pl.col("quantity") == "score:mean")
                                   & pl.col("ci_low").is_not_nan())
        for r in d.iter_rows(named=True):
            a, b = where.get(number.get(r["against"], -1)), where.get(number.get(r["variant"], -1))
            if a is None or b is None or a["players"] != b["players"]:
                continue
            rows.append((b["setting"], a["setting"], a["players"], int(r["pairs"]),
                         r["difference"], r["ci_low"], r["ci_high"]))
    return pl.DataFrame(rows, schema=PAIRS, orient="row")


def seeded_scores(t, lineup_: pl.DataFrame) -> pl.DataFrame:
    """The team score of every game, by its seed, of the settings that speak for a player
    where two players or more played a band (the lineup's `several`), as SEEDED: what pairs
    two runs' games of the same deal. Empty where the tally kept no seeds
    (reports/gemrush/tally.py, SEEDED_MAX)."""
    keys = several(lineup_).select("setting", "players")
    if t.seeded is None or keys.height == 0:
        return pl.DataFrame(schema=SEEDED)
    kids = t.keys.select("kid", "setting", pl.col("players").cast(pl.Int64)).join(
        keys, on=["setting", "players"])
    return t.seeded.join(kids, on="kid").select(list(SEEDED)).cast(SEEDED)


@dataclass(frozen=True)
class Strength:
    """One player's mean team score less another's, averaged over the player counts both
    played, with its 95% interval; `how`: "paired", "Welch" or "paired and Welch"."""

    difference: float
    low: float
    high: float
    counts: tuple[int, ...]
    how: str

    @property
    def clear(self) -> bool:
        return self.low > 0

    @property
    def decimals(self) -> int:
        """As many as the interval tells apart: two where it is narrower than ±0.1 point
        (learned against greedy over 10,000 paired games a player count is ±0.03)."""
        return 2 if (self.high - self.low) / 2 < 0.095 else 1

    def said(self) -> str:
        d = self.decimals
        return (f"{text.signed(self.difference, d)} points ({self.how} 95% interval "
                f"{text.signed(self.low, d)} to {text.signed(self.high, d)}, "
                f"{_counts(self.counts)})")


def _paired_se(low: float, high: float, pairs: int) -> float:
    """The standard error behind a paired t interval of `pairs` games (0 for an interval of
    one point: every pair differed alike)."""
    return float((high - low) / 2 / t_quantile(pairs - 1, UPPER))


def _counts(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return f"at {text.plural(counts[0], 'player')}"
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"the mean over {counts[0]} to {counts[-1]} players"
    return f"the mean over {text.join_words([str(c) for c in counts])} players"


@dataclass(frozen=True)
class Band:
    """What the verdicts read of the players: the roster, the lineup, the difficulty curve,
    the score table, the paired differences of the runs' comparisons (PAIRS) and the scores
    by seed of the lineup's settings (SEEDED)."""

    roster: pl.DataFrame
    lineup: pl.DataFrame
    curve: pl.DataFrame
    scores: pl.DataFrame
    pairs: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=PAIRS))
    seeded: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=SEEDED))

    def of(self, setting: str) -> dict | None:
        """The roster row of a setting."""
        r = self.roster.filter(pl.col("setting") == setting)
        return r.row(0, named=True) if r.height else None

    def games(self, setting: str) -> dict[int, int]:
        """The games played to exhaustion at each player count of a setting."""
        g = self.scores.filter(pl.col("setting") == setting)
        return dict(g.select("players", "games").rows())

    def strength(self, a: dict[int, str], b: dict[int, str]) -> Strength | None:
        """The mean team score of player b less player a's (each its setting at each player
        count), averaged over the counts both played: paired where one run played both
        settings on the same games (its comparison) or where two runs dealt the same seeds
        (_by_seed), Welch's interval otherwise."""
        parts = []
        for p in sorted(set(a) & set(b)):
            part = (self._paired(p, a[p], b[p]) or self._by_seed(p, a[p], b[p])
                    or self._welch(p, a[p], b[p]))
            if part is not None:
                parts.append((p, *part))
        if not parts:
            return None
        k = len(parts)
        d = sum(x[1] for x in parts) / k
        se = math.sqrt(sum(x[2] ** 2 for x in parts)) / k
        hows = sorted({x[3] for x in parts}, reverse=True)
        # The project's confidence (balance/stats), two-sided, as every other interval of the
        # report; normal: the mean of several differences.
        z = normal_quantile(UPPER)
        return Strength(d, d - z * se, d + z * se, tuple(x[0] for x in parts),
                        " and ".join(hows))

    def _paired(self, p: int, a: str, b: str) -> tuple[float, float, str] | None:
        t = self.pairs.filter(pl.col("players") == p)
        for sign, setting, against in ((1.0, b, a), (-1.0, a, b)):
            r = t.filter((pl.col("setting") == setting) & (pl.col("against") == against))
            if r.height:
                x = r.row(0, named=True)
                return (sign * x["difference"], _paired_se(x["ci_low"], x["ci_high"], x["pairs"]),
                        "paired")
        return None

    def _by_seed(self, p: int, a: str, b: str) -> tuple[float, float, str] | None:
        """Paired over the games both settings played on the same seed: game i of two runs
        of one seed is the same deal (the main job's crisis-difficulty and crisis-learned,
        or a run of fewer games from the same seed). Only where the seeds common to both are every
        game of the one that played fewer, each seed once: which games pair is then fixed by
        the runs, not chosen for a narrower interval."""
        s = self.seeded.filter(pl.col("players") == p)
        ga = s.filter(pl.col("setting") == a).select("seed", pl.col("score").alias("a"))
        gb = s.filter(pl.col("setting") == b).select("seed", pl.col("score").alias("b"))
        if ga["seed"].n_unique() != ga.height or gb["seed"].n_unique() != gb.height:
            return None
        both = ga.join(gb, on="seed")
        if both.height != min(ga.height, gb.height):
            return None
        # The comparisons' own paired interval (balance/stats/paired.py), as _paired reads it.
        r = paired.mean_difference(both["a"].to_numpy(), both["b"].to_numpy())
        if r is None or r.too_few:
            return None
        return r.estimate, _paired_se(r.low, r.high, r.n), "paired"

    def _welch(self, p: int, a: str, b: str) -> tuple[float, float, str] | None:
        s = self.scores.filter(pl.col("players") == p)
        ra, rb = s.filter(pl.col("setting") == a), s.filter(pl.col("setting") == b)
        if ra.height == 0 or rb.height == 0 or min(ra["games"][0], rb["games"][0]) < 2:
            return None
        se = math.sqrt(ra["var"][0] / ra["games"][0] + rb["var"][0] / rb["games"][0])
        return float(rb["mean"][0] - ra["mean"][0]), se, "Welch"

    def at(self, band: str, p: int) -> pl.DataFrame:
        """The lineup of a band at one player count."""
        return self.lineup.filter((pl.col("base_setting") == band) & (pl.col("players") == p))

    def settings_of(self, band: str, player: str) -> dict[int, str]:
        """The setting that speaks for a player at each player count of a band."""
        r = self.lineup.filter((pl.col("base_setting") == band) & (pl.col("player") == player))
        return dict(r.select("players", "setting").rows())


@dataclass(frozen=True)
class Choice:
    """The player the headline comes from, and why (Band.headline)."""

    setting: str            # the setting the headline reads
    player: str
    default: str            # the designer's first setting's player
    full: dict[int, int]    # the games a player count the headline asks for
    # The other players that played them all, each against the default.
    rivals: tuple[tuple[str, Strength | None], ...] = ()
    # Players that played fewer games and score clearly more than the chosen one.
    fewer: tuple[tuple[str, int, Strength], ...] = ()
    lead: Strength | None = None  # the chosen player's against the default, when not it

    @property
    def games(self) -> str:
        lo, hi = min(self.full.values()), max(self.full.values())
        return text.count(lo) if lo == hi else f"{text.count(lo)} to {text.count(hi)}"


def headline(band_: Band, default: str) -> Choice | None:
    """The setting the headline comes from: among the settings of the default's band that
    played at least the default's games at each of its player counts (its full game count),
    by a player other than a bound, the strongest by the mean team score, where it is
    clearly stronger than the default (its 95% interval above zero); else the default."""
    me = band_.of(default)
    full = band_.games(default)
    if me is None or not full:
        return None
    band, own = me["base_setting"], {p: default for p in full}
    rivals = []
    for r in band_.roster.filter((pl.col("base_setting") == band)
                                 & (pl.col("player") != me["player"])).iter_rows(named=True):
        if r["heuristic"] in BOUNDS or r["player"] in {x[0] for x in rivals}:
            continue
        games = band_.games(r["setting"])
        if all(games.get(p, 0) >= n for p, n in full.items()):
            rivals.append((r["player"], band_.strength(own, {p: r["setting"] for p in full}),
                           r["setting"]))
    clear = [x for x in rivals if x[1] is not None and x[1].clear]
    pick = max(clear, key=lambda x: x[1].difference) if clear else None
    setting, player = (pick[2], pick[0]) if pick else (default, me["player"])
    return Choice(setting, player, me["player"], full,
                  tuple((x[0], x[1]) for x in rivals if x is not pick),
                  _fewer(band_, band, player, setting, full, {x[0] for x in rivals}),
                  pick[1] if pick else None)


def _fewer(band_: Band, band: str, player: str, setting: str, full: dict[int, int],
           rivals: set[str]) -> tuple[tuple[str, int, Strength], ...]:
    """The players of the band (not a bound) that played fewer games than the headline asks
    for and score clearly more than its player, with the fewest games they played."""
    mine = {p: setting for p in full}
    out = []
    others = band_.lineup.filter((pl.col("base_setting") == band)
                                 & pl.col("players").is_in(list(full))
                                 & (pl.col("player") != player) & ~pl.col("bound")
                                 & ~pl.col("player").is_in(list(rivals)))
    for (who,), g in sorted(others.group_by("player"), key=lambda kv: kv[0]):
        s = band_.strength(mine, dict(g.select("players", "setting").rows()))
        if s is not None and s.clear:
            out.append((who, int(g["games"].min()), s))
    return tuple(out)


def rates_at(band_: Band, setting: str, target: int) -> pl.DataFrame:
    """The win rate at `target` of every player of a setting's band, at each of its player
    counts, the setting itself speaking for its player: base_setting, players, player, bound,
    setting, games, win_rate, ci_low, ci_high."""
    me = band_.of(setting)
    if me is None:
        return pl.DataFrame()
    counts = list(band_.games(setting))
    others = band_.lineup.filter((pl.col("base_setting") == me["base_setting"])
                                 & pl.col("players").is_in(counts)
                                 & (pl.col("player") != me["player"]))
    own = pl.DataFrame({"base_setting": me["base_setting"], "players": counts,
                        "player": me["player"], "bound": me["bound"], "setting": setting},
                       schema={k: LINEUP[k] for k in ("base_setting", "players", "player",
                                                      "bound", "setting")})
    keys = pl.concat([own, others.drop("games")])
    at = band_.curve.filter(pl.col("target") == target).select(
        "setting", "players", "games", "win_rate", "ci_low", "ci_high")
    return keys.join(at, on=["setting", "players"]).sort("players", "win_rate", "player")
