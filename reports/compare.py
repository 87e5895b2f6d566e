"""Every variant of a run compared with the baseline, game by game.

Game i of every variant is dealt from the same seed, so the variants are compared on the games
they share (an inner join on `game`), and each difference carries a 95% interval that uses the
pairing (balance/stats/paired.py):

- Crisis: the win rate at each named difficulty (each variant at its own target for that name,
  so a sweep of `crisis_targets.Master` compares the targets swept), at the variants' own
  targets when the games were played to one, and the mean and median team score. Along the
  whole difficulty curve: each variant's win rate at every target, and its paired difference
  from the baseline's.
- Rush: the length in rounds (mean and median), the winner's margin (mean) and each seat's
  share of the wins.

A game is won at target T when its team score reached T: the score never falls, so the final
score of a game played to exhaustion answers every target at once (reports/gemrush/crisis.py). A
game
played to a fixed target stops there, and answers for higher targets only if it was lost.

Holm's correction runs over every difference of the table (not the curve, which is drawn, not
read difference by difference): `holm` says which differences survive it.

Only the columns a comparison reads are loaded (`load`), so a run of millions of games is
compared in seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from balance.errors import InputError, Problem
from balance.stats import paired
from balance.stats.intervals import with_wilson
from reports import variants

CRISIS_COLUMNS = ("variant", "game", "score", "won")
RUSH_COLUMNS = ("variant", "game", "turns", "winner", "scores")

RATE, MEAN, MEDIAN = "rate", "mean", "median"

DIFFERENCE_SCHEMA = {
    "variant": pl.Int64, "label": pl.Utf8, "against": pl.Int64, "quantity": pl.Utf8,
    "name": pl.Utf8,
    "kind": pl.Utf8, "pairs": pl.Int64, "baseline": pl.Float64, "value": pl.Float64,
    "difference": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
    "p_value": pl.Float64, "p_holm": pl.Float64, "found": pl.Boolean, "holm": pl.Boolean,
    "method": pl.Utf8,
}
CURVE_SCHEMA = {"variant": pl.Int64, "label": pl.Utf8, "target": pl.Int64, "games": pl.Int64,
                "wins": pl.Int64, "win_rate": pl.Float64, "ci_low": pl.Float64,
                "ci_high": pl.Float64}
CURVE_DIFFERENCE_SCHEMA = {"variant": pl.Int64, "label": pl.Utf8, "target": pl.Int64,
                           "pairs": pl.Int64, "baseline": pl.Float64, "value": pl.Float64,
                           "difference": pl.Float64, "ci_low": pl.Float64,
                           "ci_high": pl.Float64, "found": pl.Boolean}


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
    - `curve`: Crisis games played to exhaustion: each variant's win rate at every target
      with its Wilson interval (all its games).
    - `curve_differences`: each variant's paired difference from the baseline at every
      target (Tango's interval), where both were played to exhaustion.
    - `notes`: what the designer should know about how the comparison was made.
    """

    experiment: str
    mode: str
    baseline: int
    variants: pl.DataFrame
    differences: pl.DataFrame
    curve: pl.DataFrame
    curve_differences: pl.DataFrame
    notes: tuple[str, ...] = ()
    resamples: int = paired.RESAMPLES
    seed: int = paired.SEED
    run_dir: str = ""  # the run folder compared, when it was read from one

    @property
    def family(self) -> int:
        """How many differences Holm's correction ran over."""
        return int(self.differences["p_value"].is_not_nan().sum())

    def label(self, variant: int) -> str:
        return self.variants.filter(pl.col("variant") == variant)["label"].item()

    def to_dict(self) -> dict:
        """Plain data for `balance compare --json` (NaN as null)."""
        def rows(df: pl.DataFrame) -> list[dict]:
            return df.fill_nan(None).to_dicts()

        return {"experiment": self.experiment, "mode": self.mode, "baseline": self.baseline,
                "confidence": paired.CONFIDENCE, "min_pairs": paired.MIN_PAIRS,
                "holm_family": self.family,
                "bootstrap": {"resamples": self.resamples, "seed": self.seed},
                "notes": list(self.notes), "variants": rows(self.variants),
                "differences": rows(self.differences), "curve": rows(self.curve),
                "curve_differences": rows(self.curve_differences)}


def mode_of(manifest: dict) -> str:
    """The experiment's mode (one per experiment file)."""
    modes = {v.get("mode") for v in manifest.get("variants", [])}
    return modes.pop() if len(modes) == 1 else "crisis"


