"""How far a game's outcome hangs on its deal, at each rung: the seed analysis of Goodman,
Perez-Liebana and Lucas, "Seeding for Success" (arXiv
2503.02686), who play each seed of the game's own random stream many times with the
players' streams varied, at several strengths.

Here every seat plays one rung, each seed is replayed `repeats` times with the players' own
streams drawn anew and the game's kept (balance/kernels/streams.py), and the variance of a
game's result (balance/ladder/shares.py: each seat's share of the game, or the team's
result) is split by a one-way random-effects analysis of variance into a part between seeds
and a part within a seed:

    between = max(0, (MSB - MSW) / repeats),  within = MSW,
    deal's share = between / (between + within)

summed over the seats in a race. 1: the deal alone decides who wins (the players' choices,
or their dice, never change it); 0: a seed says nothing of its result. Its 95% interval
comes from resampling the seeds (a percentile bootstrap, BOOTSTRAP resamples, seeded).

A seed's favourite is the seat that won most of its replays (the team's result: won more
than half); "stays" is the share of seeds whose favourite is the same at a rung and the
rung above, beside the share two unrelated rungs would give (each favourite's share at one
rung times its share at the other, summed).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from balance.ladder.plan import SEEDS
from balance.ladder.shares import seat_shares, team_result

BOOTSTRAP = 1000
SEED = 1


def results(df: pl.DataFrame, rung: int, players: int, race: bool) -> np.ndarray:
    """(seeds, repeats, parts): each replay's result, a column per seat in a race."""
    g = df.filter((pl.col("part") == SEEDS) & (pl.col("upper") == rung)).sort("game", "streams")
    reps = g["streams"].n_unique()
    y = seat_shares(g, players) if race else team_result(g)[:, None]
    return y.reshape(-1, reps, y.shape[1])


def deal_share(y: np.ndarray) -> tuple[float | None, float | None, float | None]:
    """(share, low, high): the deal's share of the variance of `y` (seeds, repeats,
    parts); None where no result varies, or too few seeds and replays."""
    n, r, _ = y.shape
    if n < 2 or r < 2:
        return None, None, None
    means = y.mean(axis=1)  # (n, parts)
    within = ((y - means[:, None, :]) ** 2).sum(axis=1)  # (n, parts)
    share = _share(means[None], within[None], r)[0]
    if np.isnan(share):
        return None, None, None
    pick = np.random.default_rng(SEED).integers(0, n, (BOOTSTRAP, n))
    boot = _share(means[pick], within[pick], r)
    boot = boot[~np.isnan(boot)]
    lo, hi = np.quantile(boot, [0.025, 0.975]) if boot.size else (np.nan, np.nan)
    return float(share), float(lo), float(hi)


def _share(means: np.ndarray, within: np.ndarray, r: int) -> np.ndarray:
    """The deal's share for each set of seeds: means, within (sets, seeds, parts)."""
    n = means.shape[1]
    msb = r * ((means - means.mean(axis=1, keepdims=True)) ** 2).sum(axis=1) / (n - 1)
    msw = within.sum(axis=1) / (n * (r - 1))
    between = np.maximum(0.0, (msb - msw) / r).sum(axis=1)
    total = between + msw.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, between / total, np.nan)


def favourites(y: np.ndarray) -> np.ndarray:
    """Each seed's favourite: the seat with most of its replays' wins, -1 for a tie; for a
    team, 1 won most, 0 lost most, -1 neither."""
    m = y.mean(axis=1)
    if m.shape[1] == 1:
        t = m[:, 0]
        return np.where(t > 0.5, 1, np.where(t < 0.5, 0, -1))
    best = m.max(axis=1, keepdims=True)
    unique = (m == best).sum(axis=1) == 1
    return np.where(unique, m.argmax(axis=1), -1)


def stays(a: np.ndarray, b: np.ndarray) -> tuple[float | None, float | None, int]:
    """(share of seeds whose favourite is the same at both, the share unrelated rungs would
    give, seeds counted): seeds with a favourite at both."""
    both = (a >= 0) & (b >= 0)
    if not both.any():
        return None, None, 0
    a, b = a[both], b[both]
    kinds = np.union1d(a, b)
    chance = sum(float((a == k).mean() * (b == k).mean()) for k in kinds)
    return float((a == b).mean()), chance, int(both.sum())


def luck(df: pl.DataFrame, rungs: int, players: int, race: bool) -> dict:
    """The deal's share at each rung, and whether a seed's favourite stays from each rung to
    the one above."""
    ys = [results(df, r, players, race) for r in range(rungs)]
    shares = []
    for r, y in enumerate(ys):
        s, lo, hi = deal_share(y)
        shares.append({"rung": r, "seeds": int(y.shape[0]), "repeats": int(y.shape[1]),
                       "deal_share": s, "low": lo, "high": hi})
    favs = [favourites(y) for y in ys]
    kept = []
    for r in range(1, rungs):
        same, chance, n = stays(favs[r - 1], favs[r])
        kept.append({"upper": r, "lower": r - 1, "stays": same, "chance": chance, "seeds": n})
    return {"deal": shares, "stays": kept}
