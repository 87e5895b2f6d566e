"""The code generated from each game's player roster (heuristics/generate.py) is checked in and
current, the engine reaches the players only through it, and the neutral players name no
game."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from balance.contract import registry
from balance.contract.game import resolve
from heuristics.generate import dispatch_source, sources, stale
from heuristics.player import Player, Roster

ROOT = Path(__file__).resolve().parents[1]
# Games whose players are a Roster get generated code; the dice race dispatches its own.
GAMES = [g for g in registry.games() if isinstance(g.player_registry(), Roster)]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_generated_files_are_current(game):
    for path, text in sources(game).items():
        assert path.exists() and path.read_text() == text, \
            f"{path} is stale: run python -m heuristics.generate"


def test_the_check_command_agrees():
    r = subprocess.run([sys.executable, "-m", "heuristics.generate", "--check"], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert stale() == []


def test_a_roster_edit_makes_the_dispatch_stale():
    game = registry.get("gemrush")
    roster = game.hook("players")
    fm = resolve(game.forward)
    text = dispatch_source(game, roster, fm)
    # A player added to the roster: the file on disk no longer says what the roster does.
    extra = Player("first", "always the first option", choose="heuristics.scripted:first_nb",
                   args=("n",))
    grown = Roster((*roster.values(), extra), roster.dispatch, roster.rollouts)
    new = dispatch_source(game, grown, fm)
    assert new != text
    assert "first_nb, new_script" in new and "return first_nb(n)" in new
    first = len(roster.compiled)  # after the compiled players, before the Python ones
    assert f"POLICY_FIRST = {first}" in new and f"POLICY_PYTHON = {first + 1}" in new


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_policy_ids_are_the_roster_s(game):
    roster = game.hook("players")
    dispatch = roster.generated()
    assert roster.policies == dispatch.POLICIES
    assert roster.python_policy == dispatch.POLICY_PYTHON
    for p in roster.compiled:
        assert getattr(dispatch, f"POLICY_{p.name.upper()}") == roster.policies[p.name]
    for name, p in roster.items():
        for ref in (p.choose, *((p.memory.new, p.memory.reset, p.memory.copy)
                                if p.memory else ())):
            if ref:
                assert callable(resolve(ref)), (name, ref)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module} | \
        {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}


def test_the_engine_reaches_the_players_only_through_the_generated_dispatch():
    engine = ROOT / "balance" / "games" / "gemrush" / "engine"
    for path in engine.glob("*.py"):
        players = {m for m in _imports(path) if m.startswith("heuristics")}
        assert players <= {"heuristics.gemrush.dispatch_nb"}, (path.name, players)


def test_the_neutral_players_import_no_game():
    for path in (ROOT / "heuristics").glob("*.py"):
        games = {m for m in _imports(path) if m.startswith(("balance.games", "heuristics.")
                                                           ) and ".gemrush" in m}
        assert not games, (path.name, games)


def test_a_player_is_declared_whole():
    with pytest.raises(ValueError, match="identifier"):
        Player("two words", "x", choose="m:f")
    with pytest.raises(ValueError, match="either"):
        Player("both", "x", choose="m:f", python=object)
    with pytest.raises(ValueError, match="cannot pass"):
        Player("forgetful", "x", choose="m:f", args=("mem", "n"))
    with pytest.raises(ValueError, match="distinct"):
        Roster((Player("a", "x", choose="m:f"), Player("a", "y", choose="m:g")), "m")
