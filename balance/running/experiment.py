"""Experiment files: a TOML declaration of a batch of games, parsed into variants.

```toml
[experiment]
name = "first-player"          # names the run folder: runs/<name>/
description = "..."
game = "<game>"                # optional: the game (`balance games` lists them); absent, the
                               # first game's (balance/contract/compat.py)
heuristic = "<player>"         # optional: the player of every seat (or seats = [...])
games = 100000                 # per variant
seed = 1
players = 4                    # fixed here, or swept in [grid]
shard_size = 5000              # optional: games per shard file
baseline = 0                   # optional: the variant `balance compare` compares with
ideal_length = [20, 40]        # optional: the designer's ideal length, in the game's unit
# ... and the game's own keys (Game.experiment_keys)

[rules]                        # optional: the game's settings, for every variant
hand_limit = 5

[knobs]                        # optional: players' knobs, NAME = number

[grid]                         # optional: each key a list; the variants are the cross product
players = [1, 2, 3]
"knob.draw_value" = [0.5, 1.0]
```

This module reads the neutral keys, checks the rule settings against the game's declared
types and ranges, and hands the rest to the game's `variants` hook (balance/contract/
experiment.py), which returns each variant's own settings. The variants are numbered in the
order of the cross product, with the grid keys in the order they are written and the last key
varying fastest. Everything is checked, and every variant is compiled, before any game is
played; all problems are reported at once.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from balance.contract import compat, registry
from balance.contract.experiment import (
    KNOB_PREFIX,
    VARIANT_KEYS,
    ExperimentInput,
    GameVariants,
    Variant,
)
from balance.contract.game import Game
from balance.errors import InputError, Problem, Problems
from balance.textfile import parse_toml, read_text, short
from heuristics.knobs import knob_values

REPO = Path(__file__).resolve().parents[2]
EXPERIMENT_DIRS = (Path("experiments"), REPO / "experiments")
DEFAULT_SHARD_SIZE = 5000
MAX_SHARD_SIZE = 1_000_000
MAX_SEED = 2**63 - 1
MAX_GAMES = 10**11
MAX_FILE_NAME = 255  # bytes in one name of a path, on Linux and macOS file systems
# An experiment's name names its run folder; a game's command may add to it (an ablation's
# "-ablate-plain"), so it stays well within a file name.
MAX_NAME = 100
# The runner plans every shard up front and checks each finished one on resume: a few hundred
# thousand are quick, a hundred million would not fit in memory.
MAX_SHARDS = 500_000

TABLES = ("experiment", "rules", "knobs", "grid")
KEYS = ("name", "description", "game", "heuristic", "seats", "games", "seed", "shard_size",
        "players", "baseline", "ideal_length")
# A run folder's name: lowercase letters, digits and '-'.
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


def experiment_dirs() -> list[Path]:
    """Where a bare experiment name is looked for: experiments/ of the current folder and of
    the project, and each game's folder inside them (experiments/<game>/)."""
    out = []
    for d in EXPERIMENT_DIRS:
        out.append(d)
        if d.is_dir():
            out.extend(sorted(q for q in d.iterdir() if q.is_dir()))
    return out


