"""What a game gives the toolkit, and all the toolkit knows of it.

A game is declared once, as a `Game` in its own folder (`balance/games/<name>/game.py`, or a
package of its own named under the entry-point group `balance.games`), where the registry finds
it (balance/contract/registry.py). The runner, the store, the
experiment parser, the statistics, the report framework and the CLI reach the game only
through this declaration, so none of them names anything of a particular game.

Hooks are named "module:attribute" and imported when first used: `balance games` lists every
game without compiling any engine, and the neutral packages import no game module (the layer
contracts, built from the games found: tests/layers.py).
"""

from __future__ import annotations

import importlib
import math
import re
from dataclasses import dataclass, field
from typing import Any

from balance.errors import Problems

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
    words: tuple[tuple[str, int], ...] = ()  # an int setting's values that have a name
    # What a designer calls it, as the rulebook does, read before a value in a report and in
    # the terminal ("board length 12"); "" for its name (balance/contract/labels.py).
    label: str = ""
    # Values that read as words of their own, whole ((False, "no extra die")): the value
    # is then not written beside the label.
    values: tuple[tuple[Any, str], ...] = ()

    def problem(self, value) -> str | None:
        """Why `value`, as a TOML file gives it, is no value of this setting; None if it is
        one. The experiment parser says it for `[rules]` and `[grid]`, before the game reads
        the value."""
        if self.kind is str:
            if not isinstance(value, str) or len(value) > 100:
                return f"must be a short text, got {value!r}"
            if self.choices and value not in self.choices:
                return f"must be one of {', '.join(self.choices)}, got {value!r}"
            return None
        if self.kind is bool:
            return None if isinstance(value, bool) else f"must be true or false, got {value!r}"
        if isinstance(value, str) and value.strip() in dict(self.words):
            return None
        whole = self.kind is int
        if isinstance(value, bool) or not isinstance(value, int if whole else int | float):
            named = "".join(f" or {w}" for w, _ in self.words)
            return f"must be {'a whole number' if whole else 'a number'}{named}, got {value!r}"
        lo = -math.inf if self.lo is None else self.lo
        hi = math.inf if self.hi is None else self.hi
        if not lo <= value <= hi:
            return f"must be between {_num(self.lo)} and {_num(self.hi)}, got {value}"
        return None


    def from_text(self, text: str):
        """A value typed on the command line (`--set NAME=VALUE`) as this setting's type,
        for `problem` to check: a whole number, a number, true or false, or the text itself
        (a named value, or what is no number: `problem` says so)."""
        text = text.strip()
        if self.kind is str or text in dict(self.words):
            return text
        if self.kind is bool:
            return {"true": True, "false": False}.get(text.lower(), text)
        try:
            return int(text)
        except ValueError:
            pass
        try:
            return float(text) if self.kind is float else text
        except ValueError:
            return text


def _num(x: float | None) -> str:
    return "any" if x is None else str(int(x)) if float(x).is_integer() else str(x)


@dataclass(frozen=True)
class Label:
    """The words of a key of an experiment file that is no setting, one the game reads
    itself (a rule profile, a way to play, the parts `ablate` takes out): as Setting's label
    and values, for balance/contract/labels.py."""

    key: str
    label: str
    values: tuple[tuple[Any, str], ...] = ()
    # "module:function", (value, variant as the manifest records it) -> its words, or None
    # for the label's: where the words hang on more than the value (how the run changed
    # the part it names, as the variant records).
    of_variant: str = ""


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
    # A rate: the games it is a share of, in words, as every table names them. The neutral
    # layer counts only decided games (Game.undecided_ends) whose column is not null, so a
    # column null in some decided games (an event that did not happen) names them here too.
    of: str = "decided games"
    # Where a game's value is more than its column's (a share of the games one seat won,
    # rounds from turns, a win at another goal than the variant's own): "module:function",
    # (games: polars DataFrame, variant: dict as the manifest records it, goal) -> a numpy
    # array of one float per game. `goal` has .at (what the goal's name adds, e.g. a seat)
    # and .text; a goal the variant cannot measure raises InputError naming "--goal".
    outcome: str = ""
    # What a mean counts, plural, as its sentences write a value of it ("cards", "moves");
    # "" where the title says it.
    unit: str = ""

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

    def arrow_schema(self):
        """The declared columns as a pyarrow schema."""
        import pyarrow as pa  # lazy: listing the games imports no Arrow

        return pa.schema([(name, arrow_type(kind)) for name, kind in self.columns.items()])


