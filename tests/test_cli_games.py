"""The command line serves every game: a game's own commands under `balance <game>`, the
first game's also at the top level (balance/contract/compat.py), listed apart as that game's,
never in place of a toolkit command; `balance ablate`,
`balance players` and `balance tune-player` for any game, through its declaration (the dice
race, tests/games/dice/, is the second game here)."""

from __future__ import annotations

import dataclasses

import pytest
import typer
import typer.main

from balance.cli.app import app
from balance.contract import compat, registry
from balance.contract.game import Option
from balance.contract.tuning import TuneRequest
from balance.running.seeds import game_seeds
from tests.games.dice.game import GAME as DICE

TOOLKIT = ("tune", "run", "bench", "report", "compare", "games", "ablate", "players",
           "tune-player")
RACE = """\
[experiment]
name = "race"
description = "three stoppers"
game = "{game}"
games = 40
seed = 3
players = 3
heuristic = "stopper"
shard_size = 20
"""


def roll(faces: int = typer.Option(6, help="faces")) -> None:
    """Roll a die: a command of the test's own game."""
    typer.echo(f"rolled a {faces}-faced die")


def players_of_its_own() -> None:
    """A game's command named as a toolkit command is."""
    typer.echo("the game's own players")


def add_commands(own: typer.Typer) -> None:
    """The commands hook of the game `commanding` registers."""
    own.command("roll")(roll)
    own.command("players")(players_of_its_own)


@pytest.fixture
def commanding():
    """A second game with commands of its own (the dice race's hooks, another name)."""
    game = registry.register(dataclasses.replace(
        DICE, name="dicecmd", commands="tests.test_cli_games:add_commands"))
    yield game
    registry.unregister(game.name)


def _balance():
    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    group.list_commands(ctx)  # the games' commands are added when first listed
    return group, ctx


def _own(game) -> dict:
    own = typer.Typer()
    game.hook("commands")(own)
    return typer.main.get_group(own).commands


def test_every_games_commands_resolve_under_its_group_and_none_shadows_the_toolkit(commanding):
    group, ctx = _balance()
    toolkit = {name: group.get_command(ctx, name) for name in TOOLKIT}
    assert all(toolkit.values())
    with_commands = [g for g in registry.games() if g.commands]
    assert {"gemrush", "dicecmd"} <= {g.name for g in with_commands}
    for game in with_commands:
        assert game.name not in TOOLKIT
        sub = group.get_command(ctx, game.name)
        assert sub is not None and hasattr(sub, "commands"), game.name
        for name in _own(game):
            command = sub.get_command(ctx, name)
            assert command is not None and command.name == name, (game.name, name)
            top = group.get_command(ctx, name)
            if name in TOOLKIT:  # the toolkit's, whatever the game calls its own
                assert top is toolkit[name] and top is not command, (game.name, name)
            elif game.name == compat.FIRST_GAME:
                assert top.callback is command.callback, name
                # listed apart, as the game's: never among the toolkit's commands
                assert top.rich_help_panel == (f"{game.title}'s commands, also `balance "
                                               f"{game.name} COMMAND`"), name
                assert command.rich_help_panel != top.rich_help_panel, name
            else:
                assert top is None or top.callback is not command.callback, (game.name, name)
    assert group.get_command(ctx, "roll") is None  # not the first game's: under its group


def test_a_games_commands_run_under_its_group(commanding, cli):
    r = cli("dicecmd", "roll", "--faces", 4)
    assert r.exit_code == 0 and "rolled a 4-faced die" in r.stdout
    r = cli("dicecmd", "players")
    assert r.exit_code == 0 and "the game's own players" in r.stdout
    r = cli("players")  # the toolkit's: Gem Rush's roster
    assert r.exit_code == 0 and "greedy" in r.stdout and "own players" not in r.stdout
    assert cli("roll").exit_code == 2
    r = cli("gemrush", "rules", "1e")  # the first game's, under its group and on top
    assert r.exit_code == 0 and r.stdout == cli("rules", "1e").stdout


def test_balance_help_lists_a_line_per_game(commanding, cli):
    r = cli("--help")
    assert r.exit_code == 0
    assert "Gem Rush's own commands" in r.stdout and "Dice race's own commands" in r.stdout
    lines = [x for x in r.stdout.splitlines() if "own commands" in x]
    # One line for each game with commands (dice itself has none: no line).
    with_commands = [g for g in registry.games() if g.commands]
    assert len(lines) == len(with_commands), lines


# --- balance ablate ------------------------------------------------------------------------


def _race(tmp_path, game: str = "dice"):
    path = tmp_path / "race.toml"
    path.write_text(RACE.format(game=game), encoding="utf-8")
    return path


