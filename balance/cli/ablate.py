"""`balance ablate`: every game's. The experiment's game declares what can be taken out of it
(Game.ablations) and reads `[experiment] ablate = "<how>"` in its `variants` hook; this
command adds that key to the file, names the run `<name>-ablate-<how>`, plays it and prints
the ranking, the ablation run's headline.

As in balance/cli/app.py, the command imports what it needs when it runs (see its module doc).
"""

from __future__ import annotations

from pathlib import Path

import typer

from balance.cli.common import closing_headline, fail, played_line, stopped
from balance.errors import InputError, Problem


def _how(game, how: str | None) -> tuple[str, str]:
    """The ablation --how names (default: the game's first): (how, what it takes out)."""
    if not game.ablations:
        raise InputError([Problem("--how", "", "", f"{game.title} declares no ablation: "
                                  "there is nothing `balance ablate` can take out of it")])
    if how is None:
        return game.ablations[0]
    for declared in game.ablations:
        if declared[0] == how:
            return declared
    raise InputError([Problem("--how", "", "", f"must be one of {game.title}'s ablations: "
                              + "; ".join(f"{h} ({what})" for h, what in game.ablations)
                              + f", got {how!r}")])


def ablate(experiment: str = typer.Argument(..., help="experiment file (one variant), or a "
                                            "name in experiments/"),
           how: str = typer.Option(None, help="what to take out: one of the experiment's "
                                   "game's ablations (`balance games` lists them; default: "
                                   "its first)"),
           games: int = typer.Option(None, min=1, help="games per variant (default: the "
                                     "file's)"),
           jobs: int = typer.Option(None, min=1, help="worker processes (default: one per "
                                    "core)"),
           out: Path = typer.Option(Path("runs"), help="the run goes to "
                                    "OUT/<name>-ablate-<how>/"),
           ) -> None:
    """Each part's causal worth: one variant per part of the game taken out (its ablations,
    --how) against the unchanged game, on common seeds, ranked with paired intervals and
    Holm's correction."""
    # lazy: rich's bars only where a command shows one
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    # lazy: the runner brings polars, joblib and Numba, which `balance --help` spares
    from balance.running.experiment import (
        MAX_NAME,
        load_experiment,
        parse_experiment,
        resolve_experiment_path,
    )
    from balance.running.runner import RunFailed, run_experiment  # lazy: as the line above

    try:
        base = load_experiment(experiment)
        how, what = _how(base.game, how)
        data = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base.data.items()}
        head = data["experiment"]
        if "ablate" in head:
            raise InputError([Problem(base.file, "[experiment]", "ablate", "is set already: "
                                      "play the file with `balance run`")])
        suffix = f"-ablate-{how}"
        if len(base.name) + len(suffix) > MAX_NAME:
            raise InputError([Problem(base.file, "[experiment]", "name", f"is {len(base.name)} "
                                      f"characters; the ablation's run folder adds {suffix!r} "
                                      f"and may have at most {MAX_NAME}: shorten the name to "
                                      f"{MAX_NAME - len(suffix)} characters")])
        head["ablate"] = how
        head["name"] = base.name + suffix
        exp = parse_experiment(data, base.text + f"\n# balance ablate --how {how}\n",
                               base.file, resolve_experiment_path(base.file).parent)
        notes = base.game.hook("ablation_notes")(base) if base.game.ablation_notes else []
    except InputError as e:
        fail(e)
    typer.echo(f"{exp.name}: variant 0 unchanged and {len(exp.variants) - 1} ablated, {what}; "
               f"{games or exp.games:,} games each -> {out / exp.name}")
    for note in notes:
        typer.echo(note)
    with Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("games"), transient=True) as bar:
        task = bar.add_task("playing", total=None)
        try:
            report = run_experiment(exp, out, games, jobs,
                           on_start=lambda total, done: bar.update(task, total=total,
                                                                   completed=done),
                           on_shard=lambda k: bar.advance(task, k))
        except InputError as e:
            fail(e)
        except RunFailed as e:
            typer.echo(f"error: {out / exp.name}: the run failed: {e}. Run the same command "
                       "again to resume", err=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt as e:
            stopped(bar, e, out / exp.name)
    if report.reused:
        typer.echo(played_line(report))
    # The ranking is the ablation run's headline.
    typer.echo(closing_headline(out / exp.name, len(exp.variants) * (games or exp.games)))
