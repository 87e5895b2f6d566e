"""Gem Rush's part of an experiment file: its `variants` hook (balance/contract/experiment.py).

```toml
[experiment]
edition = "2e"                 # rule profile: 1e or 2e (or swept in [grid])
content = "gemrush-2e"         # optional: shipped name or path (relative to this file)
mode = "crisis"                # crisis or rush
target = "Master"              # optional: points or a Crisis difficulty (or swept)
exhaust = true                 # optional: play a Crisis to the end of the clock (or swept)
# ablate = "out"               # one variant per room, against the unchanged box
# each_skill = true            # one variant per skill, against No Skills
# control = true               # the unchanged box beside a grid of levers, variant 0

[patches.cheap]                # optional: changes to the box, their numbers sweepable
select = { rooms = "Electrum*" }
door_cost = -1

[grid]
edition = ["1e", "2e"]
"cheap.door_cost" = [-1, -2]
"crisis_targets.Master" = [70, 75]
```
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from balance.contract.experiment import (
    VARIANT_KEYS,
    Cell,
    ExperimentInput,
    GameVariants,
    VariantSpec,
)
from balance.errors import InputError, Problem, Problems
from balance.files import read_bytes
from balance.games.gemrush.content import CONTENT_DIR, load_content, parse_content, read_toml
from balance.games.gemrush.game import ABLATIONS
from balance.games.gemrush.patches import (
    Patch,
    apply_patches,
    check_swept,
    content_text,
    parse_patches,
    patch_key,
)
from balance.games.gemrush.play import prepare
from balance.games.gemrush.rules import (
    PROFILE_DIR,
    available_profiles,
    load_profile,
    profile_for,
)
from balance.textfile import MAX_BYTES, read_text, short

# `ablate = "out"` (or "plain", Game.ablations) makes one variant per room on top of the
# unchanged box (variant 0, the baseline): the room taken out of the box, or swapped for a plain
# room with the same doors and no ability. The variants' swept column is `ablate` (the room's
# name).
ABLATE_MODES = tuple(how for how, _ in ABLATIONS)
# `each_skill = true` makes one variant per skill of the box, every player holding it (the
# Shared Skill variant), on top of No Skills (variant 0, the baseline), on the same seeds:
# each skill's paired worth to a Crisis team. The variants' swept column is `skill`.
# `control = true` puts one unchanged variant beside the [grid]: variant 0 (the baseline)
# plays the fixed settings ([experiment], [rules], [knobs]) on the box as its content file has
# it, with no grid value and no patch; the grid's variants follow from 1. Its games-table
# columns of the grid's keys are null, and its label is CONTROL.
# Fixed in [experiment] or swept in [grid], beside the neutral players, heuristic and seats.
SCENE_KEYS = ("target", "exhaust")
# Fixed in [experiment] or swept in [grid]: which box and which rules. Swept, each becomes a
# games-table column (edition has its own already).
SETTING_KEYS = ("edition", "content")
# The grid keys this game sweeps itself (ablate, each_skill).
OWN_SWEEPS = ("ablate", "skill")
GRID_FORMS = ("target", "exhaust", "edition", "content", "<patch>.<number>")


def variants(inp: ExperimentInput) -> GameVariants:
    """The game's keys of an experiment file, every variant compiled (see the module doc)."""
    return _Reader(inp).read()


@dataclass(frozen=True)
class _Switches:
    ablate: str | None
    each_skill: bool
    control: bool


