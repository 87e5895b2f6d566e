"""The rungs of a strength ladder: the random player, the game's own player (its default), then
the neutral search player (heuristics/search.py) at doubling budgets, as TabletopGames' ladder
(its evaluation package) climbs one agent's budget. Every game names its players in
its roster; the search is found there by what it is, not by its name, which each game
chooses."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from balance.errors import InputError, Problem

DEFAULT_BUDGETS = (8, 16, 32, 64)
BUDGET = "budget"  # the search's knob of rollouts a decision (heuristics/search.py)


@dataclass(frozen=True)
class Rung:
    player: str
    budget: int | None = None  # the search's rollouts a decision; None for another player

    @property
    def name(self) -> str:
        return self.player if self.budget is None else f"{self.player}@{self.budget}"


def search_of(roster) -> str | None:
    """The roster's honest search player (its rollouts resample what a seat cannot see), or
    None where the game has none."""
    from heuristics.search import Search  # lazy: the search brings the forward models' code

    for name, p in roster.items():
        python = p.python
        if isinstance(python, functools.partial) and python.func is Search \
                and not python.keywords.get("clairvoyant", False):
            return name
    return None


def rungs_of(game, budgets: tuple[int, ...] | None) -> list[Rung]:
    """The ladder's rungs, weakest first. `budgets` None: DEFAULT_BUDGETS where the game has
    a search player, none where it has not; given for a game without one, or out of the
    search's range, it is one message naming --budgets."""
    roster = game.player_registry()
    out = [Rung(n) for n in dict.fromkeys(("random", game.default_player)) if n in roster]
    search = search_of(roster)
    if search is None:
        if budgets:
            raise InputError([Problem("--budgets", "", "", f"{game.title} has no search "
                                      f"player (its players: {', '.join(roster)}), so its "
                                      "ladder has no budgets: leave --budgets out")])
        return out
    budgets = DEFAULT_BUDGETS if budgets is None else budgets
    knob = next(k for k in roster[search].knobs if k.name == BUDGET)
    wrong = [b for b in budgets if not knob.lo <= b <= knob.hi]
    if wrong or list(budgets) != sorted(set(budgets)):
        why = (f"must be from {knob.lo:g} to {knob.hi:g}" if wrong else
               "must rise, each budget once")
        raise InputError([Problem("--budgets", "", "", f"{why}, got "
                                  f"{','.join(str(b) for b in budgets)}")])
    return out + [Rung(search, int(b)) for b in budgets]


def rung_title(roster, rung: Rung) -> str:
    """A rung as the reports write it: the player's title, and a search's budget."""
    title = roster.title(rung.player) if rung.player in roster else rung.player
    return title if rung.budget is None else f"{title}, {rung.budget} rollouts"


def parse_budgets(text: str | None) -> tuple[int, ...] | None:
    """--budgets 8,16,32: whole numbers; None when not given."""
    if text is None:
        return None
    try:
        out = tuple(int(x) for x in text.split(","))
    except ValueError:
        out = ()
    if not out:
        raise InputError([Problem("--budgets", "", "", "must be whole numbers separated by "
                                  f"commas, e.g. 8,16,32, got {text!r}")])
    return out
