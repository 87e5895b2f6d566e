"""A dice race, the toy game that proves the contract (balance/contract/game.py) without any
real game: its declaration, the hooks the runner, the experiment parser and `balance
tune-player` call, its two players and its rules as settings. tests/conftest.py registers it
for the whole suite."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from balance.contract.experiment import (
    KNOB_PREFIX,
    VARIANT_KEYS,
    BenchCase,
    ExperimentInput,
    GameVariants,
    VariantSpec,
)
from balance.contract.game import CORE_COLUMNS, Game, Measure, Setting, Table
from balance.contract.tuning import TuneRequest, Tuning
from balance.errors import InputError, Problem
from balance.kernels.rng import seed_states
from heuristics.knobs import Knob, knob_values
from tests.games.dice import kernel as k

VERSION = "1"
SETTINGS = (Setting("target", int, "points that win the race", 5, 500),
            Setting("faces", int, "faces of the die", 2, 20),
            Setting("max_turns", int, "turns after which the game stops undecided", 1, 10_000))
DEFAULTS = {"target": 30, "faces": 6, "max_turns": 200}


@dataclass(frozen=True)
class Player:
    name: str
    policy: int
    doc: str
    knobs: tuple[Knob, ...] = ()
    remembers: str = "nothing"  # as `balance players` says it


PLAYERS = {"random": Player("random", k.RANDOM, "rolls again on a coin flip"),
           "stopper": Player("stopper", k.STOPPER, "banks once the turn's total reaches "
                             "stop_at", (Knob("stop_at", 15, 2, 100, "the total it banks at",
                                              integer=True),))}


# What `balance ablate --how` takes out of a race (`[experiment] ablate = "random"`).
ABLATIONS = (("random", "each seat's player swapped for the random player, one seat at a time"),)


def variants(inp: ExperimentInput) -> GameVariants:
    """The dice race reads one key of its own, `ablate`: every grid key is a rule, a player
    or a knob."""
    grid = dict(inp.grid)
    for key in inp.game_keys:
        inp.unknown_key(key)
        del grid[key]
    ablate = inp.choice("ablate", dict(ABLATIONS))
    if ablate is not None and grid:
        inp.probs.add("[experiment]", "ablate", "makes the variants itself (one per seat): "
                      "it takes no [grid]")
    inp.probs.raise_if_any()
    if ablate is not None:  # variant 0 the file's seats, then one per seat made random
        n = inp.cells({})[0].players
        grid = {"ablate": ["none", *(f"seat{i}" for i in range(1, (n or 0) + 1))]}
    specs = []
    for cell in inp.cells(grid):
        if cell.players not in GAME.player_counts:
            inp.probs.add(cell.at, "players", f"the race takes 1 to 6 players, got "
                          f"{cell.values['players']!r}")
            continue
        rules = {**DEFAULTS, **cell.rules}
        swept = {key: cell.values[key] for key in cell.grid
                 if key not in VARIANT_KEYS and not key.startswith(KNOB_PREFIX)}
        settings = {"race": rules}
        if cell.values.get("ablate", "none") != "none":
            seated = list(cell.seats or (cell.heuristic,) * cell.players)
            seated[int(cell.values["ablate"][4:]) - 1] = "random"
            settings["seated"] = seated
        specs.append(VariantSpec(cell, settings, swept))
    inp.probs.raise_if_any()
    return GameVariants({}, grid, specs)


def seated(names: tuple, knobs: dict) -> tuple[np.ndarray, np.ndarray]:
    """(policy, stop_at) of each seat; InputError for a knob value out of its range."""
    pol = np.array([PLAYERS[name].policy for name in names], np.int64)
    stop_at = np.array([knob_values(PLAYERS[name].knobs, knobs if PLAYERS[name].knobs else {},
                                    "knobs", name).get("stop_at", 0) for name in names],
                       np.int64)
    return pol, stop_at


def prepare(v) -> None:
    """The variant's seats as `play` makes them (the Game.prepare hook)."""
    seated(_names(v), v.knobs)


