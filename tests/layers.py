"""The layers, as import-linter contracts built from the games the registry finds and the
modules beside them, so that a game added in its own folders (or installed as a package of
its own) is checked without a line written anywhere else. pyproject.toml's [tool.importlinter]
holds the contracts that no game changes (the kernels, the contract, the tests, the cycles of
each package); `config` adds those that name the games and the neutral modules:

- "neutral": every module beside the games imports none of any game's packages;
- "rules-no-players": a game's declaration and its `rule_modules` import no player, but
  through the dispatch generated from its roster;
- "<game>-apart": a game's packages import nothing of another game's;
- "acyclic-game": no import cycles among a game's own modules, nor in the kernels.

    python -m tests.layers      # lint-imports over all of them, as tests/test_layers.py does
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import tomli_w

from balance.contract import registry

ROOT = Path(__file__).resolve().parents[1]
# The toolkit's packages: a game has a folder of its own in each (balance/games/<game>/,
# heuristics/<game>/, reports/<game>/); every other module in them is neutral.
PACKAGES = ("balance", "heuristics", "reports")
NOT_MODULES = {"balance": {"games", "docs"}}  # the games' home, and the guide's generator


def _is_module(path: Path) -> bool:
    return path.suffix == ".py" or (path / "__init__.py").is_file()


def _exists(root: Path, module: str) -> bool:
    path = root.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def game_packages(root: Path = ROOT) -> dict[str, list[str]]:
    """Each game found, by name -> its packages: the one its declaration is in
    (balance.games.<game>, or a package of its own) and its folders in heuristics/ and
    reports/."""
    out = {}
    for name, f in registry.found().items():
        out[name] = [f.package] + [f"{p}.{name}" for p in PACKAGES[1:]
                                   if (root / p / name / "__init__.py").is_file()]
    return out


def neutral_modules(root: Path = ROOT) -> list[str]:
    """Every module of the toolkit's packages that is no game's: balance/'s but the games'
    home, and heuristics/'s and reports/'s but the games' folders."""
    games = set(registry.found())
    out = []
    for package in PACKAGES:
        skip = NOT_MODULES.get(package, set()) | (games if package != "balance" else set())
        for child in sorted((root / package).iterdir()):
            name = child.stem if child.suffix == ".py" else child.name
            if _is_module(child) and name != "__init__" and name not in skip:
                out.append(f"{package}.{name}")
    return out


def neutral_files(root: Path = ROOT) -> list[Path]:
    """The files of the neutral modules, and the toolkit's own `balance/__init__.py`."""
    out = [root / "balance" / "__init__.py"]
    for module in neutral_modules(root):
        path = root.joinpath(*module.split("."))
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]
    return out


def game_words() -> tuple[str, ...]:
    """Every game's own words, as its declaration gives them (Game.words)."""
    return tuple(sorted({w for g in registry.games() for w in g.words}))


def _rules_no_players(root: Path, games: dict[str, list[str]]) -> dict:
    sources, ignored, missing = [], [], []
    for name in games:
        f = registry.found()[name]
        if not f.in_folder:
            continue  # a package of its own keeps its own layers
        for module in ("game", *registry.get(name).rule_modules):
            full = f"{f.package}.{module}"
            (sources if _exists(root, full) else missing).append(full)
        dispatch = f"heuristics.{name}.dispatch_nb"
        if _exists(root, dispatch):
            ignored.append(f"{f.package}.** -> {dispatch}")
        if registry.get(name).kit:
            kit_seats = "balance.kit.** -> heuristics.*"
            if kit_seats not in ignored:
                ignored.append(kit_seats)
    if missing:
        raise ValueError(f"Game.rule_modules name modules that do not exist: {missing}")
    return {"id": "rules-no-players", "name": "A game's rules and engine import no player",
            "type": "forbidden", "source_modules": sources, "forbidden_modules": ["heuristics"],
            # The one way from the engine to the players: the dispatch generated from the
            # roster (heuristics/generate.py). Numba must see each decision function as a
            # global of compiled source to cache it, so the engine cannot be handed its
            # players at run time. A game on the kit reaches the neutral seats (heuristics/
            # seats.py, external.py) through the kit's hooks, which the "neutral" contract
            # keeps from any game's players.
            "ignore_imports": ignored}


def generated(root: Path = ROOT) -> list[dict]:
    """The contracts that name the games and the neutral modules."""
    games = game_packages(root)
    theirs = sorted({p for ps in games.values() for p in ps if not p.startswith("balance.")})
    out = [{"id": "neutral", "name": "The neutral toolkit imports no game", "type": "forbidden",
            "source_modules": neutral_modules(root),
            "forbidden_modules": ["balance.games", *theirs]},
           _rules_no_players(root, games)]
    for name, packages in games.items():
        others = sorted(p for other, ps in games.items() if other != name for p in ps)
        if others:
            out.append({"id": f"{name}-apart", "name": f"{name} imports nothing of another game",
                        "type": "forbidden", "source_modules": packages,
                        "forbidden_modules": others})
    out.append({"id": "acyclic-game",
                "name": "No import cycles in a game's own modules, nor in the kernels",
                "type": "acyclic_siblings",
                "ancestors": [ps[0] for ps in games.values()] + ["balance.kernels"]})
    return out


def config(root: Path = ROOT) -> dict:
    """The whole [tool.importlinter]: pyproject.toml's, with the generated contracts and the
    top packages of games installed apart."""
    static = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    linter = dict(static["tool"]["importlinter"])
    contracts = generated(root)
    tops = {p.split(".")[0] for ps in game_packages(root).values() for p in ps}
    linter["root_packages"] = [*linter["root_packages"],
                               *sorted(tops - set(linter["root_packages"]))]
    clash = {c["id"] for c in contracts} & {c["id"] for c in linter["contracts"]}
    if clash:
        raise ValueError(f"pyproject.toml declares contracts that are built here: {clash}")
    linter["contracts"] = [*linter["contracts"], *contracts]
    return {"tool": {"importlinter": linter}}


def lint_imports() -> str:
    here = Path(sys.executable).parent / "lint-imports"
    found = str(here) if here.exists() else shutil.which("lint-imports")
    if found is None:  # a missing checker must not pass for a kept contract
        raise FileNotFoundError("lint-imports is not installed: pip install -e '.[dev]' "
                                "(import-linter)")
    return found


def run(root: Path = ROOT) -> subprocess.CompletedProcess:
    """lint-imports over `config(root)`, from `root` (it reads the packages there, before any
    installed copy)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "importlinter.toml"
        path.write_bytes(tomli_w.dumps(config(root)).encode("utf-8"))
        return subprocess.run([lint_imports(), "--no-cache", "--config", str(path)], cwd=root,
                              capture_output=True, text=True, timeout=300)


if __name__ == "__main__":
    done = run()
    print(done.stdout + done.stderr)
    sys.exit(done.returncode)