def test_ablate_plays_the_games_first_ablation_by_default(tmp_path, cli):
    r = cli("ablate", _race(tmp_path), "--out", tmp_path / "runs", "--jobs", 1)
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("race-ablate-random: variant 0 unchanged and 3 ablated, each "
                               "seat's player swapped for the random player")
    assert (tmp_path / "runs" / "race-ablate-random" / "manifest.json").is_file()
    for seat in ("seat 1", "seat 2", "seat 3"):
        assert f"without {seat} " in r.stdout  # the headline compares each with variant 0


def test_ablate_refuses_an_unknown_how_and_a_game_without_ablations(tmp_path, cli):
    r = cli("ablate", _race(tmp_path), "--how", "out", "--out", tmp_path / "runs")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.stderr.splitlines() == [
        "error: --how: must be one of Dice race's ablations: random (each seat's player "
        "swapped for the random player, one seat at a time), got 'out'"]
    game = registry.register(dataclasses.replace(DICE, name="plain", ablations=()))
    try:
        r = cli("ablate", _race(tmp_path, "plain"), "--out", tmp_path / "runs")
    finally:
        registry.unregister(game.name)
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1
    assert "declares no ablation" in r.stderr
    assert not (tmp_path / "runs").exists()


# --- balance players -----------------------------------------------------------------------


def test_players_lists_a_games_roster_and_refuses_an_unknown_game(cli):
    r = cli("players", "--game", "dice")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[:3] == ["random: rolls again on a coin flip", "  memory: nothing",
                                         "  (no knobs)"]
    assert "stop_at           default 15  range 2 to 100 (whole number)" in r.stdout
    r = cli("players", "--game", "chess")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.splitlines() == [f"error: --game: no such game 'chess' (known: "
                                     f"{', '.join(registry.names())})"]


# --- balance tune-player -------------------------------------------------------------------


def test_tune_player_tunes_the_dice_races_stopper(tmp_path, cli):
    out = tmp_path / "k.toml"
    r = cli("tune-player", "--game", "dice", "--games", 20, "--evaluations", 4,
            "--set", "target=20", "--out", out)
    assert r.exit_code == 0, r.output
    assert r.stdout.lstrip().startswith("stopper, to 20 points on a 6-faced die, 2 players:")
    assert "win rate against default stoppers on 20 fresh games" in r.stdout
    text = out.read_text()
    assert "`balance tune-player stopper --game dice --set target=20 --players 2 " in text
    assert "stop_at = " in text


def test_the_dice_races_objective_is_its_win_rate_over_every_seat():
    t = DICE.hook("tuning")(TuneRequest("stopper", (2, 3), {}, {}))
    assert t.players == (2, 3) and [k.name for k in t.knobs] == ["stop_at"]
    seeds = game_seeds(1, 0, 300)
    for n in (2, 3):
        same = t.objective(n, None, seeds)  # the default against itself: seats even out
        assert abs(same.mean() - 1 / n) < 0.06 and set(same * n) <= set(range(n + 1))
    assert t.objective(2, {"stop_at": 2}, seeds).mean() < 0.3  # banking at 2 loses


@pytest.mark.parametrize("args, says", [
    (["--edition", "2e"], "error: --edition: is no option of Dice race's (--game dice); its "
                          "own: none"),
    (["--players", "1"], "at least 2 players"),
    (["--players", "7"], "--players: must be a player count of Dice race (1-6)"),
    (["--set", "faces=1"], "--set: field 'faces': must be between 2 and 20, got 1"),
    (["--set", "colour=red"], "--set: field 'colour': is no rule of Dice race"),
    (["--set", "faces"], "--set: field 'faces': expected NAME=VALUE"),
    (["random"], "has no knobs to tune"),
    (["rook"], "unknown player 'rook'"),
])
def test_tune_player_refuses_bad_input_for_another_game_in_one_message(tmp_path, cli, args,
                                                                        says):
    r = cli("tune-player", "--game", "dice", "--games", 20, "--out", tmp_path / "k.toml", *args)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert len(r.stderr.splitlines()) == 1 and says in r.stderr, r.stderr
    assert not (tmp_path / "k.toml").exists()


def test_tune_player_lists_the_games_own_options_with_their_game(cli):
    r = cli("tune-player", "--help")
    assert r.exit_code == 0
    for option in ("--edition", "--mode", "--content", "--game", "--players", "--set"):
        assert option in r.stdout
    assert "gemrush only" in r.stdout


def test_a_games_option_never_takes_the_place_of_the_commands_own():
    clash = registry.register(dataclasses.replace(
        DICE, name="clash", tune_options=(Option("set", "a rule set of its own"),)))
    try:
        group, ctx = _balance()
        command = group.get_command(ctx, "tune-player")
        with pytest.raises(ValueError, match="clash: --set is an option"):
            command.get_params(typer.Context(command))
    finally:
        registry.unregister(clash.name)