def _names(v) -> tuple:
    return tuple(v.settings.get("seated") or v.seats or (v.heuristic,) * v.players)


def play_seeds(rules: dict, names: tuple, knobs: dict, seeds, events: int = 0):
    """(out, scores, busts, events) of one game per seed, seat i played by names[i]."""
    pol, stop_at = seated(names, knobs)
    n, p = len(seeds), len(names)
    out = np.zeros((n, k.OUT_N), np.int64)
    scores, busts = np.zeros((n, p), np.int64), np.zeros((n, p), np.int64)
    ev = np.zeros((events, k.EV_N), np.int64)
    k.play_games_nb(seed_states(seeds), rules["target"], rules["faces"], rules["max_turns"],
                    pol, stop_at, scores, busts, out, ev)
    return out, scores, busts, ev


def play(job) -> dict:
    """One shard: the games table and the seats table."""
    v, seeds = job.variant, job.seeds()
    names = _names(v)
    out, scores, busts, _ = play_seeds(v.settings["race"], names, v.knobs, seeds)
    n, won = len(seeds), out[:, k.OUT_WINNER]
    games = {"experiment": [job.experiment] * n, "variant": np.full(n, v.index, np.int32),
             "game": np.arange(job.shard.start, job.shard.stop, dtype=np.int64),
             "seed": seeds.astype(np.int64), "players": np.full(n, v.players, np.int16),
             "heuristic": [",".join(names) if len(set(names)) > 1 else names[0]] * n,
             "went_first": np.ones(n, np.int8),
             "won": pa.nulls(n, pa.bool_()),
             "winner": np.where(won >= 0, won + 1, -1).astype(np.int8),
             "score": scores.max(axis=1).astype(np.int16),
             "scores": pa.array(list(scores.astype(np.int16)), pa.list_(pa.int16())),
             "turns": out[:, k.OUT_TURNS].astype(np.int16),
             "end_reason": [k.END_REASONS[e] for e in out[:, k.OUT_END]],
             "engine_version": [VERSION] * n, "source_hash": [job.source_hash] * n,
             "first_won": won == 0, "busts": busts.sum(axis=1).astype(np.int16)}
    schema = GAMES.arrow_schema()
    table = pa.table({c: games[c] if isinstance(games[c], pa.Array)
                      else pa.array(games[c], schema.field(c).type) for c in GAMES.columns})
    for key, value in v.swept.items():  # a swept rule, knob or seats list: a column of its own
        if key not in GAMES.columns:
            kind = pa.float64() if key.startswith(KNOB_PREFIX) else \
                pa.string() if key in ("seats", "ablate") else pa.int32()
            table = table.append_column(key, pa.array([value] * n, kind))
    seat = np.tile(np.arange(1, v.players + 1, dtype=np.int8), n)
    seats = pa.table({"experiment": [job.experiment] * (n * v.players),
                      "variant": np.full(n * v.players, v.index, np.int32),
                      "game": np.repeat(games["game"], v.players), "seat": seat,
                      "score": scores.ravel().astype(np.int16),
                      "busts": busts.ravel().astype(np.int16)}, schema=SEATS.arrow_schema())
    return {"games": table, "seats": seats}


def check(v, seeds) -> list[tuple[int, str]]:
    """The race's invariants, per game: a winner banked at least the target and no one else
    did; a game without one ran out of turns; no seat banked more than it could have."""
    rules = v.settings["race"]
    names = _names(v)
    out, scores, _, _ = play_seeds(rules, names, v.knobs, seeds)
    bad = []
    for seed, o, s in zip(seeds, out, scores, strict=True):
        w = o[k.OUT_WINNER]
        reached = [i for i in range(len(s)) if s[i] >= rules["target"]]
        if w >= 0 and reached != [w]:
            bad.append((int(seed), f"winner {w + 1} but seats {reached} reached the target"))
        elif w < 0 and (reached or o[k.OUT_TURNS] != rules["max_turns"]):
            bad.append((int(seed), "no winner before the turn cap"))
        elif (s > rules["target"] + rules["faces"] * rules["target"]).any():
            bad.append((int(seed), "a seat banked more than a turn can roll"))
    return bad


