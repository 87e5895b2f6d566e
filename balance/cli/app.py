"""The `balance` command line. Each command is a thin front over a function you can call."""

from __future__ import annotations

import errno
from pathlib import Path

import typer
from typer.core import TyperGroup

from balance.cli.guard import OutOfMemory, Terminated, signals, stop_workers
from balance.errors import InputError, Problem


def fail(err: InputError) -> None:
    """One clear message per problem, no traceback, exit 2."""
    for p in err.problems:
        typer.echo(f"error: {p}", err=True)
    raise typer.Exit(2)


# What to do about a file the system would not write, by the error's number.
OS_ADVICE = {errno.ENOSPC: "free some space", errno.EDQUOT: "free some space",
             errno.EROFS: "write somewhere writable (--out)",
             errno.EACCES: "write somewhere writable (--out)",
             errno.EPERM: "write somewhere writable (--out)",
             errno.EFBIG: "raise the file-size limit (ulimit -f)"}


def os_problem(e: OSError) -> InputError:
    """A file the system would not write or read, as one message naming it; nothing is
    half-written (every file is written whole to a temporary name, then renamed)."""
    advice = OS_ADVICE.get(e.errno, "fix this")
    return InputError([Problem(str(e.filename or "a file"), "", "",
                               f"{e.strerror or e}: {advice} and run the same command "
                               "again")])


class Commands(TyperGroup):
    """One handler around every command: bad input, a file the system would not write (a
    full disk, a read-only folder, a file-size limit), too little memory and SIGTERM are
    each one message and an exit status, never a traceback."""

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


app = typer.Typer(cls=Commands, add_completion=False, no_args_is_help=True,
                  help="Gem Rush balance toolkit: validate content, play and measure games.")


@app.command()
def validate(files: list[Path] = typer.Argument(..., help="content TOML files or shipped names"),
             edition: str = typer.Option(None, help="check against this rule profile "
                                         "(default: the file's own edition)")) -> None:
    """Check content files completely; print a summary of each valid one."""
    from balance.games.gemrush.content import load_content
    from balance.games.gemrush.rules import load_profile
    from balance.games.gemrush.summary import content_summary, format_summary
    from balance.games.gemrush.tables import compile_tables

    bad = False
    for f in files:
        try:
            content = load_content(f)
            profile = load_profile(edition or content.edition, source=str(f))
            compile_tables(content, profile)
        except InputError as e:
            for p in e.problems:
                typer.echo(f"error: {p}", err=True)
            bad = True
            continue
        typer.echo(format_summary(content_summary(content)))
    if bad:
        raise typer.Exit(2)


@app.command()
def rules(edition: str = typer.Argument("2e", help="rule profile: 1e, 2e or a TOML path"),
          set_: list[str] = typer.Option([], "--set", help="override a rule: NAME=VALUE")) -> None:
    """Print an edition's rule profile, with any overrides applied."""
    from balance.games.gemrush.rules import load_profile, parse_overrides

    try:
        profile = load_profile(edition, parse_overrides(set_))
    except InputError as e:
        fail(e)
    typer.echo(f"{profile.title}  (content: {profile.content})")
    for name, value, doc in profile.describe():
        typer.echo(f"  {name:<26} {value:<6} {doc}")


