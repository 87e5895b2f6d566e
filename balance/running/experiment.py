"""Experiment files: a TOML declaration of a batch of games, parsed into variants.

```toml
[experiment]
name = "crisis-difficulty"     # names the run folder: runs/<name>/
description = "..."
edition = "2e"                 # rule profile: 1e or 2e
content = "gemrush-2e"         # optional: shipped name or path (relative to this file)
mode = "crisis"                # crisis or rush
heuristic = "greedy"           # optional, default greedy
games = 100000                 # per variant
seed = 1
players = 4                    # fixed here, or swept in [grid]
exhaust = true                 # optional; target likewise
shard_size = 5000              # optional: games per shard file
# control = true               # optional: the unchanged box beside a grid of levers, variant 0

[rules]                        # optional: overrides applied to every variant
hand_limit = 5

[grid]                         # optional: each key a list; the variants are the cross product
players = [1, 2, 3]
"crisis_targets.Master" = [70, 75]
```

The variants are numbered in the order of the cross product, with the grid keys in the order
they are written and the last key varying fastest. Everything is checked, and every variant is
compiled, before any game is played; all problems are reported at once.
"""

from __future__ import annotations

import dataclasses
import glob
import hashlib
import itertools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from balance.errors import InputError, Problem, Problems
from balance.textfile import short

REPO = Path(__file__).resolve().parents[2]
EXPERIMENT_DIRS = (Path("experiments"), REPO / "experiments")


def experiment_dirs() -> list[Path]:
    """Where a bare experiment name is looked for: experiments/ of the current folder and of
    the project, and each game's folder inside them (experiments/<game>/)."""
    out = []
    for d in EXPERIMENT_DIRS:
        out.append(d)
        if d.is_dir():
            out.extend(sorted(q for q in d.iterdir() if q.is_dir()))
    return out
DEFAULT_SHARD_SIZE = 5000
MAX_SHARD_SIZE = 1_000_000
MAX_SEED = 2**63 - 1
MAX_GAMES = 10**11
MAX_FILE_NAME = 255  # bytes in one name of a path, on Linux and macOS file systems
# An experiment's name names its run folder; `balance ablate` adds "-ablate-plain" to it.
MAX_NAME = 100
# What a report can take on a 2-core machine: it draws figures for every variant, about 0.4 s
# each (252 variants of 2 games: 97 s and 0.5 GB), so 500 take some 3 minutes. Shard names
# would allow 99,999.
MAX_VARIANTS = 500
# The runner plans every shard up front and checks each finished one on resume: a few hundred
# thousand are quick, a hundred million would not fit in memory.
MAX_SHARDS = 500_000

TOP_KEYS = ("experiment", "rules", "knobs", "patches", "grid")
EXPERIMENT_KEYS = ("name", "description", "edition", "content", "mode", "heuristic", "seats",
                   "games", "seed", "shard_size", "players", "target", "exhaust", "baseline",
                   "ablate", "each_skill", "control")
# `ablate = "out"` (or "plain") makes one variant per room on top of the unchanged box
# (variant 0, the baseline): the room taken out of the box, or swapped for a plain room with
# the same doors and no ability. The variants' swept column is `ablate` (the room's name).
ABLATE_MODES = ("out", "plain")
# `each_skill = true` makes one variant per skill of the box, every player holding it (the
# Shared Skill variant), on top of No Skills (variant 0, the baseline), on the same seeds:
# each skill's paired worth to a Crisis team. The variants' swept column is `skill`.
# `control = true` puts one unchanged variant beside the [grid]: variant 0 (the baseline)
# plays the fixed settings ([experiment], [rules], [knobs]) on the box as its content file has
# it, with no grid value and no patch; the grid's variants follow from 1. Its games-table
# columns of the grid's keys are null, and its label is CONTROL.
CONTROL = "control"
# Fixed in [experiment] or swept in [grid]; so are the rule fields, and players' knobs as
# knob.<name> (fixed in [knobs]).
VARIANT_KEYS = ("players", "target", "exhaust", "heuristic", "seats")
# Fixed in [experiment] or swept in [grid]: which box and which rules. Swept, each becomes a
# games-table column (edition has its own already).
SETTING_KEYS = ("edition", "content")
KNOB_PREFIX = "knob."


