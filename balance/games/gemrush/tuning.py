"""What `balance tune-player` scores a Gem Rush player on (balance/running/tune_player.py): in
Crisis the mean team score, played to exhaustion; in Rush, the win rate of the candidate,
listed first, against default greedy players in the other seats. `tuning` is Gem Rush's
tuning hook (Game.tuning), reading its own options --edition, --mode and --content."""

from __future__ import annotations

import numpy as np

from balance.contract.tuning import TuneRequest, Tuning
from balance.errors import Problems
from balance.games.gemrush.engine.game_nb import R_TEAM_SCORE, R_WINNER
from balance.games.gemrush.play import play_batch, prepare
from balance.games.gemrush.rules import Typed
from heuristics.gemrush.registry import PLAYERS


def seat_objective(setup, mode: str, seeds) -> np.ndarray:
    """Per game: the team score (Crisis) or 1 when the candidate, the first player listed,
    won (Rush; it sits in seat 1 unless the rules draw or name another first player)."""
    batch = play_batch(setup, seeds)
    out = batch.out
    if mode == "crisis":
        return out[:, R_TEAM_SCORE].astype(float)
    return (out[:, R_WINNER] == (-batch.first) % setup.rules.players).astype(float)


def objective(name: str, edition: str | None, mode: str, counts: list[int],
              content: str | None = None, rules: dict | None = None):
    """(the knobs to tune, objective(n, values, seeds), the objective's name) for player
    `name`; InputError when the mode cannot be tuned at those player counts."""
    h = PLAYERS.player(name)
    # Only the knobs compiled code reads: a Python player's own are not the engine's to tune.
    knobs = h.knobs[: h.engine_knobs if h.engine_knobs is not None else None]
    if mode == "rush" and any(n < 2 for n in counts):
        probs = Problems("tune-player")
        probs.add("", "players", "Rush needs at least 2 players")
        probs.raise_if_any()

    def setup_for(n: int, values: dict | None):
        knob_set = values if mode == "crisis" else None
        seats = [name] + ["greedy"] * (n - 1) if mode == "rush" else None
        s = prepare(edition, mode, n, name, exhaust=(mode == "crisis"), rules=rules,
                    content=content, seats=seats, knobs=knob_set)
        if mode == "rush" and values:
            # Only seat 1 plays the candidate; the others keep greedy's defaults.
            w = prepare(edition, mode, n, name, rules=rules, content=content,
                        knobs=values).players.w
            s.players.w[0, : w.shape[1]] = w[0]
        return s

    def score(n: int, values: dict | None, seeds) -> np.ndarray:
        return seat_objective(setup_for(n, values), mode, seeds)

    return knobs, score, "team score" if mode == "crisis" else "seat 1's win rate"


def tuning(ask: TuneRequest) -> Tuning:
    """Gem Rush's tuning hook: `objective` for the options given (by default 2e Crisis at 4
    players), the rules' --set values read as the rule profile reads typed text."""
    edition, mode = ask.options["edition"], ask.options["mode"]
    counts = list(ask.players or (4,))
    knobs, score, what = objective(ask.player, edition, mode, counts, ask.options["content"],
                                   {k: Typed(v) for k, v in ask.rules.items()})
    return Tuning(tuple(knobs), score, what, tuple(counts), f"{edition} {mode}",
                  f"play them with `balance play --heuristic {ask.player}"
                  + (f" --mode {mode}" if mode != "crisis" else "") + " --knobs {out}`")
