"""What the experiment parser and a game's `variants` hook hand each other, and the Variant the
runner plays.

The parser (balance/running/experiment.py) reads the neutral keys of an experiment file (name,
description, game, games, seed, shard_size, players, heuristic/seats, [knobs], [grid], [rules],
the settings' types and ranges) and gives the rest to the game as an `ExperimentInput`. The
game's `variants` hook (Game.variants) reads its own keys and returns `GameVariants`: its
experiment-wide settings, the grid as it plays it, and for each cell of that grid (`cells`) a
`VariantSpec` with the game's own fields. The parser then makes one `Variant` of each.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from balance.errors import Problems
from balance.textfile import short

CONTROL = "control"  # the label of the unchanged variant beside a grid
KNOB_PREFIX = "knob."  # a player's knob swept in [grid]: knob.<name>
# Fixed in [experiment] or swept in [grid], whatever the game.
VARIANT_KEYS = ("players", "heuristic", "seats")
# What a report can take on a 2-core machine: it draws figures for every variant, about 0.4 s
# each (252 variants of 2 games: 97 s and 0.5 GB), so 500 take some 3 minutes. Shard names
# would allow 99,999.
MAX_VARIANTS = 500


@dataclass(frozen=True)
class Variant:
    """One cell of the grid, as the runner plays it and the manifest records it."""

    index: int
    label: str  # how the report and `balance compare` name it
    players: int
    heuristic: str  # the player of every seat, or the seats' players joined by commas
    rules: dict  # every rule override: [rules], then this variant's grid values
    swept: dict  # grid key -> this variant's value, as the games table stores it
    settings: dict  # the game's own fields, recorded in the manifest as they are
    seats: tuple | None = None  # a player for each seat, when they differ
    knobs: dict = field(default_factory=dict)  # players' knobs set by name
    control: bool = False  # the unchanged variant beside the grid (`control = true`)
    # A value of each swept key's type, for the control's nulls: one Arrow type per games-table
    # column in every shard.
    swept_like: dict = field(default_factory=dict)
    # What the game's play hook needs beyond `settings`, not recorded (a content file's text
    # the manifest names by its hash): workers get it by value.
    carry: dict = field(default_factory=dict)

    def describe(self) -> dict:
        """The variant as the run manifest records it."""
        return {"variant": self.index, "label": self.label, "swept": dict(self.swept),
                **({"control": True} if self.control else {}),
                "players": self.players, "heuristic": self.heuristic, "rules": dict(self.rules),
                **({"seats": list(self.seats)} if self.seats else {}),
                **({"knobs": dict(self.knobs)} if self.knobs else {}),
                **self.settings}


@dataclass(frozen=True)
class Cell:
    """One cell of the grid, with what the neutral keys make of it."""

    index: int
    values: dict  # [experiment]'s variant keys, then this cell's grid values
    grid: dict  # this cell's grid values alone, in the grid's key order (empty: a control)
    control: bool
    label: str  # "players=2, hand_limit=4", CONTROL, ...
    players: int | None  # None where the value is not a whole number (already a problem)
    heuristic: str  # the player of every seat (the first seat's, with `seats`)
    seats: tuple | None
    knobs: dict  # the knobs of this cell's players
    rules: dict  # [rules], then this cell's rule keys

    @property
    def at(self) -> str:
        """The cell as a problem names it: "variant 3 (players=2)"."""
        return f"variant {self.index} ({self.label})"


@dataclass
class VariantSpec:
    """The game's part of one variant (see Variant)."""

    cell: Cell
    settings: dict
    swept: dict  # the values of the game's own grid keys and rule keys, as the table stores them
    rules: dict | None = None  # the overrides it plays, when the game changes the cell's
    carry: dict = field(default_factory=dict)
    heuristic: str | None = None  # the seats' players as the game names them, when it does


@dataclass
class GameVariants:
    """What a game's `variants` hook returns."""

    settings: dict  # experiment-wide (Experiment.settings), e.g. which rules and box
    grid: dict  # the grid as played: the file's keys, then any the game sweeps itself
    variants: list[VariantSpec]  # one per cell that compiled (the others are problems)
    inputs: dict = field(default_factory=dict)  # data files the games depend on -> sha256