@dataclass(frozen=True)
class Variant:
    """One cell of the grid: everything `balance.games.gemrush.play.prepare` needs, with the swept
    values
    as the games table stores them."""

    index: int
    edition: str
    content: str  # a shipped content name, or the path of a content file
    content_name: str  # the content's own name, e.g. gemrush-2e
    mode: str
    players: int
    heuristic: str  # the player of every seat, or the seats' players joined by commas
    target: int | None  # resolved to points; None in play-to-exhaustion without a target
    exhaust: bool
    rules: dict  # every rule override: [rules], then this variant's grid values
    swept: dict  # grid key -> this variant's value (target resolved to points)
    difficulties: dict  # the profile's Crisis targets after overrides
    seats: tuple | None = None  # a player for each seat, when they differ
    knobs: dict = field(default_factory=dict)  # players' knobs set by name
    # The content as text when it is not a shipped file as shipped (a file of the designer's,
    # or patched): workers get it by value. Its sha256 is in the manifest.
    content_text: str | None = None
    patches: tuple = ()  # the patches applied, with this variant's numbers
    # Whether the manifest records content_text here: only the first variant of each patched
    # box does (the others name it by sha256), or a sweep of 1,000 variants would write 30 MB.
    records_text: bool = True
    control: bool = False  # the unchanged variant beside the grid (`control = true`)
    # A value of each swept key's type, for the control's nulls: one Arrow type per games-table
    # column in every shard.
    swept_like: dict = field(default_factory=dict)

    @property
    def content_sha256(self) -> str | None:
        if self.content_text is None:
            return None
        return hashlib.sha256(self.content_text.encode("utf-8")).hexdigest()

    @property
    def label(self) -> str:
        if self.control:
            return CONTROL
        if not self.swept and self.index > 0:
            return "patched"  # the one variant beside a control when nothing is swept
        return ", ".join(f"{k}={v}" for k, v in self.swept.items()) or "the only variant"

    def prepare(self):
        from balance.games.gemrush.play import prepare

        return prepare(self.edition, self.mode, self.players, self.seats[0] if self.seats
                       else self.heuristic, self.target, self.exhaust, self.rules,
                       self.parsed_content(), seats=self.seats, knobs=self.knobs)

    def parsed_content(self):
        """The variant's content: a shipped name, or a Content parsed from its text."""
        if self.content_text is None:
            return self.content
        import tomllib

        from balance.games.gemrush.content import parse_content

        return parse_content(tomllib.loads(self.content_text), self.content)

    def describe(self) -> dict:
        """The variant as the run manifest records it."""
        return {"variant": self.index, "label": self.label, "swept": dict(self.swept),
                **({"control": True} if self.control else {}),
                "edition": self.edition,
                "content": self.content_name,
                "mode": self.mode, "players": self.players, "heuristic": self.heuristic,
                "target": self.target, "exhaust": self.exhaust, "rules": dict(self.rules),
                "difficulties": dict(self.difficulties),
                **({"seats": list(self.seats)} if self.seats else {}),
                **({"knobs": dict(self.knobs)} if self.knobs else {}),
                **({"patches": [dict(p) for p in self.patches],
                    "content_sha256": self.content_sha256} if self.patches else {}),
                **({"content_toml": self.content_text}
                   if self.patches and self.records_text else {})}


