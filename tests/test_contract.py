"""The contract, tested over the registry (as OpenSpiel runs its API test over every registered
game): every game, the toy dice race among them (tests/games/dice/), declares itself whole,
writes the tables it declares, plays the same games compiled and with NUMBA_DISABLE_JIT=1, has
rule goldens, and runs a two-variant experiment that resumes after a loss and plays nothing
new when run again. A game's own cases use its bench case (Game.bench) with few games."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from balance.bench.speed import bench_case
from balance.contract import registry
from balance.contract.game import CORE_COLUMNS, arrow_type, resolve
from balance.errors import InputError
from balance.running import store
from balance.running.experiment import parse_experiment
from balance.running.runner import run_experiment, simulate_tables
from balance.running.store import layout
from balance.running.store.manifest import manifest_text

ROOT = Path(__file__).resolve().parents[1]
GAMES = registry.names()


def _experiment(game, games: int, two: bool = False, shard_size: int = 4):
    """The game's bench case as an experiment; with `two`, two variants: two player counts,
    or for a game of one count, the two lowest values of its first whole-number setting."""
    head = {**bench_case(game).experiment, "name": f"contract-{game.name.replace('_', '-')}",
            "description": "the contract's", "game": game.name, "games": games, "seed": 5,
            "shard_size": shard_size}
    data = {"experiment": head}
    if two:
        many = [n for n in game.player_counts if n >= 2]
        if len(many) >= 2:
            head.pop("players", None)
            data["grid"] = {"players": many[:2]}
        else:
            s = next(s for s in game.settings if s.kind is int and s.lo is not None)
            data["grid"] = {s.name: [int(s.lo), int(s.lo) + 1]}
    return parse_experiment(data, "", "contract.toml")


@pytest.mark.parametrize("name", GAMES)
def test_the_declaration_is_whole(name):
    game = registry.get(name)
    assert game.name.isidentifier() and game.title and game.version and game.player_counts
    assert list(game.games_table.columns)[:len(CORE_COLUMNS)] == list(CORE_COLUMNS)
    for table in game.tables:
        for kind in table.columns.values():
            arrow_type(kind)  # every declared type is one Arrow knows
        assert set(table.seat_columns) | set(table.widened) <= set(table.columns)
    for measure in game.measures:
        assert measure.column in game.games_table.columns, measure.name
    players = game.player_registry()
    assert game.default_player in players and game.end_reasons
    for name in players:  # a mapping of the game's players
        assert players[name].name == name and isinstance(players[name].knobs, tuple)
    for hook in ("variants", "play", "check", "bench", *(("prepare",) if game.prepare else ())):
        assert callable(game.hook(hook)), hook
    assert game.rule_key(game.settings[0].name)


@pytest.mark.parametrize("name", GAMES)
def test_each_declared_ablation_parses(name):
    """`balance ablate --how HOW` adds `ablate = "<how>"` to a file of the game's: variant 0
    the unchanged game, then one per part taken out, swept as `ablate`."""
    game = registry.get(name)
    if game.ablations:
        assert "ablate" in game.experiment_keys
        assert len({how for how, _ in game.ablations}) == len(game.ablations)
    for how, what in game.ablations:
        assert how.isidentifier() and what, how
        base = _experiment(game, 4)
        exp = parse_experiment({"experiment": {**base.data["experiment"], "ablate": how}}, "",
                               "contract.toml")
        assert len(exp.variants) >= 2 and "ablate" in exp.grid, how
        assert len({v.swept["ablate"] for v in exp.variants}) == len(exp.variants), how
        if game.ablation_notes:
            notes = game.hook("ablation_notes")(base)
            assert isinstance(notes, list) and all(isinstance(x, str) for x in notes)


@pytest.mark.parametrize("name", GAMES)
def test_every_variant_is_seated_and_built_before_a_game_is_played(name):
    """Whatever the game: a seats list that is not one player per seat, and a knob value a
    seated player cannot take (beyond its range, not a number), are refused by the parser,
    in [experiment] and [knobs] as in [grid]: the engine would read past a seat's arrays,
    or a run folder would hold the variants before the first that cannot play."""
    game = registry.get(name)
    head = {k: v for k, v in _experiment(game, 4).data["experiment"].items()
            if k not in ("heuristic", "seats")}
    n, players = head["players"], game.player_registry()
    one_more = [game.default_player] * (n + 1)
    for data in ({"experiment": {**head, "seats": one_more}},
                 {"experiment": head, "grid": {"seats": [one_more[:n], one_more]}}):
        with pytest.raises(InputError, match=f"'seats': names {n + 1} players for {n} seats"):
            parse_experiment(data, "", "contract.toml")
    player = next(p for p in players.values() if p.knobs)
    knob = player.knobs[0]
    for value in (knob.hi + 1, knob.lo - 1, math.nan, math.inf):
        one = {**head, "heuristic": player.name}
        for data in ({"experiment": one, "knobs": {knob.name: value}},
                     {"experiment": one, "grid": {f"knob.{knob.name}": [knob.default, value]}}):
            with pytest.raises(InputError, match=f"'(knob\\.)?{knob.name}'"):
                parse_experiment(data, "", "contract.toml")


@pytest.mark.parametrize("name", GAMES)
def test_a_declared_tuning_resolves_and_its_options_are_the_games_own(name, cli):
    game = registry.get(name)
    if game.tuning:
        assert callable(game.hook("tuning"))
    names = [o.name for o in game.tune_options]
    assert len(set(names)) == len(names)
    assert not game.tune_options or game.tuning, "options no tuning reads"
    r = cli("tune-player", "--help")  # the options join the command's, none in place of one
    assert r.exit_code == 0
    assert all(f"--{option}" in r.stdout for option in names)


@pytest.mark.parametrize("name", GAMES)
def test_the_tables_are_the_declared_ones(name):
    game = registry.get(name)
    exp = _experiment(game, 6, two=True)
    tables = simulate_tables(exp)
    assert list(tables) == [t.name for t in game.tables]
    for table in game.tables:
        got = tables[table.name].schema
        want = pl.from_arrow(table.arrow_schema().empty_table()).schema
        for column, kind in want.items():
            assert got.get(column) == kind, (table.name, column, got.get(column))
        # Beyond the declared columns, the games table has one per swept key, no more.
        assert set(got) - set(want) <= set(exp.swept), table.name
    games = tables[game.games_table.name]
    assert games.height == 12 and set(games["end_reason"]) <= set(game.end_reasons)
    assert (games["engine_version"] == game.version).all()


_PLAY = """\
import sys, json
from balance.contract import registry
from tests.games.dice.game import GAME
registry.register(GAME)
from tests.games.pig.game import GAME
registry.register(GAME)
from tests.games.cards.game import GAME
registry.register(GAME)
from tests.test_contract import _experiment
from balance.running.runner import simulate_tables
tables = simulate_tables(_experiment(registry.get(sys.argv[1]), 3))
for name, t in tables.items():
    t.write_parquet(f"{sys.argv[2]}/{name}.parquet")
