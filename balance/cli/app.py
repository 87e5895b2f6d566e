"""The `balance` command line. Each command is a thin front over a function you can call.

The commands here (and in ablate.py and players.py) serve every game; each game adds its own
through its `commands` hook (balance/contract/game.py) as a group, `balance <game> COMMAND`;
the first game's are also `balance COMMAND`, as they were typed before there were several
games (balance/contract/compat.py), listed apart as that game's. The hooks are called for every
game the first time a command that is not the toolkit's is asked for (or `balance --help`
lists them all).

This module imports nothing heavy, and a toolkit command imports what it needs when it runs:
`balance report` under a memory limit must get as far as its child process to say so, and
`balance --help` stays quick. So the imports inside the commands here are on purpose.
"""

from __future__ import annotations

import copy
import dataclasses
import errno
import os
from pathlib import Path

import typer
import typer.main
from typer.core import TyperGroup

from balance import files
from balance.cli import ablate, guard, new_game, players
from balance.cli import ladder as ladder_command
from balance.cli.common import closing_headline, counts_text, fail, os_problem, played_line, stopped
from balance.cli.guard import OutOfMemory, Terminated, signals, stop_workers
from balance.contract import compat, registry
from balance.errors import InputError, Problem


class Commands(TyperGroup):
    """One handler around every command: bad input, a file the system would not write (a
    full disk, a read-only folder, a file-size limit), too little memory and SIGTERM are
    each one message and an exit status, never a traceback. The games' own commands are
    added the first time one is asked for (see the module doc)."""

    games_added = False

    def get_command(self, ctx, name):
        found = super().get_command(ctx, name)
        if found is None and self._add_games():
            found = super().get_command(ctx, name)
        return found

    def list_commands(self, ctx):
        self._add_games()
        return super().list_commands(ctx)

    def parse_args(self, ctx, args):
        if not args or args[0] in ctx.help_option_names:  # before any of the help is written
            self._add_games()
        return super().parse_args(ctx, args)

    def _add_games(self) -> bool:
        """After the toolkit's commands, a group of each game's own (its `commands` hook),
        `balance <game> COMMAND`, and the first game's commands on their own too, `balance
        COMMAND` (compat.py), where no toolkit command has the name (so a game never shadows
        one), under a panel of their own; False when they were added already. A game that
        cannot be loaded (a broken package) is one message."""
        if self.games_added:
            return False
        self.games_added = True
        toolkit, aliases = set(self.commands), set()
        try:
            every = registry.games()
        except InputError as e:  # asked for by --help too, before invoke's handler
            fail(e)
        for game in every:
            if not game.commands:
                continue
            if game.name in toolkit:
                raise ValueError(f"game {game.name!r} has the name of a toolkit command")
            own = typer.Typer(name=game.name, no_args_is_help=True)
            game.hook("commands")(own)
            group = typer.main.get_group(own)
            group.help = group.short_help = (f"{game.title}'s own commands: "
                                             f"{', '.join(group.commands)}")
            group.rich_help_panel = "Games"  # `balance --help`: one line per game, apart
            self.add_command(group, game.name)
            if game.name == compat.FIRST_GAME:
                for name, command in group.commands.items():
                    if name not in toolkit:
                        alias = copy.copy(command)  # its panel is the alias's, not the group's
                        alias.rich_help_panel = (f"{game.title}'s commands, also `balance "
                                                 f"{game.name} COMMAND`")
                        self.add_command(alias, name)
                        aliases.add(name)
        self.default_game_commands = frozenset(aliases)
        return True

    default_game_commands: frozenset[str] = frozenset()  # `balance COMMAND`s, the default game's

    def resolve_command(self, ctx, args):
        found = super().resolve_command(ctx, args)
        if found[0] in self.default_game_commands:
            _other_game(self, found[0], found[2])
        return found

    def invoke(self, ctx):
        with signals():
            try:
                return super().invoke(ctx)
            except InputError as e:
                fail(e)
            except OSError as e:
                if e.errno == errno.EPIPE:  # `balance compare | head`: click's to handle
                    raise
                fail(os_problem(e))
            except (MemoryError, OutOfMemory) as e:
                detail = f" ({e})" if str(e) else ""
                fail(InputError([Problem(f"balance {ctx.invoked_subcommand}", "", "",
                                         f"not enough memory{detail}")]))
            except KeyboardInterrupt as e:  # no worker outlives the command
                stop_workers()
                if not isinstance(e, Terminated):
                    raise  # click's "Aborted!", exit 1
                typer.echo("\ninterrupted by SIGTERM", err=True)
                raise typer.Exit(143) from None