@dataclass(frozen=True)
class Experiment:
    name: str
    description: str
    file: str  # the path as given
    text: str  # the file's content
    game: Game
    games: int  # per variant
    seed: int
    shard_size: int
    rules: dict
    grid: dict  # key -> list of values, in file order, then the keys the game sweeps itself
    variants: tuple[Variant, ...]
    settings: dict = field(default_factory=dict)  # the game's experiment-wide settings
    inputs: dict = field(default_factory=dict)  # data files the games depend on -> sha256
    data: dict = field(default_factory=dict)  # the parsed file
    ideal_length: tuple[int, int] | None = None  # [experiment] ideal_length (ideal_length())

    @property
    def hash(self) -> str:
        """The file's text, for the record: a comment edit changes it."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @property
    def identity(self) -> str:
        """What the games depend on: the parsed file, so that comments, whitespace, key order
        and the prose description are not part of it, nor the game count (a rerun may add
        games), nor the ideal length (a reading of the games, not a rule of them). The grid
        keeps its key order, which numbers the variants. A file's
        shard_size is part of it, as runs have always recorded it (`balance run --shard-size`
        plays new games in other shards without changing the file)."""
        meaning = {k: v for k, v in self.data.items() if k != "grid"}
        head = {k: v for k, v in meaning.get("experiment", {}).items()
                if k not in ("description", "games", "ideal_length")}
        meaning["experiment"] = head
        meaning["grid"] = [[k, v] for k, v in self.data.get("grid", {}).items()]
        text = json.dumps(meaning, sort_keys=True, default=str, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @property
    def swept(self) -> list[str]:
        """Grid keys that become games-table columns of their own (the others are columns of
        the game's declared games table already)."""
        declared = self.game.games_table.columns
        return [k for k in self.grid if k not in declared and k not in VARIANT_KEYS]


def resolve_experiment_path(name_or_path: str | Path) -> Path:
    """A path, or the name of a file in experiments/ or experiments/<game>/ (`players`)."""
    p = Path(name_or_path)
    if _exists(p) or p.suffix == ".toml":
        return p
    found = [q for d in experiment_dirs() if _exists(q := d / f"{name_or_path}.toml")]
    # One name in two games' folders would play whichever came first: say so instead.
    games = sorted({q.parent.name for q in found if q.parent.name != "experiments"})
    if len(found) > 1 and len({q.parent.resolve() for q in found}) > 1 and len(games) > 1:
        raise InputError([Problem(str(name_or_path), "", "", "names an experiment of several "
                                  f"games: write {' or '.join(f'{g}/{p}' for g in games)}")])
    return found[0] if found else p


def load_experiment(name_or_path: str | Path) -> Experiment:
    """Read, check and compile an experiment file; InputError lists every problem."""
    if not str(name_or_path).strip():  # Path("") is the current folder
        raise InputError([Problem("EXPERIMENT", "", "", "is empty: give an experiment file, "
                                  "or the name of one in experiments/")])
    path = resolve_experiment_path(name_or_path)
    file = str(name_or_path) if Path(name_or_path) == path else str(path)
    long = [part for part in path.parts if len(os.fsencode(part)) > MAX_FILE_NAME]
    if long:
        raise InputError([Problem(short(file), "", "", f"has a name of {len(long[0]):,} "
                                  f"characters, more than a file name can be "
                                  f"({MAX_FILE_NAME})")])
    if not os.path.lexists(path):
        probs = Problems(file)
        known = sorted({q.stem for d in experiment_dirs() if d.is_dir() for q in d.glob("*.toml")})
        probs.add("", "", "no such experiment file" +
                  (f" (in experiments/: {', '.join(known)})" if known else ""))
        probs.raise_if_any()
    try:
        text = read_text(path, "experiment TOML file")
        data = parse_toml(text, path)
    except InputError as e:
        raise InputError([Problem(file, p.where, p.field, p.message) for p in e.problems]) \
            from None
    return parse_experiment(data, text, file, path.parent)


def check_game_count(games, variants: int, shard_size: int, file: str, where: str) -> None:
    """Refuse a game count the run could not plan: InputError naming `file` and `games`."""
    probs = Problems(file)
    if not _is_int(games) or not 1 <= games <= MAX_GAMES:
        probs.add(where, "games", f"must be a whole number from 1 to {MAX_GAMES:,}, "
                  f"got {games!r}")
    else:
        shards = variants * -(-games // shard_size)
        if shards > MAX_SHARDS:
            probs.add(where, "games", f"{games:,} games per variant x {variants:,} variant(s) "
                      f"in shards of {shard_size:,} make {shards:,} shards, more than "
                      f"{MAX_SHARDS:,}: play fewer games or raise shard_size")
    probs.raise_if_any()


def check_shard_size(size, option: str) -> None:
    """Refuse a shard size a run could not use: InputError naming the option."""
    if not _is_int(size) or not 1 <= size <= MAX_SHARD_SIZE:
        raise InputError([Problem(option, "", "", f"must be a whole number from 1 to "
                                  f"{MAX_SHARD_SIZE:,}, got {size!r}")])


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def game_of(data: dict, file: str) -> Game:
    """The game an experiment file names (`[experiment] game`; a file that names none:
    balance/contract/compat.py); an unknown one is one message naming the file, the field
    and the known games."""
    head = data.get("experiment")
    name = head.get("game") if isinstance(head, dict) else None
    return registry.get(compat.game_name(name), file, "[experiment]", "game")


@dataclass(frozen=True)
class _Head:
    """The neutral fields of [experiment]."""

    name: str
    description: str
    games: int
    seed: int
    shard_size: int
    ideal_length: tuple[int, int] | None = None


class _Fields:
    """Reads [experiment]'s fields, adding a problem for each bad one and going on."""

    def __init__(self, head: dict, probs: Problems):
        self.head, self.probs = head, probs

    def text(self, key: str) -> str:
        v = self.head.get(key)
        if v is None:
            self.probs.add("[experiment]", key, "is missing")
            return ""
        if not isinstance(v, str):
            self.probs.add("[experiment]", key, f"must be text, got {short(repr(v))}")
            return ""
        if not v.strip():
            self.probs.add("[experiment]", key, "is empty")
            return ""
        return v

    def whole(self, key: str, lo: int, hi: int, default: int | None = None) -> int:
        v = self.head.get(key, default)
        if v is None:
            self.probs.add("[experiment]", key, "is missing")
            return lo
        if not _is_int(v) or not lo <= v <= hi:
            self.probs.add("[experiment]", key, f"must be a whole number from {lo} to {hi}, "
                           f"got {v!r}")
            return lo
        return v


def _tables(data: dict, game: Game, probs: Problems) -> dict:
    """[experiment], its unknown fields and the file's unknown tables named."""
    tables = (*TABLES, *game.experiment_tables)
    for key in data:
        if key not in tables:
            probs.add("", key, f"unknown table (allowed: {', '.join(tables)})")
    head = data.get("experiment")
    if not isinstance(head, dict):
        probs.add("", "experiment", "missing [experiment] table (name, description, games, "
                  "seed, ...)")
        return {}
    keys = (*KEYS, *game.experiment_keys)
    for key in head:
        if key not in keys:
            probs.add("[experiment]", key, f"unknown field (allowed: {', '.join(keys)})")
    return head


def _head(head: dict, probs: Problems) -> _Head:
    f = _Fields(head, probs)
    name = f.text("name")
    if len(name) > MAX_NAME:
        probs.add("[experiment]", "name", f"is {len(name):,} characters, more than "
                  f"{MAX_NAME}: it names the run folder, so keep it short")
    elif name and (name[0] == "-" or not set(name) <= NAME_CHARS):
        probs.add("[experiment]", "name",
                  f"use lowercase letters, digits and '-' (it names the run folder), got {name!r}")
    description = f.text("description")
    return _Head(name, description, f.whole("games", 1, MAX_GAMES), f.whole("seed", 0, MAX_SEED),
                 f.whole("shard_size", 1, MAX_SHARD_SIZE, DEFAULT_SHARD_SIZE),
                 ideal_length(head, probs))


MAX_LENGTH = 2**15 - 1  # the games table's turns column is an int16


def ideal_length(head: dict, probs: Problems) -> tuple[int, int] | None:
    """The designer's ideal range of a game's length (Ludii's IdealDuration), [shortest,
    longest] in the game's length unit, both counted in: the share of games inside it is a
    measure of the report's How the game plays. It plays no part in the games."""
    value = head.get("ideal_length")
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != 2 or not all(_is_int(v) for v in value)
            or not 1 <= value[0] <= value[1] <= MAX_LENGTH):
        probs.add("[experiment]", "ideal_length", "must be two whole numbers [shortest, "
                  f"longest], 1 <= shortest <= longest <= {MAX_LENGTH:,}, got {short(repr(value))}")
        return None
    return int(value[0]), int(value[1])


def check_player_value(probs: Problems, where: str, key: str, value, players: dict) -> None:
    """Type checks for a players / heuristic / seats value (the counts' ranges come with the
    variants, which the game compiles)."""
    known = ", ".join(players)
    if key == "heuristic" and not isinstance(value, str):
        probs.add(where, key, f"must be a player's name in quotes (known: {known}), got "
                  f"{value!r}")
    elif key == "heuristic" and value not in players:
        probs.add(where, key, f"unknown player {value!r} (known: {known})")
    elif key == "seats" and (not isinstance(value, list) or not value
                             or any(not isinstance(v, str) or v not in players
                                    for v in value)):
        probs.add(where, key, f"must be a list of players, one for each seat (known: {known}), "
                  f"got {value!r}")
    elif key == "players" and (not _is_int(value) or value < 1):
        probs.add(where, key, f"must be a whole number of players >= 1, got {value!r}")


def _fixed(head: dict, players: dict, probs: Problems) -> dict:
    fixed = {k: head[k] for k in VARIANT_KEYS if k in head}
    for k, v in fixed.items():
        check_player_value(probs, "[experiment]", k, v, players)
    if "seats" in fixed and "heuristic" in fixed:
        probs.add("[experiment]", "seats", "and heuristic are both given: seats names every "
                  "seat's player")
    return fixed


def _knobs(data: dict, probs: Problems) -> dict:
    knobs = data.get("knobs", {})
    if not isinstance(knobs, dict):
        probs.add("", "knobs", "must be a table of players' knobs, NAME = number "
                  "(`balance players` lists them)")
        return {}
    out = {}
    for k, v in knobs.items():
        if not isinstance(k, str):
            probs.add("[knobs]", repr(k), "must be a knob's name, in quotes")
        elif _is_number(v):
            out[k] = v
        else:
            probs.add("[knobs]", k, f"must be a number, got {short(repr(v))}")
    return out


def _rules(data: dict, game: Game, probs: Problems) -> dict:
    """[rules]: each key a setting (its value checked against the setting's type and range)
    or one of the game's setting forms (the game checks those); the values refused here are
    left out of what the game reads, so that each problem is named once."""
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        probs.add("", "rules", "must be a table of rule overrides")
        return {}
    out = {}
    for k, v in rules.items():
        why = (_rule_problem(game, k, v) if isinstance(k, str)
               else "must be a rule's name, in quotes")
        if why:
            probs.add("[rules]", k if isinstance(k, str) else repr(k), why)
        else:
            out[k] = v
    return out


def _rule_problem(game: Game, key: str, value) -> str | None:
    if isinstance(value, dict):
        forms = [f"{key}.{sub}" for sub in value]
        if game.setting(key) is None and forms and all(game.setting_form(f) for f in forms):
            return None  # a table of dotted keys, e.g. one entry per name
        sub = next(iter(value), None)
        hint = (f": write one value as a quoted key, \"{key}.{sub}\" = {value[sub]!r}"
                if sub is not None and game.setting_form(f"{key}.{sub}") else "")
        return f"must be a single value, got {value!r}{hint}"
    if isinstance(value, list):
        return f"must be a single value, got {value!r}"
    setting = game.setting(key)
    if setting is not None:
        return setting.problem(value)
    if game.setting_form(key):
        return None
    return f"unknown rule (known: {game.rule_keys_text()})"


def _grid(inp: ExperimentInput, players: dict) -> tuple[dict, list[str]]:
    """[grid] with its neutral keys and settings checked; the keys that are neither are the
    game's to read (the second item, in file order)."""
    grid = inp.data.get("grid", {})
    if not isinstance(grid, dict):
        inp.probs.add("", "grid", "must be a table: each key a list of values")
        return {}, []
    out, game_keys = {}, []
    for k, values in grid.items():
        if not isinstance(k, str):
            inp.probs.add("[grid]", repr(k), "must be a key's name, in quotes")
        elif k in VARIANT_KEYS or k.startswith(KNOB_PREFIX) or inp.game.rule_key(k):
            if _neutral_key(inp, k, values, players):
                out[k] = values
        else:
            game_keys.append(k)
            out[k] = values
    # Each sets every seat's player: one of them would be dropped without a word.
    swept = [k for k in ("seats", "heuristic") if k in out]
    if len(swept) == 2:
        inp.probs.add("[grid]", "seats", "and heuristic are both swept: they set the same "
                      "thing (seats names every seat's player); sweep one of them")
    elif swept and (other := "heuristic" if swept == ["seats"] else "seats") in inp.fixed:
        inp.probs.add("[grid]", swept[0], f"is swept while [experiment] fixes {other}: they "
                      "set the same thing (seats names every seat's player); give one of them")
    return out, game_keys


def _neutral_key(inp: ExperimentInput, k: str, values, players: dict) -> bool:
    """One neutral or rule key of [grid] checked; False when it is to be dropped."""
    game, probs, fixed, knobs, rules = inp.game, inp.probs, inp.fixed, inp.knobs, inp.rules
    if isinstance(values, dict) and game.rule_key(k):
        # An unquoted dotted key: `deal.seat5 = [4, 5]` is TOML for {"deal": {"seat5": ...}}.
        inner = next(iter(values), "name")
        probs.add("[grid]", k, f"must be a list of values, got a table {short(repr(values))}: "
                  f"quote a dotted key, \"{k}.{inner}\" = [...]")
        return False
    head, _, tail = k.partition(".")
    if k in fixed:
        probs.add("[grid]", k, "is also fixed in [experiment]: give it in one place")
    elif k.startswith(KNOB_PREFIX) and k[len(KNOB_PREFIX):] in knobs:
        probs.add("[grid]", k, "is also set in [knobs]: give it in one place")
    elif k in rules or (tail and isinstance(rules.get(head), dict) and tail in rules[head]):
        probs.add("[grid]", k, "is also set in [rules]: give it in one place")
    if not inp.values_ok(k, values, lists_ok=k == "seats"):
        return False
    setting = game.setting(k)
    for v in values:
        if k in VARIANT_KEYS:
            check_player_value(probs, "[grid]", k, v, players)
        elif setting is not None and setting.problem(v):
            probs.add("[grid]", k, setting.problem(v))
    words = [v for v in values if not _is_number(v)]
    if k.startswith(KNOB_PREFIX) and words:
        probs.add("[grid]", k, f"values must be numbers, got {short(repr(words[0]))}" +
                  (f" and {len(words) - 1} more" if len(words) > 1 else ""))
    return True


def parse_arguments(head: dict, rules, source: str = "balance.simulate") -> Experiment:
    """A one-variant experiment from a function's arguments (`head`: its [experiment] keys,
    `rules`: a table of rule values or None), checked as a file's fields are; a problem names
    `source` and the argument alone, as the arguments are in no [experiment] table."""
    data = {"experiment": head, "rules": {} if rules is None else rules}
    try:
        return parse_experiment(data, "", source, Path("."))
    except InputError as e:
        raise InputError([Problem(p.file, "" if p.where == "[experiment]" else p.where,
                                  p.field, p.message) for p in e.problems]) from None


def parse_experiment(data: dict, text: str, file: str, base_dir: Path = Path(".")) -> Experiment:
    game = game_of(data, file)
    probs = Problems(file)
    head = _tables(data, game, probs)
    fields = _head(head, probs)
    players = game.player_registry()
    fixed = _fixed(head, players, probs)
    knobs = _knobs(data, probs)
    rules = _rules(data, game, probs)
    inp = ExperimentInput(game, file, base_dir, data, probs, fixed, rules, knobs, {})
    inp.grid, inp.game_keys = _grid(inp, players)
    if "players" not in fixed and "players" not in inp.grid:
        probs.add("[experiment]", "players", "is missing: give it in [experiment] or [grid]")
    found = len(probs.items)
    _check_seating(inp, players)
    if len(probs.items) > found:
        # The game's hook would build those variants and refuse them again, in its words.
        probs.raise_if_any()
    made = game.hook("variants")(inp)
    variants = _variants(inp, made)
    _check_knobs(inp, variants)
    if not probs.items:
        _build(inp, variants)
    # The variant the others are compared with (`balance compare`); it plays no part in the
    # games, but it is part of the file's meaning, so a run records the one it was made with.
    baseline = head.get("baseline", 0)
    if variants and (not _is_int(baseline) or not 0 <= baseline < len(variants)):
        probs.add("[experiment]", "baseline", f"must be the number of a variant, 0 to "
                  f"{len(variants) - 1} (in the order of the [grid]'s cross product), got "
                  f"{baseline!r}")
    try:
        check_game_count(fields.games, len(variants), fields.shard_size, file, "[experiment]")
    except InputError as e:
        probs.items.extend(e.problems)
    probs.raise_if_any()
    return Experiment(fields.name, fields.description, file, text, game, fields.games,
                      fields.seed, fields.shard_size, dict(rules), made.grid, tuple(variants),
                      made.settings, made.inputs, data, fields.ideal_length)


def _variants(inp: ExperimentInput, made: GameVariants) -> list[Variant]:
    """Each cell the game compiled as a Variant: the neutral keys' part and the game's."""
    out = []
    for spec in made.variants:
        cell = spec.cell
        names = cell.seats or (cell.heuristic,) * (cell.players or 1)
        swept = {}
        for k in made.grid:
            if cell.control:
                swept[k] = None  # no grid value: the games table's column is null
            elif k == "seats":
                swept[k] = ",".join(cell.values[k])
            elif k.startswith(KNOB_PREFIX):
                swept[k] = float(cell.values[k])
            elif k in VARIANT_KEYS:
                swept[k] = cell.values[k]
            else:
                swept[k] = spec.swept[k]
        out.append(Variant(cell.index, cell.label, cell.players,
                           names[0] if len(set(names)) == 1 else ",".join(names),
                           cell.rules if spec.rules is None else spec.rules, swept,
                           spec.settings, cell.seats, cell.knobs, cell.control,
                           carry=spec.carry))
    if len(out) > 1 and out[0].control:
        out[0] = replace(out[0], swept_like=dict(out[1].swept))
    return out


def _check_seating(inp: ExperimentInput, players: dict) -> None:
    """Every seats list as long as each player count it seats, and every knob value, fixed or
    swept, in the range of each player it reaches. The grid is a cross product, so each seats
    list meets each count and each knob value each player in some variant: checking the
    values pairwise checks every variant, and a problem names the value, not a variant."""
    fixed, grid, probs = inp.fixed, inp.grid, inp.probs

    def values(key: str) -> list:
        return [fixed[key]] if key in fixed else list(grid.get(key, []))

    counts = [n for n in values("players") if _is_int(n) and n >= 1]
    lists = [s for s in values("seats") if isinstance(s, list) and s
             and all(isinstance(x, str) and x in players for x in s)]
    for seats in lists:
        for n in counts:
            if len(seats) != n:
                swept = "" if "players" in fixed else f" (players = {n} in [grid])"
                probs.add("[experiment]" if "seats" in fixed else "[grid]", "seats",
                          f"names {len(seats)} players for {n} seats{swept}: name one player "
                          f"for each seat, got {short(repr(seats))}")
    seated = {x for s in lists for x in s}
    seated |= {h for h in values("heuristic") if isinstance(h, str) and h in players}
    if "seats" not in fixed and "seats" not in grid and "heuristic" not in fixed \
            and "heuristic" not in grid and inp.game.default_player in players:
        seated.add(inp.game.default_player)
    knobs = [("[knobs]", name, name, [v]) for name, v in inp.knobs.items()]
    knobs += [("[grid]", k, k[len(KNOB_PREFIX):], vs) for k, vs in grid.items()
              if k.startswith(KNOB_PREFIX) and isinstance(vs, list)]
    for where, field_, name, vs in knobs:
        for player in sorted(seated):
            own = players[player].knobs
            if not any(k.name == name for k in own):
                continue
            for v in filter(_is_number, vs):  # what is no number is refused already
                try:
                    knob_values(own, {name: v}, inp.file, player)
                except InputError as e:
                    for p in e.problems:
                        probs.add(where, field_, p.message)


def _build(inp: ExperimentInput, variants: list[Variant]) -> None:
    """Every variant built as the game's play hook builds it (its `prepare` hook), so that a
    variant it cannot play is refused now, not once a run folder holds the others' games."""
    if not inp.game.prepare:
        return
    build = inp.game.hook("prepare")
    for v in variants:
        try:
            build(v)
        except InputError as e:
            inp.probs.items.extend(Problem(inp.file, f"variant {v.index} ({v.label})",
                                           p.field or p.where, p.message)
                                   for p in e.problems)


def _check_knobs(inp: ExperimentInput, variants: list[Variant]) -> None:
    """A knob that no variant's player has is refused (it would change nothing)."""
    swept = [k[len(KNOB_PREFIX):] for k in inp.grid if k.startswith(KNOB_PREFIX)]
    for name in [*inp.knobs, *swept]:
        if name not in inp.used_knobs and variants:
            where = "[knobs]" if name in inp.knobs else "[grid]"
            inp.probs.add(where, name if name in inp.knobs else KNOB_PREFIX + name,
                          "no player of any variant has this knob (`balance players` lists "
                          "them)")


def _exists(p: Path) -> bool:
    """Whether `p` exists; False for a name the file system cannot even look up (too long),
    so that the reader's message, not a traceback, says why."""
    return os.path.exists(p)
