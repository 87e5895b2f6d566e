"""`balance ladder`: a game's strength ladder and how much of its outcome is luck
(balance/ladder/). As in balance/cli/app.py, the command imports what it needs when it runs."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import typer

from balance.cli.common import fail
from balance.errors import InputError

DEFAULT_GAMES = 200
DEFAULT_REPEATS = 3


def ladder(experiment: str = typer.Argument(None, help="an experiment file of one variant: "
                                            "the setting the rungs play (rules, player "
                                            "count, the game's own keys); or give --game"),
           game: str = typer.Option(None, help="the game, played at its default rules "
                                    "(`balance games` lists them)"),
           players: int = typer.Option(None, help="seats, with --game (default: 2 where the "
                                       "game plays 2, else its fewest)"),
           games: int = typer.Option(DEFAULT_GAMES, help="seeds each match plays: each step "
                                     "plays them once per seat, each rung's seed analysis "
                                     "--repeats times"),
           budgets: str = typer.Option(None, help="the search player's rollouts a decision, "
                                       "one rung each, rising (default 8,16,32,64; a game "
                                       "without a search player has none)"),
           repeats: int = typer.Option(DEFAULT_REPEATS, help="replays of each seed at each "
                                       "rung, the players' own random streams drawn anew"),
           seed: int = typer.Option(None, min=0, help="the ladder's seed (default: the file's, "
                                    "or 1)"),
           jobs: int = typer.Option(None, min=1, help="worker processes (default: one per "
                                    "core)"),
           out: Path = typer.Option(None, help="a new or empty folder for ladder.json and "
                                    "games.parquet (default: runs/<experiment name>-ladder, "
                                    "or runs/ladder-<game>)"),
           ) -> None:
    """Climb a game's strength ladder: random, the game's own player, then the search player at
    doubling budgets, each rung against the one below on the same seeds with the seats
    rotated; the tiers a designer can tell apart, how often the stronger side still loses,
    and how far each rung's result hangs on the deal. `balance report RUN --ladder DIR`
    shows it as the section Strength and luck."""
    from rich.progress import (  # lazy: see the module doc
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    # lazy: the ladder brings the runner, polars and Numba, which `balance --help` spares
    from balance.ladder import store
    from balance.ladder.run import Prepared, run
    from balance.ladder.rungs import parse_budgets
    from balance.running.runner import RunFailed, check_jobs, default_jobs

    try:
        if jobs is not None:
            check_jobs(jobs)
        jobs = default_jobs() if jobs is None else jobs
        p = Prepared(game, experiment, players, seed if seed is not None or experiment
                     else 1, parse_budgets(budgets), games, repeats)
        if out is None:
            out = (Path("runs") / (f"{p.exp.name}-ladder" if experiment else p.exp.name))
        store.check_out(out)
    except InputError as e:
        fail(e)
    names = ", ".join(r.name for r in p.rungs)
    typer.echo(f"{p.exp.game.title}, {p.exp.variants[0].players} players: rungs {names}; "
               f"{len(p.plan)} matches x {games:,} games = {p.total:,} games -> {out}")
    bar = Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                   MofNCompleteColumn(), TextColumn("games"), TimeElapsedColumn(),
                   TextColumn("elapsed,"), TimeRemainingColumn(), TextColumn("left"))
    task = bar.add_task("climbing", total=p.total)
    try:
        with bar:
            result = run(p, out, jobs, command=_command(), on_games=lambda k: bar.advance(task, k))
    except InputError as e:
        fail(e)
    except RunFailed as e:
        typer.echo(f"error: {out}: the ladder failed: {e}. Nothing was written; run the "
                   "same command again", err=True)
        raise typer.Exit(1) from None
    for line in lines(result.summary):
        typer.echo(line)
    typer.echo(f"written to {out}")


def _command() -> str:
    return "balance " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def lines(s: dict) -> list[str]:
    """The ladder in the terminal: each step with its interval, the tiers, the luck."""
    from reports.ladder.words import luck_line, step_line, summary_line  # lazy: as above

    out = [step_line(s, st) for st in s["steps"]]
    out += [luck_line(s, d) for d in s["luck"]["deal"]]
    out.append(summary_line(s))
    return out
