"""A game's players, declared once: each `Player` names its decision function, its memory, its
knobs and how its weights are laid out, in its game's `Roster` (heuristics/<game>/registry.py,
reached through the game's `players` hook, balance/contract/game.py).

The engine reaches the players only through a dispatch module generated from the roster
(`python -m heuristics.generate`, heuristics/generate.py): an integer policy id picks the
decision function by if/elif, because a jitted function passed as an argument would miss
Numba's on-disk cache in every new process. Compiled code is therefore named here as
"module:function" strings, which the generator writes as import lines.

Policy ids follow the roster: the compiled players in declared order, then one id for every
player written in Python (heuristics/external.py), then, for a game with a forward model, one
for a search's rollouts (heuristics/search.py: they replay the turn, then hand every seat to
the rollout player).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from balance.errors import InputError, Problems
from heuristics.knobs import Knob, knob_values
from heuristics.seats import Seats, new_seats

# The arguments a compiled decision function may ask for, and what the dispatch passes for
# each: the game's own arrays (as its engine passes them), the seats, or a small neutral
# part of them (the players' random stream, the seat's weights, the player's own memory).
ARGUMENTS = {"kind": "kind", "st": "st", "tb": "tb", "ru": "ru", "pp": "pp", "n": "n", "p": "p",
             "rng": "pp.rng", "w": "pp.w[p]", "mem": "pp.mem.{name}"}
GAME_ARGUMENTS = ("kind", "st", "tb", "ru", "pp", "n", "p")
# The memory field a search's rollouts keep their replay in (heuristics/search_nb.py).
REPLAY = "replay"


@dataclass(frozen=True)
class Memory:
    """What a player remembers during a game. It is the player's own, passed with the seats
    (Seats.mem.<player>), never kept in the game's state: the engine only resets it when a
    game starts, and a search copies it at the decision it searches from."""

    new: str  # "module:function" (tables, players) -> an array or a NamedTuple of arrays;
    #           one per player, shaped per seat where the player needs it
    reset: str  # compiled (memory) -> None: forget the last game
    copy: str = ""  # compiled (dst, src): dst <- src; "" when a rollout needs none of it
    doc: str = ""


@dataclass(frozen=True)
class Player:
    """One player. Either `choose`, compiled code the engine calls at each decision, or
    `python`, a factory (setup, state) -> an object with turn_start(p),
    choose(kind, n, p) and seen(kind, k, p) that the engine reaches through
    heuristics/external.py."""

    name: str
    doc: str
    choose: str = ""  # "module:function" returning the index of the option it takes
    args: tuple[str, ...] = GAME_ARGUMENTS  # what `choose` takes, in order (ARGUMENTS)
    python: Callable | None = None
    memory: Memory | None = None
    knobs: tuple[Knob, ...] = ()
    # The first `engine_knobs` knobs are read by compiled code (and tuned by `balance
    # tune-player`); the rest by Python. None: all of them.
    engine_knobs: int | None = None
    # (tables, knob values in declared order) -> the seat's weights; None: the knob values.
    weights: Callable | None = None
    remembers: str = "nothing"  # what it remembers, in words, for `balance players`
    # Its name as a report and the terminal write it ("Reference"); "" for its name.
    title: str = ""

    def __post_init__(self):
        if not self.name.isidentifier():  # it names a policy id and a memory in code
            raise ValueError(f"a player's name is an identifier, got {self.name!r}")
        if bool(self.choose) == (self.python is not None):
            raise ValueError(f"player {self.name}: give either `choose` or `python`")
        for a in self.args:
            if a not in ARGUMENTS or (a == "mem" and self.memory is None):
                raise ValueError(f"player {self.name}: cannot pass argument {a!r}")

    def vector(self, tables, values: dict[str, float] | None = None) -> np.ndarray:
        """The seat's weights for these knob values (defaults where not given)."""
        v = [float((values or {}).get(k.name, k.default)) for k in self.knobs]
        if self.weights is not None:
            return np.asarray(self.weights(tables, v), np.float64)
        return np.array(v, np.float64)


