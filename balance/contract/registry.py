"""The games, by name: the only list of them.

Each entry names where the game's declaration lives (balance/contract/game.py); it is imported
when the game is first asked for, so that listing the games compiles nothing. A test or a
notebook may add a game of its own with `register` (tests/games/dice/ does, to prove the
contract without any real game).
"""

from __future__ import annotations

from balance.contract.game import Game, resolve
from balance.errors import InputError, Problem
from balance.textfile import short

# The game of an experiment file without `game = ...`, and of a run whose manifest names none
# (every file and run written before there were several games).
DEFAULT = "gemrush"

_DECLARED: dict[str, str] = {
    "gemrush": "balance.games.gemrush.game:GAME",
    "rusship": "balance.games.rusship.game:GAME",
}
_LOADED: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game declared outside this list (a test's, a notebook's)."""
    if not game.name.isidentifier() or game.name != game.name.lower():
        raise ValueError(f"a game's name is a lower-case identifier, got {game.name!r}")
    _LOADED[game.name] = game
    return game


def unregister(name: str) -> None:
    """Forget a game added by `register` (the games declared here stay)."""
    if name not in _DECLARED:
        _LOADED.pop(name, None)


def added() -> list[Game]:
    """The games added by `register`, not declared here: what a child process must be given
    to read their runs."""
    return [g for name, g in _LOADED.items() if name not in _DECLARED]


def names() -> list[str]:
    return sorted({*_DECLARED, *_LOADED})


def get(name: str | None = None, file: str = "manifest.json", where: str = "",
        field: str = "game") -> Game:
    """The game of that name; an unknown name, or one of a wrong type, is one message naming
    the known games. The message names `file`, `where` and `field`: by default a run
    manifest's `game`, which the report, the comparison and the merge read."""
    name = DEFAULT if name is None else name
    if not isinstance(name, str):  # a list or a table from a file: unhashable, and no name
        raise InputError([Problem(file, where, field, f"must be a game's name in quotes, got "
                                  f"{short(repr(name))} (known: {', '.join(names())})")])
    if name in _LOADED:
        return _LOADED[name]
    if name not in _DECLARED:
        raise InputError([Problem(file, where, field,
                                  f"no such game {name!r} (known: {', '.join(names())})")])
    game = resolve(_DECLARED[name])
    if not isinstance(game, Game) or game.name != name:
        raise TypeError(f"{_DECLARED[name]} is not the Game named {name!r}")
    _LOADED[name] = game
    return game


def games() -> list[Game]:
    """Every game, in name order."""
    return [get(n) for n in names()]
