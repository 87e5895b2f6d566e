"""A new game's skeleton on the engine kit (`balance new-game NAME`): its five folders, each
file written from a template of templates/ with the game's name and title put in, then its
generated files (the players' dispatch, the loop) and its goldens written by the kit's own
commands, so that it compiles, plays, passes the contract tests and reports as written. The
guide's developers/games.md walks through what each file is for.

The skeleton is a small race (a die, a choice to move or reroll) that the game's own rules
replace; nothing outside its folders is edited, since the registry finds the games in
balance/games/ and the layer contracts and neutral words are built from the registry."""

from __future__ import annotations

import importlib
import keyword
import shutil
import subprocess
import sys
from pathlib import Path

from balance.contract import registry
from balance.errors import InputError, Problem

TEMPLATES = Path(__file__).parent / "templates"
ROOT = Path(__file__).resolve().parents[3]  # the project: balance/kit/scaffold/ is in it

# The folders a game owns, each under the project's root.
FOLDERS = ("balance/games/{name}", "heuristics/{name}", "reports/{name}",
           "experiments/{name}", "tests/games/{name}")
# Each file written: its path under the project's root <- its template.
FILES = {
    "balance/games/{name}/__init__.py": "game_init.py.tmpl",
    "balance/games/{name}/game.py": "game.py.tmpl",
    "balance/games/{name}/rules_nb.py": "rules_nb.py.tmpl",
    "balance/games/{name}/data/rules.toml": "rules.toml.tmpl",
    "heuristics/{name}/__init__.py": "heuristics_init.py.tmpl",
    "heuristics/{name}/registry.py": "registry.py.tmpl",
    "heuristics/{name}/players.py": "players.py.tmpl",
    "reports/{name}/__init__.py": "reports_init.py.tmpl",
    "reports/{name}/report.py": "report.py.tmpl",
    "experiments/{name}/{run}-rerolls.toml": "experiment.toml.tmpl",
    "tests/games/{name}/__init__.py": "tests_init.py.tmpl",
    "tests/games/{name}/test_rules.py": "test_rules.py.tmpl",
}
# The kit's commands that write the rest, from the files above, in the project's root.
GENERATORS = (("balance.kit.generate",), ("balance.kit.playthrough",))


def title_of(name: str) -> str:
    return name.replace("_", " ").strip().capitalize()


def refusal(name: str, root: Path = ROOT) -> Problem | None:
    """Why `name` cannot be a new game's, or None."""
    if not (name.isidentifier() and name == name.lower() and name.isascii()) \
            or keyword.iskeyword(name) or name.startswith("_"):
        return Problem("balance new-game", "", "NAME", f"must be a lower-case Python "
                       f"identifier, not a keyword (a module's name: letters, digits, _), "
                       f"got {name!r}")
    if name in registry.names():
        return Problem("balance new-game", "", "NAME", f"{name!r} is a game already "
                       f"(known: {', '.join(registry.names())})")
    taken = [f"{folder.format(name=name)}{end}" for folder in FOLDERS for end in ("", ".py")
             if (root / f"{folder.format(name=name)}{end}").exists()]
    if taken:
        return Problem("balance new-game", "", "NAME", f"{', '.join(taken)} exists already: "
                       "a new game's folders must be new (choose another name)")
    missing = [p for p in ("balance/games", "heuristics", "reports", "experiments",
                           "tests/games") if not (root / p).is_dir()]
    if missing:
        return Problem("balance new-game", "", "", f"{root} is no checkout of the project "
                       f"(no {', '.join(missing)}): run it in one")
    return None


def run_of(name: str) -> str:
    """The game's name as a run's: a run folder's name takes '-', never '_'."""
    return name.replace("_", "-")


def render(template: str, name: str) -> str:
    text = (TEMPLATES / template).read_text(encoding="utf-8")
    return (text.replace("{{name}}", name).replace("{{title}}", title_of(name))
            .replace("{{run}}", run_of(name)))


def write(name: str, root: Path = ROOT) -> list[Path]:
    """The game's files written under `root` and its generated files and goldens made:
    every path written. A bad name is an InputError and writes nothing; a generator that
    fails removes the folders again, so that no half-made game is left."""
    problem = refusal(name, root)
    if problem is not None:
        raise InputError([problem])
    written = []
    try:
        for path, template in FILES.items():
            out = root / path.format(name=name, run=run_of(name))
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(render(template, name), encoding="utf-8")
            written.append(out)
        importlib.invalidate_caches()
        ref = f"balance.games.{name}.game:KIT"
        for module in GENERATORS:
            done = subprocess.run([sys.executable, "-m", *module, ref], cwd=root,
                                  capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"python -m {module[0]} {ref} failed:\n"
                                   f"{done.stdout}{done.stderr}")
            written += [root / line.removeprefix("wrote ").strip()
                        for line in done.stdout.splitlines() if line.startswith("wrote ")]
    except BaseException:
        for folder in FOLDERS:
            shutil.rmtree(root / folder.format(name=name), ignore_errors=True)
        raise
    return written
