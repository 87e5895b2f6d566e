"""The players, by name: the only list of them. Each entry gives the policy id the engine
dispatches on (heuristics/gemrush/dispatch.py), what the player does, and its knobs (declared in the
player's module, heuristics/knobs.py). A seat's weights are its knob values, then the
per-room ability values computed from the content."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from balance.errors import InputError, Problems
from balance.games.gemrush.ability import (
    DIG,
    DISCARD,
    DRAW,
    F_ANY,
    F_GEMS,
    F_NAMED,
    KEEP_ALL,
    KEEP_N,
    REVEAL,
)
from balance.games.gemrush.engine.seats import Seats, new_seats
from balance.games.gemrush.tables import Tables
from heuristics.gemrush import greedy, reference
from heuristics.gemrush.dispatch import (
    POLICY_EXTERNAL,
    POLICY_GREEDY,
    POLICY_RANDOM,
    POLICY_SCRIPTED,
)
from heuristics.knobs import Knob, knob_values


@dataclass(frozen=True)
class Heuristic:
    name: str
    policy: int
    doc: str
    knobs: tuple[Knob, ...] = ()
    # The first `engine_knobs` knobs are read by compiled code (before the per-room values in
    # the seat's weights); the rest by a Python player (after them). None: all of them.
    engine_knobs: int | None = None
    # A player written in Python: makes the object its callbacks reach (heuristics/external.py)
    # for one engine call, from (setup, state).
    game: Callable | None = None
    # What it remembers during a game, and where that memory lives (never in the game's
    # State: compiled players keep it in Seats.mem, heuristics/gemrush/memory.py).
    memory: str = "nothing"


GREEDY_MEMORY = ("Seats.mem (heuristics/gemrush/memory.py): the frontier doors, its estimates "
                 "per gem, a breadth-first search from its room and this turn's plan, each "
                 "stamped with the engine counters it was computed from")

HEURISTICS = {
    "greedy": Heuristic("greedy", POLICY_GREEDY,
                        "builds the best door it can afford, else uses the best ability, "
                        "else draws; pays with the least waste", greedy.KNOBS,
                        memory=GREEDY_MEMORY),
    "reference": Heuristic("reference", POLICY_EXTERNAL,
                           "determinized flat Monte Carlo over steps, action, payments, "
                           "discards, rotations and skill uses (its `searched` knob), with "
                           "greedy rollouts (slow: for measuring)",
                           greedy.KNOBS + reference.KNOBS, greedy.N_KNOBS,
                           reference.ReferenceGame,
                           memory="greedy's, for its own decisions and its rollouts' (copied "
                           "at each search), and in Python the state at the start of the turn "
                           "and the turn's choices so far (ReferenceGame)"),
    "random": Heuristic("random", POLICY_RANDOM,
                        "uniform among legal options (rule coverage, not strategy)",
                        memory="nothing; it draws from the players' stream (Seats.rng)"),
    "scripted": Heuristic("scripted", POLICY_SCRIPTED,
                          "replays a list of choices, then takes the first option (tests)",
                          memory="the list and its place in it: State.script, which the forward "
                          "model's replay of a turn shares (engine/forward.py)"),
}


def get_heuristic(name: str) -> Heuristic:
    if name not in HEURISTICS:
        probs = Problems("heuristic")
        probs.add("", "heuristic", f"unknown player {name!r} (known: {', '.join(HEURISTICS)})")
        raise InputError(probs.items)
    return HEURISTICS[name]


def ability_values(tables: Tables) -> np.ndarray:
    """Expected net cards an ability puts in hand, from its program and the deck's make-up."""
    n_cards = len(tables.card_deck)
    counts = tables.card_count[tables.card_deck]  # (n_cards, G)
    freq = (counts > 0).mean(axis=0) if n_cards else np.zeros(counts.shape[1])
    best_gem = float(freq.max()) if len(freq) else 0.0
    values = np.zeros(len(tables.room_kind))
    for rt in range(len(tables.room_kind)):
        pool = 0.0
        gain = 0.0
        for i in range(int(tables.prog_len[rt])):
            op, n, fk, mask = (int(v) for v in tables.prog[rt, i])
            n = 1 if n < 0 else n  # X: valued per unit
            if fk == F_GEMS:
                p = float(sum(freq[g] for g in range(len(freq)) if (mask >> g) & 1))
            elif fk == F_NAMED:
                p = best_gem
            else:
                p = 1.0
            p = min(p, 1.0)
            if op == DRAW:
                gain += n
            elif op == REVEAL:
                pool += n
            elif op == DIG:
                if tables.prog_has_keep[rt]:
                    pool += n
                else:
                    gain += n
            elif op == KEEP_ALL:
                kept = pool * (p if fk != F_ANY else 1.0)
                gain += kept
                pool -= kept
            elif op == KEEP_N:
                kept = min(float(n), pool)
                gain += kept
                pool -= kept
            elif op == DISCARD:
                gain -= n * 0.9  # a discard also sharpens the hand
        values[rt] = gain
    return values


def seats_for(names, tables: Tables, knobs: dict | None = None,
              source: str = "--knob") -> Seats:
    """The engine's Seats for one player name per seat. `knobs` sets knob values by name for
    every seat whose player has that knob; a name no seated player has is an error."""
    knobs = dict(knobs or {})
    seated = {n: get_heuristic(n) for n in names}
    known = {k.name for h in seated.values() for k in h.knobs}
    unknown = [k for k in knobs if k not in known]
    if unknown:
        probs = Problems(source)
        for k in unknown:
            probs.add("knobs", k, f"no player seated has this knob (known: "
                      f"{', '.join(sorted(known)) or 'none'})")
        probs.raise_if_any()
    weights = {}
    for name, h in seated.items():
        mine = {k: v for k, v in knobs.items() if any(x.name == k for x in h.knobs)}
        weights[name] = weights_for(name, tables, mine, source)
    return new_seats([seated[n].policy for n in names], [weights[n] for n in names], tables)


def weights_for(name: str, tables: Tables, knobs: dict | None = None,
                source: str = "--knob") -> np.ndarray:
    """A player's knob values in declared order (defaults, or `knobs`), then the per-room
    ability values of the content."""
    h = get_heuristic(name)
    values = [knob_values(h.knobs, knobs or {}, source, name)[k.name] for k in h.knobs]
    cut = len(h.knobs) if h.engine_knobs is None else h.engine_knobs
    return np.concatenate([np.array(values[:cut], np.float64), ability_values(tables),
                           np.array(values[cut:], np.float64)])


def python_game(setup, st):
    """The object the callbacks of a Python player reach for one engine call (None when
    every seat is compiled)."""
    for name in dict.fromkeys(setup.seats):
        h = get_heuristic(name)
        if h.game is not None:
            return h.game(setup, st)
    return None


def describe_players() -> list[str]:
    """`balance players`: every player, what it does, and its knobs with default and range."""
    lines = []
    for h in HEURISTICS.values():
        lines.append(f"{h.name}: {h.doc}")
        lines.append(f"  memory: {h.memory}")
        for k in h.knobs:
            kind = "whole number" if k.integer else "number"
            lines.append(f"  {k.name:<17} default {k.default:g}  range {k.lo:g} to {k.hi:g} "
                         f"({kind})  {k.doc}")
        if not h.knobs:
            lines.append("  (no knobs)")
    return lines