@dataclass
class ExperimentInput:
    """An experiment file after its neutral keys were read, for the game's `variants` hook.
    Problems go to `probs`, so that one run of the command shows them all."""

    game: object  # balance.contract.game.Game
    file: str  # the file as named
    base_dir: Path  # its folder: relative paths in it are relative to this
    data: dict  # the parsed file
    probs: Problems
    fixed: dict  # VARIANT_KEYS given in [experiment]
    rules: dict  # [rules], less the values already refused
    knobs: dict  # [knobs]
    grid: dict  # [grid], less the keys already refused; the game's keys as written
    game_keys: list[str] = field(default_factory=list)  # grid keys the neutral parser left
    used_knobs: set = field(default_factory=set)  # knobs some cell's players have

    @property
    def head(self) -> dict:
        head = self.data.get("experiment")
        return head if isinstance(head, dict) else {}

    def choice(self, key: str, choices) -> str | None:
        """`[experiment] key`, one of `choices` (a word in quotes); None when it is absent,
        or refused (the problem added): a list or a table is no word, nor any other text."""
        value = self.head.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or value not in choices:
            self.probs.add("[experiment]", key, f"must be one of {', '.join(choices)}, in "
                           f"quotes, got {short(repr(value))}")
            return None
        return value

    def values_ok(self, key: str, values, lists_ok: bool = False) -> bool:
        """The checks every [grid] key gets: a non-empty list of single values (of lists too,
        with `lists_ok`), none twice. False (drop the key) when it is not such a list."""
        if not isinstance(values, list) or not values:
            self.probs.add("[grid]", key, f"must be a non-empty list of values, got {values!r}")
            return False
        bad = [v for v in values if isinstance(v, dict) or (isinstance(v, list) and not lists_ok)]
        if bad:
            self.probs.add("[grid]", key, f"values must be single values, got {bad[0]!r}")
            return False
        seen = set()
        for v in values:
            # By type too: 1 and true are two values; a seats list may hold anything.
            mark = json.dumps([type(v).__name__, v], default=repr)
            if mark in seen:
                self.probs.add("[grid]", key, f"lists {v!r} twice")
            seen.add(mark)
        return True

    def unknown_key(self, key: str, forms: tuple[str, ...] = ()) -> None:
        """A [grid] key that is nobody's: the message lists every key the grid takes, the
        game's own `forms` (the keys it reads itself) among them."""
        allowed = ", ".join([*VARIANT_KEYS, KNOB_PREFIX + "<name>", *forms])
        self.probs.add("[grid]", key, f"unknown key (allowed: {allowed}, any rule field: "
                       f"{self.game.rule_keys_text()})")

    def cells(self, grid: dict, control: bool = False, beside: str = "the only variant",
              game_key: Callable[[str], bool] = lambda k: False) -> list[Cell]:
        """The cross product of `grid` (the last key fastest), after a control cell when
        `control`; `beside` labels the one variant of an empty grid. A key is a rule override
        when it is a setting or a setting form and `game_key` does not claim it. Raises
        InputError when there would be more than MAX_VARIANTS."""
        n = 1
        for values in grid.values():
            n *= len(values)
        n += control
        if n > MAX_VARIANTS:
            self.probs.add("[grid]", "", f"makes {n:,} variants, more than {MAX_VARIANTS:,}: a "
                           "report draws figures for each, and one of more would take many "
                           "minutes; split the grid into several experiments")
            self.probs.raise_if_any()
        keys = list(grid)
        combos = [(CONTROL, {})] if control else []
        combos += [(None, dict(zip(keys, combo, strict=True)))
                   for combo in itertools.product(*grid.values())]
        return [self._cell(i, label, values, keys, beside, game_key)
                for i, (label, values) in enumerate(combos)]

    def _cell(self, index: int, control: str | None, grid: dict, keys: list, beside: str,
              game_key: Callable[[str], bool]) -> Cell:
        values = {**self.fixed, **grid}
        rules = dict(self.rules)
        knobs = dict(self.knobs)
        for k in grid:
            if k.startswith(KNOB_PREFIX):
                knobs[k[len(KNOB_PREFIX):]] = values[k]
            elif self.game.rule_key(k) and not game_key(k):
                rules[k] = values[k]
        players = values.get("players")
        heuristic = values.get("heuristic", self.game.default_player)
        seats = tuple(values["seats"]) if "seats" in values else None
        # A knob reaches the cells whose players have it (a sweep of players may set one
        # player's knob); one that no cell's player has is refused by the parser.
        registry = self.game.player_registry()
        mine = {k.name for p in (seats or (heuristic,)) if p in registry
                for k in registry[p].knobs}
        self.used_knobs.update(k for k in knobs if k in mine)
        # A list (a seats value) as "reference,racer", as the games table's column has it.
        label = control or ", ".join(
            f"{k}={','.join(map(str, values[k])) if isinstance(values[k], list) else values[k]}"
            for k in keys) or beside
        return Cell(index, values, grid, control is not None, label,
                    players if isinstance(players, int) and not isinstance(players, bool)
                    else None, seats[0] if seats else heuristic, seats,
                    {k: v for k, v in knobs.items() if k in mine}, rules)


@dataclass(frozen=True)
class BenchCase:
    """The case `balance bench` times for a game (its `bench` hook returns one)."""

    title: str  # what it plays, in a few words: rules, players, the player
    experiment: dict  # an [experiment] table of one variant, without name, games and seed
    # () -> play(seeds): a function that plays one game per seed of that variant in this
    # process, as fast as the engine goes (no tables); compiling it is part of the call.
    player: Callable[[], Callable]
