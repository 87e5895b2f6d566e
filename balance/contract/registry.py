"""The games, by name: found where they live, never listed here.

A game is found in one of two places:
- a folder of `balance/games/` with a `game.py` that declares `GAME` (a Game,
  balance/contract/game.py); the folder's name is the game's;
- an installed package of its own, which names its declaration in its metadata under the
  entry-point group `balance.games` (Python's plug-in mechanism), in its pyproject.toml:

      [project.entry-points."balance.games"]
      pig = "pig_balance.game:GAME"

Finding the games imports none of them: a declaration is imported when its game is first
asked for, so that listing the names compiles nothing and imports no game. A test or a notebook
may add a game of its own with `register` (tests/games/dice/ does, to prove the contract
without any real game).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from balance.contract.game import Game, resolve
from balance.errors import InputError, Problem
from balance.textfile import short

GROUP = "balance.games"  # the entry-point group of the games of other packages
# The folder of the toolkit's own games and their package: found by path, not imported, as
# this layer imports no game (the layer contracts, tests/layers.py).
FOLDER = Path(__file__).resolve().parents[1] / "games"
PACKAGE = "balance.games"

_LOADED: dict[str, Game] = {}
_ADDED: set[str] = set()


@dataclass(frozen=True)
class Found:
    """Where a game's declaration lives, before it is imported."""

    name: str
    ref: str  # "module:attribute" of its Game
    where: str  # what a message names: its game.py, or its entry point and distribution

    @property
    def package(self) -> str:
        """The package of the game's own code: the one its declaration's module is in."""
        module = self.ref.partition(":")[0]
        return module.rpartition(".")[0] or module

    @property
    def in_folder(self) -> bool:
        """One of the toolkit's own games (balance/games/<name>/)."""
        return self.package == f"{PACKAGE}.{self.name}"


def _in_folder() -> dict[str, Found]:
    out = {}
    for d in sorted(FOLDER.iterdir()) if FOLDER.is_dir() else ():
        if (d / "game.py").is_file() and (d / "__init__.py").is_file() \
                and d.name.isidentifier() and d.name == d.name.lower():
            out[d.name] = Found(d.name, f"{PACKAGE}.{d.name}.game:GAME",
                                f"balance/games/{d.name}/game.py")
    return out


def _entry_points() -> tuple[dict[str, Found], list[Problem]]:
    out: dict[str, Found] = {}
    problems = []
    for ep in metadata.entry_points(group=GROUP):
        dist = getattr(ep.dist, "name", None)
        where = f"entry point {ep.name!r} of {GROUP}" + (f" (package {dist})" if dist else "")
        found = Found(ep.name, ep.value, where)
        if not ep.name.isidentifier() or ep.name != ep.name.lower():
            problems.append(Problem(where, "", "", "a game's name is a lower-case identifier"))
        elif ep.name in out and out[ep.name].ref != ep.value:
            problems.append(Problem(where, "", "", f"the game {ep.name!r} is also "
                                    f"{out[ep.name].where} ({out[ep.name].ref}): uninstall one"))
        else:
            out[ep.name] = found
    return out, problems


def found() -> dict[str, Found]:
    """Every game found, by name, none imported: balance/games/ and the entry points. A name
    found twice (a package's game named as one of balance/games/) is one message."""
    out = _in_folder()
    plugged, problems = _entry_points()
    for name, f in plugged.items():
        if name in out and out[name].ref != f.ref:
            problems.append(Problem(f.where, "", "", f"the game {name!r} is also "
                                    f"{out[name].where}: rename or uninstall one"))
        else:
            out.setdefault(name, f)
    if problems:
        raise InputError(problems)
    return out


def register(game: Game) -> Game:
    """Add a game that is found nowhere (a test's, a notebook's), or stand in for one."""
    if not game.name.isidentifier() or game.name != game.name.lower():
        raise ValueError(f"a game's name is a lower-case identifier, got {game.name!r}")
    _LOADED[game.name] = game
    _ADDED.add(game.name)
    return game


def unregister(name: str) -> None:
    """Forget a game added by `register` (a game found is found again when asked for)."""
    if name in _ADDED:
        _ADDED.discard(name)
        _LOADED.pop(name, None)


def added() -> list[Game]:
    """The games added by `register`: what a child process must be given to read their
    runs."""
    return [_LOADED[name] for name in sorted(_ADDED)]


def names() -> list[str]:
    return sorted({*found(), *_LOADED})


def get(name: str, file: str = "manifest.json", where: str = "", field: str = "game") -> Game:
    """The game of that name; an unknown name, or one of a wrong type, is one message naming
    the known games, and a declaration that cannot be loaded (a broken package) one message
    naming where it is. The message names `file`, `where` and `field`: by default a run
    manifest's `game`, which the report, the comparison and the merge read."""
    if not isinstance(name, str):  # a list or a table from a file: unhashable, and no name
        raise InputError([Problem(file, where, field, f"must be a game's name in quotes, got "
                                  f"{short(repr(name))} (known: {', '.join(names())})")])
    if name in _LOADED:
        return _LOADED[name]
    places = found()
    if name not in places and spelled(name) in {*places, *_LOADED}:
        return get(spelled(name), file, where, field)
    if name not in places:
        raise InputError([Problem(file, where, field,
                                  f"no such game {name!r} (known: {', '.join(names())})")])
    game = _load(places[name])
    _LOADED[name] = game
    return game


def spelled(name: str) -> str:
    """A game's name as a designer may write it, the rulebook's way ("dice-race",
    "Dice Race"), made the registry's (a Python identifier: "dice_race")."""
    return "_".join(name.strip().lower().replace("-", " ").split())


def _load(f: Found) -> Game:
    try:
        game = resolve(f.ref)
    except Exception as e:  # a package's own failure, whatever it is, is named
        if f.in_folder:
            raise  # the toolkit's own game: its traceback is the developer's to read
        raise InputError([Problem(f.where, "", "", f"cannot load {f.ref}: "
                                  f"{type(e).__name__}: {e}")]) from None
    if not isinstance(game, Game):
        raise InputError([Problem(f.where, "", "", f"{f.ref} is no Game (balance.contract."
                                  f"game.Game), it is a {type(game).__name__}")])
    if game.name != f.name:
        raise InputError([Problem(f.where, "", "", f"{f.ref} declares the game "
                                  f"{game.name!r}, not {f.name!r}")])
    return game


def games() -> list[Game]:
    """Every game, in name order."""
    return [get(n) for n in names()]
