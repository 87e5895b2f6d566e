"""What `balance tune-player` and a game's `tuning` hook (Game.tuning) hand each other.

The command (balance/cli/players.py) reads what every game shares: the player, the player
counts, the rule overrides (`--set`), the game's own options (Game.tune_options). The game's
hook says what a candidate is scored on, and balance/running/tune_player.py searches the knobs
with CMA-ES on common seeds and checks the winner against the defaults on fresh ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# The largest seed `balance tune-player --seed` takes: the fresh games that check the winner
# are seeded seed + 1, and a game seed is at most 2**63 - 1 (balance/running/seeds.py).
MAX_SEED = 2**63 - 2


@dataclass(frozen=True)
class TuneRequest:
    """`balance tune-player NAME ...` as the game's hook gets it."""

    player: str  # a name of the game's roster (unknown: the hook raises InputError)
    players: tuple[int, ...]  # the counts --players names, each a count of the game's; ()
    #                           when not given: the hook picks its own default
    rules: dict[str, str]  # --set NAME=VALUE, the values as typed (Game.rules_from_text
    #                        reads them as the settings' types)
    options: dict[str, str | None]  # every Game.tune_options by name: given, or its default


@dataclass(frozen=True)
class Tuning:
    """What balance/running/tune_player.py needs to tune one player of a game."""

    # The knobs tuned (heuristics.knobs.Knob: name, default, range, whole or not); empty when
    # the player has none, which the tuner refuses with one message.
    knobs: tuple[Any, ...]
    # (player count, knob values by name or None for the defaults, seeds: a numpy array) ->
    # one number per seed, more is better: the candidate's result in each game.
    objective: Callable
    name: str  # the objective in words: "team score", "win rate against the default player"
    players: tuple[int, ...]  # the player counts it is scored at, the mean over them tuned
    setting: str = ""  # what it was tuned for, in the result's first line (e.g. the rules)
    # After "knobs written to FILE": how to play them, with {out} for the file; "" for nothing.
    use: str = ""
