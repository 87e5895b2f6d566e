"""Playing Rusship from Python, on the engine kit (balance/kit/play.py): a Setup with the rules
checked and two seats, batches of games, traced games. `balance rusship play`, the tests and
Rusship's tuning and rule check come through here; the runner's hooks are the kit's."""

from __future__ import annotations

import numpy as np

from balance.errors import InputError, Problem
from balance.games.rusship import rules as rules_mod
from balance.games.rusship.game import KIT
from balance.kit import play as kit_play
from balance.kit.play import Setup
from balance.kit.playthrough import render
from balance.kit.records import Records
from balance.textfile import short


def prepare(overrides: dict | None = None, seats=("racer", "racer"), knobs: dict | None = None,
            source: str = "--knob") -> Setup:
    """A Setup: the rules with `overrides` (rules.checked), a player per seat, and knobs by
    name for the seats whose players have them. What it cannot play is an InputError, the
    knobs' problems naming `source`: the engine would read a missing seat's player past the
    end of its arrays, and a value out of range as any other."""
    values = rules_mod.rules(rules_mod.checked(overrides))
    seats = tuple(seats) if isinstance(seats, list | tuple) else (seats,)
    if len(seats) != 2 or not all(isinstance(name, str) for name in seats):
        raise InputError([Problem("seats", "", "", f"Rusship seats two players by name, "
                                  f"Humanity's then the Alien Empire's, got "
                                  f"{short(repr(seats))}")])
    return kit_play.prepare(KIT, values, seats, knobs, source)


def play_batch(setup: Setup, seeds, check: bool = False) -> Records:
    """One game per seed: the kit's records (balance/kit/records.py), one row per game."""
    return kit_play.play(setup, np.asarray(seeds), check)


def play_traced(setup: Setup, seed: int) -> tuple:
    """One game with its events, in check mode: (the final state, the events)."""
    state, _records, events = kit_play.played_traced(setup, seed)
    return state, events


def told(setup: Setup, seed: int) -> str:
    """Game `seed` as text, turn by turn (trace.py's view)."""
    return render(setup, seed)
