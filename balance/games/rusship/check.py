"""Rusship's games in check mode over the rules and their switches (`balance rusship check`,
the invariant tests): the default rules, then one variant per value a setting may take other
than its default (every word and switch), the track's extremes, the compensation levers at
their most and an empty box. Each variant is played by racers and by random players; the
engine's invariants (engine/rules_nb.py, broken_nb) are checked after every step."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.games.rusship.engine.state import MAX_LENGTH, MAX_TOKENS, POWER_NAMES
from balance.games.rusship.game import KIT
from balance.games.rusship.play import play_batch, prepare
from balance.games.rusship.rules import DEFAULTS, SETTINGS, conflict
from balance.games.rusship.rules import rules as rule_values

PLAYERS = ("racer", "random")


def rule_switches() -> list[dict]:
    """The variants a check plays, each as the settings it changes from the defaults."""
    out: list[dict] = [{}]
    for s in SETTINGS:
        if s.name.startswith("box_"):
            continue  # the box is varied as a whole below, and per power by the ablation
        if s.kind is bool:
            out.append({s.name: not DEFAULTS[s.name]})
        elif s.choices:
            out += [{s.name: c} for c in s.choices if c != DEFAULTS[s.name]]
    out += [{"length": 3}, {"length": MAX_LENGTH}, {"hits_to_lose": 6},
            {"second_tokens": DEFAULTS["tokens"] - 1, "length": 3}, {"second_bonus": 6},
            {"tokens": 1}, {"tokens": MAX_TOKENS, "second_tokens": MAX_TOKENS - 1},
            {"max_turns": 10}, {f"box_{name}": False for name in POWER_NAMES},
            # every switch away from its default at once, on a short track
            {"length": 6, "power_choice": "next_turn", "entry": "placed", "must_move": False,
             "both_dice": False, "blocked_die": "mothership",
             "mothership_moves": "forward", "mothership_space": "blocked",
             "plus_one_use": "always", "back_captures": False, "jump_protected": False,
             "hits_to_lose": 6, "second_tokens": 2, "second_bonus": 1}]
    return out


@dataclass
class CheckResult:
    variant: str  # the player and the rules it changes
    games: int
    bad_seeds: list[tuple[int, str]]  # (seed, the invariant it broke)
    # Why the switch was not played: the overrides rule it out (--set tokens=1 leaves no
    # room for second_tokens=7), as (setting, why).
    skipped: tuple[str, str] | None = None


def label(player: str, changed: dict) -> str:
    rules = ", ".join(f"{k}={str(v).lower()}" for k, v in changed.items())
    return f"{player}: {rules or 'default rules'}"


def check_rules(games: int, overrides: dict | None = None, seed: int = 0,
                progress=None) -> list[CheckResult]:
    """Every rule switch (rule_switches), each with `overrides` on top, played `games` times
    by each of PLAYERS in check mode from `seed` on."""
    seeds = np.arange(seed, seed + games, dtype=np.int64)
    results = []
    for changed in rule_switches():
        rules = {**changed, **(overrides or {})}
        if (clash := conflict(rule_values(rules))) is not None:
            results.append(CheckResult(label("every player", rules), 0, [], clash))
            if progress:
                progress(games * len(PLAYERS))
            continue
        for player in PLAYERS:
            out = play_batch(prepare(rules, (player, player)), seeds, check=True)
            names = KIT.violation_names()
            bad = [(int(s), names[int(v)])
                   for s, v in zip(seeds, out.violation, strict=True) if v]
            results.append(CheckResult(label(player, rules), games, bad))
            if progress:
                progress(games)
    return results
