"""`balance ladder`'s work, callable from Python: the setting, the rungs, the games, the
numbers, the folder."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path

from balance.errors import InputError, Problem
from balance.ladder import plan as plan_mod
from balance.ladder import store
from balance.ladder.luck import luck
from balance.ladder.play import play
from balance.ladder.rungs import Rung, rung_title, rungs_of
from balance.ladder.steps import FAMILY, level, steps, tiers
from balance.running.provenance import source_hash
from balance.running.runner import package_versions

MAX_GAMES = 1_000_000
MAX_REPEATS = 100


def check_counts(games: int, repeats: int) -> None:
    if not 1 <= games <= MAX_GAMES:
        raise InputError([Problem("--games", "", "", f"must be from 1 to {MAX_GAMES:,}, got "
                                  f"{games}")])
    if not 2 <= repeats <= MAX_REPEATS:
        raise InputError([Problem("--repeats", "", "", f"must be from 2 to {MAX_REPEATS} (a "
                                  f"seed's result varies only between replays), got "
                                  f"{repeats}")])


class Prepared:
    """Everything checked and built before a game is played."""

    def __init__(self, game: str | None, file: str | None, players: int | None, seed: int,
                 budgets: tuple[int, ...] | None, games: int, repeats: int):
        check_counts(games, repeats)
        self.exp = plan_mod.base_experiment(game, file, players, seed)
        if file is not None and seed is not None:
            self.exp = _reseeded(self.exp, seed)
        self.rungs: list[Rung] = rungs_of(self.exp.game, budgets)
        if len(self.rungs) < 2:
            raise InputError([Problem("--game", "", "", f"{self.exp.game.title} has one "
                                      "rung only (no random player beside its own, no "
                                      "search): a ladder needs two")])
        self.games, self.repeats = games, repeats
        self.race = plan_mod.race(self.exp)
        self.plan = plan_mod.matches(self.exp, self.rungs, repeats)
        plan_mod.prepare_all(self.exp, self.rungs, self.plan)

    @property
    def total(self) -> int:
        return len(self.plan) * self.games


def _reseeded(exp, seed: int):
    return dataclasses.replace(exp, seed=seed)


def run(p: Prepared, out: Path, jobs: int, command: str = "",
        on_games: Callable[[int], None] | None = None) -> store.Ladder:
    """Play the prepared ladder, and write its folder."""
    store.check_out(out)
    start = time.perf_counter()
    df = play(p.exp, p.rungs, p.plan, p.games, jobs, on_games)
    seconds = time.perf_counter() - start
    summary = summarise(p, df)
    summary.update(command=command, seconds=round(seconds, 1))
    store.write(out, summary, df)
    return store.Ladder(summary, df, out)


def summarise(p: Prepared, df) -> dict:
    exp, v = p.exp, p.exp.variants[0]
    players = v.players
    roster = exp.game.player_registry()
    found = steps(df, len(p.rungs), players, p.race)
    return {
        "kind": store.KIND, "game": exp.game.name, "title": exp.game.title,
        "experiment": exp.name, "file": exp.file, "text": exp.text, "seed": exp.seed,
        "setting": v.describe(), "players": players,
        "race": p.race, "automa": exp.game.automa,
        "rungs": [{"name": r.name, "player": r.player, "budget": r.budget,
                   "title": rung_title(roster, r)} for r in p.rungs],
        "games": p.games, "repeats": p.repeats,
        "engine_version": exp.game.version, "source_hash": source_hash(exp.game),
        "packages": dict(package_versions()),
        "rule": {"family": FAMILY, "level": level(len(p.rungs)), "correction": "Bonferroni",
                 "steps": len(p.rungs) - 1},
        "steps": found, "tiers": tiers(found),
        "luck": luck(df, len(p.rungs), players, p.race),
    }
