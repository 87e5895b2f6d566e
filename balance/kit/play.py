"""Playing a game on the kit from Python: a Setup (the rules as the engine reads them, the
seats, the state) and batches of games, with or without checks, and traced games. The hooks
(hooks.py), the playthroughs, the contract tests and a game's own tests come through here."""

from __future__ import annotations

import contextlib
import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.contract.game import resolve
from balance.kernels.rng import seed_states
from balance.kernels.streams import seed_states_with
from balance.kit.records import Records, width
from balance.kit.state import EVENTS, new_kit
from heuristics.external import playing
from heuristics.seats import Seats


@dataclass
class Setup:
    kit: Any  # the KitGame (declare.py)
    values: dict  # every rule's value, by name
    rules: Any  # the game's Rules, as its compiled code reads them
    tables: Any  # the game's tables (new_tables), or ()
    seats: tuple[str, ...]  # the player of each seat, by name
    players: Seats  # the seats as the engine reads them
    state: Any  # the game's State, its `kit` field the kit's arrays
    loop: Any = None  # the generated loop module (a test may hand another)

    def new_state(self, events: int = 0):
        module = self.kit.module()
        kit = new_kit(len(self.seats), len(self.kit.tallies), len(self.kit.record),
                      self.kit.max_options, events, self.kit.progress_index())
        return module.new_state(self.rules, kit)


def compiled_rules(kit, values: dict, seats: int):
    """The game's Rules from rule values: the game's own compile (KitGame.compile), or
    `players` the seat count and each other field the setting of its name, a switch as 0 or
    1, a word among choices as its index, a named value as its number."""
    if kit.compile:
        return resolve(kit.compile)(values, seats)
    rules_type = kit.module().Rules
    out = {}
    for name in rules_type._fields:
        if name == "players":
            out[name] = seats
            continue
        setting = next((s for s in kit.settings if s.name == name), None)
        if setting is None:
            raise ValueError(f"{kit.rules}.Rules field {name!r} is no setting of {kit.name}")
        value = values[name]
        if setting.choices:
            value = setting.choices.index(value)
        elif isinstance(value, str):
            value = dict(setting.words)[value.strip()]
        out[name] = int(value) if setting.kind in (int, bool, str) else value
    return rules_type(**out)


def prepare(kit, overrides: dict | None = None, names=("random",),
            knobs: dict | None = None, source: str = "--knob") -> Setup:
    """A Setup: the rules with `overrides` (values checked already), one player per seat and
    knobs by name for the seats whose players have them."""
    names = tuple(names)
    values = {**kit.defaults, **(overrides or {})}
    rules = compiled_rules(kit, values, len(names))
    module = kit.module()
    tables = module.new_tables(rules) if hasattr(module, "new_tables") else ()
    seats = kit.roster().seats(names, tables, knobs, source)
    setup = Setup(kit, values, rules, tables, names, seats, None)
    setup.state = setup.new_state()
    return setup


def _loop(setup: Setup):
    return setup.loop or importlib.import_module(setup.kit.loop)


def _python_players(setup: Setup, state):
    game = setup.kit.roster().python_player(setup, state)
    return playing(game) if game is not None else contextlib.nullcontext()


def play(setup: Setup, seeds, check: bool = False, streams: int = 0) -> Records:
    """One game per seed, with the invariants checked after every step when `check`; a
    `streams` other than 0 draws the players' stream anew, the game's kept (streams.py)."""
    words = seed_states_with(np.asarray(seeds, dtype=np.int64), streams)
    kit = setup.kit
    # Not zeroed: a game's record writes every value Records reads.
    out = np.empty((len(words), width(len(setup.seats), len(kit.tallies), len(kit.record))),
                   np.int64)
    with _python_players(setup, setup.state):
        _loop(setup).play_games_nb(setup.state, setup.tables, setup.rules, setup.players, words,
                                   out, int(check))
    return Records(out, len(setup.seats), len(kit.tallies), len(kit.record))


def play_traced(setup: Setup, seed: int) -> tuple[Records, np.ndarray]:
    """One game with its events, checks on: (its record, the events)."""
    _state, records, events = played_traced(setup, seed)
    return records, events


def played_traced(setup: Setup, seed: int) -> tuple[Any, Records, np.ndarray]:
    """One game with its events, checks on: (its final state, its record, the events)."""
    kit = setup.kit
    state = setup.new_state(kit.max_events)
    out = np.zeros((1, width(len(setup.seats), len(kit.tallies), len(kit.record))), np.int64)
    with _python_players(setup, state):
        _loop(setup).play_traced_nb(state, setup.tables, setup.rules, setup.players,
                                    seed_states([seed])[0], out)
    events = state.kit.ev[: state.kit.sc[EVENTS]].copy()
    return state, Records(out, len(setup.seats), len(kit.tallies), len(kit.record)), events


def redraw_unseen(setup: Setup, state, seat: int, rng) -> None:
    """What `seat` cannot see in `state` (KitGame.hidden) redrawn in place from the stream
    `rng` (4 int64 words, a search's own): the redraw_unseen_nb generated in the game's
    forward module (KitGame.forward), which a compiled search calls itself through the
    module's determinize_nb (ForwardModel.determinize)."""
    if not setup.kit.hidden:
        raise ValueError(f"{setup.kit.name} declares no hidden information (KitGame.hidden)")
    forward = importlib.import_module(setup.kit.forward)
    forward.redraw_unseen_nb(state, setup.tables, setup.rules, seat, np.asarray(rng, np.int64))