def _other_game(group: Commands, name: str, args: list[str]) -> None:
    """`balance COMMAND --game OTHER`, or `balance COMMAND OTHER`: the default game's command
    asked for another game's work is one message pointing to that game's own (`balance OTHER
    COMMAND`), not an unknown option or an unknown value."""
    asked = _asked_game(args)
    if asked is None:
        return
    option, wanted = asked
    default = registry.get(compat.FIRST_GAME, "", "", "")
    if wanted not in registry.names():
        why = f"names no game, got {wanted!r}" if wanted else "needs a game's name"
        raise InputError([Problem(option, "", "", f"{why} (the games: "
                                  f"{', '.join(registry.names())}); `balance {name}` is "
                                  f"{default.title}'s own command and takes no --game")])
    if wanted == default.name:
        raise InputError([Problem(option, "", "", f"`balance {name}` is {default.title}'s "
                                  "own command already: leave --game out")])
    game = registry.get(wanted, "", "", "")
    own = group.commands.get(game.name)
    theirs = sorted(own.commands) if isinstance(own, TyperGroup) else []
    where = (f"{game.title}'s is `balance {game.name} {name}`" if name in theirs
             else f"{game.title} has no {name} (its own commands: "
             f"{', '.join(theirs) or 'none'}; see `balance {game.name} --help`)")
    raise InputError([Problem(option, "", "", f"`balance {name}` is {default.title}'s own "
                              f"command; {where}")])


def _asked_game(args: list[str]) -> tuple[str, str] | None:
    """(the argument that asks, the game it names) where the arguments ask for a game: a
    --game option (no command of a game's own has one), or another game's name given where
    a command of the default game wants a word (a profile, a file's name) and no file has it."""
    for i, arg in enumerate(args):
        if arg == "--game":
            return arg, args[i + 1] if i + 1 < len(args) else ""
        if arg.startswith("--game="):
            return "--game", arg.split("=", 1)[1]
        if arg in registry.names() and arg != compat.FIRST_GAME and not os.path.exists(arg):
            return arg, arg
    return None


app = typer.Typer(cls=Commands, add_completion=False, no_args_is_help=True,
                  help="Balance toolkit for board games: validate content, play and measure "
                  "games (`balance games` lists the games).")


@app.command("tune")
def tune(experiment: str = typer.Argument(..., help="experiment file (one variant), or a name "
                                          "in experiments/"),
         lever: str = typer.Option(..., help="the whole-number setting to seek: a rule field "
                                   "(as an experiment file's rules table names it), players, a "
                                   "player's knob (knob.NAME), a key of the game's own in the "
                                   "file's experiment table, or a number in one of its own "
                                   "tables (NAME.FIELD)"),
         range_: str = typer.Option(..., "--range", help="LOW:HIGH, the values to search"),
         goal: str = typer.Option(..., help="MEASURE=VALUE: one of the game's measures "
                                  "(`balance games` lists them), a rate as a percentage "
                                  "(win=50%) and a mean as a number (score=40); a game may "
                                  "read other names too (its guide says which)"),
         games: int = typer.Option(None, min=1, help="most games per lever value (default "
                                   "20,000)"),
         first: int = typer.Option(None, min=10, help="games per value while bisecting "
                                   "(default 400)"),
         jobs: int = typer.Option(None, min=1, help="worker processes (default: one per core)"),
         ) -> None:
    """Find the lever value that meets a goal, with a 95% interval on it (common seeds)."""
    import polars as pl  # lazy: see the module doc
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    # lazy: the runner brings polars, joblib and Numba, which `balance --help` spares
    from balance.running import goal_seek as gs
    from balance.running.experiment import load_experiment
    from balance.running.runner import RunFailed, check_jobs, default_jobs

    first = first or gs.FIRST_GAMES
    most = games or gs.MAX_GAMES
    try:
        try:
            lo, hi = (int(x) for x in range_.split(":"))
        except ValueError:
            raise InputError([Problem("--range", "", "", f"needs LOW:HIGH, two whole "
                                      f"numbers, got {range_!r}")]) from None
        gs.check_range(lo, hi)
        if most < first or most > 10_000_000:
            raise InputError([Problem("--games", "", "", f"must be from --first ({first}) to "
                                      f"10,000,000, got {most}")])
        jobs = default_jobs() if jobs is None else jobs
        check_jobs(jobs)
        exp = load_experiment(experiment)
        parsed_goal = gs.parse_goal(goal, exp.game)
        empty = pl.from_arrow(exp.game.games_table.arrow_schema().empty_table())
        with Progress(SpinnerColumn(), TextColumn("{task.completed:,} games played"),
                      TimeElapsedColumn(), transient=True) as bar:
            task = bar.add_task("seeking", total=None)
            evaluate, check = gs.experiment_evaluator(
                exp, lever, parsed_goal, jobs, on_games=lambda k: bar.advance(task, k))
            for v in (lo, hi):  # both ends compile, and the goal can be measured, or nothing
                gs.outcomes(empty, parsed_goal, check(v).variants[0].describe(),  # is played
                            exp.game)
            result = gs.seek(evaluate, lo, hi, parsed_goal, lever, first, most)
    except InputError as e:
        fail(e)
    except RunFailed as e:
        typer.echo(f"error: {experiment}: the search failed: {e}. It writes nothing; run the "
                   "same command again", err=True)
        raise typer.Exit(1) from None
    of = next((m.of for m in exp.game.measures if m.name == result.goal.measure),
              "decided games")
    _say_seek(result, exp.game.undecided_ends, of)