class _Reader:
    """One experiment file's Gem Rush keys, read in the order their problems are named."""

    def __init__(self, inp: ExperimentInput):
        self.inp, self.probs, self.file = inp, inp.probs, inp.file
        self.head = inp.head
        self.grid = dict(inp.grid)
        self.profile = None  # the rules of the first variant's box, once read (_box)

    def read(self) -> GameVariants:
        edition = self._edition()
        mode = self._mode()
        content = self._content()
        patches = self._patches()
        fixed = self._scene()
        self._game_keys(patches, fixed)
        switches = self._switches(mode, patches)
        if not edition:
            self.probs.raise_if_any()
        c, content_file = self._box(edition, content)
        self._swept_rules(c, edition, patches)
        self.probs.raise_if_any()
        base = self.inp.base_dir
        default = _resolve_content(content, base) if content else None
        resolve = {v: _resolve_content(v, base) for v in self.grid.get("content", [])}
        boxes = _Boxes(self.file, default, resolve, patches, switches.ablate)
        self._own_sweeps(switches, boxes, edition, c, content_file)
        plain = _Boxes(self.file, default, resolve, {}) if switches.control else None
        cells = self.inp.cells(self.grid, switches.control,
                               "patched" if switches.control else "the only variant",
                               lambda k: k in OWN_SWEEPS or patch_key(k, patches))
        made = _Made(self.file, mode, edition, fixed, patches, boxes, plain)
        specs = [s for s in (made.variant(cell, self.probs) for cell in cells) if s is not None]
        return GameVariants({"edition": edition, "content": content_file, "mode": mode},
                            self.grid, specs, _inputs(specs, base))

    def _text(self, key: str, required: bool = True) -> str:
        v = self.head.get(key)
        if v is None:
            if required:
                self.probs.add("[experiment]", key, "is missing")
            return ""
        if not isinstance(v, str):
            self.probs.add("[experiment]", key, f"must be text, got {short(repr(v))}")
            return ""
        if required and not v.strip():
            self.probs.add("[experiment]", key, "is empty")
            return ""
        return v

    def _edition(self) -> str:
        swept = self.grid.get("edition")
        edition = self._text("edition", required=swept is None)
        if swept is not None:
            if edition:
                self.probs.add("[grid]", "edition", "is also fixed in [experiment]: give it in "
                               "one place")
            if not isinstance(swept, list) or not swept:
                self.probs.add("[grid]", "edition", "must be a non-empty list of editions")
                swept = []
            edition = next((e for e in swept if isinstance(e, str)), "")
        for e in (swept or []) + ([edition] if swept is None else []):
            if e and e not in available_profiles():
                self.probs.add("[grid]" if swept is not None else "[experiment]", "edition",
                               f"unknown edition {e!r} (known: "
                               f"{', '.join(available_profiles())})")
                edition = ""
        return edition

    def _mode(self) -> str:
        mode = self._text("mode")
        if mode and mode not in ("crisis", "rush"):
            self.probs.add("[experiment]", "mode", f"must be crisis or rush, got {mode!r}")
        return mode

    def _content(self) -> str:
        content = self._text("content", required=False)
        if self.head.get("content") == "":
            self.probs.add("[experiment]", "content", "is empty: name a content file or a "
                           "shipped content, or leave the field out for the edition's own")
        if "content" in self.grid and content:
            self.probs.add("[grid]", "content", "is also fixed in [experiment]: give it in one "
                           "place")
        return content

    def _patches(self) -> dict:
        if "patches" not in self.inp.data:
            return {}
        try:
            return parse_patches(self.inp.data["patches"], self.file)
        except InputError as e:
            self.probs.items.extend(e.problems)
            return {}

    def _scene(self) -> dict:
        fixed = {k: self.head[k] for k in SCENE_KEYS if k in self.head}
        for k, v in fixed.items():
            _check_scene(self.probs, "[experiment]", k, v)
        return fixed

    def _game_keys(self, patches: dict, fixed: dict) -> None:
        """The grid keys the neutral parser left to the game, checked in file order; a bad
        one is dropped from the grid."""
        for k in self.inp.game_keys:
            values = self.grid[k]
            if k in SETTING_KEYS:
                if not isinstance(values, list) or not values or \
                        not all(isinstance(v, str) and v for v in values):
                    self.probs.add("[grid]", k, f"must be a non-empty list of names, got "
                                   f"{values!r}")
                    del self.grid[k]
                    continue
            elif patch_key(k, patches):
                try:
                    check_swept(k, patches, values if isinstance(values, list) else [],
                                self.file)
                except InputError as e:
                    self.probs.items.extend(e.problems)
            elif k in SCENE_KEYS:
                if k in fixed:
                    self.probs.add("[grid]", k, "is also fixed in [experiment]: give it in one "
                                   "place")
            else:
                self.inp.unknown_key(k, GRID_FORMS)
                del self.grid[k]
                continue
            if not self.inp.values_ok(k, values):
                del self.grid[k]
                continue
            for v in values if k in SCENE_KEYS else ():
                _check_scene(self.probs, "[grid]", k, v)

    def _switches(self, mode: str, patches: dict) -> _Switches:
        probs, grid = self.probs, self.grid
        ablate = self.head.get("ablate")
        if ablate is not None:
            if ablate not in ABLATE_MODES:
                probs.add("[experiment]", "ablate", f"must be one of {', '.join(ABLATE_MODES)}, "
                          f"got {ablate!r}")
            elif grid:
                probs.add("[experiment]", "ablate", "makes the variants itself (one per room, "
                          "against the unchanged box): fix the [grid] keys in [experiment] or "
                          "[rules], or write one ablation per setting")
        each_skill = self._switch("each_skill")
        if each_skill and (grid or ablate is not None):
            probs.add("[experiment]", "each_skill", "makes the variants itself (one per skill, "
                      "against No Skills): it takes no [grid] and no ablate; fix those in "
                      "[experiment] or [rules], or write one experiment per setting")
        elif each_skill and mode == "rush":
            probs.add("[experiment]", "each_skill", "measures a skill's worth to a Crisis team; "
                      "in Rush every seat would hold it. Read the holders' win rates in the "
                      "Rush section of a run that plays the Normal variant instead")
        control = self._switch("control")
        if control and (ablate is not None or each_skill):
            probs.add("[experiment]", "control", "puts the unchanged box beside a [grid]; "
                      f"{'ablate' if ablate is not None else 'each_skill'} makes its own "
                      "baseline already (variant 0): leave control out")
            control = False
        elif control:
            scene = [k for k in grid if k in (*VARIANT_KEYS, *SCENE_KEYS, *SETTING_KEYS)]
            if scene:
                probs.add("[grid]", scene[0], "is swept, and control = true puts one variant "
                          f"beside the grid: it would need one value of {scene[0]}. Fix "
                          f"{scene[0]} in [experiment], or write one experiment per value")
            elif not grid and not patches and "patches" not in self.inp.data:
                probs.add("[experiment]", "control", "has nothing to stand beside: the control "
                          "plays the fixed settings on the unchanged box, so give a [grid] or "
                          "[patches] to compare with it")
        return _Switches(ablate, each_skill, control)

    def _switch(self, key: str) -> bool:
        """An [experiment] switch (absent: off); a value that is not true or false is a
        problem, read as off so that the rest of the file is still checked."""
        value = self.head.get(key, False)
        if isinstance(value, bool):
            return value
        self.probs.add("[experiment]", key, f"must be true or false, got {value!r}")
        return False

    def _box(self, edition: str, content: str):
        """The content the variants start from, and the profile with the fixed [rules]:
        checked even when the above found problems, so that one run of the command shows
        them all. (Content, its file)."""
        probs, base = self.probs, self.inp.base_dir
        content_file = (_resolve_content(content, base) if content else
                        str(CONTENT_DIR / f"{load_profile(edition).content}.toml"))
        swept_content = "content" in self.grid
        if swept_content:
            content_file = _resolve_content(self.grid["content"][0], base)
            for other in self.grid["content"][1:]:
                try:
                    load_content(_resolve_content(other, base))
                except InputError as e:
                    for p in e.problems:
                        probs.add("[grid]", "content", f"{p.file}: {p.message}"
                                  if p.file != self.file else p.message)
        try:
            c = load_content(content_file)  # its problems name the content file
            self.profile = profile_for(c, edition, self.inp.rules, source=self.file)
        except InputError as e:
            for p in e.problems:
                if p.file == self.file:
                    probs.items.append(Problem(self.file, "[rules]", p.field, p.message))
                elif not p.where and not p.field:
                    # The content file itself cannot be read: say which field named it.
                    probs.add("[grid]" if swept_content else "[experiment]", "content",
                              f"{p.file}: {p.message}")
                else:
                    probs.items.append(p)
            raise InputError(probs.items) from None
        return c, content_file

    def _swept_rules(self, c, edition: str, patches: dict) -> None:
        """Each swept rule value on its own, so that a bad value is named once, not per
        variant (against the first edition and content when those are swept too; each
        variant is compiled anyway)."""
        for k, values in self.grid.items():
            if not self.inp.game.rule_key(k) or patch_key(k, patches):
                continue
            for v in values:
                try:
                    self.profile.with_overrides({k: v}, self.file)
                except InputError as e:
                    for p in e.problems:
                        self.probs.add("[grid]", k, p.message)

    def _own_sweeps(self, switches: _Switches, boxes: _Boxes, edition: str, c,
                    content_file: str) -> None:
        """each_skill and ablate: the grid key each sweeps (skill, ablate)."""
        probs = self.probs
        if switches.each_skill and not probs.items:
            if not c.skills:
                probs.add("[experiment]", "each_skill", f"the box {content_file} has no skills")
                probs.raise_if_any()
            self.grid["skill"] = ["none"] + [k.name for k in c.skills]
        if switches.ablate in ABLATE_MODES and not probs.items:
            # The rooms of the box the variants play (the designer's patches applied: a room
            # they add is ablated too, one they take out is not), in content order; a tunnel
            # has no ability to take away from a plain copy.
            try:
                rooms = _patched_box(boxes, edition, c).rooms
            except InputError as e:
                probs.items.extend(e.problems)
                probs.raise_if_any()
            self.grid["ablate"] = ["none"] + [r.name for r in rooms
                                              if switches.ablate == "out" or r.kind != "tunnel"]