@app.command()
def play(edition: str = typer.Option(None, help="rule profile: 1e or 2e (default: the "
                                     "content's own edition; 2e without --content)"),
         mode: str = typer.Option("crisis", help="crisis or rush"),
         players: int = typer.Option(3, min=1, help="number of players"),
         seed: int = typer.Option(7, min=0, max=2**63 - 1,
                                  help="the game's seed: the same seed, the same game"),
         heuristic: str = typer.Option("greedy", help="player for every seat"),
         seats: str = typer.Option(None, help="a player for each seat, e.g. greedy,random,random"),
         knob: list[str] = typer.Option([], "--knob", help="set a player's knob: NAME=VALUE "
                                        "(see `balance players`)"),
         knobs: Path = typer.Option(None, help="knob values from a file written by "
                                    "`balance tune-player`"),
         target: str = typer.Option(None, help="Crisis difficulty name or points; Rush points"),
         exhaust: bool = typer.Option(False, help="Crisis: play to the end of the clock"),
         content: str = typer.Option(None, help="content file (default: the edition's)"),
         set_: list[str] = typer.Option([], "--set", help="override a rule: NAME=VALUE"),
         map_: Path = typer.Option(None, "--map", help="draw the final mine to this PNG"),
         ) -> None:
    """Play one game and print it turn by turn."""
    from balance import files
    from balance.games.gemrush.play import play_traced, prepare
    from balance.games.gemrush.rules import parse_overrides
    from balance.games.gemrush.trace import format_game
    from balance.running.tune_player import read_knobs

    try:
        if map_ is not None:
            files.check_new(map_, "--map")
        setup = prepare(edition, mode, players, heuristic, target, exhaust,
                        parse_overrides(set_), content,
                        seats=[x.strip() for x in seats.split(",")] if seats else None,
                        knobs={**(read_knobs(knobs) if knobs else {}),
                               **parse_overrides(knob, "--knob")})
    except InputError as e:
        fail(e)
    setup = setup.seated_for(seed)  # the players in seat order, the first player in seat 1
    st, events = play_traced(setup, seed)
    typer.echo(format_game(setup, st, events))
    if map_ is not None:
        from balance.games.gemrush.mine_map import draw_mine

        files.write_new(map_, draw_mine(setup, st), "--map")
        typer.echo(f"map written to {map_}")


@app.command("tune")
def tune(experiment: str = typer.Argument(..., help="experiment file (one variant), or a name "
                                          "in experiments/"),
         lever: str = typer.Option(..., help="the whole-number setting to seek: a patch's "
                                   "number (discount.door_cost), a rule field (hand_limit, "
                                   "burn_per_turn, crisis_targets.Journeyman, start_vp.seat1), "
                                   "target, players, knob.NAME"),
         range_: str = typer.Option(..., "--range", help="LOW:HIGH, the values to search"),
         goal: str = typer.Option(..., help="Journeyman=50% (win rate at a difficulty, or "
                                  "35=50% at points), seat1=19% (Rush: a seat's share of the "
                                  "wins), score=40 (mean), rounds=12 (Rush)"),
         games: int = typer.Option(None, min=1, help="most games per lever value (default "
                                   "20,000)"),
         first: int = typer.Option(None, min=10, help="games per value while bisecting "
                                   "(default 400)"),
         jobs: int = typer.Option(None, min=1, help="worker processes (default: one per core)"),
         ) -> None:
    """Find the lever value that meets a goal, with a 95% interval on it (common seeds)."""
    import polars as pl
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from balance.running import goal_seek as gs
    from balance.running.experiment import load_experiment
    from balance.running.runner import check_jobs, default_jobs

    first = first or gs.FIRST_GAMES
    most = games or gs.MAX_GAMES
    try:
        parsed_goal = gs.parse_goal(goal)
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
        empty = pl.DataFrame(schema={"score": pl.Int16, "turns": pl.Int16, "won": pl.Boolean,
                                     "winner": pl.Int8})
        with Progress(SpinnerColumn(), TextColumn("{task.completed:,} games played"),
                      TimeElapsedColumn(), transient=True) as bar:
            task = bar.add_task("seeking", total=None)
            evaluate, check = gs.experiment_evaluator(
                exp, lever, parsed_goal, jobs, on_games=lambda k: bar.advance(task, k))
            for v in (lo, hi):  # both ends compile, and the goal can be measured, or nothing
                gs.outcomes(empty, parsed_goal, check(v).variants[0])  # is played
            result = gs.seek(evaluate, lo, hi, parsed_goal, lever, first, most)
    except InputError as e:
        fail(e)
    _say_seek(result)


def _say_seek(r) -> None:
    g = r.goal
    typer.echo(f"{'value':>8}  {'games':>7}  {'outcome':>8}  95% interval")
    for v, n, est, lo, hi in r.table():
        typer.echo(f"{v:>8}  {n:>7,}  {g.show(est):>8}  {g.show(lo)} to {g.show(hi)}")
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


