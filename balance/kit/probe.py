"""The probe of a game on the kit (balance/contract/probe.py): its games played through the
kit's loop, read from the kit's record of each game and its trace's pick events. A test may
hand the probe another loop (the kit subverted in one place) to watch a broken game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.contract.game import Game
from balance.contract.probe import Kind, Played
from balance.kit.play import play, play_traced, prepare
from balance.kit.records import Records
from balance.kit.state import NOT_ENDED, PICK_EVENT, PICK_NOT_OFFERED
from heuristics.scripted import set_script

CHECKED_GAMES = 30  # games each player plays with checks on


@dataclass(frozen=True)
class KitProbe:
    kit: Any  # the KitGame (declare.py)
    loop: Any = None  # the generated loop module; None: the game's own

    @property
    def game(self) -> Game:
        return self.kit.game

    @property
    def kinds(self) -> tuple[Kind, ...]:
        return tuple(Kind(o.name, o.rules) for o in self.kit.options)

    @property
    def checked(self) -> dict[str, int]:
        return {p: CHECKED_GAMES for p in self.kit.roster() if p != "scripted"}

    @property
    def unoffered(self) -> int:
        return self.kit.max_options  # the kit holds max_options options, 0 to max_options - 1

    def _setup(self, seats, rules, script):
        setup = prepare(self.kit, rules or {}, seats)
        setup.loop = self.loop
        if len(script):
            set_script(setup.players.mem.scripted, script)
        return setup

    def play(self, seats, seeds, rules=None, check=False, script=()) -> Played:
        return played(play(self._setup(seats, rules, script), seeds, check))

    def traced(self, seats, seed, rules=None) -> tuple[Played, np.ndarray]:
        records, events = play_traced(self._setup(seats, rules, ()), seed)
        picks = events[events[:, 2] == PICK_EVENT]
        # A pick event: (turn, seat, code, decision, pick, options, 0).
        return played(records), picks[:, [1, 3, 4, 5]].copy()


def played(records: Records) -> Played:
    return Played(rows=records.out, ended=records.outcome != NOT_ENDED,
                  decisions=records.decisions, options=records.options,
                  violated=records.violation != 0,
                  not_offered=records.violation == PICK_NOT_OFFERED,
                  picked=frozenset(records.picked_kinds()))
