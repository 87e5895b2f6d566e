"""The one rule of compatibility: what names no game was written for the first game.

The toolkit had one game before it had several, and nothing written then names its game: an
experiment file without `[experiment] game`, a run folder whose manifest has no `game`, a
command line without `--game`, that game's own commands typed without their group
(`balance COMMAND` for `balance <game> COMMAND`), and `balance.simulate(...)` without `game`.
Each of those is the first game's, by this rule alone: no other module falls back on a game,
and this is the only neutral module that names one (tests/test_neutral.py knows it).
"""

from __future__ import annotations

# The game of everything written before there were several games.
FIRST_GAME = "gemrush"


def game_name(name):
    """The game's name as written, or the first game's where none is written (None)."""
    return FIRST_GAME if name is None else name


def manifest_game(manifest: dict) -> str:
    """The game a run's manifest names; a run that names none is the first game's."""
    return game_name(manifest.get("game"))