def _say_seek(r, undecided_ends: tuple[str, ...] = (), of: str = "decided games") -> None:
    g = r.goal
    rows = r.table()
    # A rate counts the decided games only: where some stopped undecided, say how many.
    counted = any(c < n for _, n, c, *_ in rows)
    title = "decided" if g.binary else "counted"
    typer.echo(f"{'value':>8}  {'games':>7}  " + (f"{title:>7}  " if counted else "")
               + f"{'outcome':>8}  95% interval")
    for v, n, c, est, lo, hi in rows:
        typer.echo(f"{v:>8}  {n:>7,}  " + (f"{c:>7,}  " if counted else "")
                   + f"{g.show(est):>8}  {g.show(lo)} to {g.show(hi)}")
    if counted and g.binary:
        typer.echo(f"{g.text}: a share of the {of}; a game stopped undecided "
                   f"({', '.join(undecided_ends) or 'no result'}) counts in none")
    if r.unmeasured:
        where = ", ".join(str(v) for v in r.unmeasured)
        typer.echo(f"no game was decided at {r.lever} = {where}: {g.text} cannot be measured "
                   "there, so no value is sought. Choose a --range where games are decided, "
                   "or play more with --first.")
        return
    if not r.reached:
        typer.echo(f"goal {g.text} is not met anywhere in {r.lever} = {r.lo}..{r.hi}; the "
                   f"closest end is {r.closest}. Widen --range.")
        return
    at = r.points[r.closest].estimate(g.binary)[0]
    typer.echo(f"{r.lever} meets {g.text} at {r.crossing:.2f} (95% interval {r.low:.2f} to "
               f"{r.high:.2f}); the closest whole value is {r.closest} ({g.show(at)} there).")
    if not r.sure:
        typer.echo("the values either side of the crossing could not both be told from the "
                   "goal within --games: the interval is what the games played support")


