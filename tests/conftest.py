"""Shared fixtures: a small valid content file, a TOML writer and a CLI runner. The toy dice
race (tests/games/dice/), Pig (tests/games/pig/) and the card race against the Computer
(tests/games/cards/), all on the engine kit, are registered as games for the whole suite."""

from __future__ import annotations

import json
import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from balance.cli.app import app
from balance.contract import registry
from tests.games.cards.game import GAME as CARDS
from tests.games.dice.game import GAME as DICE
from tests.games.pig.game import GAME as PIG

registry.register(DICE)
registry.register(PIG)
registry.register(CARDS)
ROOT = Path(__file__).resolve().parents[1]
# `balance` in a new process, with the test games registered as in this one (the tests are not
# installed: the project's root is put on the path, whatever folder the process starts in).
CLI = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
       "from balance.contract import registry; "
       "from tests.games.dice.game import GAME; registry.register(GAME); "
       "from tests.games.pig.game import GAME; registry.register(GAME); "
       "from tests.games.cards.game import GAME; registry.register(GAME); "
       "from balance.cli.app import app; app()"]

# A small but complete 2nd-edition content file: two standard gems and the wild Diamond Dust,
# a single, a double and a lone Diamond Dust card, two action rooms and a straight tunnel.
# Rooms: 2 + 1 + 2 = 5 tiles; cards: 2 + 2 + 2 = 6 cards; one skill, 7 copies (a skill each
# for up to 7 players, as the 2nd edition's Normal variant deals).
MINIMAL_TOML = """\
[content]
name = "mini"
edition = "2e"
description = "Minimal test content"

[box]
room_tiles = 5
gem_cards = 6

[[gems]]
name = "Electrum"
kind = "standard"
[[gems]]
name = "Fire Ruby"
kind = "standard"
[[gems]]
name = "Diamond Dust"
kind = "special"
power = "wild"

[[cards]]
gems = ["Electrum", "Fire Ruby"]
copies = 2
[[cards]]
gems = ["Electrum", "Electrum"]
copies = 2
[[cards]]
gems = ["Diamond Dust"]
copies = 2

[[skills]]
name = "Pathfinder"
text = "Once your steps are spent, take one more."
effect = "extra steps 1"
copies = 7

[[rooms]]
name = "Electrum Vein"
copies = 2
kind = "action"
ability = "dig 2 Electrum"
north = { cost = ["Fire Ruby", "Fire Ruby"], points = 1 }
east = "wall"
south = "door"
west = "wall"

[[rooms]]
name = "Ruby Shaft"
copies = 1
kind = "action"
ability = "discard 1 Fire Ruby; draw 3"
north = "door"
east = { cost = ["Electrum"], points = 0 }
south = "wall"
west = "wall"

[[rooms]]
name = "Straight Tunnel"
copies = 2
kind = "tunnel"
ability = ""
north = "door"
east = "door"
south = "door"
west = "door"
pairs = [["north", "south"], ["east", "west"]]
"""

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE_KEY.match(k) else json.dumps(k)


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a valid TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {v!r} as TOML")


def dump_toml(data: dict) -> str:
    """Enough TOML for content files: scalars, tables, arrays of tables, inline tables."""
    lines: list[str] = []
    tables = []
    for k, v in data.items():
        if isinstance(v, dict) or (isinstance(v, list) and v and all(isinstance(x, dict)
                                                                     for x in v)):
            tables.append((k, v))
        else:
            lines.append(f"{_key(k)} = {_value(v)}")
    for k, v in tables:
        rows = [v] if isinstance(v, dict) else v
        header = f"[{_key(k)}]" if isinstance(v, dict) else f"[[{_key(k)}]]"
        for row in rows:
            lines.append("")
            lines.append(header)
            lines.extend(f"{_key(rk)} = {_value(rv)}" for rk, rv in row.items())
    return "\n".join(lines) + "\n"


@pytest.fixture
def minimal() -> dict:
    """A fresh, mutable copy of the minimal valid content."""
    return tomllib.loads(MINIMAL_TOML)


# The minimal content with enough cards to deal 4 to each of up to 3 players (the minimal
# box's 6 cards deal nobody a full hand, which validation refuses for play).
PLAYABLE_TOML = MINIMAL_TOML.replace("gem_cards = 6", "gem_cards = 14").replace(
    'gems = ["Diamond Dust"]\ncopies = 2', 'gems = ["Diamond Dust"]\ncopies = 10')


@pytest.fixture
def playable_text() -> str:
    """Minimal content that can be played by 2 or 3 players."""
    return PLAYABLE_TOML


@pytest.fixture
def minimal_text() -> str:
    """The minimal valid content as TOML text."""
    return MINIMAL_TOML


@pytest.fixture
def write_content(tmp_path: Path) -> Callable[..., Path]:
    """write_content(data_or_text, name='content.toml') -> path of the written file."""

    def write(data: dict | str, name: str = "content.toml") -> Path:
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else dump_toml(data), encoding="utf-8")
        return path

    return write


@pytest.fixture
def cli():
    """cli(*args) -> click Result for `balance *args` (stdout and stderr kept apart)."""
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(app, [str(a) for a in args])

    return invoke
