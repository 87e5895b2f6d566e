"""The neutral toolkit names no game: its folders never speak of a game's own things (each
game's words, as its declaration lists them in Game.words, whole or as part of a word:
`skills`, `rooms`, `Gemrush`) nor import a game's package. The neutral folders are every
module beside the games (tests/layers.py), so that neither a new game nor a new neutral module
needs a line here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from balance.contract import registry
from tests import layers

ROOT = Path(__file__).resolve().parents[1]
WORDS = layers.game_words()
WORD = re.compile("|".join(WORDS), re.IGNORECASE)
# Names other libraries give, which hold a word by chance (a file's st_mode, the statsmodels
# package, Numba's targetoptions, target context and object mode, a thread's target), and
# "model" (the forward model, and class names ending in it: ForwardModel).
THEIRS = re.compile(r"st_mode|statsmodels|targetoptions|targetctx|target_is_directory"
                    r"|Thread\(target=|\bmodels?\b|[A-Z]\w*Models?\b|objmode|objectmode"
                    r"|object mode")
GAME_IMPORT = re.compile(r"^\s*(from|import)\s+(balance\.games|heuristics|reports)\.(\w+)",
                         re.MULTILINE)
THEIR_PACKAGES = {p for ps in layers.game_packages().values() for p in ps}
# The one rule of compatibility names the first game, and nothing else of it.
COMPAT = "balance/contract/compat.py"
# Modules still to be made neutral (strict: once one is, its entry must go).
PENDING: dict[str, str] = {}


def _files() -> list[Path]:
    """The neutral modules but the report framework's (tests/test_neutral_reports.py reads
    those, word by word)."""
    return [p for p in layers.neutral_files() if ROOT / "reports" not in p.parents]


def _case(path: Path):
    name = str(path.relative_to(ROOT))
    if name in PENDING:
        return pytest.param(path, id=name, marks=pytest.mark.xfail(reason=PENDING[name],
                                                                     strict=True))
    return pytest.param(path, id=name)


@pytest.mark.parametrize("path", [_case(p) for p in _files()])
def test_a_neutral_module_names_no_game(path):
    text = THEIRS.sub("", path.read_text(encoding="utf-8"))
    if str(path.relative_to(ROOT)) == COMPAT:
        for name in registry.names():
            text = text.replace(f'"{name}"', "")
    said = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r}"
            for m in WORD.finditer(text)]
    assert not said, f"{path.relative_to(ROOT)} speaks of a game's own things: " + \
        "; ".join(said[:10])
    # A game's package is a folder of its own: heuristics/<game>/, reports/<game>/ (reports/
    # has folders of the framework's too).
    imported = [m.group(0).strip() for m in GAME_IMPORT.finditer(text)
                if m.group(2) == "balance.games" or f"{m.group(2)}.{m.group(3)}" in THEIR_PACKAGES]
    assert not imported, f"{path.relative_to(ROOT)} imports a game: {imported}"


def test_the_words_are_found_where_they_are():
    """The test itself can fail: Gem Rush's own code is full of them."""
    text = (ROOT / "balance/games/gemrush/experiment.py").read_text(encoding="utf-8")
    assert WORD.search(text) and GAME_IMPORT.search(text)


def test_the_words_are_each_game_s_own_and_the_files_every_neutral_module():
    """Issue 49: the words come from the declarations (a game lists its own), and the files
    from the folders, with nothing listed here."""
    assert {"room", "crisis", "rush", "planet", "token"} <= set(WORDS)
    assert set(registry.get("gemrush").words) <= set(WORDS)
    names = {str(p.relative_to(ROOT)) for p in _files()}
    assert {"balance/__init__.py", "balance/contract/registry.py", COMPAT,
            "balance/running/store/read.py", "heuristics/player.py"} <= names
    assert not [n for n in names if n.startswith(("balance/games/", "heuristics/gemrush/",
                                                  "reports/"))]
