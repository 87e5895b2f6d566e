"""The report framework (reports/ but the games' folders, and its templates) is game-neutral: it
names no game's concepts and imports no game's package. A game's report lives in its own
folder, reports/<game>/, and is reached through its declaration (reports/page/game_report.py).

The words: each game's own, as its declaration lists them (Game.words: Gem Rush's edition,
mode, target, room, door, skill, crisis, rush, issue 27), and the name of every registered
game. A line is cut into words (identifiers split at underscores and where a capital follows a
small letter, so `crisis_games`, `RUSH_ENDINGS` and `TargetTurn` are read as their parts), and
a word is refused when it is one of those, or one of those with an `s` or `es`: "rooms",
"targets", "modes" are refused; "model", "doorway", "targeted" and "brush" are other words and
pass. Comments and strings are read too: a page's text that names
a game's concept is the game's to write.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from balance.contract import registry
from tests import layers
from tests.games.dice.game import GAME as DICE

ROOT = Path(__file__).resolve().parent.parent
WORDS = layers.game_words()
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")


def framework_modules() -> list[Path]:
    """The framework's modules: reports/__init__.py and every neutral module in reports/
    (tests/layers.py), at any depth."""
    return [ROOT / "reports" / "__init__.py"] + [p for p in layers.neutral_files()
                                                 if ROOT / "reports" in p.parents]


def framework_files() -> list[Path]:
    return framework_modules() + sorted((ROOT / "reports" / "templates").glob("*"))


def forbidden(line: str, games: tuple[str, ...] = (), words: tuple[str, ...] = WORDS
              ) -> list[str]:
    """The words of `line` the framework may not write."""
    out = []
    for word in _WORD.findall(line):
        w = word.lower()
        if w in games or any(w in (s, s + "s", s + "es") for s in words):
            out.append(word)
    return out


def game_packages() -> set[str]:
    """Every game's package: its declaration's and its folders in heuristics/ and reports/."""
    return {p for ps in layers.game_packages().values() for p in ps}


def imported(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in the file, at any depth."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out += [(node.lineno, node.module)]
            out += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return out


def test_the_word_rule_catches_parts_and_plurals_and_leaves_other_words():
    assert forbidden("crisis_games(kinds)") == ["crisis"]
    assert forbidden("RUSH_ENDINGS = (...)") == ["RUSH"]
    assert forbidden("a TargetTurn of the rooms") == ["Target", "rooms"]
    assert forbidden("the Gem Rush page; modes and editions") == ["Rush", "modes", "editions"]
    assert forbidden("a forward model, a doorway, a targeted brush") == []
    assert forbidden("from reports.gemrush import page", ("gemrush",)) == ["gemrush"]


@pytest.mark.parametrize("path", framework_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_framework_names_no_game_concept(path):
    games = tuple(registry.names())
    bad = [f"{path.relative_to(ROOT)}:{i}: {', '.join(words)}: {line.strip()}"
           for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
           if (words := forbidden(line, games))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", framework_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_framework_imports_no_game_package(path):
    packages = game_packages()
    assert "reports.gemrush" in packages and "balance.games.gemrush" in packages
    bad = [f"{path.name}:{line}: {module}" for line, module in imported(path)
           if any(module == p or module.startswith(p + ".") for p in packages)]
    assert not bad, "\n".join(bad)


def test_a_game_s_own_words_come_from_its_declaration():
    """Issue 49: a new game lists its words in its declaration, and no test is edited."""
    assert "oink" not in layers.game_words()
    game = registry.register(dataclasses.replace(DICE, name="wordy", words=("oink",)))
    try:
        words = layers.game_words()
        assert "oink" in words and set(WORDS) <= set(words)
        assert forbidden("two Oinks and a hog", words=words) == ["Oinks"]
    finally:
        registry.unregister(game.name)
