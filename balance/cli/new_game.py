"""`balance new-game NAME`: a new game's five folders, written on the engine kit
(balance/kit/scaffold/), and the commands to play it, run its experiment and report it.

As in balance/cli/app.py, the command imports what it needs when it runs (see its module doc).
"""

from __future__ import annotations

import typer


def new_game(name: str = typer.Argument(..., help="the game's name: a lower-case identifier, "
                                        "the name of its folders")) -> None:
    """Start a game: its rules, players, report, experiment and tests, on the engine kit."""
    from balance.kit import scaffold  # lazy: its templates load only for this command

    typer.echo(f"writing {name}: a small race on the engine kit, for its own rules to "
               "replace (compiling it for its goldens takes a minute)")
    written = scaffold.write(name)
    run = scaffold.run_of(name)
    root = scaffold.ROOT
    for path in written:
        lines = path.read_text(encoding="utf-8").count("\n")
        typer.echo(f"  {path.relative_to(root)} ({lines} lines)")
    typer.echo(f"""
next:
  balance games                                   # {name} is listed
  python -m pytest -q tests/games/{name} tests/test_contract.py tests/test_contract_play.py \\
      tests/test_kit.py -k {name}                 # the contract tests over it
  balance run {run}-rerolls --games 200           # its experiment (experiments/{name}/)
  balance report runs/{run}-rerolls               # its report
then change its rules (balance/games/{name}/rules_nb.py), its declaration (game.py) and players
(heuristics/{name}/), and write the generated files and goldens again:
  python -m balance.kit.generate balance.games.{name}.game:KIT
  python -m balance.kit.playthrough balance.games.{name}.game:KIT
The guide's developers/games.md walks through each file.""")