@app.command()
def run(experiment: str = typer.Argument(..., help="experiment file, or a name in experiments/"),
        games: int = typer.Option(None, min=1, help="games per variant (default: the file's)"),
        jobs: int = typer.Option(None, min=1, help="worker processes (default: one per core)"),
        out: Path = typer.Option(Path("runs"), help="the run goes to OUT/<experiment name>/"),
        scheduler: str = typer.Option(None, help="Dask scheduler address, e.g. "
                                      "tcp://10.0.0.5:8786: play the shards on that cluster"),
        precision: float = typer.Option(None, help="play in rounds until every headline win "
                                        "rate's 95% interval is within this many percentage "
                                        "points either side (--games, or the file's games, "
                                        "caps it)"),
        shard_size: int = typer.Option(None, "--shard-size", min=1,
                                       help="games per shard file for the games played now "
                                       "(default: the file's); games already in the folder "
                                       "are kept as they are"),
        ) -> None:
    """Play an experiment's games into Parquet files; rerun the same command to resume or to
    play more games (those already played are reused, never played again)."""
    from rich.progress import (  # lazy: see the module doc
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    # lazy: the runner brings polars, joblib and Numba, which `balance --help` spares
    from balance.running.experiment import check_shard_size, load_experiment
    from balance.running.precision import check_precision, run_to_precision
    from balance.running.runner import RunFailed, run_experiment

    try:
        exp = load_experiment(experiment)
        if precision is not None:
            check_precision(precision)
        if shard_size is not None:
            check_shard_size(shard_size, "--shard-size")
            exp = dataclasses.replace(exp, shard_size=shard_size)
    except InputError as e:
        fail(e)
    n = len(exp.variants) * (games or exp.games)
    if precision is None:
        typer.echo(f"{exp.name}: {len(exp.variants)} variant(s) x {games or exp.games:,} games "
                   f"= {n:,} games -> {out / exp.name}")
    else:
        typer.echo(f"{exp.name}: {len(exp.variants)} variant(s), in rounds until every "
                   f"headline interval is within +-{precision:g} points, at most "
                   f"{games or exp.games:,} games each -> {out / exp.name}")
    bar = Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                   MofNCompleteColumn(), TextColumn("games"), _speed_column(),
                   TimeElapsedColumn(), TextColumn("elapsed,"), TimeRemainingColumn(),
                   TextColumn("left"))
    task = None

    def start(total: int, done: int) -> None:
        nonlocal task
        if task is not None:  # the next round of a --precision run: the same bar grows
            bar.update(task, total=total, completed=done)
            return
        if 0 < done < total:
            typer.echo(f"resuming: {done:,} of the {total:,} games are already in "
                       f"{out / exp.name}; only the other {total - done:,} are played")
        task = bar.add_task("playing", total=total, completed=done)
        if done < total:
            bar.start()

    try:
        if precision is None:
            report = run_experiment(exp, out, games, jobs, scheduler, on_start=start,
                                    on_shard=lambda k: bar.advance(task, k))
        else:
            rounds = run_to_precision(exp, out, precision, games, jobs, scheduler,
                                      on_round=start, on_shard=lambda k: bar.advance(task, k))
    except InputError as e:
        bar.stop()
        fail(e)
    except OSError as e:
        # A full disk or a read-only folder: the run's own files are whole (written to a
        # temporary name, renamed), so the same command resumes once the cause is fixed.
        bar.stop()
        where = e.filename or (out / exp.name)
        typer.echo(f"error: {where}: cannot write the run ({e.strerror or e}); every finished "
                   "shard is saved: fix this and run the same command again", err=True)
        raise typer.Exit(2) from None
    except RunFailed as e:
        bar.stop()
        typer.echo(f"error: {out / exp.name}: the run failed: {e}. Every finished shard is "
                   "saved; run the same command again to resume", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt as e:
        stopped(bar, e, out / exp.name)
    bar.stop()
    if precision is not None:
        _say_rounds(rounds)
        run_dir = rounds.run_dir
    else:
        typer.echo(played_line(report))
        typer.echo(f"{report.shards} shards in {report.run_dir} (read them with "
                   "balance.running.store.read_run)")
        run_dir = report.run_dir
    saved = len(exp.variants) * (rounds.games if precision is not None else games or exp.games)
    typer.echo("")
    typer.echo(closing_headline(run_dir, saved))


def _say_rounds(rounds) -> None:
    for i, r in enumerate(rounds.rounds, 1):
        widest = (f"+-{r.widest:.2f} points" if not r.unmeasured else
                  f"none yet: {len(r.unmeasured)} rate(s) count no decided game")
        typer.echo(f"round {i}: {r.games:,} games per variant, widest headline interval "
                   f"{widest}")
    last = rounds.rounds[-1] if rounds.rounds else None
    if last is not None and last.unmeasured:
        typer.echo(f"precision NOT reached: after {rounds.games:,} games per variant, "
                   f"{'; '.join(last.unmeasured)}: no value and no interval (a rate counts "
                   "decided games only; an undecided game is in none)", err=True)
    elif rounds.reached:
        typer.echo(f"precision reached: every headline interval is within "
                   f"+-{rounds.precision:g} points after {rounds.games:,} games per variant "
                   f"({rounds.run_dir})")
    else:
        typer.echo(f"precision NOT reached: the game cap ({rounds.games:,} per variant) came "
                   f"first; the widest interval is +-{rounds.rounds[-1].widest:.2f} points. "
                   "Raise --games to go on from here", err=True)


def _speed_column():
    from rich.progress import ProgressColumn  # lazy: see the module doc
    from rich.text import Text

    class SpeedColumn(ProgressColumn):
        """Games per second over the last moments."""

        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.0f} games/s",
                        style="progress.data.speed")

    return SpeedColumn()


