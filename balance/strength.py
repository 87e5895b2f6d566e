"""`balance strength`: how strong the players are, on the same seeds.

Each player plays the same Crisis games to exhaustion (seeds from `seed` onwards): the mean
team score with its 95% t interval, the median, the paired difference from a reference
player on the same seeds (paired t interval), the win rate at each named difficulty, and the
speed in games per CPU-second of this process (one core). The reference player's budgets are
expensive, so it plays fewer games; its differences pair with the first games of the others.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass
class Strength:
    label: str
    scores: np.ndarray
    games_per_cpu_s: float
    targets: dict[str, int]


def play(label: str, edition: str, players: int, heuristic: str, games: int, seed: int,
         knobs: dict | None = None) -> Strength:
    from balance.engine.game_nb import R_TEAM_SCORE
    from balance.play import play_batch, prepare

    s = prepare(edition, "crisis", players, heuristic, None, True, {}, knobs=knobs or {})
    t = time.process_time()
    out = play_batch(s, np.arange(seed, seed + games)).out
    dt = max(time.process_time() - t, 1e-9)
    return Strength(label, out[:, R_TEAM_SCORE].astype(float), games / dt,
                    dict(s.profile.crisis_targets))


def _t_interval(x: np.ndarray) -> tuple[float, float]:
    """The mean's 95% t interval: the paired interval of x against zeros."""
    from reports.paired import mean_difference

    r = mean_difference(np.zeros(len(x)), x)
    return (float(x.mean()), float(x.mean())) if r is None else (r.low, r.high)


def table(rows: list[Strength], against: str) -> str:
    """A Markdown table of the rows, differences paired with the row named `against`."""
    base = next(r for r in rows if r.label == against).scores
    names = sorted(rows[0].targets, key=lambda k: rows[0].targets[k])
    head = ("| player | games | mean (95% CI) | median | vs " + against + ", paired | " +
            " | ".join(f"{k} ({rows[0].targets[k]})" for k in names) + " | games/CPU-s |")
    out = [head, "|" + "---|" * (6 + len(names))]
    for r in rows:
        lo, hi = _t_interval(r.scores)
        n = len(r.scores)
        if r.label == against:
            diff = "—"
        else:
            d = r.scores - base[:n]
            dlo, dhi = _t_interval(d)
            diff = f"{d.mean():+.2f} ({dlo:+.2f} to {dhi:+.2f})"
        wins = " | ".join(f"{100 * (r.scores >= r.targets[k]).mean():.1f}%" for k in names)
        out.append(f"| {r.label} | {n:,} | {r.scores.mean():.1f} ({lo:.1f}–{hi:.1f}) | "
                   f"{np.median(r.scores):.0f} | {diff} | {wins} | {r.games_per_cpu_s:,.1f} |")
    return "\n".join(out)


def strength(edition: str, players: int, games: int, reference_games: int,
             budgets: list[int], seed: int = 7000, baseline_knobs: dict | None = None,
             say: Callable[[str], None] = print) -> str:
    """Play random, greedy (and greedy with `baseline_knobs`, when given) and the reference
    at each budget; return the Markdown table."""
    rows = []
    plan = [("random", "random", games, None), ("greedy", "greedy", games, None)]
    if baseline_knobs:
        plan.insert(1, ("greedy (given knobs)", "greedy", games, baseline_knobs))
    plan += [(f"reference {b}", "reference", reference_games, {"budget": b}) for b in budgets]
    for label, heuristic, n, knobs in plan:
        say(f"{label}: {n:,} games...")
        rows.append(play(label, edition, players, heuristic, n, seed, knobs))
    return table(rows, "greedy")