@dataclass(frozen=True)
class Experiment:
    name: str
    description: str
    file: str  # the path as given
    text: str  # the file's content
    edition: str
    content: str  # path of the content file
    mode: str
    heuristic: str
    games: int  # per variant
    seed: int
    shard_size: int
    rules: dict
    grid: dict  # key -> list of values, in file order
    variants: tuple[Variant, ...]
    inputs: dict = field(default_factory=dict)  # data files the games depend on -> sha256
    data: dict = field(default_factory=dict)  # the parsed file

    @property
    def hash(self) -> str:
        """The file's text, for the record: a comment edit changes it."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @property
    def identity(self) -> str:
        """What the games depend on: the parsed file, so that comments, whitespace, key order
        and the prose description are not part of it, nor the game count (a rerun may add
        games). The grid keeps its key order, which numbers the variants."""
        meaning = {k: v for k, v in self.data.items() if k != "grid"}
        head = {k: v for k, v in meaning.get("experiment", {}).items()
                if k not in ("description", "games")}
        meaning["experiment"] = head
        meaning["grid"] = [[k, v] for k, v in self.data.get("grid", {}).items()]
        text = json.dumps(meaning, sort_keys=True, default=str, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @property
    def swept(self) -> list[str]:
        """Grid keys that become games-table columns of their own (rule fields)."""
        return [k for k in self.grid if k not in VARIANT_KEYS and k != "edition"]


def resolve_experiment_path(name_or_path: str | Path) -> Path:
    """A path, or the name of a file in experiments/ (`crisis-difficulty`)."""
    p = Path(name_or_path)
    if _exists(p) or p.suffix == ".toml":
        return p
    for d in experiment_dirs():
        q = d / f"{name_or_path}.toml"
        if _exists(q):
            return q
    return p


def load_experiment(name_or_path: str | Path) -> Experiment:
    """Read, check and compile an experiment file; InputError lists every problem."""
    if not str(name_or_path).strip():  # Path("") is the current folder
        raise InputError([Problem("EXPERIMENT", "", "", "is empty: give an experiment file, "
                                  "or the name of one in experiments/")])
    path = resolve_experiment_path(name_or_path)
    file = str(name_or_path) if Path(name_or_path) == path else str(path)
    from balance.textfile import parse_toml, read_text

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


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _rule_key(key: str) -> bool:
    from balance.games.gemrush.rules import is_rule_key

    return is_rule_key(key)


def _switch(probs: Problems, head: dict, key: str) -> bool:
    """An [experiment] switch (absent: off); a value that is not true or false is a problem,
    read as off so that the rest of the file is still checked."""
    value = head.get(key, False)
    if isinstance(value, bool):
        return value
    probs.add("[experiment]", key, f"must be true or false, got {value!r}")
    return False


def _check_scalar(probs: Problems, where: str, key: str, value) -> None:
    """Type checks for players / target / exhaust / heuristic / seats values (ranges come
    with the variants)."""
    from heuristics.gemrush.registry import PLAYERS

    known = ", ".join(PLAYERS)
    if key == "heuristic" and not isinstance(value, str):
        probs.add(where, key, f"must be a player's name in quotes (known: {known}), got "
                  f"{value!r}")
    elif key == "heuristic" and value not in PLAYERS:
        probs.add(where, key, f"unknown player {value!r} (known: {known})")
    elif key == "seats" and (not isinstance(value, list) or not value
                             or any(not isinstance(v, str) or v not in PLAYERS
                                    for v in value)):
        probs.add(where, key, f"must be a list of players, one for each seat (known: {known}), "
                  f"got {value!r}")
    elif key == "players" and (not _is_int(value) or value < 1):
        probs.add(where, key, f"must be a whole number of players >= 1, got {value!r}")
    elif key == "exhaust" and not isinstance(value, bool):
        probs.add(where, key, f"must be true or false, got {value!r}")
    elif key == "target" and not ((_is_int(value) and value >= 1) or
                                  (isinstance(value, str) and value.strip())):
        probs.add(where, key, f"must be points (a whole number >= 1) or a Crisis difficulty "
                  f"name, got {value!r}")


def parse_experiment(data: dict, text: str, file: str, base_dir: Path = Path(".")) -> Experiment:
    from balance.games.gemrush.content import CONTENT_DIR, NAME_RE, load_content
    from balance.games.gemrush.rules import available_profiles, profile_for

    probs = Problems(file)
    for key in data:
        if key not in TOP_KEYS:
            probs.add("", key, f"unknown table (allowed: {', '.join(TOP_KEYS)})")
    head = data.get("experiment")
    if not isinstance(head, dict):
        probs.add("", "experiment", "missing [experiment] table (name, description, edition, "
                  "mode, games, seed, ...)")
        head = {}
    for key in head:
        if key not in EXPERIMENT_KEYS:
            probs.add("[experiment]", key,
                      f"unknown field (allowed: {', '.join(EXPERIMENT_KEYS)})")

    def text_field(key: str, required: bool = True, default: str = "") -> str:
        v = head.get(key)
        if v is None:
            if required:
                probs.add("[experiment]", key, "is missing")
            return default
        if not isinstance(v, str):
            probs.add("[experiment]", key, f"must be text, got {short(repr(v))}")
            return default
        if required and not v.strip():
            probs.add("[experiment]", key, "is empty")
            return default
        return v

    def int_field(key: str, lo: int, hi: int, default: int | None = None) -> int:
        v = head.get(key, default)
        if v is None:
            probs.add("[experiment]", key, "is missing")
            return lo
        if not _is_int(v) or not lo <= v <= hi:
            probs.add("[experiment]", key, f"must be a whole number from {lo} to {hi}, "
                      f"got {v!r}")
            return lo
        return v

    name = text_field("name")
    if len(name) > MAX_NAME:
        probs.add("[experiment]", "name", f"is {len(name):,} characters, more than "
                  f"{MAX_NAME}: it names the run folder, so keep it short")
    elif name and not NAME_RE.match(name):
        probs.add("[experiment]", "name",
                  f"use lowercase letters, digits and '-' (it names the run folder), got {name!r}")
    description = text_field("description")
    grid_in = data.get("grid") if isinstance(data.get("grid"), dict) else {}
    swept_editions = grid_in.get("edition")
    edition = text_field("edition", required=swept_editions is None)
    if swept_editions is not None:
        if edition:
            probs.add("[grid]", "edition", "is also fixed in [experiment]: give it in one place")
        if not isinstance(swept_editions, list) or not swept_editions:
            probs.add("[grid]", "edition", "must be a non-empty list of editions")
            swept_editions = []
        edition = next((e for e in swept_editions if isinstance(e, str)), "")
    for e in (swept_editions or []) + ([edition] if swept_editions is None else []):
        if e and e not in available_profiles():
            probs.add("[grid]" if swept_editions is not None else "[experiment]", "edition",
                      f"unknown edition {e!r} (known: {', '.join(available_profiles())})")
            edition = ""
    mode = text_field("mode")
    if mode and mode not in ("crisis", "rush"):
        probs.add("[experiment]", "mode", f"must be crisis or rush, got {mode!r}")
    heuristic = head.get("heuristic", "greedy")  # checked with the variant keys below
    content = text_field("content", required=False)
    if head.get("content") == "":
        probs.add("[experiment]", "content", "is empty: name a content file or a shipped "
                  "content, or leave the field out for the edition's own")
    if "content" in grid_in and content:
        probs.add("[grid]", "content", "is also fixed in [experiment]: give it in one place")
    patches = {}
    if "patches" in data:
        from balance.games.gemrush.patches import parse_patches

        try:
            patches = parse_patches(data["patches"], file)
        except InputError as e:
            probs.items.extend(e.problems)
    games = int_field("games", 1, MAX_GAMES)
    seed = int_field("seed", 0, MAX_SEED)
    shard_size = int_field("shard_size", 1, MAX_SHARD_SIZE, DEFAULT_SHARD_SIZE)

    fixed = {k: head[k] for k in VARIANT_KEYS if k in head}
    for k, v in fixed.items():
        _check_scalar(probs, "[experiment]", k, v)
    if "seats" in fixed and "heuristic" in fixed:
        probs.add("[experiment]", "seats", "and heuristic are both given: seats names every "
                  "seat's player")

    knobs = data.get("knobs", {})
    if not isinstance(knobs, dict):
        probs.add("", "knobs", "must be a table of players' knobs, NAME = number "
                  "(`balance players` lists them)")
        knobs = {}
    for k, v in list(knobs.items()):
        if not _is_number(v):
            probs.add("[knobs]", k, f"must be a number, got {short(repr(v))}")
            del knobs[k]

    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        probs.add("", "rules", "must be a table of rule overrides")
        rules = {}
    for k, v in rules.items():
        if k == "crisis_targets" and isinstance(v, dict):
            continue
        if isinstance(v, dict | list):
            from balance.games.gemrush.rules import PER_SEAT

            hint = (f": write one seat's value as a quoted key, \"{k}.seat5\" = 5"
                    if k in PER_SEAT else "")
            probs.add("[rules]", k, f"must be a single value, got {v!r}{hint}")

    grid = data.get("grid", {})
    if not isinstance(grid, dict):
        probs.add("", "grid", "must be a table: each key a list of values")
        grid = {}
    grid = dict(grid)
    from balance.games.gemrush.patches import check_swept, patch_key

    for k, values in list(grid.items()):
        if isinstance(values, dict) and _rule_key(k):
            # An unquoted dotted key: `deal.seat5 = [4, 5]` is TOML for {"deal": {"seat5": ...}}.
            inner = next(iter(values), "seat5")
            probs.add("[grid]", k, f"must be a list of values, got a table {short(repr(values))}"
                      f": quote a dotted key, \"{k}.{inner}\" = [...]")
            del grid[k]
            continue
        if k in SETTING_KEYS:
            if not isinstance(values, list) or not values or \
                    not all(isinstance(v, str) and v for v in values):
                probs.add("[grid]", k, f"must be a non-empty list of names, got {values!r}")
                del grid[k]
                continue
        elif patch_key(k, patches):
            try:
                check_swept(k, patches, values if isinstance(values, list) else [], file)
            except InputError as e:
                probs.items.extend(e.problems)
        elif k in VARIANT_KEYS:
            if k in fixed:
                probs.add("[grid]", k, "is also fixed in [experiment]: give it in one place")
        elif k.startswith(KNOB_PREFIX):
            if k[len(KNOB_PREFIX):] in knobs:
                probs.add("[grid]", k, "is also set in [knobs]: give it in one place")
        elif not _rule_key(k):
            from balance.games.gemrush.rules import PER_SEAT, SCHEMA

            probs.add("[grid]", k, "unknown key (allowed: players, target, exhaust, heuristic, "
                      "seats, edition, content, knob.<name>, <patch>.<number>, any rule "
                      f"field: {', '.join(SCHEMA)}, crisis_targets.<difficulty>, "
                      f"{', '.join(f'{n}.seat<k>' for n in PER_SEAT)})")
            del grid[k]
            continue
        elif k in rules or (k.startswith("crisis_targets.") and
                            k.split(".", 1)[1] in rules.get("crisis_targets", {})):
            probs.add("[grid]", k, "is also set in [rules]: give it in one place")
        if not isinstance(values, list) or not values:
            probs.add("[grid]", k, f"must be a non-empty list of values, got {values!r}")
            del grid[k]
            continue
        bad = [v for v in values if isinstance(v, dict) or (isinstance(v, list)
                                                             and k != "seats")]
        if bad:
            probs.add("[grid]", k, f"values must be single values, got {bad[0]!r}")
            del grid[k]
            continue
        seen = set()
        for v in values:
            # By type too: 1 and true are two values; a seats list may hold anything.
            key = json.dumps([type(v).__name__, v], default=repr)
            if key in seen:
                probs.add("[grid]", k, f"lists {v!r} twice")
            seen.add(key)
            if k in VARIANT_KEYS:
                _check_scalar(probs, "[grid]", k, v)
        words = [v for v in values if not _is_number(v)]
        if k.startswith(KNOB_PREFIX) and words:
            probs.add("[grid]", k, f"values must be numbers, got {short(repr(words[0]))}" +
                      (f" and {len(words) - 1} more" if len(words) > 1 else ""))
    ablate = head.get("ablate")
    if ablate is not None:
        if ablate not in ABLATE_MODES:
            probs.add("[experiment]", "ablate", f"must be one of {', '.join(ABLATE_MODES)}, "
                      f"got {ablate!r}")
        elif grid:
            probs.add("[experiment]", "ablate", "makes the variants itself (one per room, "
                      "against the unchanged box): fix the [grid] keys in [experiment] or "
                      "[rules], or write one ablation per setting")
    each_skill = _switch(probs, head, "each_skill")
    if each_skill and (grid or ablate is not None):
        probs.add("[experiment]", "each_skill", "makes the variants itself (one per skill, "
                  "against No Skills): it takes no [grid] and no ablate; fix those in "
                  "[experiment] or [rules], or write one experiment per setting")
    elif each_skill and mode == "rush":
        probs.add("[experiment]", "each_skill", "measures a skill's worth to a Crisis team; "
                  "in Rush every seat would hold it. Read the holders' win rates in the Rush "
                  "section of a run that plays the Normal variant instead")
    control = _switch(probs, head, "control")
    if control and (ablate is not None or each_skill):
        probs.add("[experiment]", "control", "puts the unchanged box beside a [grid]; "
                  f"{'ablate' if ablate is not None else 'each_skill'} makes its own "
                  "baseline already (variant 0): leave control out")
        control = False
    elif control:
        scene = [k for k in grid if k in VARIANT_KEYS or k in SETTING_KEYS]
        if scene:
            probs.add("[grid]", scene[0], "is swept, and control = true puts one variant "
                      f"beside the grid: it would need one value of {scene[0]}. Fix "
                      f"{scene[0]} in [experiment], or write one experiment per value")
        elif not grid and not patches and "patches" not in data:
            probs.add("[experiment]", "control", "has nothing to stand beside: the control "
                      "plays the fixed settings on the unchanged box, so give a [grid] or "
                      "[patches] to compare with it")
    if "players" not in fixed and "players" not in grid:
        probs.add("[experiment]", "players", "is missing: give it in [experiment] or [grid]")
    if not edition:
        probs.raise_if_any()

    # Content, and the profile with the fixed [rules]: checked even when the above found
    # problems, so that one run of the command shows them all.
    content_file = (_resolve_content(content, base_dir, CONTENT_DIR) if content else
                    str(CONTENT_DIR / f"{_edition_content(edition)}.toml"))
    swept_content = "content" in grid
    if swept_content:
        content_file = _resolve_content(grid["content"][0], base_dir, CONTENT_DIR)
        for other in grid["content"][1:]:
            try:
                load_content(_resolve_content(other, base_dir, CONTENT_DIR))
            except InputError as e:
                for p in e.problems:
                    probs.add("[grid]", "content", f"{p.file}: {p.message}" if p.file != file
                              else p.message)
    try:
        c = load_content(content_file)  # its problems name the content file
        base = profile_for(c, edition, rules, source=file)
    except InputError as e:
        for p in e.problems:
            if p.file == file:
                probs.items.append(Problem(file, "[rules]", p.field, p.message))
            elif not p.where and not p.field:
                # The content file itself cannot be read: say which experiment field named it.
                probs.add("[grid]" if swept_content else "[experiment]", "content",
                          f"{p.file}: {p.message}")
            else:
                probs.items.append(p)
        raise InputError(probs.items) from None
    # Each swept rule value on its own, so that a bad value is named once, not per variant
    # (against the first edition and content when those are swept too; each variant is
    # compiled below anyway).
    for k, values in grid.items():
        if k in VARIANT_KEYS or k in SETTING_KEYS or k.startswith(KNOB_PREFIX) \
                or patch_key(k, patches):
            continue  # checked with each variant
        for v in values:
            try:
                base.with_overrides({k: v}, file)
            except InputError as e:
                for p in e.problems:
                    probs.add("[grid]", k, p.message)
    probs.raise_if_any()

    if each_skill and not probs.items:
        if not c.skills:
            probs.add("[experiment]", "each_skill", f"the box {content_file} has no skills")
            probs.raise_if_any()
        grid["skill"] = ["none"] + [k.name for k in c.skills]
    default_content = (_resolve_content(content, base_dir, CONTENT_DIR) if content else None)
    resolve = {v: _resolve_content(v, base_dir, CONTENT_DIR) for v in grid.get("content", [])}
    boxes = _Boxes(file, default_content, resolve, patches, ablate)
    if ablate in ABLATE_MODES and not probs.items:
        # The rooms of the box the variants play (the designer's patches applied: a room
        # they add is ablated too, one they take out is not), in content order; a tunnel has
        # no ability to take away from a plain copy.
        try:
            rooms = _patched_box(boxes, edition, c).rooms
        except InputError as e:
            probs.items.extend(e.problems)
            probs.raise_if_any()
        grid["ablate"] = ["none"] + [r.name for r in rooms
                                     if ablate == "out" or r.kind != "tunnel"]
    plain = _Boxes(file, default_content, resolve, {}) if control else None
    variants = _variants(probs, file, edition, default_content, resolve, mode, heuristic,
                         fixed, rules, grid, knobs, patches, boxes, plain)
    # The variant the others are compared with (`balance compare`); it plays no part in the
    # games, but it is part of the file's meaning, so a run records the one it was made with.
    baseline = head.get("baseline", 0)
    if variants and (not _is_int(baseline) or not 0 <= baseline < len(variants)):
        probs.add("[experiment]", "baseline", f"must be the number of a variant, 0 to "
                  f"{len(variants) - 1} (in the order of the [grid]'s cross product), got "
                  f"{baseline!r}")
    inputs = _inputs(variants, base_dir)
    try:
        check_game_count(games, len(variants), shard_size, file, "[experiment]")
    except InputError as e:
        probs.items.extend(e.problems)
    probs.raise_if_any()
    return Experiment(name, description, file, text, edition, content_file, mode, heuristic,
                      games, seed, shard_size, dict(rules), grid, tuple(variants), inputs,
                      data)


def rooms_taken_out(exp: Experiment) -> dict[str, str]:
    """Rooms of the experiment's box that its own patches take out, each with the patch that
    does, in content order: an ablation of the patched box has nothing of them to take out."""
    from balance.games.gemrush.content import read_toml
    from balance.games.gemrush.patches import apply_patches, parse_patches

    if not exp.data.get("patches"):
        return {}
    data = read_toml(Path(exp.content))
    out: dict[str, str] = {}
    for patch in parse_patches(exp.data["patches"], exp.file).values():
        before = [r.get("name") for r in data.get("rooms", []) if isinstance(r, dict)]
        data = apply_patches(data, [patch], exp.file, "")
        after = {r.get("name") for r in data.get("rooms", []) if isinstance(r, dict)}
        out.update({room: patch.name for room in before if room not in after})
    return out


def _edition_content(edition: str) -> str:
    from balance.games.gemrush.rules import load_profile

    return load_profile(edition).content


def _resolve_content(content: str, base_dir: Path, shipped_dir: Path) -> str:
    p = Path(content)
    if p.suffix == ".toml" or "/" in content:
        return str(p if p.is_absolute() or not _exists(base_dir / p) else base_dir / p)
    return str(shipped_dir / f"{content}.toml") if _exists(shipped_dir / f"{content}.toml") \
        else content


def _inputs(variants: list[Variant], base_dir: Path) -> dict[str, str]:
    """Every data file the variants' games depend on -> its sha256. A shipped file is keyed
    by its name (content/gemrush-2e.toml, profiles/2e.toml). A designer's content file is
    keyed by its path relative to the experiment file's folder (absolute when outside it):
    two files of one name in two folders are two inputs, each hashed, and a project folder
    moved whole still resumes. A file beside the experiment keeps the key that older runs,
    which keyed every input by its name, gave it."""
    from balance.games.gemrush.content import CONTENT_DIR
    from balance.games.gemrush.rules import PROFILE_DIR

    shipped = {v.content for v in variants if not _designer_file(v.content)}
    out = {f"content/{name}.toml": _sha(CONTENT_DIR / f"{name}.toml") for name in shipped}
    for v in variants:
        out[f"profiles/{v.edition}.toml"] = _sha(PROFILE_DIR / f"{v.edition}.toml")
        if _designer_file(v.content):
            path = Path(v.content).resolve()
            home = base_dir.resolve()
            rel = path.relative_to(home).as_posix() if path.is_relative_to(home) else \
                path.as_posix()
            if rel == path.name and path.stem in shipped:
                rel = f"./{rel}"  # a file of a shipped content's name, beside the experiment
            out[f"content/{rel}"] = _sha(path)
    return dict(sorted(out.items()))


def _designer_file(content: str) -> bool:
    """A variant's content is a designer's file (a path), not a shipped name."""
    return content.endswith(".toml") or "/" in content


def _exists(p: Path) -> bool:
    """Whether `p` exists; False for a name the file system cannot even look up (too long),
    so that the reader's message, not a traceback, says why."""
    return os.path.exists(p)