@app.command("content")
def content_(experiment: str = typer.Argument(..., help="experiment file, or a name in "
                                              "experiments/"),
             variant: int = typer.Option(0, min=0, help="the variant's number"),
             out: Path = typer.Option(None, help="write the content file here (default: "
                                      "print it)"),
             ) -> None:
    """Write a variant's content (its box, with the experiment's patches applied) as a
    content file: playing that file plays the variant, game for game."""
    from balance import files
    from balance.games.gemrush.content import CONTENT_DIR
    from balance.running.experiment import load_experiment

    try:
        exp = load_experiment(experiment)
        if variant >= len(exp.variants):
            raise InputError([Problem("--variant", "", "", f"the experiment has variants 0 to "
                                      f"{len(exp.variants) - 1}, got {variant}")])
        if out is not None:
            files.check_new(out, "--out")
    except InputError as e:
        fail(e)
    v = exp.variants[variant]
    text = v.content_text
    if text is None:
        text = (CONTENT_DIR / f"{v.content}.toml").read_text(encoding="utf-8")
    head = (f"# Content of variant {variant} ({v.label}) of {exp.file}, written by "
            "`balance content`.\n")
    if out is None:
        typer.echo(head + text, nl=False)
        return
    files.write_new(out, (head + text).encode("utf-8"), "--out")
    typer.echo(f"variant {variant} ({v.label}): content written to {out}")


