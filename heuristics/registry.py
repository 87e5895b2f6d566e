"""Players by name: policy id, description and weights. The weights come from data: the knobs
from heuristics/weights/<name>.toml, and per-room values computed from the content."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from balance.ability import DIG, DISCARD, DRAW, F_ANY, F_GEMS, F_NAMED, KEEP_ALL, KEEP_N, REVEAL
from balance.engine.seats import Seats, new_seats
from balance.errors import InputError, Problems
from balance.tables import Tables
from heuristics import greedy
from heuristics.dispatch import POLICY_GREEDY, POLICY_RANDOM, POLICY_SCRIPTED

WEIGHTS_DIR = Path(__file__).parent / "weights"


@dataclass(frozen=True)
class Heuristic:
    name: str
    policy: int
    doc: str


HEURISTICS = {
    "greedy": Heuristic("greedy", POLICY_GREEDY,
                        "builds the best door it can afford, else uses the best ability, "
                        "else draws; pays with the least waste"),
    "random": Heuristic("random", POLICY_RANDOM,
                        "uniform among legal options (rule coverage, not strategy)"),
    "scripted": Heuristic("scripted", POLICY_SCRIPTED,
                          "replays a list of choices, then takes the first option (tests)"),
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


def load_knobs(name: str) -> dict[str, float]:
    path = WEIGHTS_DIR / f"{name}.toml"
    if not path.exists():
        return {}
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    probs = Problems(str(path))
    for k, v in data.items():
        if k not in greedy.KNOB_NAMES:
            probs.add("", k, f"unknown weight (known: {', '.join(greedy.KNOB_NAMES)})")
        elif isinstance(v, bool) or not isinstance(v, int | float):
            probs.add("", k, f"must be a number, got {v!r}")
    probs.raise_if_any()
    return {k: float(v) for k, v in data.items()}


def seats_for(names, tables: Tables) -> Seats:
    """The engine's Seats for one player name per seat."""
    return new_seats([get_heuristic(n).policy for n in names],
                     [weights_for(n, tables) for n in names])


def weights_for(name: str, tables: Tables) -> np.ndarray:
    get_heuristic(name)
    knobs = load_knobs(name)
    w = np.zeros(greedy.N_KNOBS + len(tables.room_kind))
    for i, k in enumerate(greedy.KNOB_NAMES):
        w[i] = knobs.get(k, 0.0)
    w[greedy.N_KNOBS:] = ability_values(tables)
    return w