"""


def _played(name: str, folder: Path, **env) -> dict:
    folder.mkdir()
    subprocess.run([sys.executable, "-c", _PLAY, name, str(folder)], check=True, cwd=ROOT,
                   env={**os.environ, "PYTHONPATH": str(ROOT), **env})
    return {p.stem: pl.read_parquet(p) for p in folder.glob("*.parquet")}


def _played_here(name: str, folder: Path) -> dict:
    """_PLAY's tables, compiled, played in this process (its engines loaded already, where a
    process of its own loaded them again), through the same parquet files."""
    folder.mkdir()
    for table, frame in simulate_tables(_experiment(registry.get(name), 3)).items():
        frame.write_parquet(folder / f"{table}.parquet")
    return {p.stem: pl.read_parquet(p) for p in folder.glob("*.parquet")}


@pytest.mark.parametrize("name", GAMES)
def test_compiled_and_interpreted_games_are_identical(name, tmp_path):
    compiled = _played_here(name, tmp_path / "jit")
    plain = _played(name, tmp_path / "nojit", NUMBA_DISABLE_JIT="1")
    assert sorted(compiled) == sorted(t.name for t in registry.get(name).tables)
    for table, frame in compiled.items():
        assert frame.equals(plain[table]), table


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_rule_goldens(name):
    """A game on the kit declares its goldens, compared by tests/test_kit.py; another game
    has its own test of them."""
    game = registry.get(name)
    if game.kit:
        kit = resolve(game.kit)
        assert kit.goldens and all((kit.golden_folder() / f"{g.name}.txt").is_file()
                                   for g in kit.goldens)
        return
    folder = ROOT / "tests" / "games" / name
    assert list((folder / "golden").glob("*.txt")), f"{folder}/golden holds no playthrough"
    assert (folder / "test_golden.py").is_file()


@pytest.mark.parametrize("name", GAMES)
def test_a_two_variant_run_resumes_after_a_loss_and_plays_nothing_new_again(name, tmp_path):
    game = registry.get(name)
    exp = _experiment(game, 10, two=True)
    assert len(exp.variants) == 2
    whole = run_experiment(exp, tmp_path / "whole", jobs=1)
    assert (whole.shards, whole.played) == (6, 6)
    run = whole.run_dir
    # What a killed run leaves: one shard's games file lost (its other tables written), and
    # a temporary file.
    lost = sorted((run / layout.GAMES).glob("*.parquet"))[4]
    lost.unlink()
    (run / layout.GAMES / f".{lost.name}.tmp1").write_bytes(b"half")
    before = store.read_run(tmp_path / "whole" / exp.name, lazy_tables=False)
    assert before.missing == [lost.stem]
    resumed = run_experiment(exp, tmp_path / "whole", jobs=1)
    assert (resumed.skipped, resumed.played) == (5, 1)
    again = run_experiment(exp, tmp_path / "whole", jobs=1)
    assert again.played == 0 and again.skipped == 6
    fresh = run_experiment(exp, tmp_path / "fresh", jobs=1).run_dir
    a, b = store.read_run(run), store.read_run(fresh)
    assert a.complete and a.games.equals(b.games)
    for table in a.tables:
        assert a.tables[table].equals(b.tables[table]), table
    assert json.loads(manifest_text(a.manifest))["game"] == name


@pytest.mark.parametrize("name", GAMES)
def test_games_played_in_check_mode_break_no_invariant(name):
    game = registry.get(name)
    exp = _experiment(game, 1, two=True)
    seeds = np.arange(100, 100 + (40 if name == "dice" else 12))
    for variant in exp.variants:
        assert game.hook("check")(variant, seeds) == [], variant.label


@pytest.mark.parametrize("name", GAMES)
def test_a_two_variant_run_reports_and_compares(name, tmp_path, cli):
    game = registry.get(name)
    exp = _experiment(game, 30, two=True, shard_size=10)
    run = run_experiment(exp, tmp_path, jobs=1).run_dir
    r = cli("report", run, "--out", tmp_path / "report")
    assert r.exit_code == 0, r.output
    page = (tmp_path / "report" / "report.html").read_text()
    assert game.title in page and exp.name in page
    r = cli("compare", run, "--json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    assert rows, "a comparison of two variants says something"


def test_balance_games_lists_every_game(cli):
    r = cli("games")
    assert r.exit_code == 0, r.output
    for game in registry.games():
        assert f"{game.name}: {game.title}, version {game.version}" in r.stdout
        assert ", ".join(f"{m.name} ({m.kind})" for m in game.measures) in r.stdout
        assert ", ".join(game.player_registry()) in r.stdout
    assert "dice: Dice race, version 1, 1-6 players" in r.stdout
    assert "  tables:   games (23 columns), seats (6 columns)" in r.stdout
