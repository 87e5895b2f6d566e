"""Issue 27: the layers, written down as import-linter contracts, hold. Each contract is a test
of its own, so a broken one is named. Those that name the games and the neutral modules are
built from the games the registry finds (tests/layers.py); issue 49: a game added in its own
folders is checked by them without an edit anywhere else."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from balance.contract import registry
from tests import layers
from tests.project_copy import copy_project

CONTRACTS = {c["id"]: c for c in layers.config()["tool"]["importlinter"]["contracts"]}


@pytest.fixture(scope="module")
def report() -> str:
    """lint-imports' report of every contract, run once."""
    try:
        done = layers.run()
    except FileNotFoundError as e:
        pytest.fail(str(e))
    assert "Contracts:" in done.stdout, done.stdout + done.stderr  # the configuration was read
    return done.stdout


def _section(report: str, name: str) -> str:
    """The part of the report that explains a broken contract."""
    head = f"{name}\n{'-' * len(name)}\n"
    if head not in report:
        return report
    rest = report.split(head, 1)[1]
    return rest.split("\n\n\n", 1)[0] if "\n\n\n" in rest else rest


@pytest.mark.parametrize("cid", sorted(CONTRACTS))
def test_contract_is_kept(report, cid):
    name = CONTRACTS[cid]["name"]
    assert f"{name} KEPT" in report, f"{name}:\n{_section(report, name)}"


def test_the_contracts_name_every_game_and_every_neutral_module():
    """What was written by hand in pyproject.toml, and silently missed a new game, is built."""
    neutral = CONTRACTS["neutral"]
    assert {"balance.contract", "balance.running", "balance.cli", "balance.errors",
            "heuristics.player", "heuristics.search", "reports.page", "reports.compare"} \
        <= set(neutral["source_modules"])
    assert not {m for m in neutral["source_modules"] if m.split(".")[1] in ("gemrush",
                                                                          "rusship", "games")}
    assert {"balance.games", "heuristics.gemrush", "reports.gemrush", "heuristics.rusship",
            "reports.rusship"} <= set(neutral["forbidden_modules"])
    rules = CONTRACTS["rules-no-players"]["source_modules"]
    assert {"balance.games.gemrush.engine", "balance.games.gemrush.content",
            "balance.games.rusship.rules", "balance.games.rusship.game"} <= set(rules)
    assert "balance.games.gemrush.play" not in rules  # it plays games, with players
    # Every other game's packages: Gem Rush's, and any game started since (balance new-game).
    apart = set(CONTRACTS["rusship-apart"]["forbidden_modules"])
    assert {"balance.games.gemrush", "heuristics.gemrush", "reports.gemrush"} <= apart
    assert not {m for m in apart if "rusship" in m}


# A game of a few lines in its own folders, balance/games/zpig/, heuristics/zpig/ and
# reports/zpig/, and what breaks each layer: a neutral module that imports it, its rules that
# import a player, its players that import another game's.
ZPIG = {
    "balance/games/zpig/__init__.py": "",
    "balance/games/zpig/game.py": '''
from balance.contract.game import CORE_COLUMNS, Game, Table

GAME = Game(name="zpig", title="Pig", version="1", player_counts=(2,), cooperative=False,
            settings=(), tables=(Table("games", dict(CORE_COLUMNS)),), measures=(),
            end_reasons=("won",), words=("oink",), rule_modules=("rules",))
''',
    "balance/games/zpig/rules.py": "HOLD_AT = 20\n",
    "heuristics/zpig/__init__.py": "",
    "reports/zpig/__init__.py": "",
}
BREAKS = {
    "balance/running/zpig_leak.py": "import balance.games.zpig.rules\n",
    "balance/games/zpig/rules.py": "import heuristics.zpig\nHOLD_AT = 20\n",
    "heuristics/zpig/__init__.py": "import heuristics.rusship\n",
}
FOUND = """
import json
from tests import layers
from balance.contract import registry
contracts = {c["id"]: c for c in layers.config()["tool"]["importlinter"]["contracts"]}
print(json.dumps({"names": registry.names(), "words": layers.game_words(),
                  "files": [str(p) for p in layers.neutral_files()], "contracts": contracts}))
"""


def _in_copy(root: Path, code: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_a_game_in_its_own_folders_is_found_and_held_to_every_layer(tmp_path):
    root = copy_project(tmp_path)
    (root / "pyproject.toml").write_bytes((layers.ROOT / "pyproject.toml").read_bytes())
    for name, text in ZPIG.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    seen = json.loads(_in_copy(root, FOUND))
    assert "zpig" in seen["names"] and "oink" in seen["words"]
    c = seen["contracts"]
    assert {"balance.games", "heuristics.zpig", "reports.zpig"} <= set(
        c["neutral"]["forbidden_modules"])
    assert {"balance.games.zpig.game", "balance.games.zpig.rules"} <= set(
        c["rules-no-players"]["source_modules"])
    assert {"balance.games.zpig", "heuristics.zpig", "reports.zpig"} <= set(
        c["gemrush-apart"]["forbidden_modules"])
    assert "balance.games.zpig" in c["acyclic-game"]["ancestors"]
    # Each break is caught by its contract, with no line written outside the game's folders.
    for name, text in BREAKS.items():
        (root / name).write_text(text, encoding="utf-8")
    seen = json.loads(_in_copy(root, FOUND))
    assert str(root / "balance/running/zpig_leak.py") in seen["files"]  # its words are read
    report = _in_copy(root, "from tests import layers; print(layers.run().stdout)")
    for cid in ("neutral", "rules-no-players", "zpig-apart"):
        name = seen["contracts"][cid]["name"]
        assert f"{name} BROKEN" in report, report[-3000:]
    assert "balance.running.zpig_leak -> balance.games.zpig.rules" in report
    assert "balance.games.zpig.rules -> heuristics.zpig" in report
    assert "heuristics.zpig -> heuristics.rusship" in report


def test_a_rule_module_that_does_not_exist_is_named(monkeypatch):
    real = registry.get

    def get(name, *args):
        game = real(name, *args)
        if name == "rusship":
            return dataclasses.replace(game, rule_modules=("engine", "rulez"))
        return game

    monkeypatch.setattr(registry, "get", get)
    with pytest.raises(ValueError, match="balance.games.rusship.rulez"):
        layers.generated()
