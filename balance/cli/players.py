"""`balance players` and `balance tune-player`: a game's players, and the tuning of one
player's knobs. Every game's: the game says what its player is scored on (its `tuning` hook,
balance/contract/tuning.py) and which options of its own the command takes (tune_options).

As in balance/cli/app.py, a command imports what it needs when it runs (see its module doc).
"""

from __future__ import annotations

from pathlib import Path

import typer
import typer.main
from typer.core import TyperCommand

from balance.cli.common import counts_text, fail, pairs
from balance.contract import compat, registry
from balance.contract.tuning import MAX_SEED, TuneRequest
from balance.errors import InputError, Problem
from balance.outputs import Outputs

# Where TunePlayerCommand leaves the values of the games' own options for the command.
GAME_OPTIONS = "balance.game_options"


def players(game: str = typer.Option(compat.FIRST_GAME, help="the game whose players to list "
                                     "(`balance games` lists them)"),
            ) -> None:
    """List the players a seat can have, with their knobs (default and range)."""
    from heuristics.player import describe  # lazy: numpy, which `balance --help` spares

    try:
        chosen = registry.get(game, "--game", "", "")
    except InputError as e:
        fail(e)
    for line in describe(chosen.player_registry()):
        typer.echo(line)


class TunePlayerCommand(TyperCommand):
    """`balance tune-player`, with the options the games add to it (Game.tune_options) after
    its own: each says which game takes it. Their values go to ctx.meta, not to the
    command's function (typer passes a function only the parameters it declares)."""

    game_options: list | None = None

    def get_params(self, ctx):
        params = super().get_params(ctx)
        helped = params[-1:] if params and params[-1] is self.get_help_option(ctx) else []
        return params[:len(params) - len(helped)] + self.games_options() + helped

    def games_options(self) -> list:
        """One option per name a game declares, read from the registry once."""
        if self.game_options is None:
            declared: dict[str, list] = {}
            for game in registry.games():
                for option in game.tune_options:
                    declared.setdefault(option.name, []).append((game, option))
            own = {p.name for p in self.params} | {o for p in self.params for o in p.opts}
            made = []
            for name, takers in declared.items():
                if name.replace("-", "_") in own or f"--{name}" in own:
                    raise ValueError(f"game {takers[0][0].name}: --{name} is an option "
                                     f"`balance {self.name}` has already")
                made.append(_text_option(name, "; ".join(
                    f"{g.name} only: {o.help}" + (f" (default {o.default})" if o.default
                                                  else "") for g, o in takers)))
            self.game_options = made
        return self.game_options

    def invoke(self, ctx):
        ctx.meta[GAME_OPTIONS] = {o.name: ctx.params.pop(o.name, None)
                                  for o in self.games_options()}
        return super().invoke(ctx)


def _text_option(name: str, help: str):
    """A text option --NAME, default None, made by typer as the commands' own are: typer
    carries its own click, and an option made with another would not parse."""
    holder = typer.Typer()

    @holder.command()
    def option(value: str = typer.Option(None, f"--{name}", help=help)) -> None:
        """Never run: typer reads the option from this signature."""

    made = typer.main.get_command(holder).params[0]
    made.name = name.replace("-", "_")  # the key of ctx.params, as typer names an option
    return made


def _counts(text: str, game) -> tuple[int, ...]:
    """--players N or N,M,...: each one of the game's player counts."""
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        counts = []
    if not counts or any(n not in game.player_counts for n in counts):
        raise InputError([Problem("--players", "", "", f"must be a player count of "
                                  f"{game.title} ({counts_text(game.player_counts)}), or "
                                  f"several separated by commas, got {text!r}")])
    return tuple(dict.fromkeys(counts))