@app.command()
def bench(game: str = typer.Option(compat.FIRST_GAME, help="the game whose bench case to time "
                                   "(`balance games` lists them)"),
          seconds: float = typer.Option(5.0, min=0.5, help="seconds of timed play"),
          cold: bool = typer.Option(True, help="also time a compile with an empty cache"),
          runner: bool = typer.Option(False, "--runner", help="measure `balance run` instead: "
                                      "games per second with 1 and 2 workers"),
          scaling: bool = typer.Option(False, "--scaling", help="measure `balance run` with "
                                       "1, 2, 4, ... workers up to the cores present (with "
                                       "--scheduler, the cluster's worker threads): games "
                                       "per second, speed-up and efficiency"),
          scheduler: str = typer.Option(None, help="Dask scheduler address, e.g. "
                                        "tcp://127.0.0.1:8786: with --scaling, the curve on "
                                        "that cluster; with --runner, the batch through "
                                        "joblib on this machine's cores against the same "
                                        "through that cluster, and their tables compared"),
          games: int = typer.Option(40_000, min=1, help="--runner, --scaling: games per "
                                    "measurement"),
          report: bool = typer.Option(False, "--report", help="measure `balance report` "
                                      "instead: peak memory and time at 200k, 1M and 10M "
                                      "games"),
          sizes: str = typer.Option("200000,1000000,10000000", help="--report: game counts, "
                                    "multiples of --base-games"),
          base_games: int = typer.Option(200_000, min=1, help="--report: games of the base "
                                         "run (a multiple of 1,000), played for real; larger "
                                         "runs copy its shards"),
          folder: Path = typer.Option(Path("runs/bench-report"), help="--report: where the "
                                      "runs are made (kept, so a second bench reuses them)"),
          compile_profile: bool = typer.Option(False, "--compile-profile", help="measure a "
                                               "cold compile instead: each kernel's compile "
                                               "time, largest first"),
          top: int = typer.Option(25, min=1, help="--compile-profile: kernels shown"),
          against: Path = typer.Option(None, "--against", help="time this checkout against "
                                       "another (the root of a `git worktree add` of the "
                                       "commit to compare with): both play the bench case on "
                                       "one core, taking turns batch by batch for --seconds "
                                       "(30 or more to see 1%); prints the speed ratio with a "
                                       "95% interval"),
          ) -> None:
    """Engine speed on the game's bench case (`balance games` names it), one core.
    With --runner: the same batch through `balance run` with 1 and 2 workers (with
    --scheduler: through joblib and through a Dask cluster). With --scaling: through
    `balance run` with 1, 2, 4, ... workers. With --report: `balance report` on runs of that
    case of growing size. With --compile-profile: where a cold compile of the bench player
    spends its time, kernel by kernel. With --against: this checkout's speed against
    another's, paired on one core."""
    try:
        chosen = registry.get(game, "--game", "", "")
        _check_bench_options(runner, scaling, report, scheduler, compile_profile, against)
    except InputError as e:
        fail(e)
    if against is not None:
        _pair_bench(chosen, against, seconds)
        return
    if compile_profile:
        _compile_profile(chosen.name, top)
        return
    if scaling:
        _scaling_bench(chosen, games, scheduler)
        return
    if runner and scheduler is not None:
        _backend_bench(chosen, games, scheduler)
        return
    if report:
        from balance.bench.report import BASE_UNIT, report_bench  # lazy: module doc

        if base_games % BASE_UNIT:
            fail(InputError([Problem("--base-games", "", "", f"must be a multiple of "
                                     f"{BASE_UNIT:,}, got {base_games:,}")]))
        try:
            counts = [int(x.replace("_", "")) for x in sizes.split(",") if x.strip()]
        except ValueError:
            counts = []
        if not counts or any(n < base_games or n % base_games for n in counts):
            fail(InputError([Problem("--sizes", "", "", f"must be game counts that are "
                                     f"multiples of --base-games ({base_games:,}), got "
                                     f"{sizes!r}")]))
        try:
            rows = report_bench(chosen, folder, counts, base_games=base_games)
        except InputError as e:
            fail(e)
        typer.echo("")
        typer.echo(f"{'games':>12} {'seconds':>9} {'peak MiB':>9} {'on disk MB':>11}")
        for r in rows:
            typer.echo(f"{r.games:>12,} {r.seconds:>9.1f} {r.peak_mib:>9,.0f} "
                       f"{r.disk_mb:>11,.0f}")
        return
    if runner:
        from balance.bench.speed import runner_bench  # lazy: see the module doc

        rb = runner_bench(chosen, games)
        typer.echo("")
        typer.echo(f"games per second, 1 worker               {rb.games_per_s[1]:10,.0f}")
        typer.echo(f"games per second, 2 workers              {rb.games_per_s[2]:10,.0f}")
        typer.echo(f"scaling, 2 workers / 1                   {rb.scaling:10.2f}x")
        typer.echo(f"peak memory, parent / each worker        {rb.parent_peak_mb:6.0f} / "
                   f"{rb.worker_peak_mb:.0f} MB")
        if rb.busy_cores >= 0.3:
            typer.echo(f"note: other processes kept {rb.busy_cores:.1f} cores busy; the "
                       "figures are low and the scaling understated")
        return
    from balance.bench.speed import engine_bench  # lazy: see the module doc

    r = engine_bench(chosen, seconds, cold)
    typer.echo("")
    typer.echo(f"games per second (one core, warm cache)  {r.games_per_s:10,.0f}")
    typer.echo(f"games per second without the JIT         {r.no_jit_games_per_s:10,.1f}")
    typer.echo(f"speed-up of the JIT                      {r.speedup:10,.0f}x")
    if cold:
        typer.echo(f"compile time, cold cache                 {r.cold_compile_s:10.0f} s")
    typer.echo(f"start-up to first game, warm cache       {r.warm_start_s:10.2f} s")


