"""Gem Rush's comparison of a run's variants (reports/compare/compare.py does the pairing, the
intervals and Holm's correction):

- Crisis: the win rate at each named difficulty (each variant at its own target for that name,
  so a sweep of `crisis_targets.Master` compares the targets swept), at the variants' own
  targets when the games were played to one, and the mean and median team score. Along the
  whole difficulty curve: each variant's win rate at every target (`curve`), and its paired
  difference from the baseline's (`curve_differences`).
- Rush: the length in rounds (mean and median), the winner's margin (mean) and each seat's
  share of the wins.

A game is won at target T when its team score reached T: the score never falls, so the final
score of a game played to exhaustion answers every target at once (reports/gemrush/crisis.py).
A game played to a fixed target stops there, and answers for higher targets only if it was
lost.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from balance.stats import paired
from balance.stats.intervals import with_wilson
from reports.compare.compare import MEAN, MEDIAN, RATE, Quantities, row, seat_rows
from reports.gemrush import ablation

CRISIS_COLUMNS = ("variant", "game", "score", "won")
RUSH_COLUMNS = ("variant", "game", "turns", "winner", "scores")

CURVE_SCHEMA = {"variant": pl.Int64, "label": pl.Utf8, "target": pl.Int64, "games": pl.Int64,
                "wins": pl.Int64, "win_rate": pl.Float64, "ci_low": pl.Float64,
                "ci_high": pl.Float64}
CURVE_DIFFERENCE_SCHEMA = {"variant": pl.Int64, "label": pl.Utf8, "target": pl.Int64,
                           "pairs": pl.Int64, "baseline": pl.Float64, "value": pl.Float64,
                           "difference": pl.Float64, "ci_low": pl.Float64,
                           "ci_high": pl.Float64, "found": pl.Boolean}


def mode_of(manifest: dict) -> str:
    """The experiment's mode (one per experiment file)."""
    modes = {v.get("mode") for v in manifest.get("variants", [])}
    return modes.pop() if len(modes) == 1 else "crisis"


class GemRushQuantities(Quantities):
    """A Gem Rush run's comparison: Crisis or Rush, by the experiment's mode (the module
    doc)."""

    def __init__(self, game, manifest: dict):
        super().__init__(game, manifest)
        self.kind = mode_of(manifest)
        self.top = 0
        self.curve_rows: list[pl.DataFrame] = []

    def columns(self) -> list[str]:
        return list(CRISIS_COLUMNS if self.kind == "crisis" else RUSH_COLUMNS)

    def head(self) -> dict:
        how = {"ablate": ablation.how_of(self.manifest)} \
            if ablation.is_ablation(self.manifest) else {}
        return {"mode": self.kind, **how}

    def start(self, games: pl.DataFrame) -> None:
        if self.kind == "crisis":
            self.top = _top(games, self.info)

    def rows(self, pairs: pl.DataFrame, ib: dict, iv: dict, v: int, label: str,
             resamples: int, seed: int, notes: list[str]) -> list[dict]:
        if self.kind != "crisis":
            pb, pv = int(ib["players"]), int(iv["players"])
            tb = pairs["turns"].fill_null(0).to_numpy().astype(np.int64)
            tv = pairs["turns_v"].fill_null(0).to_numpy().astype(np.int64)
            # A round is one turn of every player (reports/gemrush/rush.py).
            rb, rv = -(-tb // pb), -(-tv // pv)
            rows = [row(v, label, "rounds:mean", "mean length (rounds)", MEAN, rb, rv,
                        paired.mean_difference(rb, rv)),
                    row(v, label, "rounds:median", "median length (rounds)", MEDIAN, rb, rv,
                        paired.median_difference(rb, rv, resamples, seed), resamples, seed)]
            return [r for r in rows if r is not None] + seat_rows(pairs, pb, pv, v, label)
        if ib.get("exhaust") and iv.get("exhaust"):
            self.curve_rows.append(_curve_difference(pairs, v, label, self.top))
        return _crisis_rows(pairs, ib, iv, v, label, resamples, seed, notes)

    def tables(self, arms: dict[int, pl.DataFrame], names: list[str]) -> dict:
        crisis = self.kind == "crisis"
        curve = (_curves(arms, self.info, names, self.top) if crisis
                 else pl.DataFrame(schema=CURVE_SCHEMA))
        diff = (pl.concat(self.curve_rows) if self.curve_rows
                else pl.DataFrame(schema=CURVE_DIFFERENCE_SCHEMA))
        return {"curve": curve, "curve_differences": diff}

    def short(self, differences: pl.DataFrame) -> tuple:
        """The win rates and the mean score in Crisis; the length and each seat's share in
        Rush."""
        seen = list(dict.fromkeys(zip(differences["quantity"].to_list(),
                                      differences["name"].to_list(),
                                      differences["kind"].to_list(), strict=True)))
        titles = []
        for q, name, kind in seen:
            if self.kind == "crisis" and (q.startswith("win:") or q == "score:mean"):
                title = name.removeprefix("win at ").replace(" (", " ").rstrip(")")
                titles.append((q, title.replace("mean team score", "mean score"), kind))
            elif self.kind == "rush" and (q == "rounds:mean" or q.startswith("seat:")):
                titles.append((q, name.replace("mean length (rounds)", "rounds (mean)")
                               .replace(" win share", " wins"), kind))
        return tuple(titles)


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
        rows.append(row(v, label, f"win:{name}", f"win at {name} ({shown})", RATE, xb, xv,
                         paired.proportion_difference(xb, xv)))
        compared.add((tb, tv))
    ob, ov = ib.get("target"), iv.get("target")
    if ob is not None and ov is not None and (ob, ov) not in compared:
        xb, _ = reached(sb, wb, ib, ob)
        xv, _ = reached(sv, wv, iv, ov)
        shown = f"{ob}" if ob == ov else f"{ob}→{ov}"
        rows.append(row(v, label, "win:target", f"win at its target ({shown})", RATE, xb, xv,
                         paired.proportion_difference(xb, xv)))
    if ib.get("exhaust") and iv.get("exhaust"):
        rows.append(row(v, label, "score:mean", "mean team score", MEAN, sb, sv,
                         paired.mean_difference(sb, sv)))
        rows.append(row(v, label, "score:median", "median team score", MEDIAN, sb, sv,
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