def _check_scene(probs: Problems, where: str, key: str, value) -> None:
    """Type checks for target / exhaust values (their ranges come with the variants)."""
    if key == "exhaust" and not isinstance(value, bool):
        probs.add(where, key, f"must be true or false, got {value!r}")
    elif key == "target" and not ((isinstance(value, int) and not isinstance(value, bool)
                                   and value >= 1) or (isinstance(value, str) and value.strip())):
        probs.add(where, key, f"must be points (a whole number >= 1) or a Crisis difficulty "
                  f"name, got {value!r}")


class _Made:
    """Compiles each cell of the grid into the game's part of a variant."""

    def __init__(self, file: str, mode: str, edition: str, fixed: dict, patches: dict,
                 boxes: _Boxes, plain: _Boxes | None):
        self.file, self.mode, self.edition, self.patches = file, mode, edition, patches
        self.fixed = fixed  # target and exhaust as [experiment] gives them
        self.boxes, self.plain = boxes, plain
        self.texts: set[str | None] = set()

    def variant(self, cell: Cell, probs: Problems) -> VariantSpec | None:
        """The cell compiled; None with its problems added (each names the variant)."""
        values = {**self.fixed, **cell.values}
        ed = values.get("edition", self.edition)
        try:  # the box's problems name the patch (or the ablation), the variant and the place
            record, box, text, applied = (self.plain if cell.control else self.boxes).get(
                ed, values, cell.at)
        except InputError as e:
            probs.items.extend(e.problems)
            return None
        rules = dict(cell.rules)
        if "skill" in cell.grid:
            rules["skills"] = "none" if values["skill"] == "none" else "shared"
            rules["shared_skill"] = "" if values["skill"] == "none" else values["skill"]
        target, exhaust = values.get("target"), values.get("exhaust", False)
        try:
            if isinstance(target, str) and self.mode == "rush":
                p = Problems(self.file)
                p.add("", "target", f"Rush targets are points, got {target!r}")
                p.raise_if_any()
            setup = prepare(ed, self.mode, values["players"], cell.heuristic, target=target,
                            exhaust=exhaust, rules=rules, content=box, source=self.file,
                            seats=cell.seats, knobs=cell.knobs)
        except InputError as e:
            probs.items.extend(Problem(self.file, cell.at, p.field or p.where, p.message)
                               for p in e.problems)
            return None
        resolved = None if (target is None and exhaust) else int(setup.rules.target)
        first = text is None or text not in self.texts
        self.texts.add(text)
        settings = {"edition": ed, "content": setup.content.name, "mode": self.mode,
                    "target": resolved, "exhaust": bool(exhaust),
                    "difficulties": dict(setup.profile.crisis_targets)}
        if applied:
            # Only the first variant of each patched box records its text (the others name
            # it by sha256), or a sweep of 1,000 variants would write 30 MB.
            settings["patches"] = [dict(p) for p in applied]
            settings["content_sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
            if first:
                settings["content_toml"] = text
        return VariantSpec(cell, settings, self._swept(cell, setup, resolved), rules,
                           {"content": record, "content_text": text})

    def _swept(self, cell: Cell, setup, resolved: int | None) -> dict:
        """The game's grid keys' values, as the games table stores them."""
        out = {}
        for k, v in cell.grid.items():
            if k == "target":
                out[k] = resolved
            elif k.startswith("crisis_targets."):
                out[k] = setup.profile.crisis_target(k.split(".", 1)[1])
            elif k in setup.profile.values:
                out[k] = setup.profile.values[k]
            else:  # edition, content, ablate, skill, a patch's number, exhaust
                out[k] = v
        return out


def variant_content(variant):
    """A variant's content: the shipped name, or a Content parsed from the text it carries
    (nothing is written to disk, so no file outside the run can stand in for it)."""
    text = variant.carry.get("content_text")
    if text is None:
        return variant.carry["content"]
    return parse_content(tomllib.loads(text), variant.carry["content"])


def prepare_variant(variant, source: str = "arguments"):
    """The Setup of an experiment's variant (balance.contract.experiment.Variant)."""
    s = variant.settings
    return prepare(s["edition"], s["mode"], variant.players,
                   variant.seats[0] if variant.seats else variant.heuristic,
                   target=s["target"], exhaust=s["exhaust"], rules=variant.rules,
                   content=variant_content(variant), source=source, seats=variant.seats,
                   knobs=variant.knobs)


def simulation(edition: str = "2e", mode: str = "crisis", players: int = 4, games: int = 1000,
               seed: int = 0, heuristic: str = "greedy", target: int | str | None = None,
               exhaust: bool = False, rules: dict | None = None, content: str | None = None,
               shard_size: int = 5000):
    """The one-variant experiment behind `balance.simulate` (named 'simulate'). Its arguments
    are checked as an experiment file's fields are, so that a wrong type is the same
    InputError, naming `balance.simulate` and the argument."""
    from balance.running.experiment import parse_arguments  # lazy: the parser calls this game

    head = {"name": "simulate", "description": "balance.simulate", "edition": edition,
            "mode": mode, "heuristic": heuristic, "games": games, "seed": seed,
            "players": players, "exhaust": exhaust, "shard_size": shard_size}
    if target is not None:
        head["target"] = target
    if content is not None:
        head["content"] = str(content) if isinstance(content, Path) else content
    return parse_arguments(head, rules)


def rooms_taken_out(exp) -> dict[str, str]:
    """Rooms of the experiment's box that its own patches take out, each with the patch that
    does, in content order: an ablation of the patched box has nothing of them to take out."""
    if not exp.data.get("patches"):
        return {}
    data = read_toml(Path(exp.settings["content"]))
    out: dict[str, str] = {}
    for patch in parse_patches(exp.data["patches"], exp.file).values():
        before = [r.get("name") for r in data.get("rooms", []) if isinstance(r, dict)]
        data = apply_patches(data, [patch], exp.file, "")
        after = {r.get("name") for r in data.get("rooms", []) if isinstance(r, dict)}
        out.update({room: patch.name for room in before if room not in after})
    return out


def ablation_notes(base) -> list[str]:
    """Gem Rush's `ablation_notes` hook: what `balance ablate` says before it plays, each
    room the experiment's own patches take out of the box already (and so not ablated)."""
    return [f"{room}: not ablated; the experiment's patch {patch!r} takes it out of the box "
            "already" for room, patch in rooms_taken_out(base).items()]


def _resolve_content(content: str, base_dir: Path) -> str:
    p = Path(content)
    if p.suffix == ".toml" or "/" in content:
        return str(p if p.is_absolute() or not _exists(base_dir / p) else base_dir / p)
    return str(CONTENT_DIR / f"{content}.toml") if _exists(CONTENT_DIR / f"{content}.toml") \
        else content


def _inputs(specs: list[VariantSpec], base_dir: Path) -> dict[str, str]:
    """Every data file the variants' games depend on -> its sha256. A shipped file is keyed
    by its name (content/gemrush-2e.toml, profiles/2e.toml). A designer's content file is
    keyed by its path relative to the experiment file's folder (absolute when outside it):
    two files of one name in two folders are two inputs, each hashed, and a project folder
    moved whole still resumes. A file beside the experiment keeps the key that older runs,
    which keyed every input by its name, gave it."""
    boxes = [s.carry["content"] for s in specs]
    shipped = {c for c in boxes if not _designer_file(c)}
    out = {f"content/{name}.toml": _sha(CONTENT_DIR / f"{name}.toml") for name in shipped}
    for s, box in zip(specs, boxes, strict=True):
        edition = s.settings["edition"]
        out[f"profiles/{edition}.toml"] = _sha(PROFILE_DIR / f"{edition}.toml")
        if _designer_file(box):
            path = Path(box).resolve()
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
        return str(CONTENT_DIR / f"{load_profile(edition).content}.toml")

    def get(self, edition: str, values: dict, label: str):
        """(content name for the record, Content or shipped name, text or None, patches).
        `label` names the variant in problems, e.g. "variant 3 (players=2)"."""
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
                c = load_content(path)
                text = None if shipped else read_text(path, "content TOML file")
                self.made[key] = (record, c if text is not None else record, text, ())
            else:
                data = self._patched(path, user, change, room, label)
                c = self._parsed(data, path, user, room, label)
                self.made[key] = (record, c, content_text(data),
                                  tuple(p.fields for p in applied))
        return self.made[key]

    def _ablation(self, room: str) -> Patch:
        exact = glob.escape(room)  # the room's own name, wildcards taken literally
        change = {"copies": 0} if self.ablate == "out" else {"kind": "plain", "ability": ""}
        return Patch("ablate", {"select": {"rooms": exact}, **change})

    def _verb(self) -> str:
        return "taken out of the box" if self.ablate == "out" else \
            "made plain (same doors, no ability)"

    def _patched(self, path: str, user: list, change, room: str, label: str) -> dict:
        """The raw content with the designer's patches applied, then the ablation's change;
        problems in the words of whichever failed."""
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
