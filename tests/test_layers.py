"""Issue 27: the layers, written down as import-linter contracts in pyproject.toml
([tool.importlinter]), hold. Each contract is a test of its own, so a broken one is named."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from balance.contract import registry

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
CONTRACTS = {c["id"]: c for c in CONFIG["importlinter"]["contracts"]}


def _lint_imports() -> str:
    here = Path(sys.executable).parent / "lint-imports"
    found = str(here) if here.exists() else shutil.which("lint-imports")
    if found is None:  # a missing checker must not pass for a kept contract
        pytest.fail("lint-imports is not installed: pip install -e '.[dev]' (import-linter)")
    return found


@pytest.fixture(scope="module")
def report() -> str:
    """lint-imports' report of every contract, run once from the project's root (it reads the
    packages there, before any installed copy)."""
    r = subprocess.run([_lint_imports(), "--no-cache"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert "Contracts:" in r.stdout, r.stdout + r.stderr  # the configuration was read
    return r.stdout


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


def test_every_neutral_module_is_in_the_neutral_contract():
    """A module added beside the games (in balance/, heuristics/ or reports/) is neutral, and the
    contract must list it, or nothing would stop it importing a game."""
    games = set(registry.names())
    listed = set(CONTRACTS["neutral"]["source_modules"])
    missing = []
    for package, skip in (("balance", games | {"games", "docs"}), ("heuristics", games),
                          ("reports", games)):
        for child in sorted((ROOT / package).iterdir()):
            name = child.stem if child.suffix == ".py" else child.name
            is_module = child.suffix == ".py" or (child / "__init__.py").exists()
            if is_module and name != "__init__" and name not in skip \
                    and f"{package}.{name}" not in listed:
                missing.append(f"{package}.{name}")
    assert not missing, f"list these in [tool.importlinter] 'neutral': {missing}"


def test_every_game_is_forbidden_to_the_neutral_toolkit():
    forbidden = set(CONTRACTS["neutral"]["forbidden_modules"])
    assert "balance.games" in forbidden
    for game in registry.names():
        for package in ("heuristics", "reports"):
            if (ROOT / package / game).is_dir():
                assert f"{package}.{game}" in forbidden