def load(run_dir: str | Path):
    """(games, manifest, missing shards) with only the columns a comparison reads."""
    from balance.running.store import read_manifest, read_run

    manifest = read_manifest(run_dir)
    cols = CRISIS_COLUMNS if mode_of(manifest) == "crisis" else RUSH_COLUMNS
    run = read_run(run_dir, lazy_tables=True, columns=list(cols))
    return run.games, run.manifest, run.missing


def compare_run(run_dir: str | Path, baseline: int | None = None) -> Comparison:
    """Load a run folder's games and compare its variants (InputError for anything that
    cannot be compared: not a run folder, one variant, a baseline that is not a variant)."""
    manifest = _check_variants(run_dir)
    games, manifest, missing = load(run_dir)
    notes = []
    if missing:
        notes.append(f"The run is not finished: {len(missing):,} shards are not played yet; "
                     "this compares the games played so far.")
    return compare(games, manifest, baseline, str(run_dir), notes=notes)


ONE_VARIANT = ("has one variant: there is nothing to compare it with (sweep a key in the "
               "experiment's [grid] to make variants)")


def _check_variants(run_dir) -> dict:
    # Before any game is read: a one-variant run of millions of games is refused at once.
    from balance.running.store import read_manifest

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
    """Compare every variant of `games` (the games table, or just its CRISIS_COLUMNS or
    RUSH_COLUMNS) with the baseline: `baseline` if given, else the experiment file's, else
    variant 0."""
    info = {int(v["variant"]): v for v in manifest.get("variants", [])}
    if len(info) < 2:
        raise InputError([Problem(run_dir, "", "", ONE_VARIANT)])
    base = variants.baseline(manifest, run_dir, baseline)
    names = variants.labels(manifest)
    base_of = variants.baselines_by_setting(manifest, base)
    mode = mode_of(manifest)
    notes = list(notes or [])
    arms = _arms(games)
    counts = {v: (arms[v].height if v in arms else 0) for v in sorted(info)}
    if counts[base] == 0:
        raise InputError([Problem(run_dir, "", "", f"the baseline, {names[base]} (variant "
                                  f"{base}), has no games yet: run the experiment first")])
    rows: list[dict] = []
    curve_rows: list[pl.DataFrame] = []
    top = _top(games, info) if mode == "crisis" else 0
    if len(set(base_of.values())) > 1:
        notes.append("The player count is a setting, not a lever: each variant is compared "
                     "with the baseline's other settings at its own player count.")
    for v in sorted(info):
        b = base_of[v]
        if v == b:
            continue
        if counts[v] == 0 or counts[b] == 0:
            notes.append(f"{names[v if counts[v] == 0 else b]} has no games yet: "
                         f"{names[v]} is left out.")
            continue
        pairs = arms[b].join(arms[v], on="game", how="inner", suffix="_v")
        if counts[v] != counts[b] or pairs.height != counts[b]:
            notes.append(f"{names[v]} has {counts[v]:,} games and its baseline "
                         f"{counts[b]:,}: they are compared on the {pairs.height:,} games "
                         "both played.")
        if pairs.height == 0:
            continue
        label = names[v]
        if mode == "crisis":
            new = _crisis_rows(pairs, info[b], info[v], v, label, resamples, seed, notes)
            if info[b].get("exhaust") and info[v].get("exhaust"):
                curve_rows.append(_curve_difference(pairs, v, label, top))
        else:
            new = _rush_rows(pairs, info[b], info[v], v, label, resamples, seed)
        rows += [{**r, "against": b} for r in new]
    differences = _with_holm(rows)
    table = pl.DataFrame({"variant": sorted(info), "label": [names[v] for v in sorted(info)],
                          "games": [counts[v] for v in sorted(info)],
                          "baseline": [base_of[v] == v for v in sorted(info)]},
                         schema={"variant": pl.Int64, "label": pl.Utf8, "games": pl.Int64,
                                 "baseline": pl.Boolean})
    curve = _curves(arms, info, names, top) if mode == "crisis" else \
        pl.DataFrame(schema=CURVE_SCHEMA)
    curve_diff = (pl.concat(curve_rows) if curve_rows
                  else pl.DataFrame(schema=CURVE_DIFFERENCE_SCHEMA))
    return Comparison(str(manifest.get("experiment", "")), mode, base, table, differences,
                      curve, curve_diff, tuple(dict.fromkeys(notes)), resamples, seed,
                      run_dir)


def _arms(games: pl.DataFrame) -> dict[int, pl.DataFrame]:
    """The games of each variant, without the variant column (joined on `game`)."""
    if games.height == 0 or "variant" not in games.columns:
        return {}
    parts = games.partition_by("variant", as_dict=True, include_key=False)
    return {int(k[0] if isinstance(k, tuple) else k): df for k, df in parts.items()}


