"""Gem Rush's own commands (its Game.commands hook adds them to `balance`): check content and
rules, play and trace one game, write a variant's box, rank the rooms by ablation, measure and
tune the players, check the invariants."""

from __future__ import annotations

from pathlib import Path

import typer

from balance import files
from balance.cli.common import closing_headline, fail, stopped
from balance.errors import InputError, Problem
from balance.games.gemrush.content import CONTENT_DIR, load_content
from balance.games.gemrush.experiment import ABLATE_MODES, rooms_taken_out
from balance.games.gemrush.play import play_traced, prepare
from balance.games.gemrush.rules import load_profile, parse_overrides
from balance.games.gemrush.summary import content_summary, format_summary
from balance.games.gemrush.tables import compile_tables
from balance.games.gemrush.trace import format_game
from balance.running.experiment import (
    MAX_NAME,
    load_experiment,
    parse_experiment,
    resolve_experiment_path,
)
from balance.running.runner import RunFailed, run_experiment
from heuristics.gemrush.registry import PLAYERS


def register(app: typer.Typer) -> None:
    """Add the commands to `app` (balance/cli/app.py calls this)."""
    for command, name in ((validate, None), (rules, None), (play, None),
                          (content_, "content"), (ablate, "ablate"), (strength_, "strength"),
                          (players_, "players"), (tune_player_, "tune-player"), (check, None)):
        app.command(name)(command)


def validate(files: list[Path] = typer.Argument(..., help="content TOML files or shipped names"),
             edition: str = typer.Option(None, help="check against this rule profile "
                                         "(default: the file's own edition)")) -> None:
    """Check content files completely; print a summary of each valid one."""
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


def rules(edition: str = typer.Argument("2e", help="rule profile: 1e, 2e or a TOML path"),
          set_: list[str] = typer.Option([], "--set", help="override a rule: NAME=VALUE")) -> None:
    """Print an edition's rule profile, with any overrides applied."""
    try:
        profile = load_profile(edition, parse_overrides(set_))
    except InputError as e:
        fail(e)
    typer.echo(f"{profile.title}  (content: {profile.content})")
    for name, value, doc in profile.describe():
        typer.echo(f"  {name:<26} {value:<6} {doc}")


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
    # lazy: read_knobs's module brings scipy, which `balance --help` should not load
    from balance.running.tune_player import read_knobs

    try:
        if map_ is not None:
            files.check_new(map_, "--map")
        setup = prepare(edition, mode, players, heuristic, target=target, exhaust=exhaust,
                        rules=parse_overrides(set_), content=content,
                        seats=[x.strip() for x in seats.split(",")] if seats else None,
                        knobs={**(read_knobs(knobs) if knobs else {}),
                               **parse_overrides(knob, "--knob")})
    except InputError as e:
        fail(e)
    setup = setup.seated_for(seed)  # the players in seat order, the first player in seat 1
    st, events = play_traced(setup, seed)
    typer.echo(format_game(setup, st, events))
    if map_ is not None:
        from balance.games.gemrush.mine_map import draw_mine  # lazy: matplotlib, for --map

        files.write_new(map_, draw_mine(setup, st), "--map")
        typer.echo(f"map written to {map_}")


def content_(experiment: str = typer.Argument(..., help="experiment file, or a name in "
                                              "experiments/"),
             variant: int = typer.Option(0, min=0, help="the variant's number"),
             out: Path = typer.Option(None, help="write the content file here (default: "
                                      "print it)"),
             ) -> None:
    """Write a variant's content (its box, with the experiment's patches applied) as a
    content file: playing that file plays the variant, game for game."""
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
    text = v.carry["content_text"]
    if text is None:
        text = (CONTENT_DIR / f"{v.carry['content']}.toml").read_text(encoding="utf-8")
    head = (f"# Content of variant {variant} ({v.label}) of {exp.file}, written by "
            "`balance content`.\n")
    if out is None:
        typer.echo(head + text, nl=False)
        return
    files.write_new(out, (head + text).encode("utf-8"), "--out")
    typer.echo(f"variant {variant} ({v.label}): content written to {out}")


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
    # lazy: rich's bars only where a command shows one
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

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
    # lazy: rich's bars, and the strength table's statistics (scipy)
    from rich.progress import Progress

    # lazy: the engine and the players load only when the command runs
    from balance.games.gemrush.engine.forward import FORWARD
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
            from balance.running.tune_player import read_knobs  # lazy: scipy, as in play

            given = read_knobs(knobs)
        prepare(edition, "crisis", players, "greedy", exhaust=True, rules=overrides,
                content=content, knobs=given)
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


def players_() -> None:
    """List the players a seat can have, with their knobs (default and range)."""
    for line in PLAYERS.describe():
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
    # lazy: rich's bars, and the tuning's optimiser and statistics (scipy)
    from rich.progress import Progress

    # lazy: the engine and the players load only when the command runs
    from balance.games.gemrush.tuning import objective
    from balance.running.tune_player import tune_player, write_knobs

    try:
        if out is not None:  # refused before the tuning, not after it
            files.check_new(out, "--out")
        counts = _player_counts(players)
        overrides = parse_overrides(set_)
        with Progress(transient=True) as bar:
            task = bar.add_task(f"tuning {name}", total=evaluations)
            knobs, score, what = objective(name, edition, mode, counts, content, overrides)
            r = tune_player(name, knobs, score, what, counts, games, evaluations, seed,
                            progress=lambda n: bar.advance(task, n))
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
    # lazy: rich's bars, and the check's independent rules model
    from rich.progress import Progress

    # lazy: the engine and the players load only when the command runs
    from balance.games.gemrush.check import check_content, checked_profile, variants

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