def _compile_profile(game: str, top: int) -> None:
    from balance.compile.profile import profile  # lazy: only this bench needs it

    typer.echo(f"compiling {game}'s bench player with an empty cache (minutes)...")
    try:
        p = profile(game)
    except InputError as e:
        fail(e)
    typer.echo("")
    typer.echo(f"cold compile to the first game          {p.total_s:8.1f} s")
    typer.echo(f"  of which inside LLVM                  {p.llvm_s:8.1f} s "
               f"({p.llvm_s / max(p.total_s, 1e-9):.0%})")
    typer.echo(f"kernels compiled                        {len(p.kernels):8d}")
    typer.echo("")
    typer.echo("Own time: the kernel's compile less its callees' compiles; it includes "
               "optimising again the callees' code LLVM pasted into it.")
    typer.echo(f"{'own s':>8} {'share':>6} {'with callees s':>15}  kernel")
    for k in p.kernels[:top]:
        typer.echo(f"{k.own_s:8.1f} {k.own_s / max(p.total_s, 1e-9):6.1%} "
                   f"{k.with_callees_s:15.1f}  {k.kernel}"
                   + (f" ({k.compiles} signatures)" if k.compiles > 1 else ""))
    rest = p.kernels[top:]
    if rest:
        typer.echo(f"{sum(k.own_s for k in rest):8.1f} {'':6} {'':15}  "
                   f"{len(rest)} more kernels")


def _check_bench_options(runner: bool, scaling: bool, report: bool,
                         scheduler: str | None, compile_profile: bool = False,
                         against: Path | None = None) -> None:
    """`balance bench` makes one measurement at a time: InputError naming the option that
    does not go with the others."""
    def refuse(option: str, why: str) -> None:
        raise InputError([Problem(option, "", "", why)])

    if against is not None and (runner or scaling or report or compile_profile
                                or scheduler is not None):
        refuse("--against", "times the engine of two checkouts on one core: give it without "
               "--runner, --scaling, --report, --compile-profile and --scheduler")

    if compile_profile and (runner or scaling or report):
        refuse("--compile-profile", "measures a cold compile, not games: give it alone")
    if report and (runner or scaling):
        refuse("--report", f"measures `balance report`, {'--runner' if runner else '--scaling'}"
               " measures `balance run`: give one of them")
    if runner and scaling:
        refuse("--scaling", "already measures through `balance run` (1 and 2 workers, "
               "--runner's, are its first points): give one of --runner and --scaling")
    if scheduler is not None and not (runner or scaling):
        refuse("--scheduler", "goes with --scaling (the curve on that cluster) or --runner "
               "(joblib against that cluster); the engine bench plays on one local core")
    if scheduler is not None and not scheduler.strip():
        refuse("--scheduler", "is empty: give the scheduler's address, e.g. "
               "tcp://127.0.0.1:8786")