def arrow_type(kind: str):
    """A declared column type ("int16", "string", "list<int16>") as a pyarrow type."""
    import pyarrow as pa  # lazy: as Table.arrow_schema

    if kind.startswith("list<") and kind.endswith(">"):
        return pa.list_(arrow_type(kind[5:-1]))
    return pa.type_for_alias(kind)


@dataclass(frozen=True)
class Option:
    """An option a game adds to one of the toolkit's commands (`balance tune-player --NAME
    VALUE`): text, read by the game's own hook."""

    name: str  # as typed without its dashes; a lower-case word, hyphens allowed
    help: str
    default: str | None = None  # the value the hook gets when the option is not given

    def __post_init__(self):
        if not re.fullmatch(r"[a-z][a-z0-9-]*", self.name):
            raise ValueError(f"an option's name is a lower-case word, got {self.name!r}")


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
    # End reasons of a game stopped without a result (a turn cap): an undecided game. Every
    # rate is a share of the decided games; the undecided ones are counted and shown apart,
    # never folded into losses (balance/stats/measures.py).
    undecided_ends: tuple[str, ...] = ()
    # End reasons of a game stopped by a cap on its length that still has a result (the top
    # score wins at a round cap): with undecided_ends, the games that did not end by the rules
    # (the course measure completion, balance/stats/course.py).
    cap_ends: tuple[str, ...] = ()
    # Each end reason in the rulebook's words, as a sentence names it ("turn cap reached"):
    # (end reason, words) pairs; a reason given none reads as its name, underscores as
    # spaces (Game.end_word).
    end_words: tuple[tuple[str, str], ...] = ()
    # What the turns column counts, plural ("rounds", "turns"), and what a reader must know
    # of it beyond the word ("each side's turn counted"), for every table and sentence on
    # length; the score's unit, plural, for the winner's margin.
    length_unit: str = "turns"
    length_note: str = ""
    score_unit: str = "points"
    # Each seat's name where the rulebook gives the seats one (a side), seat 1 first, as the
    # reports and the terminal name them (Game.seat_name; "seat 2" where none is given); a
    # seat arrangement reads "Expert (North) vs Novice" (balance/contract/labels.py).
    seat_names: tuple[str, ...] = ()
    # The words of the keys the game reads itself (experiment_keys, `ablate`'s parts).
    labels: tuple[Label, ...] = ()
    default_player: str = "random"  # the player of every seat when a file names none
    # Keys of `[experiment]` (and of `[grid]`) the game reads itself, beyond the neutral ones.
    experiment_keys: tuple[str, ...] = ()
    # Tables of an experiment file the game reads itself, beyond experiment, rules, knobs, grid.
    experiment_tables: tuple[str, ...] = ()
    # Rule keys beyond the settings' own names (a per-seat value, a table's entry), each a
    # regular expression and how a message writes it: [rules] and [grid] accept them, and the
    # game checks their values.
    setting_forms: tuple[tuple[str, str], ...] = ()
    # Root modules of the code that plays the game: its kernels, its players (compiled or
    # Python) and what turns a variant into the kernels' input. The game's code hash, in its
    # runs' identity, covers them and every module they import (balance/kernels/sources.py).
    kernel_modules: tuple[str, ...] = ()
    # Hooks, "module:attribute", imported on first use.
    # (balance.contract.experiment.ExperimentInput) -> GameVariants: the game's keys of a file
    variants: str = ""
    # (Variant) -> None: the variant built as the play hook builds it (its players seated,
    # their knobs set, its rules compiled), InputError for what it cannot play. The parser
    # asks it of every variant before anything is written; "" where the variants hook builds
    # each variant itself already.
    prepare: str = ""
    play: str = ""  # (Job) -> dict[table name, pyarrow.Table]: one shard of games
    # (Variant, seeds) -> [(seed, what it broke)]: the games played with the game's invariant
    # checks on, each game that broke one (the contract tests ask every game for this)
    check: str = ""
    players: str = ""  # -> Roster (heuristics/player.py): the game's players by name
    # (name) -> (measure, at) or None: a `balance tune --goal` name that is not a measure's
    # (a named level of a measure, or one seat's: seat<k>)
    goals: str = ""
    bench: str = ""  # () -> balance.contract.experiment.BenchCase: what `balance bench` times
    # -> reports.page.game_report.GameReport (an instance): the game's report, its analysis,
    # sections, verdicts, headline and comparison; "" for the neutral report of the core
    # columns.
    report: str = ""
    # (variant: dict, as the manifest records it) -> list[balance.stats.measures.Quantity]:
    # the variant's headline quantities; "" for balance/stats/measures.py's own (each seat's
    # share of the wins, or the team's win rate, and the measures over plain columns).
    quantities: str = ""
    # (variant: dict, as the manifest records it) -> bool: one seat wins the variant's games
    # (else the team does). A game of both kinds (cooperative None) declares it; the others'
    # kind is `cooperative`. Never read from the games: a run whose games all stopped
    # undecided has no winner and is still a race.
    kind_of: str = ""
    # "module:attribute" of the game's KitGame (balance/kit/declare.py) when it is written on
    # the engine kit: the contract tests that watch the games play read its records.
    kit: str = ""
    # () -> balance.contract.probe.Probe: how the contract tests watch the game play (its
    # decisions, their options, the kinds picked, a pick not offered caught). The kit gives
    # every game on it one; a game with an engine of its own declares its own.
    probe: str = ""
    # Each seat's counts (of a colour, of a kind of card): columns of the table "seats", one
    # row per game and seat (game, seat from 1, then one column each), for neutral reports
    # and `balance compare` to read by name.
    tallies: tuple[str, ...] = ()
    # The rules' own opponent, not a seat (a rule-driven "Computer"), as the reports name it:
    # "the Computer". Its win is `won` false, `winner` null, in a game a seat wins otherwise;
    # the headline and the comparison give its share beside the seats'. "" for none.
    automa: str = ""
    # Where the rules choose who plays first (a roll-off), so seat 1 is not the first player:
    # the name of the game's rate measure of the first player's wins ("starter"). "" where
    # seat 1 always plays first and its share of the wins is the first player's.
    starter: str = ""
    # -> ForwardModel (balance/contract/forward.py), what a search player uses; "" for none
    forward: str = ""
    # (typer.Typer) -> None: the game's own CLI commands, reached as `balance <name> COMMAND`
    # (the first game's also as `balance COMMAND`, where no toolkit command has the name:
    # balance/contract/compat.py)
    commands: str = ""
    # What `balance ablate --how HOW` may take out of an experiment's game, in the order
    # --help lists them, the first the default: (how, what it takes out, in words). The
    # game's `variants` hook reads `[experiment] ablate = "<how>"` (so "ablate" is one of its
    # experiment_keys) and makes the unchanged game variant 0, then one variant per part
    # taken out, its grid key `ablate`, that part's name.
    ablations: tuple[tuple[str, str], ...] = ()
    # (base: balance.running.experiment.Experiment, the file without `ablate`) -> list[str]:
    # what `balance ablate` says before it plays (parts the experiment takes out already,
    # say); "" for nothing.
    ablation_notes: str = ""
    # (balance.contract.tuning.TuneRequest) -> balance.contract.tuning.Tuning: what
    # `balance tune-player` scores a player's candidate knobs on; "" when it cannot tune.
    tuning: str = ""
    # Options of `balance tune-player` that only this game takes (its rule profile, say); given
    # for another game, the command refuses them. Their values reach `tuning` as text.
    tune_options: tuple[Option, ...] = ()
    # The game's own words (its concepts: a rule profile, a piece, a card kind), lower case:
    # no neutral module may write one, whole or inside a longer word (tests/test_neutral.py
    # and tests/test_neutral_reports.py read them here).
    words: tuple[str, ...] = ()
    # The modules of the game's package (relative to it) that hold its rules and engine: with
    # its declaration, game.py, they import no player but through the generated dispatch (the
    # layer contracts, tests/layers.py, which fail on one that does not exist).
    rule_modules: tuple[str, ...] = ("engine", "rules")
    # (**arguments) -> balance.running.experiment.Experiment: the one-variant experiment
    # `balance.simulate(game, **arguments)` plays, for a game that takes arguments of its
    # own there; "" for the toolkit's, whose arguments are [experiment] keys.
    simulation: str = ""
    extras: dict = field(default_factory=dict)  # anything else a game's own code reads

    def __post_init__(self):
        if not self.tables or self.tables[0].name != "games":
            raise ValueError(f"game {self.name}: the first table is the games table, named "
                             "'games'")
        if self.cooperative is None and not self.kind_of:
            raise ValueError(f"game {self.name}: a game of both kinds (cooperative None) "
                             "declares kind_of, which of its variants a seat wins")
        odd = [w for w in self.words if not w.isalpha() or w != w.lower()]
        if odd:
            raise ValueError(f"game {self.name}: words are lower-case letters, got {odd}")
        if self.tallies:
            seats = next((t for t in self.tables if t.name == "seats"), None)
            missing = [c for c in ("game", "seat", *self.tallies)
                       if seats is None or c not in seats.columns]
            if missing:
                raise ValueError(f"game {self.name}: tallies need a table 'seats' with the "
                                 f"columns {missing}")
        unknown = [e for e, _ in self.end_words if e not in self.end_reasons]
        if unknown:
            raise ValueError(f"game {self.name}: end_words name {unknown}, not among its "
                             "end_reasons")
        unknown = [e for e in (*self.undecided_ends, *self.cap_ends)
                   if e not in self.end_reasons]
        if unknown:
            raise ValueError(f"game {self.name}: undecided_ends or cap_ends {unknown} are not "
                             "among its end_reasons")
        if self.starter and not any(m.name == self.starter and m.kind == "rate"
                                    for m in self.measures):
            raise ValueError(f"game {self.name}: starter {self.starter!r} is not one of its "
                             "rate measures")

    @property
    def games_table(self) -> Table:
        return self.tables[0]

    def table(self, name: str) -> Table:
        for t in self.tables:
            if t.name == name:
                return t
        raise KeyError(f"game {self.name} has no table {name!r}")

    def competitive(self, variant: dict) -> bool:
        """Whether one seat wins the games of `variant` (as the manifest records it), by the
        declaration: `cooperative`, or the `kind_of` hook of a game of both kinds."""
        if self.cooperative is not None:
            return not self.cooperative
        return bool(self.hook("kind_of")(variant))

    def end_word(self, reason: str) -> str:
        """End reason `reason` in the rulebook's words (end_words), else its name with
        underscores as spaces: "turn cap reached", "turn cap"."""
        return dict(self.end_words).get(reason) or reason.replace("_", " ")

    def seat_name(self, seat: int) -> str:
        """Seat `seat` (from 1) as the rulebook names it, else "seat <seat>"."""
        return self.seat_names[seat - 1] if 0 < seat <= len(self.seat_names) else \
            f"seat {seat}"

    def tally_word(self, name: str) -> str:
        """A tally as a sentence names it: "runs won" for the column `runs_won`."""
        return name.replace("_", " ")

    def measure(self, name: str) -> Measure:
        for m in self.measures:
            if m.name == name:
                return m
        raise KeyError(f"game {self.name} has no measure {name!r}")

    def player_registry(self):
        """The game's players by name: its Roster (heuristics/player.py), a mapping."""
        return self.hook("players")

    def setting(self, key: str) -> Setting | None:
        return next((s for s in self.settings if s.name == key), None)

    def label_of(self, key: str) -> Setting | Label | None:
        """The words declared for a key of an experiment file: its setting's, or the game's
        own Label; None where none are."""
        return self.setting(key) or next((x for x in self.labels if x.key == key), None)

    def setting_form(self, key: str) -> bool:
        """A rule key written in one of the game's setting_forms (not a setting's own name)."""
        return any(re.fullmatch(pattern, key) for pattern, _ in self.setting_forms)

    def rule_key(self, key: str) -> bool:
        """A name [rules] and [grid] may set: a setting, or one of its setting_forms."""
        return self.setting(key) is not None or self.setting_form(key)

    def rule_keys_text(self) -> str:
        """The rule keys as a message lists them."""
        return ", ".join([*(s.name for s in self.settings),
                          *(shown for _, shown in self.setting_forms)])

    def rules_from_text(self, pairs: dict[str, str], source: str = "--set") -> dict:
        """`--set NAME=VALUE` pairs as rule values: a setting's value read as its type and
        checked against its range, a setting form's kept as text for the game to read. An
        unknown name or a bad value is one message each (InputError)."""
        probs = Problems(source)
        out = {}
        for key, text in pairs.items():
            s = self.setting(key)
            if s is None and not self.setting_form(key):
                probs.add("", key, f"is no rule of {self.title} (known: "
                          f"{self.rule_keys_text()})")
                continue
            value = text if s is None else s.from_text(text)
            wrong = None if s is None else s.problem(value)
            if wrong:
                probs.add("", key, wrong)
            out[key] = value
        probs.raise_if_any()
        return out

    def hook(self, which: str) -> Any:
        ref = getattr(self, which)
        if not ref:
            raise LookupError(f"game {self.name} declares no {which}")
        return resolve(ref)
