"""Every variant of a run compared with the baseline, game by game.

Game i of every variant is dealt from the same seed, so the variants are compared on the games
they share (an inner join on `game`), and each difference carries a 95% interval that uses the
pairing (balance/stats/paired.py).

What is compared is the game's: its report's `quantities` (reports/page/game_report.py) make the
rows of each pair of arms, and may add tables of their own. Without one, `Quantities` compares
what the core columns and the game's measures hold (balance/stats/measures.py):

- a competitive game (a seat wins, by the game's declaration, never by its games): the
  length (mean and median), the winner's margin (mean) and each seat's share of the wins;
- a cooperative game: the team's win rate, and its score (mean and median);
- every measure the game declares over a column of its own;
- a game that declares per-seat tallies (Game.tallies): each seat's mean of each tally, read
  from the run's seats table (reports/tallies/tallies.py), whatever the game's quantities.

Every rate is a share of decided games (balance/stats/measures.py): a game that stopped
undecided (one of the game's undecided_ends) is in no rate. A rate pairs the games decided in
both arms (and, for a measure, known in both); `pairs` says how many, `of` what the rate is a
share of, and a note says how many games each arm left undecided.

Holm's correction runs over every difference of the table: `holm` says which differences
survive it.

Variants of one setting whose games all left the same record (two players that made the same
choices in every game) are named in `alike` (reports/compare/alike.py).

Only the columns a comparison reads are loaded (`load`), so a run of millions of games is
compared in seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from balance.errors import InputError, Problem
from balance.stats import course, measures, paired
from reports.compare import alike as alike_
from reports.render import text
from reports.tables import variants
from reports.tallies import tallies

RATE, MEAN, MEDIAN = "rate", "mean", "median"

DIFFERENCE_SCHEMA = {
    "variant": pl.Int64, "label": pl.Utf8, "against": pl.Int64, "quantity": pl.Utf8,
    "name": pl.Utf8,
    "kind": pl.Utf8, "pairs": pl.Int64, "baseline": pl.Float64, "value": pl.Float64,
    "difference": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
    "p_value": pl.Float64, "p_holm": pl.Float64, "found": pl.Boolean, "holm": pl.Boolean,
    "method": pl.Utf8, "of": pl.Utf8,  # a rate: the games it is a share of
}


@dataclass(frozen=True)
class Comparison:
    """The variants of one run against its baseline.

    - `variants`: variant, label (as written in [grid]), games, baseline (bool), in order.
    - `differences`: one row per variant and quantity (DIFFERENCE_SCHEMA): the baseline's
      and the variant's value over the games both played (rates as fractions), the
      difference variant - baseline with its 95% interval, the p-value of the test the
      interval inverts, Holm's adjusted p-value, `found` (the interval excludes zero) and
      `holm` (the difference survives Holm's correction over the whole table). The rows a
      forest plot draws. Below paired.MIN_PAIRS games in common the interval and p-values
      are NaN and nothing is found (too few games to compare).
    - `tables`: the game's own tables of the comparison, by name (in `--json` after the
      differences).
    - `notes`: what the designer should know about how the comparison was made.
    - `kind`: what the variants are versions of, as the header names it (the game's title,
      or a kind of it).
    - `head`: the game's own fields of `--json`, after the experiment's name.
    - `short`: (quantity, column title, kind) of the short form `balance run` prints.
    - `alike`: the groups of variants whose games all left the same record
      (reports/compare/alike.py, Alike).
    - `swept`: each variant's swept keys and values, as the manifest records them: what a
      report reads of a variant, never its label (which is only the key its rows are found
      by). `variants` holds, beside its label, its `words`, only what `differs` from its
      baseline, and apart its `player` (null where the run does not sweep the player) and
      its `lever` (the rest), all in the game's words.
    """

    experiment: str
    kind: str
    baseline: int
    variants: pl.DataFrame
    differences: pl.DataFrame
    tables: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    resamples: int = paired.RESAMPLES
    seed: int = paired.SEED
    run_dir: str = ""  # the run folder compared, when it was read from one
    head: dict = field(default_factory=dict)
    short: tuple = ()
    alike: tuple = ()
    swept: dict = field(default_factory=dict)
    game: object = field(default=None, compare=False, repr=False)  # whose words it speaks

    @property
    def family(self) -> int:
        """How many differences Holm's correction ran over."""
        return int(self.differences["p_value"].is_not_nan().sum())

    def label(self, variant: int) -> str:
        """The variant's label as its file writes it: the key its rows are found by."""
        return self.variants.filter(pl.col("variant") == variant)["label"].item()

    def row(self, variant: int, quantity: str) -> dict | None:
        """The difference row (DIFFERENCE_SCHEMA) of one quantity of one variant; None where
        the comparison has none."""
        d = self.differences.filter((pl.col("variant") == variant)
                                    & (pl.col("quantity") == quantity))
        return d.row(0, named=True) if d.height else None

    def value(self, variant: int, key: str):
        """The value variant `variant` gives the swept key `key`; None where it gives none."""
        return (self.swept.get(variant) or {}).get(key)

    def words(self, variant: int, differs: bool = False) -> str:
        """The variant in the game's words (reports/tables/variants.words); `differs`: only
        what differs from its baseline. Its label, for a comparison made without them."""
        column = "differs" if differs else "words"
        row = self.variants.filter(pl.col("variant") == variant)
        if column not in row.columns:
            return self.label(variant)
        return row[column].item() or self.label(variant)

    def to_dict(self) -> dict:
        """Plain data for `balance compare --json` (NaN as null)."""
        def rows(df: pl.DataFrame) -> list[dict]:
            return df.fill_nan(None).to_dicts()

        return {"experiment": self.experiment, **self.head, "baseline": self.baseline,
                "confidence": paired.CONFIDENCE, "min_pairs": paired.MIN_PAIRS,
                "holm_family": self.family,
                "bootstrap": {"resamples": self.resamples, "seed": self.seed},
                "notes": list(self.notes), "alike": [a.sentence() for a in self.alike],
                "variants": rows(self.variants),
                "differences": rows(self.differences),
                **{name: rows(t) for name, t in self.tables.items()}}


