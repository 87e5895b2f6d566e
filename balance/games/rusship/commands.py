"""Rusship's own commands (its Game.commands hook adds them to `balance`): play and trace one
game, print the rules, check the invariants over the rules and their switches."""

from __future__ import annotations

from pathlib import Path

import typer

from balance.cli.common import fail
from balance.errors import InputError, Problem
from balance.games.rusship.check import check_rules, rule_switches
from balance.games.rusship.play import play_traced, prepare
from balance.games.rusship.rules import SETTINGS, parse_set, rules
from balance.games.rusship.trace import format_game


def register(app: typer.Typer) -> None:
    """Add the commands to `app` (balance/cli/app.py calls this)."""
    for command in (play, rules_, check):
        app.command(command.__name__.rstrip("_"))(command)


def _knobs(items: list[str]) -> dict[str, str]:
    """`--knob NAME=VALUE` items; the seated players check names and values."""
    out, probs = {}, []
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            probs.append(Problem("--knob", "", item, "expected NAME=VALUE, e.g. risk=2"))
        else:
            out[name.strip()] = value.strip()
    if probs:
        raise InputError(probs)
    return out


def _seats(heuristic: str, seats: str | None) -> tuple[str, str]:
    if seats is None:
        return heuristic, heuristic
    names = tuple(x.strip() for x in seats.split(","))
    if len(names) != 2 or not all(names):
        raise InputError([Problem("--seats", "", seats, "Rusship takes two players: "
                                  "--seats HUMANITY,ALIEN, e.g. racer,random")])
    return names


def play(seed: int = typer.Option(7, min=0, max=2**63 - 1,
                                  help="the game's seed: the same seed, the same game"),
         heuristic: str = typer.Option("racer", help="player for both seats"),
         seats: str = typer.Option(None, help="a player for each seat: Humanity's, then the "
                                   "Alien Empire's, e.g. racer,random"),
         knob: list[str] = typer.Option([], "--knob", help="set a player's knob: NAME=VALUE "
                                        "(see `balance players --game rusship`)"),
         knobs: Path = typer.Option(None, help="knob values from a file written by "
                                    "`balance tune-player --game rusship`"),
         set_: list[str] = typer.Option([], "--set", help="change a rule: NAME=VALUE (see "
                                        "`balance rusship rules`)"),
         ) -> None:
    """Play one game and print it turn by turn: every decision's options and pick, and the
    track after each turn."""
    # lazy: read_knobs's module brings scipy, which `balance --help` should not load
    from balance.running.tune_player import read_knobs

    try:
        tuned = read_knobs(knobs) if knobs else {}
        setup = prepare(parse_set(set_), _seats(heuristic, seats), {**tuned, **_knobs(knob)})
    except InputError as e:
        fail(e)
    _, events = play_traced(setup, seed)
    typer.echo(format_game(setup, events))


def rules_(set_: list[str] = typer.Option([], "--set", help="change a rule: NAME=VALUE")
           ) -> None:
    """Print every rule setting with its value (the defaults, then --set) and what it
    decides."""
    try:
        values = rules(parse_set(set_))
    except InputError as e:
        fail(e)
    width = max(len(s.name) for s in SETTINGS)
    for s in SETTINGS:
        value = str(values[s.name]).lower() if s.kind is bool else str(values[s.name])
        typer.echo(f"  {s.name:<{width}}  {value:<10} {s.help}")


def check(games: int = typer.Option(300, min=1, help="games per rule variant and player"),
          set_: list[str] = typer.Option([], "--set", help="change a rule in every variant: "
                                         "NAME=VALUE"),
          ) -> None:
    """Play racer and random games in check mode over the default rules and each rule switch;
    report any game that broke an invariant (tokens conserved, allies apart, powers held
    once, everything on the track). Exit 1 if any did."""
    # lazy: rich's bars load only when the command runs
    from rich.progress import Progress

    try:
        overrides = parse_set(set_)
    except InputError as e:
        fail(e)
    with Progress(transient=True) as bar:
        task = bar.add_task("checking", total=2 * games * len(rule_switches()))
        results = check_rules(games, overrides, progress=lambda n: bar.advance(task, n))
    bad = 0
    for r in results:
        status = "ok" if not r.bad_seeds else f"{len(r.bad_seeds)} BROKEN"
        typer.echo(f"  {r.variant:<60} {r.games} games  {status}")
        for seed, what in r.bad_seeds[:5]:
            typer.echo(f"      seed {seed}: {what}  (replay: balance rusship play --seed "
                       f"{seed} ...)")
        bad += len(r.bad_seeds)
    typer.echo(f"{sum(r.games for r in results)} games checked, {bad} broke an invariant")
    if bad:
        raise typer.Exit(1)