def _pair_bench(game, against: Path, seconds: float) -> None:
    from balance.bench.pair import pair_bench  # lazy: only this bench needs it

    try:
        r = pair_bench(game, against, seconds)
    except InputError as e:
        fail(e)
    ratio, lo, hi = r.speed()
    typer.echo("")
    typer.echo(f"this checkout   {r.games_per_s(r.this_s):10,.0f} games/s  ({r.this})")
    typer.echo(f"other checkout  {r.games_per_s(r.other_s):10,.0f} games/s  ({r.other})")
    typer.echo(f"speed, this / other  {ratio:.3f} (95% interval {lo:.3f} to {hi:.3f}), "
               f"{r.pairs} pairs of {r.batch:,} games")
    if r.this == r.other:
        typer.echo("(the same checkout twice: a check of the method, the ratio near 1)")


def _scaling_bench(game, games: int, scheduler: str | None) -> None:
    from balance.bench.scale import scaling_bench  # lazy: see the module doc

    s = scaling_bench(game, games, scheduler)
    typer.echo("")
    typer.echo(f"`balance run`, {s.games:,} games in shards of {s.shard_size:,}, on "
               f"{s.where}:")
    typer.echo(f"{'workers':>8} {'games/s':>10} {'speed-up':>9} {'efficiency':>11}")
    for n, rate in s.games_per_s.items():
        typer.echo(f"{n:>8} {rate:>10,.0f} {s.speedup(n):>8.2f}x {s.efficiency(n):>10.0%}")
    if s.busy_cores is not None and s.busy_cores >= 0.3:
        typer.echo(f"note: other processes kept {s.busy_cores:.1f} cores busy; the figures "
                   "are low and the scaling understated")


def _backend_bench(game, games: int, scheduler: str) -> None:
    from balance.bench.scale import compare_backends  # lazy: see the module doc

    c = compare_backends(game, games, scheduler)
    joblib_used = f"{c.joblib_workers} processes on this machine"
    dask_used = f"{c.dask_workers} workers, {c.dask_threads} threads, on {', '.join(c.dask_hosts)}"
    width = max(len(joblib_used), len(dask_used))
    typer.echo("")
    typer.echo(f"{'':7} {'workers':<{width}} {'seconds':>8} {'games/s':>9}")
    for name, used, seconds in (("joblib", joblib_used, c.joblib_s),
                                ("Dask", dask_used, c.dask_s)):
        typer.echo(f"{name:<7} {used:<{width}} {seconds:>8.1f} {c.games / seconds:>9,.0f}")
    typer.echo(f"ratio, Dask / joblib: {c.ratio:.2f}x (connecting to the scheduler took "
               f"{c.connect_s:.1f} s more, not counted)")
    typer.echo("tables identical" if c.difference is None
               else f"tables DIFFER: {c.difference}")
    if c.same_cores:
        typer.echo(f"both used the same {c.joblib_workers} cores of this machine, one "
                   "single-threaded worker per core: a fair comparison")
    else:
        typer.echo(f"note: not the same cores (joblib: {c.joblib_workers} processes here; "
                   f"Dask: {c.dask_threads} threads on {', '.join(c.dask_hosts)}): the ratio "
                   "compares machines as much as backends; for the backends alone, run one "
                   "single-threaded Dask worker per core on this machine")
    if c.busy_cores >= 0.3:
        typer.echo(f"note: other processes kept {c.busy_cores:.1f} cores busy; both times are "
                   "long, and the ratio moves with their load")
    if c.difference is not None:  # a wrong result, not bad input: exit 1, as a failed run
        raise typer.Exit(1)