class Quantities:
    """What a comparison of one run compares, pair of arms by pair: the rows of the
    difference table (`rows`), the columns they read (`columns`), and tables of the game's
    own (`tables`). This one compares the core columns and the game's measures (the module
    doc); a game's report may give its own (reports/page/game_report.py, GameReport.quantities).
    """

    def __init__(self, game, manifest: dict):
        self.game = game
        self.kind = game.title
        self.manifest = manifest
        self.info = {int(v["variant"]): v for v in manifest.get("variants", [])}
        # Each variant in the game's words, for the notes a pair writes (not its key=value
        # label, which the rows keep as their key).
        self.said = variants.words(manifest, game)
        # The game's measures, then how its games played (balance/stats/course.py) where
        # its games table records their course.
        self.measures = measures.of_measures(game) + measures.course_quantities(game)

    def columns(self) -> list[str]:
        """The games columns the comparison reads."""
        own = [c for q in self.measures for c in q.expr.meta.root_names()]
        return list(dict.fromkeys(["variant", "game", "turns", "winner", "won", "score",
                                   "scores", "end_reason", *own]))

    def start(self, games: pl.DataFrame) -> None:
        """Before the first pair: the games of every variant (the columns read). A measure
        whose columns the run does not have (recorded before they were added) is left out,
        and named in `left_out` for a note."""
        have = set(games.columns)
        self.left_out = [q.name[:1].lower() + q.name[1:] for q in self.measures
                         if not set(q.expr.meta.root_names()) <= have]
        self.measures = [q for q in self.measures if set(q.expr.meta.root_names()) <= have]

    def head(self) -> dict:
        return {"game": self.game.name}

    def rows(self, pairs: pl.DataFrame, ib: dict, iv: dict, v: int, label: str,
             resamples: int, seed: int, notes: list[str]) -> list[dict]:
        """The rows of one variant (`iv`, the manifest's) against its baseline (`ib`), over
        `pairs`: the games both played, the variant's columns suffixed `_v`."""
        base, other = arms_of(pairs)
        pb, pv = int(ib.get("players") or 0), int(iv.get("players") or 0)
        competitive = self.game.competitive(ib) and self.game.competitive(iv)
        decided = decided_pairs(base, other, self.game, self.said[v] if v < len(self.said)
                                else label, notes)
        rows = []
        if competitive:
            unit = self.game.length_unit
            lb, lv = _ints(base["turns"]), _ints(other["turns"])
            rows += [row(v, label, "length:mean", f"mean length ({unit})", MEAN, lb, lv,
                         paired.mean_difference(lb, lv)),
                     row(v, label, "length:median", f"median length ({unit})", MEDIAN, lb, lv,
                         paired.median_difference(lb, lv, resamples, seed), resamples, seed)]
            rows += seat_rows(pairs, pb, pv, v, label, decided, self.game)
            if self.game.automa:
                xb, xv = (a["won"].eq(False).fill_null(False).to_numpy()[decided]
                          for a in (base, other))
                rows.append(row(v, label, "automa", f"{self.game.automa} win share", RATE,
                                xb, xv, paired.proportion_difference(xb, xv),
                                of=measures.DECIDED))
        else:
            keep = decided & (base["won"].is_not_null() & other["won"].is_not_null()).to_numpy()
            wb, wv = (a["won"].to_numpy()[keep].astype(bool) for a in (base, other))
            rows.append(row(v, label, "won", "team win rate", RATE, wb, wv,
                            paired.proportion_difference(wb, wv), of=measures.DECIDED))
            sb, sv = _ints(base["score"]), _ints(other["score"])
            rows += [row(v, label, "score:mean", "mean team score", MEAN, sb, sv,
                         paired.mean_difference(sb, sv)),
                     row(v, label, "score:median", "median team score", MEDIAN, sb, sv,
                         paired.median_difference(sb, sv, resamples, seed), resamples, seed)]
        taken = {"won", "score", "turns"}
        for q in self.measures:
            if set(q.expr.meta.root_names()) & taken and q.key not in course.names():
                continue
            xb = base.select(q.expr.alias("x"))["x"]
            xv = other.select(q.expr.alias("x"))["x"]
            if q.kind == RATE:
                keep = decided & (xb.is_not_null() & xv.is_not_null()).to_numpy()
                xb = xb.to_numpy()[keep].astype(bool)
                xv = xv.to_numpy()[keep].astype(bool)
                rows.append(row(v, label, q.key, q.name, RATE, xb, xv,
                                paired.proportion_difference(xb, xv), of=q.of))
            else:
                keep = (xb.is_not_null() & xv.is_not_null()).to_numpy()
                xb, xv = xb.to_numpy()[keep], xv.to_numpy()[keep]
                rows.append(row(v, label, q.key, f"mean {q.name.lower()}", MEAN, xb, xv,
                                paired.mean_difference(xb, xv)))
        return [r for r in rows if r is not None]

    def tables(self, arms: dict[int, pl.DataFrame], names: list[str]) -> dict:
        """The game's own tables of the comparison, by name."""
        return {}

    def short(self, differences: pl.DataFrame) -> tuple:
        """(quantity, column title, kind) of the short form: every rate, and the first
        mean."""
        seen = list(dict.fromkeys(zip(differences["quantity"].to_list(),
                                      differences["name"].to_list(),
                                      differences["kind"].to_list(), strict=True)))
        means = [x for x in seen if x[2] == MEAN][:1]
        return tuple(x for x in seen if x[2] == RATE or x in means)


