"""Invariant checking as a command: play games in check mode on any content file and report
every game that broke an invariant (balance/games/gemrush/engine/check_nb.py lists them)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.games.gemrush.content import load_content
from balance.games.gemrush.engine.game_nb import R_VIOLATION
from balance.games.gemrush.engine.state import VIOLATION_NAMES
from balance.games.gemrush.play import play_batch, prepare
from balance.games.gemrush.referee import Report, referee_game
from balance.games.gemrush.rules import load_profile, profile_for, seat_key


@dataclass
class CheckResult:
    variant: str
    games: int
    bad_seeds: list[tuple[int, str]]
    events: int = 0  # with the referee: trace events it checked


def checked_profile(edition: str | None, content: str | None, rules=None):
    """The rules a check plays under: the content's edition (or `edition`), the content's own
    [rules], then `rules`. InputError for a bad content file or rule."""
    c = load_content(content if content is not None else load_profile(edition or "2e").content)
    profile = profile_for(c, edition, rules)
    prepare(edition, "crisis", fewest_players(profile), "random", content=c, rules=rules)
    return profile


def fewest_players(profile) -> int:
    """The fewest players the rules can seat: every seat a per-seat rule or first_player
    names must exist."""
    named = [seat_key(k)[1] for k in profile.seat_keys()] + [profile["first_player"]]
    return max(profile["players_min"], *named)


def variants(profile, modes=("crisis", "rush")):
    lo, hi = fewest_players(profile), profile["players_max"]
    for mode in modes:
        for players in range(max(lo, 2 if mode == "rush" else 1), hi + 1):
            yield mode, players


def check_content(edition: str | None, content: str | None, games: int,
                  heuristics=("random", "greedy"), rules=None, seed: int = 0,
                  progress=None, referee: bool = False) -> list[CheckResult]:
    """Play every mode and player count in check mode. With `referee`, also re-read each
    game's event trace with the independent rules model of balance/games/gemrush/referee/."""
    profile = checked_profile(edition, content, rules)
    results = []
    for heuristic in heuristics:
        for mode, players in variants(profile):
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
    """The referee (balance/games/gemrush/referee/) re-reads each game's trace with a rules
    model that shares no rule code with the engine."""
    total = Report()
    for sd in seeds:
        total.add(referee_game(setup, int(sd)))
    return total
