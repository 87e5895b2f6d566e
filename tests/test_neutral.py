"""The neutral toolkit names no game: its folders never speak of a game's own things (the words
below, whole or as part of a word: `skills`, `rooms`, `Gemrush`) nor import a game's package.
Each game's words are listed, Gem Rush's and Rusship's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from balance.contract import registry

ROOT = Path(__file__).resolve().parents[1]
NEUTRAL = ("balance/contract", "balance/kernels", "balance/kit", "balance/running",
           "balance/stats", "balance/cli", "balance/errors.py", "balance/files.py",
           "balance/textfile.py")
# Gem Rush's: its rule profiles (edition), ways to play (mode, Crisis, Rush), the points a
# game plays to (target), its tiles and their doors (room, door), and its skill cards.
WORDS = ("edition", "mode", "target", "room", "door", "skill", "crisis", "rush",
         # Rusship's: its sides, their ships and planets, the powers an attack hands out.
         "mothership", "planet", "power", "attack", "alien", "humanity", "token")
WORD = re.compile("|".join(WORDS), re.IGNORECASE)
# Names other libraries give, which hold a word by chance (a file's st_mode, the statsmodels
# package, Numba's targetoptions, target context and object mode, a thread's target), and
# "model" (the forward model, and class names ending in it: ForwardModel).
THEIRS = re.compile(r"st_mode|statsmodels|targetoptions|targetctx|target_is_directory"
                    r"|Thread\(target=|\bmodels?\b|[A-Z]\w*Models?\b|objmode|objectmode"
                    r"|object mode")
GAME_IMPORT = re.compile(r"^\s*(from|import)\s+(balance\.games|heuristics|reports)\.(\w+)",
                         re.MULTILINE)
# The registry is the only list of games: it names them, and nothing else of theirs.
REGISTRY = "balance/contract/registry.py"
# Modules still to be made neutral (strict: once one is, its entry must go).
PENDING: dict[str, str] = {}


def _files() -> list[Path]:
    out = []
    for name in NEUTRAL:
        path = ROOT / name
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    # The neutral players and the search (a game's own are in heuristics/<game>/).
    return out + sorted((ROOT / "heuristics").glob("*.py"))


def _case(path: Path):
    name = str(path.relative_to(ROOT))
    if name in PENDING:
        return pytest.param(path, id=name, marks=pytest.mark.xfail(reason=PENDING[name],
                                                                     strict=True))
    return pytest.param(path, id=name)


@pytest.mark.parametrize("path", [_case(p) for p in _files()])
def test_a_neutral_module_names_no_game(path):
    text = THEIRS.sub("", path.read_text(encoding="utf-8"))
    if str(path.relative_to(ROOT)) == REGISTRY:
        for name in registry.names():
            text = text.replace(f'"{name}"', "").replace(f".{name}.", ".")
    said = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)!r}"
            for m in WORD.finditer(text)]
    assert not said, f"{path.relative_to(ROOT)} speaks of a game's own things: " + \
        "; ".join(said[:10])
    # A game's package is a folder of its own: heuristics/<game>/, reports/<game>/.
    imported = [m.group(0).strip() for m in GAME_IMPORT.finditer(text)
                if m.group(2) == "balance.games"
                or (ROOT / m.group(2) / m.group(3)).is_dir()]
    assert not imported, f"{path.relative_to(ROOT)} imports a game: {imported}"


def test_the_words_are_found_where_they_are():
    """The test itself can fail: Gem Rush's own code is full of them."""
    text = (ROOT / "balance/games/gemrush/experiment.py").read_text(encoding="utf-8")
    assert WORD.search(text) and GAME_IMPORT.search(text)