def quantities_of(manifest: dict) -> Quantities:
    """The quantities a run's comparison compares: its game's report's, or the neutral ones."""
    game = measures.game_of(manifest)
    if game.report:
        return game.hook("report").quantities(game, manifest)
    return Quantities(game, manifest)


def decided_pairs(base: pl.DataFrame, other: pl.DataFrame, game, label: str,
                  notes: list[str]) -> np.ndarray:
    """Per pair of games: decided in both arms (a rate counts only these). Where an arm left
    games undecided, a note says how many and what the rates pair."""
    ends = game.undecided_ends
    ub, uv = measures.undecided_of(base, ends), measures.undecided_of(other, ends)
    both = ~(ub | uv)
    if not both.all():
        why = ", ".join(game.end_word(e) for e in ends)
        notes.append(f"{label}: of the {len(both):,} games in common, {int(ub.sum()):,} "
                     f"stopped undecided ({why}) in the baseline and "
                     f"{int(uv.sum()):,} in the variant; each rate pairs the "
                     f"{int(both.sum()):,} games decided in both, and no undecided game "
                     "counts as a loss.")
    return both


def arms_of(pairs: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The baseline's games and the variant's, row for row, from the joined `pairs`."""
    suffixed = [c for c in pairs.columns if c.endswith("_v")]
    other = pairs.select(suffixed).rename({c: c[:-2] for c in suffixed})
    return pairs.select([c for c in pairs.columns if c not in suffixed]), other


def _ints(s: pl.Series) -> np.ndarray:
    return s.fill_null(0).to_numpy().astype(np.int64)


def margin_of(scores: pl.Series) -> np.ndarray:
    """Top score minus the next best, per game (0 for a tie)."""
    ranked = scores.list.sort(descending=True)
    return (ranked.list.get(0, null_on_oob=True) - ranked.list.get(1, null_on_oob=True)) \
        .fill_null(0).to_numpy().astype(np.int64)


def seat_rows(pairs: pl.DataFrame, pb: int, pv: int, v: int, label: str,
              decided: np.ndarray | None = None, game=None,
              of: str = measures.DECIDED) -> list[dict]:
    """The winner's mean margin (two players or more) and each seat's share of the wins, over
    the pairs `decided` in both arms (all of them when not given; `of` says which games those
    are, in words); each seat named as `game` names it (Game.seat_name)."""
    rows = []
    keep = np.ones(pairs.height, bool) if decided is None else decided
    if pb >= 2 and pv >= 2:  # an undecided game has no winner, and no winner's margin
        mb, mv = margin_of(pairs["scores"])[keep], margin_of(pairs["scores_v"])[keep]
        rows.append(row(v, label, "margin:mean", "mean winner's margin", MEAN, mb, mv,
                        paired.mean_difference(mb, mv)))
    wb = pairs["winner"].fill_null(-1).to_numpy()[keep]
    wv = pairs["winner_v"].fill_null(-1).to_numpy()[keep]
    for seat in range(1, min(pb, pv) + 1):  # seats count from 1, as in the games table
        xb, xv = wb == seat, wv == seat
        name = game.seat_name(seat) if game is not None else f"seat {seat}"
        rows.append(row(v, label, f"seat:{seat}", f"{name} win share", RATE, xb, xv,
                        paired.proportion_difference(xb, xv), of=of))
    return [r for r in rows if r is not None]


def tally_rows(pairs: pl.DataFrame, game, v: int, label: str) -> list[dict]:
    """Each seat's mean of each of `game`'s tallies (the columns `with_tallies` adds), over
    the games both arms played with that seat; a tally neither arm ever counted (a colour
    the box leaves out) is no row."""
    rows = []
    names = game.tallies
    seat = 1
    while any(tallies.column(t, seat) in pairs.columns for t in names):
        for t in names:
            c = tallies.column(t, seat)
            if c not in pairs.columns or f"{c}_v" not in pairs.columns:
                continue
            keep = (pairs[c].is_not_null() & pairs[f"{c}_v"].is_not_null()).to_numpy()
            xb = pairs[c].to_numpy()[keep].astype(np.int64)
            xv = pairs[f"{c}_v"].to_numpy()[keep].astype(np.int64)
            if not (xb.any() or xv.any()):
                continue
            rows.append(row(v, label, f"tally:{seat}:{t}",
                            f"{game.seat_name(seat)} mean {game.tally_word(t)}", MEAN,
                            xb, xv, paired.mean_difference(xb, xv)))
        seat += 1
    return [r for r in rows if r is not None]


def load(run_dir: str | Path):
    """(games, manifest, missing shards) with only the columns a comparison reads."""
    from balance.running.store.manifest import read_manifest  # lazy: the runner's reader
    from balance.running.store.read import read_run

    manifest = read_manifest(run_dir)
    game = measures.game_of(manifest)
    # The record of every game, to tell variants that played alike (alike.py): the columns
    # the files have (their footers; a run recorded before a column was added lacks it).
    have = read_run(run_dir, lazy_tables=True, lazy_games=True).games.columns
    # A measure's columns that an older run lacks are not read (Quantities.start leaves
    # the measure out and says so); the core columns every run has.
    wanted = list(dict.fromkeys([*(c for c in quantities_of(manifest).columns()
                                   if c in have),
                                 *(c for c in alike_.record_columns(game, manifest)
                                   if c in have)]))
    # The game's other tables are read lazily: a comparison reads only the games.
    run = read_run(run_dir, lazy_tables=True, columns=wanted)
    return with_tallies(run.games, run, game.tallies), run.manifest, run.missing


def with_tallies(games: pl.DataFrame, run, names: tuple[str, ...]) -> pl.DataFrame:
    """The games with a column per seat and tally (tallies.wide) of a game that declares
    tallies, so that they pair game by game with the rest (`tally_rows`)."""
    seats = tallies.table_of(run, names)
    if seats is None or games.height == 0:
        return games
    wide = tallies.wide(seats, names)
    return games.join(wide.with_columns(pl.col("variant").cast(games.schema["variant"])),
                      on=["variant", "game"], how="left")


def compare_run(run_dir: str | Path, baseline: int | None = None) -> Comparison:
    """Load a run folder's games and compare its variants (InputError for anything that
    cannot be compared: not a run folder, one variant, a baseline that is not a variant)."""
    manifest = _check_variants(run_dir)
    games, manifest, missing = load(run_dir)
    return compare(games, manifest, baseline, str(run_dir), notes=unfinished(missing))


def unfinished(missing) -> list[str]:
    """The comparison's note on a run whose shards are not all played (none when they are)."""
    if not missing:
        return []
    return [f"The run is not finished: {len(missing):,} shards are not played yet; this "
            "compares the games played so far."]


