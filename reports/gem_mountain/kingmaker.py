"""Does Steal decide games between the other players? Measured on runs that seat the honest
player (heuristics/gem_mountain/registry.py: the majority player that never uses Steal) on one
seat beside a baseline of the same run with the same player on every seat, on the same seeds.

The deal and the arrow's start come from the seed, and the majority player draws nothing, so a
game of the honest variant differs from the baseline's game of the same seed only by that
seat's steals (the games without a steal in the baseline end alike: the tests check it). For
each such pair of games, with seat k honest:

- the result changed: another winner, or a tie where there was a winner (or the reverse);
- between the others (kingmaking): the result changed and seat k is the winner in neither
  game. Seat k's steals made someone else the winner;
- for itself: the result changed and seat k won one of the two games.

Each share is over the paired games, with its 95% Wilson interval; the seats are pooled in the
report's verdict (each seat's steals were removed in its own games)."""

from __future__ import annotations

import polars as pl

from balance.stats.intervals import wilson
from reports.tables import pieces

HONEST = "honest"
SCHEMA = {"run": pl.Utf8, "seat": pl.Int64, "players": pl.Int64, "player": pl.Utf8,
          "games": pl.Int64, "changed": pl.Int64, "others": pl.Int64, "own": pl.Int64,
          "stole": pl.Int64}


def seats_of(info: dict) -> list[str]:
    """A variant's player on each seat (its `seats`, or its one `heuristic` on every seat)."""
    players = int(info.get("players") or 0)
    if info.get("seats"):
        return [str(x) for x in info["seats"]]
    return [str(info.get("heuristic") or "")] * players


def honest_pairs(manifest: dict) -> list[tuple[int, int, int, str, str]]:
    """(variant, baseline variant, honest seat, run, the other seats' player) of every variant
    with one honest seat whose run has a variant of the same rules and players with that
    player on every seat."""
    variants = [v for v in manifest.get("variants", []) if "variant" in v]

    def same_game(a: dict, b: dict) -> bool:
        return ((a.get("from_run") or a.get("run")) == (b.get("from_run") or b.get("run"))
                and int(a.get("players") or 0) == int(b.get("players") or 0)
                and (a.get("rules") or {}) == (b.get("rules") or {})
                and (a.get("knobs") or {}) == (b.get("knobs") or {}))

    out = []
    for v in variants:
        seats = seats_of(v)
        if seats.count(HONEST) != 1:
            continue
        k = seats.index(HONEST)
        others = {s for i, s in enumerate(seats) if i != k}
        if len(others) != 1:
            continue
        [player] = others
        base = next((b for b in variants if same_game(v, b)
                     and seats_of(b) == [player] * len(seats)), None)
        if base is not None:
            out.append((int(v["variant"]), int(base["variant"]), k + 1,
                        str(v.get("from_run") or v.get("run") or ""), player))
    return out


def kingmaker(games, manifest: dict, keys: pl.DataFrame) -> pl.DataFrame:
    """SCHEMA: per run and honest seat, the paired games and the changed results (module
    doc); `stole` the games of the baseline with a steal."""
    pairs = honest_pairs(manifest or {})
    if not pairs:
        return pl.DataFrame(schema=SCHEMA)
    wanted = {v for p in pairs for v in p[:2]}
    parts = [p.filter(pl.col("variant").is_in(list(wanted)))
             for p in pieces.of(games, ["variant", "game", "winner", "steals", "players"])]
    g = pl.concat([p for p in parts if p.height] or [parts[0]]).with_columns(
        pl.col("variant").cast(pl.Int64), pl.col("winner").cast(pl.Int64).fill_null(-1))
    rows = []
    for variant, base, seat, run, player in pairs:
        mine = g.filter(pl.col("variant") == variant).select("game", "winner", "players")
        theirs = g.filter(pl.col("variant") == base).select(
            "game", pl.col("winner").alias("base"), "steals")
        both = mine.join(theirs, on="game")
        if both.height == 0:
            continue
        w, b = both["winner"], both["base"]
        change = w != b
        rows.append((run, seat, int(both["players"][0]), player, both.height,
                     int(change.sum()), int((change & (w != seat) & (b != seat)).sum()),
                     int((change & ((w == seat) | (b == seat))).sum()),
                     int((both["steals"] > 0).sum())))
    return pl.DataFrame(rows, schema=SCHEMA, orient="row").sort("run", "seat")


def pooled(km: pl.DataFrame, column: str) -> dict | None:
    """A share pooled over the seats of `km`: games, wins (`column`), rate and 95% Wilson."""
    n, k = int(km["games"].sum()), int(km[column].sum())
    if n == 0:
        return None
    lo, hi = wilson(k, n)
    return {"games": n, "wins": k, "win_rate": k / n, "ci_low": lo, "ci_high": hi}