@app.command("ablate")
def ablate(experiment: str = typer.Argument(..., help="experiment file (one variant), or a "
                                            "name in experiments/"),
           how: str = typer.Option("out", help="out: take each room out of the box; plain: "
                                   "swap it for a plain room with the same doors and no "
                                   "ability (the ability's own worth)"),
           games: int = typer.Option(None, min=1, help="games per variant (default: the "
                                     "file's)"),
           jobs: int = typer.Option(None, min=1, help="worker processes (default: one per "
                                    "core)"),
           out: Path = typer.Option(Path("runs"), help="the run goes to "
                                    "OUT/<name>-ablate-<how>/"),
           ) -> None:
    """Each room's causal worth: one variant per room (taken out, or made plain) against the
    unchanged box, on common seeds, ranked with paired intervals and Holm's correction."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from balance.running.experiment import (
        ABLATE_MODES,
        MAX_NAME,
        load_experiment,
        parse_experiment,
        resolve_experiment_path,
        rooms_taken_out,
    )
    from balance.running.runner import RunFailed, run_experiment

    try:
        if how not in ABLATE_MODES:
            raise InputError([Problem("--how", "", "", f"must be one of "
                                      f"{', '.join(ABLATE_MODES)}, got {how!r}")])
        base = load_experiment(experiment)
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
    except InputError as e:
        fail(e)
    typer.echo(f"{exp.name}: the unchanged box and {len(exp.variants) - 1} rooms, "
               f"{games or exp.games:,} games each -> {out / exp.name}")
    for room, patch in rooms_taken_out(base).items():
        typer.echo(f"{room}: not ablated; the experiment's patch {patch!r} takes it out of the "
                   "box already")
    with Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("games"), transient=True) as bar:
        task = bar.add_task("playing", total=None)
        try:
            run_experiment(exp, out, games, jobs,
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
    # The ranking is the ablation run's headline.
    typer.echo(closing_headline(out / exp.name, len(exp.variants) * (games or exp.games)))


def _turn_span(text: str) -> tuple[int, int]:
    """--turns FIRST-LAST (or one turn N): counted from 1, as `balance play` prints turns."""
    first, sep, last = text.strip().partition("-")
    try:
        a = int(first)
        b = int(last) if sep else a
    except ValueError:
        a = b = 0
    if not 1 <= a <= b <= 99:
        raise InputError([Problem("--turns", "", "", "must be FIRST-LAST with 1 <= FIRST <= "
                                  f"LAST <= 99, e.g. 18-25, got {text!r}")])
    return a, b


@app.command("strength")
def strength_(edition: str = typer.Option(None, help="rule profile: 1e or 2e (default: the "
                                          "content's, else 2e)"),
              players: int = typer.Option(4, min=1, max=16, help="number of players"),
              games: int = typer.Option(4000, min=2, max=1_000_000, help="games of random "
                                        "and greedy"),
              reference_games: int = typer.Option(30, min=2, max=100_000, help="games of the "
                                                  "reference at each budget"),
              budgets: str = typer.Option("64,256", help="the reference's budgets, e.g. "
                                          "64,256"),
              search: str = typer.Option(None, help="the reference searches only these "
                                         "decisions, greedy takes the rest: some of steps, "
                                         "action, payments, discards, rotations, skills"),
              turns: str = typer.Option(None, help="the reference searches only these turns "
                                        "(FIRST-LAST, from 1, e.g. 18-25), greedy plays the "
                                        "rest"),
              knobs: Path = typer.Option(None, help="also play greedy with these knobs (a "
                                         "file from `balance tune-player`)"),
              seed: int = typer.Option(7000, min=0, max=2**62, help="first game seed"),
              content: str = typer.Option(None, help="content file (default: the "
                                          "edition's)"),
              set_: list[str] = typer.Option([], "--set", help="override a rule: "
                                             "NAME=VALUE"),
              ) -> None:
    """How strong are the players? Random, greedy and the search-based reference on the same
    Crisis games to exhaustion: scores, paired differences, win rates, speed."""
    from rich.progress import Progress

    from balance.games.gemrush.engine.forward import FORWARD
    from balance.games.gemrush.rules import parse_overrides
    from balance.games.gemrush.strength import strength
    from heuristics.search import searched_mask

    try:
        try:
            bs = [int(b) for b in budgets.split(",") if b.strip()]
        except ValueError:
            bs = []
        if not bs or any(not 2 <= b <= 4096 for b in bs):
            raise InputError([Problem("--budgets", "", "", f"must be budgets from 2 to 4096, "
                                      f"e.g. 64,256, got {budgets!r}")])
        kinds = None
        if search is not None:
            kinds = [k.strip() for k in search.split(",") if k.strip()]
            try:
                if not kinds:
                    raise ValueError("names no decision kind")
                searched_mask(FORWARD.searchable, kinds)
            except ValueError as e:
                raise InputError([Problem("--search", "", "", f"{e}, got {search!r}")]) \
                    from None
        span = None if turns is None else _turn_span(turns)
        overrides = parse_overrides(set_)
        given = None
        if knobs is not None:
            from balance.running.tune_player import read_knobs

            given = read_knobs(knobs)
        from balance.games.gemrush.play import prepare

        prepare(edition, "crisis", players, "greedy", None, True, overrides, content=content,
                knobs=given)
        with Progress(transient=True) as bar:
            def progress(label: str, n: int):
                task = bar.add_task(label, total=n)
                return lambda k: bar.advance(task, k)

            table = strength(edition, players, games, reference_games, bs, seed, given,
                             say=lambda m: None, rules=overrides, content=content,
                             searched=kinds, turns=span, progress=progress)
    except InputError as e:
        fail(e)
    typer.echo(table)


@app.command("players")
def players_() -> None:
    """List the players a seat can have, with their knobs (default and range)."""
    from balance.contract import registry  # lazy: keeps `balance --help` from importing games

    for line in registry.get().hook("players").describe():
        typer.echo(line)


def _player_counts(text: str) -> list[int]:
    """--players N or N,M,...: each from 1 to 16."""
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        counts = []
    if not counts or any(not 1 <= n <= 16 for n in counts):
        raise InputError([Problem("--players", "", "", "must be a player count from 1 to 16, "
                                  f"or several separated by commas (e.g. 1,4,7), got {text!r}")])
    return list(dict.fromkeys(counts))


@app.command("tune-player")
def tune_player_(name: str = typer.Argument("greedy", help="the player to tune"),
                 edition: str = typer.Option("2e", help="rule profile: 1e or 2e"),
                 mode: str = typer.Option("crisis", help="crisis (team score) or rush (seat "
                                          "1's win rate)"),
                 players: str = typer.Option("4", help="number of players, or several "
                                             "(e.g. 1,4,7): then one set of knobs is tuned "
                                             "for the mean over them"),
                 games: int = typer.Option(400, min=20, max=100_000,
                                           help="games per candidate and player count (common "
                                           "seeds)"),
                 evaluations: int = typer.Option(120, min=4, max=10_000,
                                                 help="candidates CMA-ES may try"),
                 seed: int = typer.Option(0, min=0, max=2**63 - 1, help="seed of the games"),
                 content: str = typer.Option(None, help="content file (default: the "
                                             "edition's)"),
                 set_: list[str] = typer.Option([], "--set", help="override a rule: "
                                                "NAME=VALUE"),
                 out: Path = typer.Option(None, help="write the tuned knobs here (TOML), for "
                                          "`balance play --knobs`"),
                 ) -> None:
    """Tune a player's knobs for this content and rule profile (CMA-ES on common seeds), and
    check the result against the defaults on fresh games with a paired interval."""
    from rich.progress import Progress

    from balance import files
    from balance.games.gemrush.rules import parse_overrides
    from balance.running.tune_player import tune_player, write_knobs

    try:
        if out is not None:  # refused before the tuning, not after it
            files.check_new(out, "--out")
        counts = _player_counts(players)
        overrides = parse_overrides(set_)
        with Progress(transient=True) as bar:
            task = bar.add_task(f"tuning {name}", total=evaluations)
            r = tune_player(name, edition, mode, counts, games, evaluations, seed, content,
                            overrides, progress=lambda n: bar.advance(task, n))
    except InputError as e:
        fail(e)
    shown = ",".join(map(str, counts))
    typer.echo(f"{r.player}, {edition} {mode}, {shown} players: {r.evaluations} candidates "
               f"on {r.games} common games each" + (" at each count" if len(counts) > 1
                                                     else ""))
    for k, v in r.knobs.items():
        typer.echo(f"  {k:<17} {v:8.3f}   (default {r.defaults[k]:g})")
    if len(counts) > 1:
        for c in r.by_players:
            typer.echo(f"  {c.players} players: {c.tuned:.3f} tuned, {c.default:.3f} default; "
                       f"difference {c.tuned - c.default:+.3f} (paired 95% interval "
                       f"{c.diff_low:+.3f} to {c.diff_high:+.3f})")
    typer.echo(f"{r.objective} on {r.validation_games} fresh games"
               + (" at each count, the mean over them" if len(counts) > 1 else "")
               + f": {r.tuned:.3f} tuned, {r.default:.3f} default; difference "
               f"{r.tuned - r.default:+.3f} (paired 95% interval {r.diff_low:+.3f} to "
               f"{r.diff_high:+.3f})")
    if out is not None:
        write_knobs(r, out, f"balance tune-player {name} --edition {edition} --mode {mode} "
                    f"--players {shown} --games {games} --evaluations {evaluations}")
        typer.echo(f"knobs written to {out}; play them with `balance play --knobs {out}`")


@app.command()
def check(content: str = typer.Option(None, help="content file (default: the edition's)"),
          edition: str = typer.Option(None, help="rule profile (default: the content's)"),
          games: int = typer.Option(500, min=1, help="games per variant and player"),
          set_: list[str] = typer.Option([], "--set", help="override a rule: NAME=VALUE"),
          referee: bool = typer.Option(False, help="also re-read every game's events with the "
                                       "independent rules model (balance/games/gemrush/referee/)"),
          ) -> None:
    """Play games in invariant-check mode over every mode and player count (from the fewest
    players that have every seat a per-seat rule names); report any game that lost a card,
    miscounted a score, disconnected the mine or made an illegal move. With --referee, an
    independent model of the rules also checks every event."""
    from rich.progress import Progress

    from balance.games.gemrush.check import check_content, checked_profile, variants
    from balance.games.gemrush.rules import parse_overrides

    try:
        overrides = parse_overrides(set_)
        profile = checked_profile(edition, content, overrides)
    except InputError as e:
        fail(e)
    total = 2 * games * len(list(variants(profile)))
    try:
        with Progress(transient=True) as bar:
            task = bar.add_task("checking", total=total)
            results = check_content(edition or profile.name, content, games,
                                    rules=overrides, progress=lambda n: bar.advance(task, n),
                                    referee=referee)
    except InputError as e:  # a player count the content cannot serve, say
        fail(e)
    bad = 0
    for r in results:
        status = "ok" if not r.bad_seeds else f"{len(r.bad_seeds)} BROKEN"
        typer.echo(f"  {r.variant:<22} {r.games} games  {status}")
        for seed, what in r.bad_seeds[:5]:
            typer.echo(f"      seed {seed}: {what}  (replay: balance play --seed {seed} ...)")
        bad += len(r.bad_seeds)
    checked = f"{sum(r.games for r in results)} games checked"
    if referee:
        checked += f" ({sum(r.events for r in results)} events refereed)"
    typer.echo(f"{checked}, {bad} broke an invariant or a rule")
    if bad:
        raise typer.Exit(1)


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
        ) -> None:
    """Play an experiment's games into Parquet files; rerun the same command to resume."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from balance.running.experiment import load_experiment
    from balance.running.precision import check_precision, run_to_precision
    from balance.running.runner import RunFailed, run_experiment

    try:
        exp = load_experiment(experiment)
        if precision is not None:
            check_precision(precision)
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
        if done:
            typer.echo(f"resuming: {done:,} games already played")
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
        if report.played:
            typer.echo(f"played {report.games:,} games in {report.played} shards, "
                       f"{report.seconds:.1f} s ({report.games_per_s:,.0f} games/s)")
        else:
            typer.echo("nothing to play: every shard is already there")
        typer.echo(f"{report.shards} shards in {report.run_dir} (read them with "
                   "balance.running.store.read_run)")
        run_dir = report.run_dir
    saved = len(exp.variants) * (rounds.games if precision is not None else games or exp.games)
    typer.echo("")
    typer.echo(closing_headline(run_dir, saved))