def _options(game, given: dict[str, str | None]) -> dict[str, str | None]:
    """Every option of the game's own by name, given or its default; an option another game
    declares, given here, is one message."""
    own = {o.name.replace("-", "_"): o for o in game.tune_options}
    wrong = [name for name, value in given.items() if value is not None and name not in own]
    if wrong:
        takes = ", ".join(f"--{o.name}" for o in game.tune_options) or "none"
        raise InputError([Problem(f"--{name.replace('_', '-')}", "", "", f"is no option of "
                                  f"{game.title}'s (--game {game.name}); its own: {takes}")
                          for name in wrong])
    return {o.name: given.get(key) if given.get(key) is not None else o.default
            for key, o in own.items()}


def tune_player(ctx: typer.Context,
                name: str = typer.Argument(None, help="the player to tune (default: the game's "
                                           "default player)"),
                game: str = typer.Option(compat.FIRST_GAME, help="the game whose player to "
                                         "tune (`balance games` lists them)"),
                players: str = typer.Option(None, help="number of players, or several "
                                            "(e.g. 2,3): then one set of knobs is tuned for "
                                            "the mean over them (default: the game's own)"),
                games: int = typer.Option(400, min=20, max=100_000,
                                          help="games per candidate and player count (common "
                                          "seeds)"),
                evaluations: int = typer.Option(120, min=4, max=10_000,
                                                help="candidates CMA-ES may try"),
                seed: int = typer.Option(0, min=0, max=MAX_SEED, help="seed of the games"),
                set_: list[str] = typer.Option([], "--set", help="override a rule: "
                                               "NAME=VALUE"),
                out: Path = typer.Option(None, help="write the tuned knobs here (TOML), for "
                                         "a game's `--knobs`"),
                ) -> None:
    """Tune a player's knobs for the game's rules (CMA-ES on common seeds), and check the
    result against the defaults on fresh games with a paired interval. The game says what
    a candidate is scored on."""
    # lazy: rich's bars, and the tuning's optimiser and statistics (scipy)
    from rich.progress import Progress

    # lazy: the tuner brings scipy and cma, which `balance --help` spares
    from balance.running.tune_player import knobs_text
    from balance.running.tune_player import tune_player as tune

    outputs = Outputs({"--out": out})
    try:
        chosen = registry.get(game, "--game", "", "")
        options = _options(chosen, ctx.meta.get(GAME_OPTIONS, {}))
        outputs.claim()  # held before the tuning: a second command to it is refused now
        if not chosen.tuning:
            raise InputError([Problem("--game", "", "", f"{chosen.title} declares no tuning: "
                                      "it cannot tune a player")])
        ask = TuneRequest(name or chosen.default_player,
                          _counts(players, chosen) if players is not None else (),
                          pairs(set_), options)
        with Progress(transient=True) as bar:
            task = bar.add_task(f"tuning {ask.player}", total=evaluations)
            tuning = chosen.hook("tuning")(ask)
            r = tune(ask.player, tuning.knobs, tuning.objective, tuning.name,
                     list(tuning.players), games, evaluations, seed,
                     progress=lambda n: bar.advance(task, n))
        shown = ",".join(map(str, r.players))
        if out is not None:
            how = (f"balance tune-player {r.player}"
                   + (f" --game {chosen.name}" if chosen.name != compat.FIRST_GAME else "")
                   + "".join(f" --{k} {v}" for k, v in options.items() if v is not None)
                   + "".join(f" --set {k}={v}" for k, v in ask.rules.items())
                   + f" --players {shown} --games {games} --evaluations {evaluations}")
            text = knobs_text(r, how)
            outputs.write("--out", text.encode("utf-8"))
    except InputError as e:
        fail(e)
    finally:
        outputs.release()
    counts = r.players
    typer.echo(f"{r.player}, {tuning.setting or chosen.title}, {shown} players: "
               f"{r.evaluations} candidates on {r.games} common games each"
               + (" at each count" if len(counts) > 1 else ""))
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
    if outputs.problems:  # the tuning is done: its knobs are never lost
        typer.echo(text, nl=False)
        fail(InputError(outputs.problems))
    if out is not None:
        typer.echo(f"knobs written to {out}"
                   + (f"; {tuning.use.format(out=out)}" if tuning.use else ""))
