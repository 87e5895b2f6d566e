"""Invariant checking as a command: play games in check mode on any content file and report
every game that broke an invariant (balance/engine/check_nb.py lists them)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.engine.game_nb import R_VIOLATION
from balance.engine.state import VIOLATION_NAMES
from balance.play import play_batch, prepare


@dataclass
class CheckResult:
    variant: str
    games: int
    bad_seeds: list[tuple[int, str]]


def variants(profile, modes=("crisis", "rush")):
    lo, hi = profile["players_min"], profile["players_max"]
    for mode in modes:
        for players in range(max(lo, 2 if mode == "rush" else 1), hi + 1):
            yield mode, players


def check_content(edition: str | None, content: str | None, games: int,
                  heuristics=("random", "greedy"), rules=None, seed: int = 0,
                  progress=None) -> list[CheckResult]:
    base = prepare(edition, "crisis", 1, "random", content=content, rules=rules)
    results = []
    for heuristic in heuristics:
        for mode, players in variants(base.profile):
            s = prepare(edition, mode, players, heuristic, content=content, rules=rules,
                        exhaust=(mode == "crisis"))
            seeds = np.arange(seed, seed + games)
            b = play_batch(s, seeds, check=True)
            bad = [(int(sd), VIOLATION_NAMES[int(v)])
                   for sd, v in zip(seeds, b.out[:, R_VIOLATION], strict=True) if v]
            results.append(CheckResult(f"{heuristic} {mode} {players}p", games, bad))
            if progress:
                progress(games)
    return results
