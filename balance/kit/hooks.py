"""The runner's hooks for a game on the kit (Game.variants, play, check, bench, tuning), one
implementation for every such game: KitGame's methods call these."""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from balance.contract.experiment import (
    KNOB_PREFIX,
    VARIANT_KEYS,
    BenchCase,
    ExperimentInput,
    GameVariants,
    VariantSpec,
)
from balance.contract.game import resolve
from balance.contract.tuning import TuneRequest, Tuning
from balance.errors import InputError, Problem
from balance.kit.play import Setup, play, prepare
from balance.kit.state import SEAT_WON
from balance.kit.table import games_table, seats_table


class ThreadCache:
    """Prepared variants kept per worker thread, since each thread owns its states; past
    `size`, the one least recently used goes."""

    def __init__(self, size: int = 16):
        self.size = size
        self._local = threading.local()

    def get(self, key, build):
        """The value kept for `key`, or build() kept for it."""
        cache = getattr(self._local, "values", None)
        if cache is None:
            cache = self._local.values = OrderedDict()
        if key not in cache:
            cache[key] = build()
            while len(cache) > self.size:
                cache.popitem(last=False)
        cache.move_to_end(key)
        return cache[key]


_setups = ThreadCache()


def seated(variant) -> tuple[str, ...]:
    """The player of each seat of a variant: an ablation's, the file's seats, or one player
    in every seat."""
    return tuple(variant.settings.get("seated") or variant.seats
                 or (variant.heuristic,) * variant.players)


def _rules(kit, variant) -> dict:
    """A variant's rule values: the kit's variants keep them all in its settings; a game's
    own variants hook may give only the overrides it plays (VariantSpec.rules)."""
    return variant.settings.get(kit.settings_key) or variant.rules or {}


def _prepared(kit, variant) -> Setup:
    """The variant's Setup, cached per thread: each thread owns its state."""
    key = (kit.ref, repr(sorted(variant.describe().items())))
    return _setups.get(key, lambda: prepare(kit, _rules(kit, variant), seated(variant),
                                            variant.knobs, "knobs"))


def prepare_variant(kit, variant) -> None:
    """The variant built as play_shard builds it: its players seated, their knobs set, its
    rules compiled (Game.prepare). InputError for what it cannot play."""
    prepare(kit, _rules(kit, variant), seated(variant), variant.knobs, "knobs")


def own_columns(kit, records, setup: Setup) -> dict:
    if not kit.values:
        return {}
    return resolve(kit.values)(records, setup)


def play_shard(kit, job) -> dict:
    """One shard: the games table, and the seats table of a game with tallies."""
    setup = _prepared(kit, job.variant)
    seeds = job.seeds()
    records = play(setup, seeds, streams=job.streams)
    v, start = job.variant, job.shard.start
    out = {"games": games_table(job.game, job.experiment, v, start, seeds, records,
                                setup.seats, job.source_hash, own_columns(kit, records, setup))}
    if kit.tallies:
        out["seats"] = seats_table(job.game, kit.tallies, job.experiment, v, start, records)
    return out


def check_games(kit, variant, seeds) -> list[tuple[int, str]]:
    """The variant's games with checks on: each that broke one, and what it broke."""
    setup = prepare(kit, _rules(kit, variant), seated(variant), variant.knobs,
                    "knobs")
    records = play(setup, seeds, check=True)
    names = kit.violation_names()
    return [(int(s), names[int(v)]) for s, v in zip(seeds, records.violation, strict=True)
            if v]


def bench_case(kit) -> BenchCase:
    head = kit.bench_experiment

    def player():
        names = (head.get("heuristic", kit.game.default_player),) * head.get("players", 2)
        setup = prepare(kit, {}, names)
        return lambda seeds: play(setup, np.asarray(seeds))

    return BenchCase(kit.bench_title, dict(head), player)


def _counts(counts: tuple[int, ...]) -> str:
    lo, hi = min(counts), max(counts)
    if counts == tuple(range(lo, hi + 1)):
        return str(lo) if lo == hi else f"{lo} to {hi}"
    return ", ".join(map(str, counts))


def variants(kit, inp: ExperimentInput) -> GameVariants:
    """Every grid key is a rule, a player or a knob; the one key of the game's own is
    `ablate` (Game.ablations: "random", each seat's player made the random player in turn).
    A player count the game does not declare is one message per variant."""
    game = inp.game
    grid = dict(inp.grid)
    for key in inp.game_keys:
        inp.unknown_key(key)
        del grid[key]
    ablate = inp.choice("ablate", dict(game.ablations))
    if ablate is not None and grid:
        inp.probs.add("[experiment]", "ablate", "makes the variants itself (one per seat): "
                      "it takes no [grid]")
    inp.probs.raise_if_any()
    if ablate is not None:  # variant 0 the file's seats, then one per seat made random
        n = inp.cells({})[0].players
        grid = {"ablate": ["none", *(f"seat{i}" for i in range(1, (n or 0) + 1))]}
    specs = []
    for cell in inp.cells(grid):
        if cell.players not in game.player_counts:
            inp.probs.add(cell.at, "players", f"{game.title} takes "
                          f"{_counts(game.player_counts)} players, got "
                          f"{cell.values['players']!r}")
            continue
        swept = {key: cell.values[key] for key in cell.grid
                 if key not in VARIANT_KEYS and not key.startswith(KNOB_PREFIX)}
        settings = {kit.settings_key: {**kit.defaults, **cell.rules}}
        if cell.values.get("ablate", "none") != "none":
            names = list(cell.seats or (cell.heuristic,) * cell.players)
            names[int(cell.values["ablate"][4:]) - 1] = "random"
            settings["seated"] = names
        specs.append(VariantSpec(cell, settings, swept))
    inp.probs.raise_if_any()
    return GameVariants({}, grid, specs)


def tuning(kit, ask: TuneRequest) -> Tuning:
    """A candidate's win rate against default players of its own kind (by default at 2
    players), seated in turn in every seat on the same seeds, so that the first seat's head
    start favours no knob."""
    game, roster = kit.game, kit.roster()
    if ask.player not in roster:
        raise InputError([Problem("tune-player", "", "player", f"unknown player "
                                  f"{ask.player!r} (known: {', '.join(roster)})")])
    player = roster[ask.player]
    counts = ask.players or (2,)
    if any(n < 2 for n in counts):
        raise InputError([Problem("--players", "", "", "a game against default players "
                                  "needs at least 2 players")])
    rules = {**kit.defaults, **game.rules_from_text(ask.rules)}

    def win_rate(n: int, values: dict | None, seeds) -> np.ndarray:
        setup = prepare(kit, rules, (player.name,) * n)
        mine = roster.weights(player.name, setup.tables, values or {}, "knobs")
        default = setup.players.w.copy()
        seeds = np.asarray(seeds)
        won = np.zeros(len(seeds))
        for seat in range(n):
            setup.players.w[:] = default
            setup.players.w[seat, : len(mine)] = mine
            records = play(setup, seeds)
            won += (records.winner == seat) & (records.outcome == SEAT_WON)
        return won / n

    return Tuning(player.knobs, win_rate, f"win rate against default {player.name}s",
                  tuple(counts), kit.describe.format(**rules))
