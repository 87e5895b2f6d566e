"""Gem Rush's own commands (its Game.commands hook adds them to `balance`, as `balance gemrush
COMMAND` and, Gem Rush being the first game, `balance COMMAND`: balance/contract/compat.py):
check content and rules, play and trace one game, write a variant's box, measure the players,
check the invariants. Ranking the rooms by ablation and tuning a player are the toolkit's
`balance ablate` and `balance tune-player`, with Gem Rush's ablations and tuning declared in
game.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import typer

from balance import files
from balance.cli.common import fail
from balance.errors import InputError, Problem
from balance.games.gemrush.content import CONTENT_DIR, load_content
from balance.games.gemrush.game import GAME
from balance.games.gemrush.rules import load_profile, parse_overrides
from balance.games.gemrush.summary import content_summary, format_summary
from balance.games.gemrush.tables import compile_tables
from balance.outputs import Outputs
from balance.running.experiment import load_experiment


def register(app: typer.Typer) -> None:
    """Add the commands to `app` (balance/cli/app.py calls this)."""
    for command, name in ((validate, None), (rules, None), (play, None),
                          (content_, "content"), (strength_, "strength"), (check, None),
                          (train_player, "train-player")):
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
    # lazy: the engine brings numba; `balance --help` and `balance validate` need none of it
    # (0.4 s of every command's start)
    from balance.games.gemrush.play import play_traced, prepare
    from balance.games.gemrush.trace import format_game

    try:
        if map_ is not None:
            files.check_new(map_, "--map")
        names = [x.strip() for x in seats.split(",")] if seats else None
        _, given = _knob_file(knobs, names or [heuristic], "play it with --heuristic "
                              "{player} (or name it in --seats)")
        setup = prepare(edition, mode, players, heuristic, target=target, exhaust=exhaust,
                        rules=parse_overrides(set_), content=content, seats=names,
                        knobs={**given, **parse_overrides(knob, "--knob")},
                        rules_source="--set")
    except InputError as e:
        fail(e)
    setup = setup.seated_for(seed)  # the players in seat order, the first player in seat 1
    st, events = play_traced(setup, seed)
    typer.echo(format_game(setup, st, events))
    if map_ is not None:
        from balance.games.gemrush.mine_map import draw_mine  # lazy: matplotlib, for --map

        files.write_new(map_, draw_mine(setup, st), "--map")
        typer.echo(f"map written to {map_}")


def _knob_file(path: Path | None, seated: list[str] | None, hint: str = ""
               ) -> tuple[str, dict[str, float]]:
    """(the player the knob file at `path` names, else greedy; its values, checked for the
    seats `seated`, or for that player's own seat when None): its problems name the file
    (heuristics/knob_file.py). No file: ("greedy", {})."""
    if path is None:
        return "greedy", {}
    # lazy: the players' roster brings numpy
    from balance.games.gemrush.game import GAME
    from heuristics.knob_file import check_for_seats, read_knob_file

    kf = read_knob_file(path)
    whose = kf.player or "greedy"
    return whose, check_for_seats(kf, GAME.player_registry(), seated or [whose], GAME.title,
                                  hint)


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
        if exp.game.name != GAME.name:  # only Gem Rush's variants are played from a box
            raise InputError([Problem(exp.file, "[experiment]", "game", f"is {exp.game.title}: "
                                      f"`balance content` writes the box of a {GAME.title} "
                                      "variant, and this game's variants have none")])
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


def _budgets(option: str, text: str) -> list[int]:
    """A list of search budgets, e.g. "64,256"; one message naming `option` if it is not."""
    try:
        bs = [int(b) for b in text.split(",") if b.strip()]
    except ValueError:
        bs = []
    if not bs or any(not 2 <= b <= 4096 for b in bs):
        raise InputError([Problem(option, "", "", f"must be budgets from 2 to 4096, e.g. "
                                  f"64,256, got {text!r}")])
    return bs


def strength_(edition: str = typer.Option(None, help="rule profile: 1e or 2e (default: the "
                                          "content's, else 2e)"),
              players: int = typer.Option(4, min=1, max=16, help="number of players"),
              games: int = typer.Option(4000, min=2, max=1_000_000, help="games of random "
                                        "and greedy"),
              reference_games: int = typer.Option(30, min=2, max=100_000, help="games of the "
                                                  "reference at each budget"),
              budgets: str = typer.Option("64,256", help="the reference's budgets, e.g. "
                                          "64,256"),
              clairvoyant: str = typer.Option(None, help="also play the clairvoyant bound "
                                              "(the search seeing the deck and room tiles) "
                                              "at these budgets, e.g. 64; at a budget the "
                                              "reference plays too, what the hidden "
                                              "information costs follows the table"),
              search: str = typer.Option(None, help="the reference searches only these "
                                         "decisions, greedy takes the rest: some of steps, "
                                         "action, payments, discards, rotations, skills"),
              turns: str = typer.Option(None, help="the reference searches only these turns "
                                        "(FIRST-LAST, from 1, e.g. 18-25), greedy plays the "
                                        "rest"),
              knobs: Path = typer.Option(None, help="also play the player the file names "
                                         "(greedy, learned, or the reference: its "
                                         "--reference-games) with these knobs (a file from "
                                         "`balance tune-player` or `balance train-player`)"),
              seed: int = typer.Option(7000, min=0, max=2**62, help="first game seed"),
              content: str = typer.Option(None, help="content file (default: the "
                                          "edition's)"),
              set_: list[str] = typer.Option([], "--set", help="override a rule: "
                                             "NAME=VALUE"),
              ) -> None:
    """How strong are the players? Random, greedy, learned, the search-based reference and
    (with --clairvoyant) the cheating bound on the same Crisis games to exhaustion: scores,
    paired differences, win rates, speed."""
    # lazy: rich's bars, and the strength table's statistics (scipy)
    from rich.progress import Progress

    # lazy: the engine and the players load only when the command runs
    from balance.games.gemrush.engine.forward import FORWARD
    from balance.games.gemrush.play import prepare
    from balance.games.gemrush.strength import strength
    from heuristics.search import searched_mask

    try:
        bs = _budgets("--budgets", budgets)
        sees = None if clairvoyant is None else _budgets("--clairvoyant", clairvoyant)
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
        whose, given = _knob_file(knobs, None)
        prepare(edition, "crisis", players, whose, exhaust=True, rules=overrides,
                content=content, knobs=given, rules_source="--set")
        with Progress(transient=True) as bar:
            def progress(label: str, n: int):
                task = bar.add_task(label, total=n)
                return lambda k: bar.advance(task, k)

            table = strength(edition, players, games, reference_games, bs, seed,
                             given if knobs is not None else None,
                             say=lambda m: None, rules=overrides, content=content,
                             searched=kinds, turns=span, progress=progress,
                             clairvoyant=sees, knobs_player=whose)
    except InputError as e:
        fail(e)
    typer.echo(table)


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



def train_player(out: Path = typer.Option(..., help="the knob file to write (a new file): "
                                          "the learned player's weights"),
                 players: int = typer.Option(4, min=1, max=16, help="number of players"),
                 games: int = typer.Option(600, min=8, max=1_000_000, help="games whose "
                                           "rotations are labelled"),
                 rollouts: int = typer.Option(64, min=4, max=4096, help="rollouts an option "
                                              "(half fit the weights, half check them)"),
                 rollout: str = typer.Option("greedy", help="the rollout player: greedy, or "
                                             "learned (expert iteration: with --knobs, the "
                                             "weights of the last round)"),
                 knobs: Path = typer.Option(None, help="the rollout player's knobs (a file "
                                            "from this command or `balance tune-player`)"),
                 decisions: str = typer.Option("rotations,steps", help="the decisions to "
                                               "learn: rotations, steps or both; a kind left "
                                               "out plays greedy's choices"),
                 holdout: float = typer.Option(0.25, min=0.05, max=0.5, help="share of the "
                                               "games kept out of the fit, to check it"),
                 alpha: float = typer.Option(1.0, min=0.0, max=1e6, help="the ridge "
                                             "penalty"),
                 seed: int = typer.Option(100_000, min=0, max=2**62, help="first game seed "
                                          "(strength measures from 7000: keep them apart)"),
                 jobs: int = typer.Option(2, min=1, max=256, help="worker processes"),
                 labels: Path = typer.Option(None, help="also write the labels (every "
                                             "option's features and rollout values) to this "
                                             "new .npz file"),
                 edition: str = typer.Option(None, help="rule profile: 1e or 2e (default: the "
                                             "content's, else 2e)"),
                 content: str = typer.Option(None, help="content file (default: the "
                                             "edition's): train on your box"),
                 set_: list[str] = typer.Option([], "--set", help="override a rule: "
                                                "NAME=VALUE"),
                 ) -> None:
    """Learn the `learned` player's weights from the search's rollouts: label every tile
    rotation and movement step of Crisis games with each option's rollout value, fit a
    linear model per kind, check it on held-out games, and write the weights as a knob
    file."""
    # lazy: rich's bars, the engine, the players and scikit-learn load only when it runs
    from rich.progress import Progress

    # lazy: the engine, the players and scikit-learn, as above
    from balance.games.gemrush import train
    from balance.games.gemrush.play import prepare

    outputs = Outputs({"--out": out, "--labels": labels})
    try:
        if rollout not in train.ROLLOUT_PLAYERS:
            raise InputError([Problem("--rollout", "", "", f"must be one of "
                                      f"{', '.join(train.ROLLOUT_PLAYERS)}, got {rollout!r}")])
        _, given = _knob_file(knobs, [rollout], "give --rollout {player}")
        outputs.claim()  # held before the training: a second command to them is refused now
        overrides = parse_overrides(set_)
        names = [k.strip() for k in decisions.split(",") if k.strip()]
        known = [k.name for k in train.KINDS]
        if not names or any(k not in known for k in names):
            raise InputError([Problem("--decisions", "", "", f"must name some of "
                                      f"{', '.join(known)}, got {decisions!r}")])
        kinds = [k for k in train.KINDS if k.name in names]
        prepare(edition, "crisis", players, rollout, exhaust=True, rules=overrides,
                content=content, knobs=given, rules_source="--set")
        with Progress(transient=True) as bar:
            task = bar.add_task(f"labelling {', '.join(names)} ({rollouts} rollouts an "
                                "option)", total=games)
            labs = train.label_parallel(edition, players, np.arange(seed, seed + games),
                                        rollouts, rollout, jobs, overrides, content, given,
                                        tuple(k.name for k in kinds),
                                        progress=lambda k: bar.advance(task, k))
        for k in kinds:
            if labs[k.name].decisions < 20:
                raise InputError([Problem("--games", "", "", f"{games} games gave "
                                          f"{labs[k.name].decisions} {k.name} with a choice: "
                                          "too few to fit; play more games")])
        fits = {k.name: (train.fit(labs[k.name], k.features, holdout=holdout, alpha=alpha),
                         labs[k.name]) for k in kinds}
        how = (f"balance train-player --players {players} --games {games} --rollouts "
               f"{rollouts} --rollout {rollout} --decisions {','.join(names)} --seed {seed}"
               + (f" --edition {edition}" if edition else "")
               + (f" --content {content}" if content else "")
               + "".join(f" --set {x}" for x in set_)
               + (f" --knobs {knobs}" if knobs else ""))
        own = {}
        if rollout == "learned":  # a round of expert iteration: its rollout player's weights
            # lazy: the learned player's module, as the engine above
            from heuristics.gemrush.learned import shipped_weights

            own = shipped_weights()
            own.update({k: float(v) for k, v in given.items() if k in own})
        text = train.knob_text(fits, how, rollouts, rollout, own)
        if labels is not None:
            outputs.write("--labels", train.label_bytes(labs))
        outputs.write("--out", text.encode("utf-8"))
    except InputError as e:
        fail(e)
    finally:
        outputs.release()
    typer.echo(text, nl=False)  # the weights, whether or not their file could be written
    if outputs.problems:
        fail(InputError(outputs.problems))
    typer.echo(f"wrote {out}" + (f" and {labels}" if labels is not None else ""))
