"""What a game gives a search player (heuristics/search.py): its forward model, as hooks named
"module:attribute" (balance/contract/game.py's convention), declared by the game and pointed
to by its `Game.forward`.

A search copies the game as it stood at the start of the current turn, replays the turn's
decisions so far, applies the decision it tries, resamples what the searching seat cannot
know, lets the game's fast player play every seat to the end, and scores the end for the
seat. Applying decisions is the players' side (the replay, heuristics/search_nb.py); the rest
is the game's. Compiled hooks take the game's arrays as its engine passes them: the state,
the tables, the rules, the seats (heuristics/seats.py); the setup a Python player is made
from has them as `.tables`, `.rules` and `.players`. The compiled hooks are imported by the
code generated for the game's players (heuristics/generate.py), never passed as arguments.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ForwardModel:
    new_state: str  # (tables, rules) -> a state to copy games into (Python)
    copy: str  # compiled (dst, src): dst <- src, everything the game reads on
    determinize: str  # compiled (st, tb, ru, p, rng): resample in place, from the stream
    #                   `rng`, everything seat p cannot know
    play_on: str  # compiled (st, tb, ru, pp): play the turn under way (its start already
    #               done) and every later one, to the end of the game
    value: str  # compiled (st, ru, p) -> float: what the finished game is worth to seat p
    turn: str  # (st) -> int: the turn under way (Python)
    # The kinds of decision a search may search, each with a name for the command line and
    # the engine's integer kind; a search player's `searched` knob picks some of them.
    searchable: tuple[tuple[str, int], ...] = ()

    def hooks(self) -> dict[str, str]:
        return {"new_state": self.new_state, "copy": self.copy,
                "determinize": self.determinize, "play_on": self.play_on,
                "value": self.value, "turn": self.turn}