@app.command()
def report(run_dirs: list[Path] = typer.Argument(..., metavar="RUN_DIR...",
                                                 help="run directories written by the runner"),
           out: Path = typer.Option(None, help="write the page here (default: the run "
                                    "directory; for several runs, a `report` folder beside "
                                    "them)"),
           levels: str = typer.Option("90,75,50,25,10", help="win rates (%) at which the "
                                      "report reads a curve's value: each gets the value whose "
                                      "win rate is closest"),
           merge: bool = typer.Option(False, "--merge", help="count games of different runs "
                                      "played under the same setting together (the page "
                                      "says where); by default each run is kept apart"),
           jobs: int = typer.Option(None, min=1, help="processes that draw the figures of a "
                                    "report with more than a few (default: one per core)"),
           ladder: Path = typer.Option(None, help="a folder `balance ladder` wrote for the "
                                       "same game: the page adds its section Strength and luck"),
           ) -> None:
    """Write a report: one self-contained HTML page (report.html) and its figures as PNG
    files (figures/). Several runs (say, one of each way to play) make one report, a
    setting two runs share named with its run."""
    # polars' allocator (jemalloc) keeps freed pages for seconds by default: a report of a
    # million games aggregates 200 shards one after another, and would hold every one's
    # pages at once. Read when polars is first imported, so set before that.
    os.environ.setdefault("_RJEM_MALLOC_CONF", "dirty_decay_ms:0,muzzy_decay_ms:0")
    try:
        try:
            chosen = tuple(float(x) / 100 for x in levels.split(",") if x.strip())
        except ValueError:
            chosen = ()
        if not chosen or any(not 0 < x < 1 for x in chosen):
            raise InputError([Problem("--levels", "", "", "must be win rates in percent, "
                                      f"strictly between 0 and 100, e.g. 90,70,50, got "
                                      f"{levels!r}")])
        if out is not None:
            files.check_dir(out, "--out")
        from balance.running.jobs import check_jobs, default_jobs  # the runner's rule too

        jobs = default_jobs() if jobs is None else jobs
        check_jobs(jobs)
        # In a child process: out of memory, polars aborts the process it runs in.
        page = guard.in_child("reports.page.build:build_report", run_dirs, out,
                              tuple(sorted(set(chosen), reverse=True)), merge, jobs, ladder)
    except InputError as e:
        fail(e)
    except OutOfMemory as e:
        fail(InputError([Problem(", ".join(map(str, run_dirs)), "", "", f"not enough memory "
                                 f"to write the report ({e}); nothing was written: free "
                                 "some memory, or report fewer runs at once")]))
    typer.echo(f"report written to {page}")


@app.command("compare")
def compare_(run_dir: Path = typer.Argument(..., metavar="RUN_DIR",
                                            help="a run folder written by `balance run`"),
             baseline: int = typer.Option(None, help="compare with this variant (default: the "
                                          "experiment file's `baseline`, else variant 0)"),
             json_: bool = typer.Option(False, "--json", help="print the comparison as JSON "
                                        "(every difference, and the difficulty curves)"),
             ) -> None:
    """Compare every variant of a run with the baseline, on the games both played (the same
    seeds): each difference with a 95% interval that uses the pairing, and whether it
    survives Holm's correction over the whole table."""
    try:
        # In a child process: out of memory, polars aborts the process it runs in.
        out = guard.in_child("reports.compare.compare_text:compare_output", run_dir, baseline,
                             json_)
    except OutOfMemory as e:
        fail(InputError([Problem(str(run_dir), "", "", f"not enough memory to compare its "
                                 f"variants ({e}): free some memory and run the same command "
                                 "again")]))
    typer.echo(out)


@app.command("games")
def games_() -> None:
    """List the games: name, title, version, player counts, tables, measures and players."""
    for g in registry.games():
        typer.echo(f"{g.name}: {g.title}, version {g.version}, {counts_text(g.player_counts)} "
                   "players")
        typer.echo("  tables:   " + ", ".join(f"{t.name} ({len(t.columns)} columns)"
                                              for t in g.tables))
        typer.echo("  measures: " + ", ".join(f"{m.name} ({m.kind})" for m in g.measures))
        typer.echo("  players:  " + (", ".join(g.player_registry()) if g.players else "none"))
        if g.ablations:
            typer.echo("  ablations: " + "; ".join(f"{how} ({what})" for how, what in g.ablations))


# Every game's, though each game says what it means for it (balance/cli/ablate.py, players.py).
app.command("ablate")(ablate.ablate)
app.command("players")(players.players)
app.command("tune-player", cls=players.TunePlayerCommand)(players.tune_player)
app.command("new-game")(new_game.new_game)
app.command("ladder")(ladder_command.ladder)


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # python -m balance.cli.app
    main()