ONE_VARIANT = ("has one variant: there is nothing to compare it with (sweep a key in the "
               "experiment's [grid] to make variants)")


def _check_variants(run_dir) -> dict:
    # Before any game is read: a one-variant run of millions of games is refused at once.
    from balance.running.store.manifest import read_manifest  # lazy: the runner's reader

    if Path(run_dir).exists() and not Path(run_dir).is_dir():
        raise InputError([Problem(str(run_dir), "", "", "is a file, not a run folder (name the "
                                  "folder `balance run` wrote, e.g. runs/<experiment name>)")])
    manifest = read_manifest(run_dir)
    if len(manifest["variants"]) < 2:
        raise InputError([Problem(str(run_dir), "", "", ONE_VARIANT)])
    return manifest


def compare(games: pl.DataFrame, manifest: dict, baseline: int | None = None,
            run_dir: str = "run", resamples: int = paired.RESAMPLES, seed: int = paired.SEED,
            notes: list[str] | None = None) -> Comparison:
    """Compare every variant of `games` (the games table, or just the columns the comparison
    reads) with the baseline: `baseline` if given, else the experiment file's, else
    variant 0."""
    info = {int(v["variant"]): v for v in manifest.get("variants", [])}
    if len(info) < 2:
        raise InputError([Problem(run_dir, "", "", ONE_VARIANT)])
    base = variants.baseline(manifest, run_dir, baseline)
    names = variants.labels(manifest)
    base_of = variants.baselines_by_setting(manifest, base)
    q = quantities_of(manifest)
    notes = list(notes or [])
    arms = _arms(games)
    counts = {v: (arms[v].height if v in arms else 0) for v in sorted(info)}
    if counts[base] == 0:
        raise InputError([Problem(run_dir, "", "", f"the baseline, {names[base]} (variant "
                                  f"{base}), has no games yet: run the experiment first")])
    q.start(games)
    if getattr(q, "left_out", None):
        notes.append(f"{run_dir} was recorded before the games table held what "
                     f"{text.join_words(q.left_out)} read{'s' if len(q.left_out) == 1 else ''}: "
                     "not compared (play the experiment again to compare them).")
    rows: list[dict] = []
    said = variants.words(manifest)
    if len(set(base_of.values())) > 1:
        notes.append(_settings_note(variants.setting_keys(manifest), info))
    for v in sorted(info):
        b = base_of[v]
        if v == b:
            continue
        if counts[v] == 0 or counts[b] == 0:
            notes.append(f"{said[v if counts[v] == 0 else b]} has no games yet: "
                         f"{said[v]} is left out.")
            continue
        pairs = arms[b].join(arms[v], on="game", how="inner", suffix="_v")
        if counts[v] != counts[b] or pairs.height != counts[b]:
            notes.append(f"{said[v]} has {counts[v]:,} games and its baseline "
                         f"{counts[b]:,}: they are compared on the {pairs.height:,} games "
                         "both played.")
        if pairs.height == 0:
            continue
        new = q.rows(pairs, info[b], info[v], v, names[v], resamples, seed, notes)
        new += tally_rows(pairs, measures.game_of(manifest), v, names[v])
        rows += [{**r, "against": b} for r in new]
    differences = _with_holm(rows)
    short = variants.words(manifest, against=base_of)
    game = measures.game_of(manifest)
    split = variants.player_and_lever(manifest, game)
    same = alike_.alike(games, manifest, alike_.record_columns(measures.game_of(manifest),
                                                               manifest), base_of, said)
    table = pl.DataFrame({"variant": sorted(info), "label": [names[v] for v in sorted(info)],
                          "games": [counts[v] for v in sorted(info)],
                          "baseline": [base_of[v] == v for v in sorted(info)],
                          "words": [said[v] for v in sorted(info)],
                          "differs": [short[v] for v in sorted(info)],
                          "player": [split[v][0] for v in sorted(info)],
                          "lever": [split[v][1] for v in sorted(info)]},
                         schema={"variant": pl.Int64, "label": pl.Utf8, "games": pl.Int64,
                                 "baseline": pl.Boolean, "words": pl.Utf8,
                                 "differs": pl.Utf8, "player": pl.Utf8, "lever": pl.Utf8})
    return Comparison(str(manifest.get("experiment", "")), q.kind, base, table, differences,
                      q.tables(arms, names), tuple(dict.fromkeys(notes)), resamples, seed,
                      run_dir, q.head(), q.short(differences),
                      tuple(same), {v: dict(info[v].get("swept") or {}) for v in info}, game)