class Roster(Mapping):
    """A game's players by name, in the order `balance players` lists them, and where the
    code generated from them lives (`dispatch`: the decision dispatch and the players'
    memories; `rollouts`: a search's rollouts, for a game with a forward model)."""

    def __init__(self, players: tuple[Player, ...], dispatch: str, rollouts: str = ""):
        self.players = {p.name: p for p in players}
        if len(self.players) != len(players) or REPLAY in self.players:
            raise ValueError("players need distinct names, and none may be called "
                             f"{REPLAY!r} (a search's rollouts use that memory)")
        self.dispatch = dispatch
        self.rollouts = rollouts
        self.compiled = tuple(p for p in players if p.choose)
        self.policies = {p.name: i for i, p in enumerate(self.compiled)}
        self.python_policy = len(self.compiled)  # every Python player: external.py
        self.replay_policy = self.python_policy + 1  # a search's rollouts (with `rollouts`)
        for p in players:
            if p.python is not None:
                self.policies[p.name] = self.python_policy

    def __getitem__(self, name: str) -> Player:
        return self.players[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.players)

    def __len__(self) -> int:
        return len(self.players)

    def player(self, name: str) -> Player:
        """The player of that name; an unknown name is one message naming the known ones."""
        if name not in self.players:
            probs = Problems("heuristic")
            probs.add("", "heuristic", f"unknown player {name!r} (known: {', '.join(self)})")
            raise InputError(probs.items)
        return self.players[name]

    def weights(self, name: str, tables, knobs: dict | None = None,
                source: str = "--knob") -> np.ndarray:
        """A player's weights: its knob values (defaults, or `knobs`, checked against their
        ranges) laid out as the player declares."""
        h = self.player(name)
        return h.vector(tables, knob_values(h.knobs, knobs or {}, source, name))

    def title(self, name: str) -> str:
        """A player's title as the reports write it (its name where it declares none, or
        where no player has that name: an old run's)."""
        p = self.players.get(name)
        return (p.title if p is not None else "") or name

    def generated(self):
        """The generated dispatch module (imported when first asked for: the roster is read
        by the generator, which must work while that module is stale or missing)."""
        return importlib.import_module(self.dispatch)

    def seats(self, names, tables, knobs: dict | None = None, source: str = "--knob") -> Seats:
        """The seats for one player name per seat, with every player's memory sized for
        `tables`. `knobs` sets knob values by name for every seat whose player has that
        knob, or, given as a tuple of one value per seat, each seat's own (a strength ladder
        seats one search against another of half its budget); a name no seated player has
        is an error."""
        knobs = dict(knobs or {})
        seated = {n: self.player(n) for n in names}
        known = {k.name for h in seated.values() for k in h.knobs}
        unknown = [k for k in knobs if k not in known]
        if unknown:
            probs = Problems(source)
            for k in unknown:
                probs.add("knobs", k, f"no player seated has this knob (known: "
                          f"{', '.join(sorted(known)) or 'none'})")
            probs.raise_if_any()
        slow = [n for n, h in seated.items() if h.python is not None]
        if len(slow) > 1:
            # Every Python seat of a game shares one object (python_player): a second one
            # would silently play as the first.
            probs = Problems(source)
            probs.add("seats", "heuristic", f"seats {' and '.join(slow)}: one game seats at "
                      "most one player written in Python (one of them, on as many seats as "
                      "wanted, beside compiled players)")
            probs.raise_if_any()
        weights = []
        for i, name in enumerate(names):
            h = seated[name]
            mine = {k: _of_seat(v, i, len(names), k, source) for k, v in knobs.items()
                    if any(x.name == k for x in h.knobs)}
            weights.append(self.weights(name, tables, mine, source))
        return new_seats([self.policies[n] for n in names], weights,
                         self.generated().new_memories(tables, len(names)))

    def python_player(self, setup, st):
        """The object the callbacks of a Python player reach for one engine call (None when
        every seat is compiled). One engine call has one such object, so one game seats at
        most one player written in Python (seats() refuses two)."""
        for name in dict.fromkeys(setup.seats):
            h = self.player(name)
            if h.python is not None:
                return h.python(setup, st)
        return None

    def describe(self) -> list[str]:
        """`balance players`: every player, what it does, and its knobs with default and
        range."""
        return describe(self)


def _of_seat(value, seat: int, seats: int, knob: str, source: str):
    """A knob's value for one seat: the value, or the seat's entry of one per seat."""
    if not isinstance(value, tuple | list):
        return value
    if len(value) != seats:
        probs = Problems(source)
        probs.add("knobs", knob, f"gives {len(value)} values, one per seat needs {seats}")
        probs.raise_if_any()
    return value[seat]


def describe(players: Mapping) -> list[str]:
    """The lines `balance players` prints for a game's players, whatever holds them (a
    Roster, or a game's own mapping of players that have a name, doc, remembers and knobs):
    every player, what it does and remembers, and its knobs with default and range."""
    lines = []
    for h in players.values():
        lines.append(f"{h.name}: {h.doc}")
        lines.append(f"  memory: {h.remembers}")
        for k in h.knobs:
            kind = "whole number" if k.integer else "number"
            lines.append(f"  {k.name:<17} default {k.default:g}  range {k.lo:g} to "
                         f"{k.hi:g} ({kind})  {k.doc}")
        if not h.knobs:
            lines.append("  (no knobs)")
    return lines
