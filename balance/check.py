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
    events: int = 0  # with the referee: trace events it checked


def variants(profile, modes=("crisis", "rush")):
    lo, hi = profile["players_min"], profile["players_max"]
    for mode in modes:
        for players in range(max(lo, 2 if mode == "rush" else 1), hi + 1):
            yield mode, players


def check_content(edition: str | None, content: str | None, games: int,
                  heuristics=("random", "greedy"), rules=None, seed: int = 0,
                  progress=None, referee: bool = False) -> list[CheckResult]:
    """Play every mode and player count in check mode. With `referee`, also re-read each
    game's event trace with the independent rules model of tests/referee/."""
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
            events = 0
            if referee:
                report = _referee(s, seeds)
                events = report.events
                bad += [(sd, f"referee: {v}") for sd, v in report.violations]
            results.append(CheckResult(f"{heuristic} {mode} {players}p", games, bad, events))
            if progress:
                progress(games)
    return results


def _referee(setup, seeds):
    """The referee lives with the tests (it must share no code with the engine); it is
    installed with the project as the package tests.referee."""
    from tests.referee import Report, referee_game

    total = Report()
    for sd in seeds:
        total.add(referee_game(setup, int(sd)))
    return total