def closing_headline(run_dir: Path, games: int) -> str:
    """The headline of a run whose games are saved, read back in a child process: out of
    memory there is one message that names the saved games, not an abort."""
    from balance.cli.guard import in_child

    try:
        return in_child("reports.headline:headline", run_dir)
    except OutOfMemory as e:
        raise InputError([Problem(str(run_dir), "", "", f"not enough memory to read the games "
                                  f"back for the summary ({e}); all {games:,} games are saved "
                                  f"in {run_dir}: write their report with `balance report "
                                  f"{run_dir}` where more memory is free")]) from None


def stopped(bar, e: KeyboardInterrupt, run_dir: Path) -> None:
    """Ctrl-C or SIGTERM during a run: no worker outlives it, and the message says what is
    kept. Exit 130 for Ctrl-C, 143 for SIGTERM (128 + the signal, as a shell reports it)."""
    bar.stop()
    stop_workers()
    how = "terminated (SIGTERM)" if isinstance(e, Terminated) else "interrupted"
    typer.echo(f"\n{how}: every finished shard is saved in {run_dir}; run the same command "
               "again to resume", err=True)
    raise typer.Exit(143 if isinstance(e, Terminated) else 130) from None


def _say_rounds(rounds) -> None:
    for i, r in enumerate(rounds.rounds, 1):
        typer.echo(f"round {i}: {r.games:,} games per variant, widest headline interval "
                   f"+-{r.widest:.2f} points")
    if rounds.reached:
        typer.echo(f"precision reached: every headline interval is within "
                   f"+-{rounds.precision:g} points after {rounds.games:,} games per variant "
                   f"({rounds.run_dir})")
    else:
        typer.echo(f"precision NOT reached: the game cap ({rounds.games:,} per variant) came "
                   f"first; the widest interval is +-{rounds.rounds[-1].widest:.2f} points. "
                   "Raise --games to go on from here", err=True)


