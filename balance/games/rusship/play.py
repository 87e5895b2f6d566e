"""Playing Rusship from Python: a Setup (the compiled rules, the dice tables, the seats) and
batches of games, traced games and games in check mode. The runner's play hook (shard.py),
`balance rusship play`, the tests and the bench all come through here."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from balance.errors import InputError, Problem
from balance.games.rusship import rules as rules_mod
from balance.games.rusship.engine.state import (
    MAX_EVENTS,
    S_EV_N,
    Rules,
    State,
    Tables,
    new_state,
    new_tables,
)
from balance.games.rusship.engine.turn_nb import R_N, play_games_nb, play_traced_nb
from balance.kernels.compile_plan import PLAN_FILE, helping
from balance.kernels.rng import seed_state, seed_states
from balance.textfile import short
from heuristics.external import playing
from heuristics.rusship.registry import PLAYERS
from heuristics.seats import Seats


@dataclass
class Setup:
    values: dict  # every rule setting's value
    rules: Rules
    tables: Tables
    seats: tuple[str, str]  # the player of seat 1 (Humanity) and seat 2 (the Alien Empire)
    players: Seats


def prepare(overrides: dict | None = None, seats=("racer", "racer"), knobs: dict | None = None,
            source: str = "--knob") -> Setup:
    """A Setup: the rules with `overrides` (rules.checked), a player per seat, and knobs by
    name for the seats whose players have them. What it cannot play is an InputError, the
    knobs' problems naming `source`: the engine would read a missing seat's player past the
    end of its arrays, and a value out of range as any other."""
    values = rules_mod.rules(rules_mod.checked(overrides))
    tables = new_tables()
    seats = tuple(seats) if isinstance(seats, list | tuple) else (seats,)
    if len(seats) != 2 or not all(isinstance(name, str) for name in seats):
        raise InputError([Problem("seats", "", "", f"Rusship seats two players by name, "
                                  f"Humanity's then the Alien Empire's, got "
                                  f"{short(repr(seats))}")])
    return Setup(values, rules_mod.compiled(values), tables, seats,
                 PLAYERS.seats(seats, tables, knobs, source))


def _python_players(setup: Setup, st: State):
    game = PLAYERS.python_player(setup, st)
    return playing(game) if game is not None else contextlib.nullcontext()


# What a helper process compiles while a first call compiles the rest (compile_plan.py).
COMPILE_PLAN = Path(__file__).with_name(PLAN_FILE)


def play_batch(setup: Setup, seeds, check: bool = False, state: State | None = None
               ) -> np.ndarray:
    """One game per seed: the records (turn_nb.R_*), one row per game."""
    words = seed_states(np.asarray(seeds, dtype=np.int64))
    out = np.zeros((len(words), R_N), np.int64)
    st = state if state is not None else new_state(tokens=setup.rules.tokens)
    args = (st, setup.tables, setup.rules, setup.players, words, out, int(check))
    with _python_players(setup, st), helping(COMPILE_PLAN, play_games_nb, args):
        play_games_nb(*args)
    return out


def play_traced(setup: Setup, seed: int) -> tuple[State, np.ndarray]:
    """One game with its events, in check mode: (the final state, the events)."""
    st = new_state(MAX_EVENTS, tokens=setup.rules.tokens)
    args = (st, setup.tables, setup.rules, setup.players, seed_state(seed))
    with _python_players(setup, st), helping(COMPILE_PLAN, play_traced_nb, args):
        play_traced_nb(*args)
    return st, st.ev[: st.sc[S_EV_N]].copy()