# -- Crisis -------------------------------------------------------------------------------

def reached(score: np.ndarray, won: np.ndarray | None, info: dict, target: int):
    """(won at `target`, known) per game of a variant described by `info` (its manifest
    entry). Known always when played to exhaustion or to a target at least as high; a game
    played to a lower target stopped when it won, so above it only its losses are known."""
    hit = score >= target
    own = info.get("target")
    if info.get("exhaust") or own is None or target <= own:
        return hit, np.ones(len(score), bool)
    stopped = np.zeros(len(score), bool) if won is None else np.asarray(won, bool)
    return hit, hit | ~stopped


def _named(info: dict) -> dict[str, int]:
    return {str(k): int(t) for k, t in (info.get("difficulties") or {}).items()}


def _crisis_rows(pairs: pl.DataFrame, ib: dict, iv: dict, v: int, label: str,
                 resamples: int, seed: int, notes: list[str]) -> list[dict]:
    sb = pairs["score"].fill_null(0).to_numpy().astype(np.int64)
    sv = pairs["score_v"].fill_null(0).to_numpy().astype(np.int64)
    wb = pairs["won"].fill_null(False).to_numpy() if "won" in pairs.columns else None
    wv = pairs["won_v"].fill_null(False).to_numpy() if "won_v" in pairs.columns else None
    rows = []
    db, dv = _named(ib), _named(iv)
    compared = set()
    for name in sorted(db, key=lambda k: (db[k], k)):
        if name not in dv:
            continue
        tb, tv = db[name], dv[name]
        xb, kb = reached(sb, wb, ib, tb)
        xv, kv = reached(sv, wv, iv, tv)
        if not (kb.all() and kv.all()):
            notes.append(f"{label}: the win rate at {name} is not compared: games played to "
                         "a lower target stop when they reach it.")
            continue
        shown = f"{tb}" if tb == tv else f"{tb}→{tv}"
        rows.append(_row(v, label, f"win:{name}", f"win at {name} ({shown})", RATE, xb, xv,
                         paired.proportion_difference(xb, xv)))
        compared.add((tb, tv))
    ob, ov = ib.get("target"), iv.get("target")
    if ob is not None and ov is not None and (ob, ov) not in compared:
        xb, _ = reached(sb, wb, ib, ob)
        xv, _ = reached(sv, wv, iv, ov)
        shown = f"{ob}" if ob == ov else f"{ob}→{ov}"
        rows.append(_row(v, label, "win:target", f"win at its target ({shown})", RATE, xb, xv,
                         paired.proportion_difference(xb, xv)))
    if ib.get("exhaust") and iv.get("exhaust"):
        rows.append(_row(v, label, "score:mean", "mean team score", MEAN, sb, sv,
                         paired.mean_difference(sb, sv)))
        rows.append(_row(v, label, "score:median", "median team score", MEDIAN, sb, sv,
                         paired.median_difference(sb, sv, resamples, seed), resamples, seed))
    else:
        notes.append(f"{label}: team scores are compared only between games played to "
                     "exhaustion (a game played to a target stops at it).")
    return [r for r in rows if r is not None]


def _top(games: pl.DataFrame, info: dict) -> int:
    """The curve's last target: one past the best score, and at least the highest named
    target."""
    best = int(games["score"].max() or 0) if games.height and "score" in games.columns else 0
    named = max((t for i in info.values() for t in _named(i).values()), default=0)
    return max(best + 1, named)


def _at_least(scores: np.ndarray, top: int) -> np.ndarray:
    """How many scores are >= T, for T = 1 .. top."""
    hist = np.bincount(np.clip(scores, 0, top), minlength=top + 1)
    return hist[::-1].cumsum()[::-1][1:]


def _between(low: np.ndarray, high: np.ndarray, top: int) -> np.ndarray:
    """How many games have low < T <= high, for T = 1 .. top: a difference array (+1 at
    low + 1, -1 at high + 1) summed, one pass whatever the number of targets."""
    m = high > low
    step = (np.bincount(np.clip(low[m] + 1, 0, top + 1), minlength=top + 2)
            - np.bincount(np.clip(high[m] + 1, 0, top + 1), minlength=top + 2))
    return np.cumsum(step)[1:top + 1]