def _speed_column():
    from rich.progress import ProgressColumn
    from rich.text import Text

    class SpeedColumn(ProgressColumn):
        """Games per second over the last moments."""

        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.0f} games/s",
                        style="progress.data.speed")

    return SpeedColumn()


@app.command()
def bench(seconds: float = typer.Option(5.0, min=0.5, help="seconds of timed play"),
          cold: bool = typer.Option(True, help="also time a compile with an empty cache"),
          runner: bool = typer.Option(False, "--runner", help="measure `balance run` instead: "
                                      "games per second with 1 and 2 workers"),
          games: int = typer.Option(40_000, min=1, help="--runner: games per measurement"),
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
          ) -> None:
    """Engine speed: 2nd-edition Crisis, 4 players, greedy, to exhaustion, one core.
    With --runner: the same batch through `balance run` with 1 and 2 workers. With --report:
    `balance report` on runs of that case of growing size."""
    if report:
        from balance.running.bench_report import BASE_UNIT, report_bench

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
            rows = report_bench(folder, counts, base_games=base_games)
        except InputError as e:
            fail(e)
        typer.echo("")
        typer.echo(f"{'games':>12} {'seconds':>9} {'peak MiB':>9} {'on disk MB':>11}")
        for r in rows:
            typer.echo(f"{r.games:>12,} {r.seconds:>9.1f} {r.peak_mib:>9,.0f} "
                       f"{r.disk_mb:>11,.0f}")
        return
    if runner:
        from balance.running.bench import runner_bench

        rb = runner_bench(games)
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
    from balance.running.bench import engine_bench

    r = engine_bench(seconds, cold)
    typer.echo("")
    typer.echo(f"games per second (one core, warm cache)  {r.games_per_s:10,.0f}")
    typer.echo(f"games per second without the JIT         {r.no_jit_games_per_s:10,.1f}")
    typer.echo(f"speed-up of the JIT                      {r.speedup:10,.0f}x")
    if cold:
        typer.echo(f"compile time, cold cache                 {r.cold_compile_s:10.0f} s")
    typer.echo(f"start-up to first game, warm cache       {r.warm_start_s:10.2f} s")


