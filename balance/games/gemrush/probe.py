"""Gem Rush's probe (balance/contract/probe.py): how the contract tests watch its engine play,
though the engine is its own and not the kit's.

The engine counts each game's decisions and the options they offered (R_DECISIONS,
R_OPTIONS), and with checks on marks a pick of no option offered (V_BAD_CHOICE). What it
does not keep, each decision in turn and the kind of option picked, a Watcher sees: it sits
at every seat as a Python player (heuristics/external.py) and asks the seat's own compiled
player (the dispatch's pick_nb) with the engine's arrays, so the game is the one the
compiled seats play alone, pick for pick and stream for stream (the contract tests compare
the two)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from balance.contract.probe import Kind, Played
from balance.games.gemrush.capacity import MAX_OPTS
from balance.games.gemrush.engine import decisions as D
from balance.games.gemrush.engine.game_nb import (
    R_DECISIONS,
    R_END_REASON,
    R_N,
    R_OPTIONS,
    R_VIOLATION,
)
from balance.games.gemrush.engine.state import END_NONE, V_BAD_CHOICE, new_state
from balance.games.gemrush.game import GAME
from balance.games.gemrush.play import play_batch, prepare
from heuristics.external import playing
from heuristics.gemrush.registry import PLAYERS
from heuristics.scripted import set_script

# The variant a Kind's rules are laid over: prepare's arguments.
DEFAULTS = {"edition": "2e", "mode": "crisis"}
STEPS = ("stop", "door", "cart", "warp move", "warp build", "ability step", "free ability",
         "skill step")  # the D_STEP options, by OPT_* code
ACTIONS = ("draw", "ability")  # the D_ACTION options, by ACT_* code
# Where random play meets each kind in most games. Crisis, the defaults, for what it asks at
# every turn and its own decisions (the burn, discards at will); Rush (two seats or more) for
# the rest: random teams seldom build the rooms whose abilities ask them before Crisis's
# clock runs out (cart rides in 1 game of 200 at 2 seats), random racers build them in most
# games (109 of 200). A swap is asked only with two seats to swap with, and a skill picked
# only where the skills dealt are to choose from.
_CRISIS = ("step: stop", "step: door", "step: skill step", "payment", "rotation",
           "action: draw", "action: ability", "keep", "discard at will", "burn")
_RUSH = {"mode": "rush"}
_OWN = {"swap": (_RUSH, 3), "pick a skill": ({"rules": {"skills": "choice"}}, 0)}


def _kind(name: str) -> Kind:
    rules, players = _OWN.get(name, ({}, 0) if name in _CRISIS else (_RUSH, 2))
    return Kind(name, rules, players)


def _names() -> dict[tuple[int, int], str]:
    """Every kind of option's name by (decision, the option's first value) for a step or an
    action, (decision, -1) for the others."""
    names = {}
    for d, name in enumerate(D.DECISION_NAMES):
        parts = {D.D_STEP: STEPS, D.D_ACTION: ACTIONS}.get(d)
        for code, part in enumerate(parts or (name,)):
            names[(d, code if parts else -1)] = f"{name}: {part}" if parts else name
    return names


_NAMES = _names()
KINDS = tuple(_kind(name) for name in _NAMES.values())
SEARCH_GAMES = 2  # games a player written in Python (a search, slow) plays with checks on


class Watcher:
    """Every seat of one seating: asks each seat's compiled player, and notes each decision
    (seat, kind of decision, pick, options) and the kind of option picked."""

    def __init__(self, setup, st):
        self.st, self.setup = st, setup
        pp = setup.players
        self.pol = pp.pol.copy()
        self.players = pp._replace(pol=np.full(len(self.pol), PLAYERS.python_policy, np.int64))
        self.pick_nb = PLAYERS.generated().pick_nb
        self.log: list[tuple[int, int, int, int]] = []
        self.picked: set[str] = set()  # the kinds' names

    def turn_start(self, p: int) -> None:
        pass

    def choose(self, kind: int, n: int, p: int) -> int:
        s, st = self.setup, self.st
        k = int(self.pick_nb(self.pol[p], kind, st, s.tables, s.rules, self.players, n, p))
        self.log.append((p, kind, k, n))
        if 0 <= k < n:
            first = int(st.opt[k, 0]) if kind in (D.D_STEP, D.D_ACTION) else -1
            self.picked.add(_NAMES[(kind, first)])
        return k


@dataclass(frozen=True)
class GemRushProbe:
    game = GAME
    kinds: tuple[Kind, ...] = KINDS
    unoffered: int = MAX_OPTS  # a listing holds at most MAX_OPTS - 1 options (options_nb)
    watcher: type = Watcher  # a test may seat a broken one
    checked: dict = field(default_factory=lambda: {
        name: SEARCH_GAMES if p.python is not None else 30
        for name, p in PLAYERS.items() if name != "scripted"})

    def play(self, seats, seeds, rules=None, check=False, script=()) -> Played:
        return self._watched(seats, seeds, rules, check, script)[0]

    def traced(self, seats, seed, rules=None) -> tuple[Played, np.ndarray]:
        played, log = self._watched(seats, [seed], rules, True, ())
        return played, np.array(log, np.int64).reshape(-1, 4)

    def _watched(self, seats, seeds, rules, check, script):
        seats = tuple(seats)
        slow = [n for n in seats if PLAYERS.player(n).python is not None]
        if slow:
            raise ValueError(f"the probe watches compiled players only, not {slow}")
        setup = prepare(**{**DEFAULTS, **(rules or {})}, players=len(seats),
                        heuristic=seats[0], seats=seats)
        if len(script):
            set_script(setup.players.mem.scripted, script)
        seeds = np.asarray(seeds, np.int64)
        st = new_state(setup.tables, setup.rules)
        first = setup.first_players(seeds)
        rows = [None] * len(seeds)
        log, picked = [], set()
        for k in np.unique(first):  # one seating at a time, as play_batch plays them
            at = np.flatnonzero(first == k)
            seated = setup.seated(int(k))
            watcher = self.watcher(seated, st)
            with playing(watcher):
                batch = play_batch(dataclasses.replace(seated, players=watcher.players),
                                   seeds[at], check, state=st)
            for i, g in enumerate(at):
                rows[g] = np.concatenate([a[i].ravel().astype(np.int64) for a in (
                    batch.out, batch.scores, batch.score_by_turn, batch.rooms, batch.skills)])
            log += watcher.log
            picked |= watcher.picked
        rows = np.stack(rows)
        out = rows[:, :R_N]
        violation = out[:, R_VIOLATION]
        return Played(rows=rows, ended=out[:, R_END_REASON] != END_NONE,
                      decisions=out[:, R_DECISIONS], options=out[:, R_OPTIONS],
                      violated=violation != 0, not_offered=violation == V_BAD_CHOICE,
                      picked=frozenset(k for k, kind in enumerate(self.kinds)
                                       if kind.name in picked)), log


def probe() -> GemRushProbe:
    return GemRushProbe()