def _sha(path: Path) -> str:
    from balance.files import read_bytes
    from balance.textfile import MAX_BYTES

    return hashlib.sha256(read_bytes(path, "TOML file", MAX_BYTES)).hexdigest()


class _Boxes:
    """Each variant's content: the file its edition or the grid names, with the patches
    applied (each distinct box parsed once)."""

    def __init__(self, file: str, default: str | None, resolve: dict, patches: dict,
                 ablate: str | None = None):
        self.file, self.default, self.resolve, self.patches = file, default, resolve, patches
        self.ablate = ablate
        self.raw: dict[str, dict] = {}
        self.made: dict[str, tuple] = {}

    def path(self, edition: str, values: dict) -> str:
        if "content" in values:
            return self.resolve[values["content"]]
        if self.default:
            return self.default
        from balance.games.gemrush.content import CONTENT_DIR

        return str(CONTENT_DIR / f"{_edition_content(edition)}.toml")

    def get(self, edition: str, values: dict, label: str):
        """(content name for the record, Content or shipped name, text or None, patches).
        `label` names the variant in problems, e.g. "variant 3 (players=2)"."""
        from balance.games.gemrush.content import CONTENT_DIR

        path = self.path(edition, values)
        shipped = Path(path).parent.resolve() == CONTENT_DIR.resolve()
        record = Path(path).stem if shipped else path
        user = []
        for name, patch in self.patches.items():
            swept = {k.split(".", 1)[1]: v for k, v in values.items()
                     if k.split(".", 1)[0] == name and "." in k}
            user.append(patch.with_values(swept))
        room = values.get("ablate", "none")
        change = None
        if room != "none":
            # The designer's own patches first, on the unchanged box: their mistakes are
            # theirs, and an ablation is blamed only for what taking its room out does.
            self.get(edition, {k: v for k, v in values.items() if k != "ablate"}, label)
            change = self._ablation(room)
        applied = user + ([change] if change else [])
        key = json.dumps([path, [p.fields for p in applied]], sort_keys=True, default=str)
        if key not in self.made:
            if not applied:
                from balance.games.gemrush.content import load_content

                c = load_content(path)
                text = None if shipped else _read_content_text(path)
                self.made[key] = (record, c if text is not None else record, text, ())
            else:
                from balance.games.gemrush.patches import content_text

                data = self._patched(path, user, change, room, label)
                c = self._parsed(data, path, user, room, label)
                self.made[key] = (record, c, content_text(data),
                                  tuple(p.fields for p in applied))
        return self.made[key]

    def _ablation(self, room: str):
        from balance.games.gemrush.patches import Patch

        exact = glob.escape(room)  # the room's own name, wildcards taken literally
        change = {"copies": 0} if self.ablate == "out" else {"kind": "plain", "ability": ""}
        return Patch("ablate", {"select": {"rooms": exact}, **change})

    def _verb(self) -> str:
        return "taken out of the box" if self.ablate == "out" else \
            "made plain (same doors, no ability)"

    def _patched(self, path: str, user: list, change, room: str, label: str) -> dict:
        """The raw content with the designer's patches applied, then the ablation's change;
        problems in the words of whichever failed."""
        from balance.games.gemrush.content import read_toml
        from balance.games.gemrush.patches import apply_patches

        if path not in self.raw:
            self.raw[path] = read_toml(Path(path))
        try:
            data = apply_patches(self.raw[path], user, self.file, label)
        except InputError as e:
            raise InputError([Problem(self.file, f"{p.where} in {label}", p.field, p.message)
                              for p in e.problems]) from None
        if change is None:
            return data
        try:
            return apply_patches(data, [change], self.file, label)
        except InputError as e:
            raise InputError([Problem(self.file, label, "ablate", f"room {room!r} cannot be "
                                      f"{self._verb()}: it {p.message}")
                              for p in e.problems]) from None

    def _parsed(self, data: dict, path: str, user: list, room: str, label: str):
        from balance.games.gemrush.content import parse_content

        try:
            return parse_content(data, f"{path} with patches")
        except InputError as e:
            problems = e.problems
        if room != "none":  # the designer's patches alone made a valid box (checked first)
            raise InputError([Problem(self.file, _joined(label, p.where), p.field or "ablate",
                                      f"with room {room!r} {self._verb()}, the content is "
                                      f"invalid: {p.message}") for p in problems])
        names = [p.name for p in user]
        patch = f"[patches.{names[0]}]" if len(names) == 1 else f"[patches] {', '.join(names)}"
        raise InputError([Problem(self.file, _joined(f"{patch} in {label}", p.where), p.field,
                                  f"makes the content invalid: {p.message}")
                          for p in problems])