@app.command()
def report(run_dirs: list[Path] = typer.Argument(..., metavar="RUN_DIR...",
                                                 help="run directories written by the runner"),
           out: Path = typer.Option(None, help="write the page here (default: the run "
                                    "directory; for several runs, a `report` folder beside "
                                    "them)"),
           levels: str = typer.Option("90,75,50,25,10", help="win rates (%) to print targets "
                                      "for: each gets the target whose win rate is closest"),
           merge: bool = typer.Option(False, "--merge", help="count games of different runs "
                                      "played under the same setting together (the page "
                                      "says where); by default each run is kept apart"),
           ) -> None:
    """Write a report: one self-contained HTML page (report.html) and its figures as PNG
    files (figures/). Several runs (say, a Crisis run and a Rush run) make one report, each
    setting named with its run."""
    import os

    # polars' allocator (jemalloc) keeps freed pages for seconds by default: a report of a
    # million games aggregates 200 shards one after another, and would hold every one's
    # pages at once. Read when polars is first imported, so set before that.
    os.environ.setdefault("_RJEM_MALLOC_CONF", "dirty_decay_ms:0,muzzy_decay_ms:0")
    from balance import files
    from balance.cli.guard import in_child

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
        # In a child process: out of memory, polars aborts the process it runs in.
        page = in_child("reports.build:build_report", run_dirs, out,
                        tuple(sorted(set(chosen), reverse=True)), merge)
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
    from balance.cli.guard import in_child

    try:
        # In a child process: out of memory, polars aborts the process it runs in.
        out = in_child("reports.compare_text:compare_output", run_dir, baseline, json_)
    except OutOfMemory as e:
        fail(InputError([Problem(str(run_dir), "", "", f"not enough memory to compare its "
                                 f"variants ({e}): free some memory and run the same command "
                                 "again")]))
    typer.echo(out)


def main() -> None:  # pragma: no cover - console entry
    app()
