"""How the contract tests watch a game play (tests/test_contract_play.py): one interface for
every game, whatever its engine, so that one test reads every game the same way. A game on
the engine kit has its probe from the kit (balance/kit/probe.py, KitGame.declare names it);
a game with an engine of its own declares one (Game.probe), an adapter in its own folder.

A probe plays a game's engine as it plays in a run (its players, its streams, its checks) and
says what it saw: each game's decisions, the options they offered, the kinds of option picked,
the first broken rule with checks on, and, for a traced game, each decision in turn."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from balance.contract.game import Game


@dataclass(frozen=True)
class Kind:
    """A kind of option the game declares: random play must pick it, under `rules` (a variant
    in the probe's own words; {} for the game's defaults) at `players` seats or more (0: at
    every count the game takes)."""

    name: str
    rules: dict = field(default_factory=dict)
    players: int = 0


@dataclass
class Played:
    """A batch of games as a probe saw them, one entry per game, in the order of the seeds."""

    rows: np.ndarray  # (games, k) int64: all a game recorded, to compare game by game
    ended: np.ndarray  # bool: the game reached an end
    decisions: np.ndarray  # the decisions the seats took (the rules' own opponent's not)
    options: np.ndarray  # the options those decisions offered, together
    violated: np.ndarray  # bool: with checks on, the game broke a rule or an invariant
    not_offered: np.ndarray  # bool: the first thing it broke was a pick of no option offered
    picked: frozenset[int]  # the kinds of option picked in any game (indices of Probe.kinds)


# A traced game's decisions: one row each, in the order they were taken.
SEAT, DECISION, PICK, OPTIONS = range(4)  # the seat (from 0; -1 the rules' own opponent),
#                                            the kind of decision, the pick, the options


class Probe(Protocol):
    """A game's probe (Game.probe: "module:attribute" of a function () -> Probe)."""

    game: Game
    kinds: tuple[Kind, ...]  # every kind of option the game declares
    # The players whose games the contract plays with checks on, each with how many games (a
    # search player's few): every player of the game but the scripted one.
    checked: dict[str, int]
    unoffered: int  # an option's index that no decision ever offers

    def play(self, seats: tuple[str, ...], seeds, rules: dict | None = None,
             check: bool = False, script=()) -> Played:
        """One game per seed, with `seats` (a player's name each) under `rules` (a Kind's;
        None: the defaults), checked when `check`. `script`: the picks every scripted seat
        replays, from the first decision on (heuristics/scripted.py)."""
        ...

    def traced(self, seats: tuple[str, ...], seed: int,
               rules: dict | None = None) -> tuple[Played, np.ndarray]:
        """One game, checks on: what `play` says of it, and its decisions (SEAT, DECISION,
        PICK, OPTIONS rows)."""
        ...