def _patched_box(boxes: _Boxes, edition: str, unpatched):
    """The unchanged box with the experiment's patches applied; InputError in the patches'
    words when they fail (once, not once per room of an ablation)."""
    box = boxes.get(edition, {}, "variant 0 (the unchanged box)")[1]
    return box if not isinstance(box, str) else unpatched


def _joined(where: str, inner: str) -> str:
    return f"{where}, {inner}" if inner else where


def _read_content_text(path: str) -> str:
    """A designer's content file as text, through the one reader (it was parsed just now)."""
    from balance.textfile import read_text

    return read_text(path, "content TOML file")


def _variants(probs: Problems, file: str, edition: str, default_content: str | None,
              resolve: dict, mode: str, heuristic: str, fixed: dict, rules: dict, grid: dict,
              knobs: dict, patches: dict, boxes: _Boxes,
              plain: _Boxes | None = None) -> list[Variant]:
    """The cross product of the grid, each cell compiled; a problem repeated in many variants
    is one line (InputError groups them). With `plain` (the box without patches), a control
    comes first: variant 0, no grid value, no patch."""
    from balance.games.gemrush.patches import patch_key
    from balance.games.gemrush.play import prepare

    keys = list(grid)
    n = 1
    for values in grid.values():
        n *= len(values)
    n += plain is not None  # the control beside the grid's cells
    if n > MAX_VARIANTS:
        probs.add("[grid]", "", f"makes {n:,} variants, more than {MAX_VARIANTS:,}: a report "
                  "draws figures for each, and one of more would take many minutes; split "
                  "the grid into several experiments")
        probs.raise_if_any()
    from heuristics.gemrush.registry import PLAYERS

    variants = []
    texts: set[str | None] = set()
    used_knobs: set[str] = set()
    cells = [(CONTROL, {})] if plain is not None else []
    cells += [(None, dict(zip(keys, combo, strict=True)))
              for combo in itertools.product(*grid.values())]
    for i, (control, cell) in enumerate(cells):
        values = dict(fixed)
        values.update(cell)
        overrides = dict(rules)
        knob_values = dict(knobs)
        for k in cell:
            if k.startswith(KNOB_PREFIX):
                knob_values[k[len(KNOB_PREFIX):]] = values[k]
            elif k == "skill":
                overrides["skills"] = "none" if values[k] == "none" else "shared"
                overrides["shared_skill"] = "" if values[k] == "none" else values[k]
            elif k not in VARIANT_KEYS and k not in SETTING_KEYS and k != "ablate" \
                    and not patch_key(k, patches):
                overrides[k] = values[k]
        ed = values.get("edition", edition)
        players = values["players"]
        player = values.get("heuristic", heuristic)
        seats = tuple(values["seats"]) if "seats" in values else None
        # A knob reaches the variants whose players have it (a sweep of players may set the
        # reference's budget); one that no variant's player has is refused below.
        mine = {k.name for n in (seats or (player,)) if n in PLAYERS
                for k in PLAYERS[n].knobs}
        used_knobs.update(k for k in knob_values if k in mine)
        knob_values = {k: v for k, v in knob_values.items() if k in mine}
        exhaust = values.get("exhaust", False)
        target = values.get("target")
        label = control or ", ".join(f"{k}={values[k]}" for k in keys) or \
            ("patched" if plain is not None else "the only variant")
        at = f"variant {i} ({label})"
        try:  # the box's problems name the patch (or the ablation), the variant and the place
            record, box, text, applied = (plain if control else boxes).get(ed, values, at)
        except InputError as e:
            probs.items.extend(e.problems)
            continue
        try:
            if isinstance(target, str) and mode == "rush":
                p = Problems(file)
                p.add("", "target", f"Rush targets are points, got {target!r}")
                p.raise_if_any()
            setup = prepare(ed, mode, players, player, target, exhaust, overrides,
                            box, source=file, seats=seats, knobs=knob_values)
        except InputError as e:
            probs.items.extend(Problem(file, at, p.field or p.where, p.message)
                               for p in e.problems)
            continue
        resolved = None if (target is None and exhaust) else int(setup.rules.target)
        swept = {}
        for k in keys:
            if control:
                swept[k] = None  # no grid value: the games table's column is null
            elif k == "target":
                swept[k] = resolved
            elif k == "seats":
                swept[k] = ",".join(values[k])
            elif k.startswith(KNOB_PREFIX):
                swept[k] = float(values[k])
            elif k in VARIANT_KEYS or k in SETTING_KEYS or k in ("ablate", "skill") \
                    or patch_key(k, patches):
                swept[k] = values[k]
            elif k.startswith("crisis_targets."):
                swept[k] = setup.profile.crisis_targets[k.split(".", 1)[1]]
            else:
                swept[k] = setup.profile.values[k]
        first = text is None or text not in texts
        texts.add(text)
        variants.append(Variant(i, ed, record, setup.content.name, mode, players,
                                setup.heuristic, resolved, bool(exhaust), overrides, swept,
                                dict(setup.profile.crisis_targets), seats, knob_values,
                                text, applied, first, control=bool(control)))
    if plain is not None and len(variants) > 1 and variants[0].control:
        variants[0] = dataclasses.replace(variants[0], swept_like=dict(variants[1].swept))
    swept_knobs = [k[len(KNOB_PREFIX):] for k in grid if k.startswith(KNOB_PREFIX)]
    for name in [*knobs, *swept_knobs]:
        if name not in used_knobs and variants:
            where = "[knobs]" if name in knobs else "[grid]"
            probs.add(where, name if name in knobs else KNOB_PREFIX + name,
                      "no player of any variant has this knob (`balance players` lists them)")
    probs.raise_if_any()
    return variants


def simulation(edition: str = "2e", mode: str = "crisis", players: int = 4, games: int = 1000,
               seed: int = 0, heuristic: str = "greedy", target: int | str | None = None,
               exhaust: bool = False, rules: dict | None = None, content: str | None = None,
               shard_size: int = DEFAULT_SHARD_SIZE) -> Experiment:
    """The one-variant experiment behind `balance.simulate` (named 'simulate'). Its arguments
    are checked as an experiment file's fields are, so that a wrong type is the same
    InputError, naming `balance.simulate` and the argument."""
    head = {"name": "simulate", "description": "balance.simulate", "edition": edition,
            "mode": mode, "heuristic": heuristic, "games": games, "seed": seed,
            "players": players, "exhaust": exhaust, "shard_size": shard_size}
    if target is not None:
        head["target"] = target
    if content is not None:
        head["content"] = str(content) if isinstance(content, Path) else content
    data = {"experiment": head, "rules": {} if rules is None else rules}
    try:
        return parse_experiment(data, "", "balance.simulate", Path("."))
    except InputError as e:
        # The arguments are not in an [experiment] table: name the argument alone.
        raise InputError([Problem(p.file, "" if p.where == "[experiment]" else p.where,
                                  p.field, p.message) for p in e.problems]) from None