def _settings_note(keys: tuple[str, ...], info: dict[int, dict]) -> str:
    """What each variant keeps of its own when it is compared (variants.setting_keys)."""
    swept = {k for v in info.values() for k in (v.get("swept") or {})}
    if not swept & set(variants.PLAYER_KEYS) or not set(keys) & set(variants.PLAYER_KEYS):
        return ("The player count is a setting, not a lever: each variant is compared with "
                "the baseline's other settings at its own player count.")
    counts = "players" in swept
    return (("The player count and the player are settings" if counts else
             "The player is a setting") + ", not a lever: each variant is compared with the "
            "baseline's other settings played by its own player"
            + (" at its own player count." if counts else "."))


def _arms(games: pl.DataFrame) -> dict[int, pl.DataFrame]:
    """The games of each variant, without the variant column (joined on `game`)."""
    if games.height == 0 or "variant" not in games.columns:
        return {}
    parts = games.partition_by("variant", as_dict=True, include_key=False)
    return {int(k[0] if isinstance(k, tuple) else k): df for k, df in parts.items()}


# -- rows ---------------------------------------------------------------------------------

_METHODS = {RATE: "Tango score interval, paired; McNemar test",
            MEAN: "paired t interval and test"}


def row(v: int, label: str, key: str, name: str, kind: str, base, variant,
        res: paired.Paired | None, resamples: int = 0, seed: int = 0,
        of: str | None = None) -> dict | None:
    """One row of the difference table (DIFFERENCE_SCHEMA, less `against` and Holm's), or
    None where the test gives nothing."""
    if res is None:
        return None
    stat = np.median if kind == MEDIAN else np.mean
    method = _METHODS.get(kind) or (f"paired percentile bootstrap, {resamples:,} resamples, "
                                    f"seed {seed}")
    return {"variant": v, "label": label, "quantity": key, "name": name, "kind": kind,
            "pairs": res.n, "baseline": float(stat(base)), "value": float(stat(variant)),
            "difference": res.estimate, "ci_low": res.low, "ci_high": res.high,
            "p_value": res.p_value, "found": res.found, "method": method,
            "of": of if kind == RATE else None}


def _with_holm(rows: list[dict]) -> pl.DataFrame:
    if not rows:
        return pl.DataFrame(schema=DIFFERENCE_SCHEMA)
    survives, adjusted = paired.holm([r["p_value"] for r in rows])
    for r, s, a in zip(rows, survives, adjusted, strict=True):
        # Holm's verdict only where the interval itself found a difference: the bootstrap's
        # p-value and its percentile interval can disagree by a resample at the edge.
        r["holm"] = bool(s) and r["found"]
        r["p_holm"] = float(a) if math.isfinite(a) else math.nan
    return pl.DataFrame(rows, schema=DIFFERENCE_SCHEMA).select(list(DIFFERENCE_SCHEMA))
