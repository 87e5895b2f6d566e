"""What a game gives the toolkit, and all the toolkit knows of it.

A game is declared once, as a `Game` in its own folder (`balance/games/<name>/game.py`), and
listed by name in the registry (balance/contract/registry.py). The runner, the store, the
experiment parser, the statistics, the report framework and the CLI reach the game only
through this declaration, so none of them names anything of a particular game.

Hooks are named "module:attribute" and imported when first used: `balance games` lists every
game without compiling any engine, and the neutral packages import no game module (the layers
are written down in pyproject.toml, [tool.importlinter]).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

# Columns every game's games table starts with, so that neutral report sections (win share
# by seat against the fair share, length, margin, scores by player count and by player, the
# comparison) serve every game. Seats count from 1.
CORE_COLUMNS: dict[str, str] = {
    "experiment": "string",  # the experiment's name
    "variant": "int32",  # the variant's index in the experiment
    "game": "int64",  # the game's index; game i of every variant is dealt from one seed
    "seed": "int64",  # the game's seed (balance/running/seeds.py)
    "players": "int16",  # the number of seats
    "heuristic": "string",  # the player of every seat, or the seats' players joined by ","
    "went_first": "int8",  # which listed player sat in seat 1 (from 1)
    "won": "bool",  # a cooperative game: the team won (null where there is no team)
    "winner": "int8",  # a competitive game: the winning seat (null in a cooperative game)
    "score": "int16",  # the team's score, or the winner's
    "scores": "list<int16>",  # each seat's score, seat 1 first
    "turns": "int16",  # the game's length, in the game's own unit (its Game.length_unit)
    "end_reason": "string",  # why the game ended, one of Game.end_reasons
    "engine_version": "string",  # Game.version of the code that played it
    "source_hash": "string",  # the hash of the compiled code that played it
}


@dataclass(frozen=True)
class Setting:
    """A rule setting a designer may change in `[rules]`, `[grid]` or `--set`: its type and
    range, so that a bad value is one message naming the key and the range."""

    name: str
    kind: type  # int, float, bool or str
    help: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Measure:
    """A quantity a headline, `--precision`, `balance tune --goal` and `balance compare` can
    aggregate over a variant's games: a rate (a share of games, with a Wilson interval) or a
    mean (with a t interval). `column` names a games-table column; for a rate its values are
    booleans, nulls not counted."""

    name: str
    title: str
    kind: str  # "rate" or "mean"
    column: str
    help: str = ""

    def __post_init__(self):
        if self.kind not in ("rate", "mean"):
            raise ValueError(f"measure {self.name}: kind must be 'rate' or 'mean'")


@dataclass(frozen=True)
class Table:
    """An output table: one Parquet file per shard in `<run>/<name>/`. `columns` maps each
    column to its Arrow type as pyarrow prints it ("int16", "string", "list<item: int16>"
    is written "list<int16>"); the contract tests check every shard against it."""

    name: str
    columns: dict[str, str]
    help: str = ""
    # Columns whose type may widen between versions (read back as the widest).
    widened: tuple[str, ...] = ()
    # Columns holding a seat, counted from 1.
    seat_columns: tuple[str, ...] = ()


def resolve(ref: str) -> Any:
    """"package.module:attribute" -> the attribute, imported now."""
    module, _, attr = ref.partition(":")
    obj = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class Game:
    """A game, as the toolkit sees it. See the guide, developers/adding-a-game.md."""

    name: str  # the key in experiment files: `[experiment] game = "<name>"`
    title: str
    version: str  # bumped by hand whenever the same seeds would play differently
    player_counts: tuple[int, ...]
    cooperative: bool | None  # True: the team wins together; False: one seat wins; None: both
    settings: tuple[Setting, ...]  # the rule settings, with types and ranges
    tables: tuple[Table, ...]  # the first is the games table, starting with CORE_COLUMNS
    measures: tuple[Measure, ...]
    end_reasons: tuple[str, ...]
    length_unit: str = "turns"
    # Keys of `[experiment]` (and of `[grid]`) the game reads itself, beyond the neutral ones.
    experiment_keys: tuple[str, ...] = ()
    # Root modules of the compiled code: the code hash follows their imports.
    kernel_modules: tuple[str, ...] = ()
    # Hooks, "module:attribute", imported on first use.
    variants: str = ""  # (ExperimentInput) -> list[VariantSpec]; the game's keys of a file
    play: str = ""  # (Job) -> dict[table name, pyarrow.Table]: one shard of games
    players: str = ""  # -> dict[name, Player]: the game's player registry
    # -> reports.game_report.GameReport (an instance): the game's report, its analysis, sections,
    # verdicts, headline and comparison; "" for the neutral report of the core columns.
    report: str = ""
    # (variant: dict, as the manifest records it) -> list[balance.stats.measures.Quantity]:
    # the variant's headline quantities; "" for balance/stats/measures.py's own (each seat's
    # share of the wins, or the team's win rate, and the measures over plain columns).
    quantities: str = ""
    forward: str = ""  # the forward model a search player uses; "" when there is none
    commands: str = ""  # (typer.Typer) -> None: the game's own CLI commands
    extras: dict = field(default_factory=dict)  # anything else a game's own code reads

    @property
    def games_table(self) -> Table:
        return self.tables[0]

    def table(self, name: str) -> Table:
        for t in self.tables:
            if t.name == name:
                return t
        raise KeyError(f"game {self.name} has no table {name!r}")

    def measure(self, name: str) -> Measure:
        for m in self.measures:
            if m.name == name:
                return m
        raise KeyError(f"game {self.name} has no measure {name!r}")

    def hook(self, which: str) -> Any:
        ref = getattr(self, which)
        if not ref:
            raise LookupError(f"game {self.name} declares no {which}")
        return resolve(ref)