def tuning(ask: TuneRequest) -> Tuning:
    """The race's tuning hook: a candidate's win rate against default players of its own kind
    (by default at 2 players), seated in turn in every seat on the same seeds, so that seat
    1's head start favours no knob."""
    player = PLAYERS.get(ask.player)
    if player is None:
        raise InputError([Problem("tune-player", "", "player", f"unknown player "
                                  f"{ask.player!r} (known: {', '.join(PLAYERS)})")])
    counts = ask.players or (2,)
    if any(n < 2 for n in counts):
        raise InputError([Problem("--players", "", "", "a race against default players "
                                  "needs at least 2 players")])
    rules = {**DEFAULTS, **GAME.rules_from_text(ask.rules)}

    def win_rate(n: int, values: dict | None, seeds) -> np.ndarray:
        mine = knob_values(player.knobs, values or {}, "knobs", player.name).get("stop_at", 0)
        default = knob_values(player.knobs, {}, "knobs", player.name).get("stop_at", 0)
        seeds = np.asarray(seeds)
        won = np.zeros(len(seeds))
        for seat in range(n):
            stop_at = np.full(n, default, np.int64)
            stop_at[seat] = mine
            out = np.zeros((len(seeds), k.OUT_N), np.int64)
            k.play_games_nb(seed_states(seeds), rules["target"], rules["faces"],
                            rules["max_turns"], np.full(n, player.policy, np.int64), stop_at,
                            np.zeros((len(seeds), n), np.int64),
                            np.zeros((len(seeds), n), np.int64), out,
                            np.zeros((0, k.EV_N), np.int64))
            won += out[:, k.OUT_WINNER] == seat
        return won / n

    return Tuning(player.knobs, win_rate, f"win rate against default {player.name}s",
                  tuple(counts), f"to {rules['target']} points on a {rules['faces']}-faced die")


def bench() -> BenchCase:
    return BenchCase("2 stoppers to 30 points", {"players": 2, "heuristic": "stopper"},
                     lambda: lambda seeds: play_seeds(DEFAULTS, ("stopper",) * 2, {},
                                                      np.asarray(seeds)))


GAMES = Table("games", {**CORE_COLUMNS, "first_won": "bool", "busts": "int16"},
              "one row per race", seat_columns=("winner",))
SEATS = Table("seats", {"experiment": "string", "variant": "int32", "game": "int64",
                        "seat": "int8", "score": "int16", "busts": "int16"},
              "one row per seat of a race", seat_columns=("seat",))
GAME = Game(
    name="dice", title="Dice race", version=VERSION, player_counts=tuple(range(1, 7)),
    cooperative=False, settings=SETTINGS, tables=(GAMES, SEATS),
    measures=(Measure("first", "Seat 1's wins", "rate", "first_won"),
              Measure("score", "Winning score", "mean", "score"),
              Measure("turns", "Length", "mean", "turns")),
    # The cap stops a race without a winner: undecided, not a loss for every seat.
    end_reasons=k.END_REASONS, undecided_ends=("cap",), default_player="stopper",
    experiment_keys=("ablate",),
    kernel_modules=("tests.games.dice.kernel",),
    variants="tests.games.dice.game:variants", prepare="tests.games.dice.game:prepare",
    play="tests.games.dice.game:play",
    check="tests.games.dice.game:check",
    players="tests.games.dice.game:PLAYERS", bench="tests.games.dice.game:bench",
    ablations=ABLATIONS, tuning="tests.games.dice.game:tuning")
