"""Rusship's own commands (its Game.commands hook adds them to `balance`): play and trace one
game, print the rules, check the invariants over the rules and their switches."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import typer

from balance.cli.common import fail
from balance.errors import InputError, Problem, twice
from balance.games.rusship.rules import SETTINGS, parse_set, rules


def register(app: typer.Typer) -> None:
    """Add the commands to `app` (balance/cli/app.py calls this)."""
    for command in (play, rules_, check, strength):
        app.command(command.__name__.rstrip("_"))(command)


def _knobs(items: list[str]) -> dict[str, str]:
    """`--knob NAME=VALUE` items; the seated players check names and values."""
    out, probs = {}, []
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            probs.append(Problem("--knob", "", item, "expected NAME=VALUE, e.g. risk=2"))
        elif name.strip() in out:
            probs.append(Problem("--knob", "", name.strip(), twice(out[name.strip()],
                                                                   value.strip())))
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
    # 0.4 s of every command's start: lazy, as the engine brings numba that --help never needs
    from balance.games.rusship.game import GAME
    from balance.games.rusship.play import prepare, told
    from heuristics.knob_file import check_for_seats, read_knob_file

    try:
        names = _seats(heuristic, seats)
        tuned = {} if knobs is None else check_for_seats(
            read_knob_file(knobs), GAME.player_registry(), names, GAME.title,
            "play it with --heuristic {player} (or name it in --seats)")
        setup = prepare(parse_set(set_), names, {**tuned, **_knobs(knob)})
    except InputError as e:
        fail(e)
    typer.echo(told(setup, seed).rstrip("\n"))


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

    from balance.games.rusship.check import check_rules, rule_switches  # the engine, numba

    try:
        overrides = parse_set(set_)
    except InputError as e:
        fail(e)
    with Progress(transient=True) as bar:
        task = bar.add_task("checking", total=2 * games * len(rule_switches()))
        results = check_rules(games, overrides, progress=lambda n: bar.advance(task, n))
    bad = 0
    for r in results:
        if r.skipped:
            typer.echo(f"  {r.variant:<60} not played: {r.skipped[0]} {r.skipped[1]}")
            continue
        status = "ok" if not r.bad_seeds else f"{len(r.bad_seeds)} BROKEN"
        typer.echo(f"  {r.variant:<60} {r.games} games  {status}")
        for seed, what in r.bad_seeds[:5]:
            typer.echo(f"      seed {seed}: {what}  (replay: balance rusship play --seed "
                       f"{seed} ...)")
        bad += len(r.bad_seeds)
    typer.echo(f"{sum(r.games for r in results)} games checked, {bad} broke an invariant")
    if bad:
        raise typer.Exit(1)


def strength(games: int = typer.Option(1000, min=20, max=1_000_000, help="seeds per pairing; "
                                       "each is played twice, the seats swapped"),
             budgets: str = typer.Option("16,64", help="the reference's budgets (rollouts a "
                                         "decision), e.g. 16,64,256"),
             seed: int = typer.Option(7_000_000, min=0, max=2**62, help="the first seed"),
             set_: list[str] = typer.Option([], "--set", help="change a rule: NAME=VALUE"),
             ) -> None:
    """How strong the players are, on the same seeds: racer against random, and the search
    (reference) at each budget against racer. Each seed is played twice with the seats
    swapped; the win rate is a share of the decided games (a game stopped at the turn cap
    counts in none, and the games stopped are shown), its interval over seeds (their two
    games share the dice)."""
    # lazy: rich's bars load only when the command runs
    from rich.progress import Progress

    from balance.games.rusship.tuning import decided_rate, results  # the engine, the players

    try:
        overrides = parse_set(set_)
        try:
            levels = [int(b) for b in budgets.split(",")]
        except ValueError:
            levels = []
        if not levels or any(not 2 <= b <= 4096 for b in levels):
            raise InputError([Problem("--budgets", "", budgets, "must be whole numbers from 2 "
                                      "to 4096 separated by commas, e.g. 16,64")])
    except InputError as e:
        fail(e)
    pairings = [("racer", "random", None)] + [("reference", "racer", b) for b in levels]
    seeds = np.arange(seed, seed + games, dtype=np.int64)
    stalled: list[bool | None] = []  # per pairing: no game decided, some not, or all were
    typer.echo(f"{games:,} seeds from {seed}, each played with the seats swapped; a win "
               "rate is a share of the decided games")
    typer.echo(f"  {'pairing':<34} {'win rate':>9}  {'95% interval':<15} {'undecided':>9}  "
               f"{'games/s':>8}")
    with Progress(transient=True) as bar:
        task = bar.add_task("playing", total=games * len(pairings))
        for a, b, budget in pairings:
            knobs = {"budget": budget} if budget else None
            start = time.perf_counter()
            wins, decided = [], []
            for part in np.array_split(seeds, max(1, games // 200)):  # for the bar's sake
                w, d = results(a, b, part, knobs, None, overrides)
                wins.append(w)
                decided.append(d)
                bar.advance(task, len(part))
            wins, decided = np.concatenate(wins), np.concatenate(decided)
            rate = 2 * games / (time.perf_counter() - start)
            found = decided_rate(wins, decided)
            name = f"{a} (budget {budget}) vs {b}" if budget else f"{a} vs {b}"
            stopped = f"{2 * games - int(decided.sum()):,}"
            if found is None:
                typer.echo(f"  {name:<34} {'–':>9}  {'no game decided':<15} {stopped:>9}  "
                           f"{rate:>8,.0f}")
            else:
                mean, lo, hi = found
                typer.echo(f"  {name:<34} {mean:>8.1%}  {lo:.1%} to {hi:.1%}  {stopped:>9}  "
                           f"{rate:>8,.0f}")
            stalled.append(found is None if int(decided.sum()) < 2 * games else None)
    if any(x is not None for x in stalled):
        typer.echo(f"undecided: games stopped at the turn cap (max_turns = "
                   f"{rules(overrides)['max_turns']}) with no winner; they count in no win "
                   "rate" + ("; a pairing with no decided game has no win rate" if any(stalled)
                             else ""))