def _curves(arms: dict, info: dict, names: list[str], top: int) -> pl.DataFrame:
    parts = []
    for v in sorted(arms):
        if not info.get(v, {}).get("exhaust"):
            continue
        s = arms[v]["score"].fill_null(0).to_numpy().astype(np.int64)
        parts.append(pl.DataFrame({"variant": v, "label": names[v],
                                   "target": np.arange(1, top + 1),
                                   "games": np.full(top, len(s)), "wins": _at_least(s, top)}))
    if not parts:
        return pl.DataFrame(schema=CURVE_SCHEMA)
    curve = pl.concat(parts).cast({k: CURVE_SCHEMA[k] for k in ("variant", "target", "games",
                                                                  "wins")})
    return with_wilson(curve).select(list(CURVE_SCHEMA))


def _curve_difference(pairs: pl.DataFrame, v: int, label: str, top: int) -> pl.DataFrame:
    """The paired difference in win rate at every target T = 1 .. top: a game counts for the
    variant alone when baseline score < T <= variant score, and the other way round."""
    sb = pairs["score"].fill_null(0).to_numpy().astype(np.int64)
    sv = pairs["score_v"].fill_null(0).to_numpy().astype(np.int64)
    n = len(sb)
    n12 = _between(sb, sv, top)
    n21 = _between(sv, sb, top)
    est, lo, hi = paired.tango_interval(n12, n21, np.full(top, n))
    if paired.too_few(n):
        lo = hi = np.full(top, np.nan)
    return pl.DataFrame({
        "variant": v, "label": label, "target": np.arange(1, top + 1), "pairs": n,
        "baseline": _at_least(sb, top) / n, "value": _at_least(sv, top) / n,
        "difference": est, "ci_low": lo, "ci_high": hi, "found": paired.found(lo, hi, n),
    }, schema=CURVE_DIFFERENCE_SCHEMA)


# -- Rush ---------------------------------------------------------------------------------

def _rush_rows(pairs: pl.DataFrame, ib: dict, iv: dict, v: int, label: str,
               resamples: int, seed: int) -> list[dict]:
    pb, pv = int(ib["players"]), int(iv["players"])
    tb = pairs["turns"].fill_null(0).to_numpy().astype(np.int64)
    tv = pairs["turns_v"].fill_null(0).to_numpy().astype(np.int64)
    # A round is one turn of every player (reports/gemrush/rush.py).
    rb, rv = -(-tb // pb), -(-tv // pv)
    rows = [_row(v, label, "rounds:mean", "mean length (rounds)", MEAN, rb, rv,
                 paired.mean_difference(rb, rv)),
            _row(v, label, "rounds:median", "median length (rounds)", MEDIAN, rb, rv,
                 paired.median_difference(rb, rv, resamples, seed), resamples, seed)]
    if pb >= 2 and pv >= 2:
        mb, mv = _margin(pairs["scores"]), _margin(pairs["scores_v"])
        rows.append(_row(v, label, "margin:mean", "mean winner's margin", MEAN, mb, mv,
                         paired.mean_difference(mb, mv)))
    wb = pairs["winner"].fill_null(-1).to_numpy()
    wv = pairs["winner_v"].fill_null(-1).to_numpy()
    for seat in range(1, min(pb, pv) + 1):  # seats count from 1 (balance/games/gemrush/records.py)
        xb, xv = wb == seat, wv == seat
        rows.append(_row(v, label, f"seat:{seat}", f"seat {seat} win share", RATE, xb, xv,
                         paired.proportion_difference(xb, xv)))
    return [r for r in rows if r is not None]


def _margin(scores: pl.Series) -> np.ndarray:
    """Top score minus the next best, per game (0 for a tie)."""
    ranked = scores.list.sort(descending=True)
    return (ranked.list.get(0, null_on_oob=True) - ranked.list.get(1, null_on_oob=True)) \
        .fill_null(0).to_numpy().astype(np.int64)


# -- rows ---------------------------------------------------------------------------------

_METHODS = {RATE: "Tango score interval, paired; McNemar test",
            MEAN: "paired t interval and test"}


def _row(v: int, label: str, key: str, name: str, kind: str, base, variant,
         res: paired.Paired | None, resamples: int = 0, seed: int = 0) -> dict | None:
    if res is None:
        return None
    stat = np.median if kind == MEDIAN else np.mean
    method = _METHODS.get(kind) or (f"paired percentile bootstrap, {resamples:,} resamples, "
                                    f"seed {seed}")
    return {"variant": v, "label": label, "quantity": key, "name": name, "kind": kind,
            "pairs": res.n, "baseline": float(stat(base)), "value": float(stat(variant)),
            "difference": res.estimate, "ci_low": res.low, "ci_high": res.high,
            "p_value": res.p_value, "found": res.found, "method": method}


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

