"""A run's headline rates: what a designer reads first, and what `--precision` makes precise.

- Crisis played to exhaustion: each variant's win rate at each named difficulty (a game wins
  at a target when its final team score reached it; scores never fall).
- Crisis to a target: each variant's win rate at its target.
- Rush: each variant's win share per seat.

Each rate carries its 95% Wilson interval. Computed from a few columns of the games table
(read lazily with balance.store.scan_run), so a large run is never loaded whole.
"""

from __future__ import annotations

import polars as pl

from reports.intervals import wilson

COLUMNS = ("variant", "mode", "players", "exhaust", "won", "score", "winner")
SCHEMA = {"variant": pl.Int64, "measure": pl.Utf8, "wins": pl.Int64, "games": pl.Int64,
          "rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}


def _named(manifest: dict) -> dict[int, dict[str, int]]:
    out = {}
    for v in manifest.get("variants", []):
        out[int(v["variant"])] = {str(k): int(t) for k, t in (v.get("difficulties") or {}).items()}
    return out


def headline_counts(games: pl.LazyFrame | pl.DataFrame, manifest: dict) -> pl.DataFrame:
    """(variant, measure, wins, games) for every headline rate of the run, in variant order
    and, within a variant, in the order of the named targets or seats."""
    lf = games.lazy().select(*COLUMNS)
    named = _named(manifest)
    per_variant = (lf.group_by("variant").agg(pl.first("mode"), pl.first("players"),
                                              pl.first("exhaust"), pl.len().alias("n"))
                   .collect().sort("variant"))
    parts = []
    for variant, mode, players, exhaust, n in per_variant.rows():
        one = lf.filter(pl.col("variant") == variant)
        if mode == "rush":
            seats = (one.filter(pl.col("winner") >= 0).group_by("winner").len().collect())
            wins = dict(seats.rows())
            parts += [(variant, f"seat {s + 1} wins", int(wins.get(s, 0)), n)
                      for s in range(players)]
        elif exhaust:
            targets = sorted(named.get(variant, {}).items(), key=lambda kv: kv[1])
            if not targets:
                continue
            counts = one.select([(pl.col("score") >= t).sum().alias(name)
                                 for name, t in targets]).collect().row(0)
            parts += [(variant, f"{name} ({t})", int(k), n)
                      for (name, t), k in zip(targets, counts, strict=True)]
        else:
            k = one.select(pl.col("won").fill_null(False).sum()).collect().item()
            parts.append((variant, "won", int(k), n))
    return pl.DataFrame(parts, schema={k: SCHEMA[k] for k in ("variant", "measure", "wins",
                                                               "games")}, orient="row")


def headline(games: pl.LazyFrame | pl.DataFrame, manifest: dict) -> pl.DataFrame:
    """headline_counts with each rate and its 95% Wilson interval."""
    counts = headline_counts(games, manifest)
    rows = []
    for variant, measure, k, n in counts.rows():
        lo, hi = wilson(k, n) or (None, None)
        rows.append((variant, measure, k, n, k / n if n else None, lo, hi))
    return pl.DataFrame(rows, schema=SCHEMA, orient="row")


def widest_half_width(table: pl.DataFrame) -> float:
    """The largest half-width of the headline intervals (1.0 when there are none yet)."""
    if table.height == 0:
        return 1.0
    return float(((table["ci_high"] - table["ci_low"]) / 2).max())
