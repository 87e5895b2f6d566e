"""Content patches: named changes to the box, declared in an experiment file, so that door
costs, points, rooms and cards become levers like any rule field.

```toml
[patches.vein_discount]
select = { rooms = "* Vein" }       # which doors (or rooms, or cards): see SELECT below
door_cost = -1                      # what to change: see the operations below

[grid]
"vein_discount.door_cost" = [0, -1, -2]   # any number of a patch can be swept by its name
```

Selectors (`select`, every given key must hold):
- `rooms`: a room name or a list of them, with shell wildcards (`"* Vein"`);
- `kind`: a room kind (`action`, `movement`, `free`, `minecart`, `tunnel`, `plain`);
- `cost_has`: a gem that the door's cost holds (doors only);
- `points`: the door's points, a number or `[low, high]` (doors only);
- `cards`: the gems a card shows, e.g. `["Diamond Dust", "*"]` (`*` is any gem); card
  patches take no other selector;
- `skills`: a skill name or a list of them, with shell wildcards; skill patches take no other
  selector.

Operations on the selected doors (a door is a side with a cost; walls and tunnel doors are
never selected):
- `door_cost = N`: add N gems to each cost (N < 0 removes). With `gem = "Star Tear"` that gem
  is added or removed; without, the gems are chosen even-handedly (below).
- `replace_gem = ["Star Tear", "Obsidian"]`: every Star Tear in the costs becomes Obsidian.
- `set_cost = ["Obsidian", "Obsidian"]`: the cost, outright.
- `set_points = N`, `add_points = N` (floored at 0), or `points_formula = "gems - 1"`: points
  from the cost's size, `A*gems + B` (floored at 0).
Operations on the selected rooms: `copies = N` (0 takes the room out of the box), `ability =
"dig 2 Obsidian"` (the ability language of content files), `kind = "plain"` (with
`ability = ""`: the same doors, no ability). On the selected cards: `copies = N`. On the
selected skills: `copies = N`, `uses = N` (per turn), `effect = "extra steps 2"` (the
skill-effect language) and `amount = N`, the number in the effect (the 2 of "extra steps 2",
"hand limit +2", "draw 2 after ability", "recover 2"; after `effect`, when both are given);
a [grid] may sweep `<patch>.effect` over effect texts, and `<patch>.amount` like any number.
A patch with `add_room = { name = ..., kind = ..., ability = ..., north = ..., ... }` adds a
room described as in a content file; it takes no selector.

The even-handed rule: gems are removed (or added) one door at a time, in the content's order,
each time taking the gem of the door's cost (adding: a standard gem) whose count is furthest
behind its proportional share of the change, so that no gem's share of all door costs (times
copies) moves by more than rounding. A plain "drop the last gem of every cost" does not have
this property: costs are written in a sorted order, so it took almost all of one gem.

Patches apply in the order the file declares them, to the raw content, and the result is
checked like a content file (balance.games.gemrush.content.parse_content), with the box's counts
updated.
"""

from __future__ import annotations

import copy
import fnmatch
import re
from dataclasses import dataclass

from tomli_w import dumps

from balance.errors import Problems
from balance.games.gemrush.skill import MAX_N, SK_TURN, Effect, SkillError, parse_effect
from balance.textfile import short

SELECT_KEYS = ("rooms", "kind", "cost_has", "points", "cards", "skills")
DOOR_OPS = ("door_cost", "replace_gem", "set_cost", "set_points", "add_points",
            "points_formula")
ROOM_OPS = ("copies", "ability", "kind")
SKILL_OPS = ("copies", "uses", "effect", "amount")
PATCH_KEYS = ("select", "gem", "add_room", *DOOR_OPS, *ROOM_OPS, "uses", "effect", "amount")
# Numbers a [grid] may sweep as "<patch>.<field>" (and a skill's effect, as text).
NUMERIC = ("door_cost", "set_points", "add_points", "copies", "uses", "amount")
SIDES = ("north", "east", "south", "west")
MAX_ABS = 1000  # bound on any patch number: the content's own limits then apply
_FORMULA = re.compile(r"^\s*(?:(-?\d+)\s*\*\s*)?gems\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True)
class Patch:
    name: str
    fields: dict  # the patch's table as written (select included)

    def where(self) -> str:
        return f"[patches.{self.name}]"

    def with_values(self, values: dict) -> Patch:
        return Patch(self.name, {**self.fields, **values})


def parse_patches(table, file: str) -> dict[str, Patch]:
    """The [patches] table, checked for shape (what each selects is checked on the content)."""
    probs = Problems(file)
    if not isinstance(table, dict):
        probs.add("", "patches", "must be a table of named patches: [patches.NAME]")
        probs.raise_if_any()
    out = {}
    for name, fields in table.items():
        where = f"[patches.{name}]"
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", name):
            probs.add(where, "", "a patch name is letters, digits, _ and -")
            continue
        if not isinstance(fields, dict):
            probs.add(where, "", "must be a table")
            continue
        for k in fields:
            if k not in PATCH_KEYS:
                probs.add(where, k, f"unknown field (allowed: {', '.join(PATCH_KEYS)})")
        ops = [k for k in fields if k in DOOR_OPS + ROOM_OPS + SKILL_OPS + ("add_room",)]
        if not ops:
            probs.add(where, "", "changes nothing: give an operation (" +
                      ", ".join(dict.fromkeys(DOOR_OPS + ROOM_OPS + SKILL_OPS +
                                              ("add_room",))) + ")")
        select = fields.get("select", {})
        skill_patch = isinstance(select, dict) and "skills" in select
        if skill_patch and (len(select) > 1 or set(ops) - set(SKILL_OPS)):
            probs.add(where, "select.skills", "a skill patch selects by skills alone and sets "
                      "only copies, uses, effect and amount")
        skill_only = [k for k in ("uses", "effect", "amount") if k in fields]
        if not skill_patch and skill_only:
            probs.add(where, skill_only[0],
                      "changes a skill: select skills (select = { skills = \"Pathfinder\" })")
        door = [k for k in ops if k in DOOR_OPS]
        room = [] if skill_patch else [k for k in ops if k in ROOM_OPS]
        if door and room:
            probs.add(where, "", f"mixes door operations ({', '.join(door)}) with room "
                      f"operations ({', '.join(room)}): write two patches")
        if len([k for k in door if k in ("set_points", "add_points", "points_formula")]) > 1:
            probs.add(where, "", "give one of set_points, add_points, points_formula")
        if len([k for k in door if k in ("door_cost", "replace_gem", "set_cost")]) > 1:
            probs.add(where, "", "give one of door_cost, replace_gem, set_cost")
        if "gem" in fields and "door_cost" not in fields:
            probs.add(where, "gem", "only goes with door_cost")
        if "add_room" in fields:
            if len(ops) > 1 or "select" in fields:
                probs.add(where, "add_room", "adds a room and does nothing else: no select, "
                          "no other operation")
        elif not isinstance(select, dict) or not select:
            probs.add(where, "select", "is missing: say which doors, rooms, cards or skills it "
                      "changes "
                      f"({', '.join(SELECT_KEYS)})")
        else:
            for k in select:
                if k not in SELECT_KEYS:
                    probs.add(where, f"select.{k}", "unknown selector (allowed: "
                              f"{', '.join(SELECT_KEYS)})")
            if "cards" in select and (len(select) > 1 or door or set(room) - {"copies"}):
                probs.add(where, "select.cards", "a card patch selects by cards alone and "
                          "only sets copies")
            if room and ("cost_has" in select or "points" in select):
                probs.add(where, "select", "cost_has and points select doors; a room operation "
                          "selects rooms by rooms and kind")
        for k in NUMERIC:
            if k in fields:
                _check_number(probs, where, k, fields[k])
        _check_shapes(probs, where, fields)
        out[name] = Patch(name, dict(fields))
    probs.raise_if_any()
    return out


def _text(v) -> bool:
    return isinstance(v, str)


def _name(v) -> bool:
    return isinstance(v, str) and v.strip() != ""


def _names_list(v) -> bool:
    return isinstance(v, list) and all(_name(x) for x in v)


def _name_or_names(v) -> bool:
    return _name(v) or (_names_list(v) and len(v) > 0)


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _points(v) -> bool:
    return _int(v) or (isinstance(v, list) and len(v) == 2 and all(_int(x) for x in v)
                       and v[0] <= v[1])


# The shape of every field that is not a number (NUMERIC): what it must be, in the words of
# a message. A value of another shape was once read as something else (`set_cost = 5` as an
# empty cost, so every door was free).
SHAPES = {
    "gem": (_name, "a gem's name, e.g. \"Obsidian\""),
    "replace_gem": (lambda v: _names_list(v) and len(v) == 2,
                    "two gems' names, [from, to], e.g. [\"Star Tear\", \"Obsidian\"]"),
    "set_cost": (_names_list, "a list of gems' names, e.g. [\"Obsidian\", \"Obsidian\"]"),
    "points_formula": (_name, "a formula A*gems + B in quotes, e.g. \"gems - 1\""),
    "ability": (_text, "an ability in words, as in a content file (\"\" for none)"),
    "kind": (_name, "a room kind in quotes, e.g. \"plain\""),
    "effect": (_name, "a skill effect in words, e.g. \"extra steps 2\""),
    "add_room": (lambda v: isinstance(v, dict), "a room table, as in a content file"),
}
SELECT_SHAPES = {
    "rooms": (_name_or_names, "a room name or a list of them, e.g. \"* Vein\""),
    "kind": (_name, "a room kind in quotes, e.g. \"action\""),
    "cost_has": (_name, "a gem's name, e.g. \"Obsidian\""),
    "points": (_points, "a door's points: a whole number, or [low, high]"),
    "cards": (lambda v: _names_list(v) and len(v) > 0,
              "the gems a card shows, e.g. [\"Diamond Dust\", \"*\"]"),
    "skills": (_name_or_names, "a skill name or a list of them, e.g. \"Pathfinder\""),
}


def _check_shapes(probs: Problems, where: str, fields: dict) -> None:
    """Every non-numeric field of a patch, and of its select, has its shape."""
    checks = [(k, fields[k], SHAPES[k]) for k in SHAPES if k in fields]
    select = fields.get("select")
    if isinstance(select, dict):
        checks += [(f"select.{k}", select[k], SELECT_SHAPES[k]) for k in SELECT_SHAPES
                   if k in select]
    for key, value, (ok, what) in checks:
        if not ok(value):
            probs.add(where, key, f"must be {what}, got {short(repr(value))}")


def _set_amount(hit: list[dict], amount: int, gems: list, probs: Problems, where: str) -> None:
    """The number in each selected skill's effect set to `amount`. An effect without one
    (ability again, move to any room) is refused, and so is a turn's, whose 1 or 2 cards is
    how it is paid, not how much it gives."""
    if not 1 <= amount <= MAX_N:
        probs.add(where, "amount", f"is the number in a skill's effect, from 1 to {MAX_N}, "
                  f"got {amount}")
        return
    names = {str(g) for g in gems}
    without = []
    for k in hit:
        text = str(k.get("effect", ""))
        try:
            e = parse_effect(text, names)
        except SkillError:
            continue  # the content's own check names the skill and what is wrong
        if e.n == 0 or e.op == SK_TURN:
            without.append(f"{k.get('name')!r} ({text})")
            continue
        k["effect"] = str(Effect(e.op, amount, e.cond, e.out))
    if without:
        more = f" and {len(without) - 2} more" if len(without) > 2 else ""
        probs.add(where, "amount", f"selects skills whose effect has no number to set: "
                  f"{', '.join(without[:2])}{more} (amount sets N in extra steps N, hand "
                  "limit +N, draw N after ability, recover N)")


def _check_number(probs: Problems, where: str, key: str, v) -> bool:
    if isinstance(v, bool) or not isinstance(v, int) or abs(v) > MAX_ABS:
        probs.add(where, key, f"must be a whole number from -{MAX_ABS} to {MAX_ABS}, got {v!r}")
        return False
    if key == "copies" and v < 0:
        probs.add(where, key, f"cannot be negative, got {v}")
        return False
    return True


def apply_patches(data: dict, patches: list[Patch], file: str, label: str) -> dict:
    """The raw content `data` with every patch applied in order (a new dict). Problems name
    the experiment file and the patch (the caller adds the variant)."""
    out = copy.deepcopy(data)
    for patch in patches:
        probs = Problems(file)
        where = patch.where()
        _apply(out, patch, probs, where)
        probs.raise_if_any()
    _update_box(out)
    return out


def _names(value) -> list[str]:
    return [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []


def _room_selected(row: dict, select: dict) -> bool:
    name = row.get("name", "")
    if "rooms" in select and not any(fnmatch.fnmatchcase(str(name), pat)
                                     for pat in _names(select["rooms"])):
        return False
    return not ("kind" in select and row.get("kind") != select["kind"])


def _door_selected(door, select: dict) -> bool:
    if not isinstance(door, dict):
        return False  # a wall, or a tunnel's free door
    cost = door.get("cost", [])
    if "cost_has" in select and select["cost_has"] not in cost:
        return False
    if "points" in select:
        p, want = door.get("points", 0), select["points"]
        if isinstance(want, list) and len(want) == 2:
            return want[0] <= p <= want[1]
        return p == want
    return True


def _set_fields(data: dict, key: str, hit: list[dict], ops, f: dict) -> None:
    """Set the patch's fields `ops` on the selected entries of data[key], then drop every
    entry of it whose copies are now 0."""
    for x in hit:
        for op in ops:
            if op in f:
                x[op] = f[op]
    data[key] = [x for x in data[key] if x.get("copies", 1) != 0]


def _apply(data: dict, patch: Patch, probs: Problems, where: str) -> None:
    f = patch.fields
    gems = [g.get("name") for g in data.get("gems", []) if isinstance(g, dict)]
    standard = [g.get("name") for g in data.get("gems", [])
                if isinstance(g, dict) and g.get("kind") == "standard"]
    for key in ("gem", "cost_has"):
        v = f.get(key, f.get("select", {}).get(key) if key == "cost_has" else None)
        if v is not None and v not in gems:
            probs.add(where, key, f"unknown gem {v!r}")
    for key in ("replace_gem", "set_cost"):
        for g in _names(f.get(key, [])):
            if g not in gems:
                probs.add(where, key, f"unknown gem {g!r}")
    if probs.items:
        return
    if "add_room" in f:
        data.setdefault("rooms", []).append(copy.deepcopy(f["add_room"]))
        return
    select = f["select"]
    if "skills" in select:
        want = _names(select["skills"])
        hit = [k for k in data.get("skills", []) if isinstance(k, dict)
               and any(fnmatch.fnmatchcase(str(k.get("name", "")), w) for w in want)]
        if not hit:
            probs.add(where, "select", f"selects no skill (skills = {want})")
            return
        _set_fields(data, "skills", hit, ("copies", "uses", "effect"), f)
        if "amount" in f:
            _set_amount(hit, f["amount"], gems, probs, where)
        return
    if "cards" in select:
        want = _names(select["cards"])
        hit = [c for c in data.get("cards", []) if _card_matches(c.get("gems", []), want)]
        if not hit:
            probs.add(where, "select", f"selects no card (cards = {want})")
            return
        for c in hit:
            c["copies"] = f["copies"]
        data["cards"] = [c for c in data["cards"] if c.get("copies", 1) != 0]
        if not data["cards"]:
            probs.add(where, "copies", "takes every card out of the box")
        return
    rooms = [r for r in data.get("rooms", []) if isinstance(r, dict) and _room_selected(r, select)]
    if any(k in f for k in ROOM_OPS):
        if not rooms:
            probs.add(where, "select", f"selects no room ({_describe(select)})")
            return
        _set_fields(data, "rooms", rooms, ROOM_OPS, f)
        if not any(r.get("kind") != "tunnel" for r in data["rooms"]):
            probs.add(where, "copies", "takes every room to stand in out of the box")
        return
    doors = [(r, s) for r in rooms for s in SIDES if _door_selected(r.get(s), select)]
    if not doors:
        probs.add(where, "select", f"selects no door ({_describe(select)})")
        return
    if "door_cost" in f:
        _change_costs(data, doors, f["door_cost"], f.get("gem"), standard)
    elif "replace_gem" in f:
        pair = _names(f["replace_gem"])
        if len(pair) != 2:
            probs.add(where, "replace_gem", "needs two gems: [from, to]")
            return
        for r, s in doors:
            r[s]["cost"] = [pair[1] if g == pair[0] else g for g in r[s]["cost"]]
    elif "set_cost" in f:
        for r, s in doors:
            r[s]["cost"] = _names(f["set_cost"])
    if "set_points" in f:
        for r, s in doors:
            r[s]["points"] = max(0, f["set_points"])
    elif "add_points" in f:
        for r, s in doors:
            r[s]["points"] = max(0, r[s].get("points", 0) + f["add_points"])
    elif "points_formula" in f:
        m = _FORMULA.match(str(f["points_formula"]))
        if not m:
            probs.add(where, "points_formula", f"{f['points_formula']!r} is not A*gems + B "
                      "(e.g. \"gems - 1\", \"2*gems\")")
            return
        a = int(m.group(1) or 1)
        b = int(m.group(3) or 0) * (-1 if m.group(2) == "-" else 1)
        for r, s in doors:
            r[s]["points"] = max(0, a * len(r[s]["cost"]) + b)


def _describe(select: dict) -> str:
    return ", ".join(f"{k} = {v!r}" for k, v in select.items())


def _card_matches(gems: list, want: list[str]) -> bool:
    if len(gems) != len(want):
        return False
    rest = list(gems)
    for w in sorted(want, key=lambda x: x == "*"):  # named gems first, wildcards take the rest
        if w == "*":
            rest.pop()
        elif w in rest:
            rest.remove(w)
        else:
            return False
    return True


def _cost_counts(data: dict) -> dict[str, int]:
    """Each gem's count over every door cost, times the room's copies."""
    counts: dict[str, int] = {}
    for r in data.get("rooms", []):
        for s in SIDES:
            d = r.get(s)
            if isinstance(d, dict):
                for g in d.get("cost", []):
                    counts[g] = counts.get(g, 0) + r.get("copies", 1)
    return counts


def _change_costs(data: dict, doors, n: int, gem: str | None, standard: list[str]) -> None:
    if n == 0:
        return
    if gem is not None:
        for r, s in doors:
            cost = list(r[s]["cost"])
            for _ in range(abs(n)):
                if n > 0:
                    cost.append(gem)
                elif gem in cost:
                    del cost[len(cost) - 1 - cost[::-1].index(gem)]
            r[s]["cost"] = cost
        return
    # Even-handed: each gem's change is kept in step with its share of all door costs.
    counts = _cost_counts(data)
    pool = standard if n > 0 else sorted(counts)
    total = sum(counts.get(g, 0) for g in pool) or 1
    share = {g: counts.get(g, 0) / total for g in pool}
    if n > 0 and total == 1 and not counts:
        share = {g: 1 / len(pool) for g in pool}
    changed = {g: 0.0 for g in pool}
    done = 0.0
    for r, s in doors:
        copies = r.get("copies", 1)
        cost = list(r[s]["cost"])
        for _ in range(abs(n)):
            choices = [g for g in pool if (n > 0 or g in cost)]
            if not choices:
                break
            # the gem furthest behind its share of the change made so far (ties: file order)
            g = max(choices, key=lambda x: (share[x] * (done + copies) - changed[x],
                                            -pool.index(x)))
            if n > 0:
                cost.append(g)
            else:
                del cost[len(cost) - 1 - cost[::-1].index(g)]
            changed[g] += copies
            done += copies
        r[s]["cost"] = cost


def _update_box(data: dict) -> None:
    """The box's declared counts follow the patched copies."""
    box = data.get("box")
    if not isinstance(box, dict):
        return

    def total(rows):
        return sum(r.get("copies", 1) for r in rows if isinstance(r, dict)
                   and isinstance(r.get("copies", 1), int))

    if isinstance(data.get("rooms"), list):
        box["room_tiles"] = total(data["rooms"])
    if isinstance(data.get("cards"), list):
        box["gem_cards"] = total(data["cards"])
    if isinstance(data.get("skills"), list) and "skill_cards" in box:
        box["skill_cards"] = total(data["skills"])


def patch_key(key: str, patches: dict[str, Patch]) -> tuple[str, str] | None:
    """("patch", "field") for a [grid] key that sweeps a patch's number, else None."""
    if "." not in key:
        return None
    name, fld = key.split(".", 1)
    if name in patches:
        return name, fld
    return None


def check_swept(key: str, patches: dict[str, Patch], values: list, file: str) -> None:
    """A swept patch number: the field must be numeric and each value a whole number."""
    probs = Problems(file)
    name, fld = key.split(".", 1)
    if fld == "effect" and "skills" in patches[name].fields.get("select", {}):
        for v in values:
            if not isinstance(v, str):
                probs.add("[grid]", key, f"sweeps skill effects in words, got {v!r}")
    elif fld not in NUMERIC:
        probs.add("[grid]", key, f"patch {name!r} can sweep only {', '.join(NUMERIC)}")
    else:
        for v in values:
            _check_number(probs, "[grid]", key, v)
    probs.raise_if_any()


def content_text(data: dict) -> str:
    """A patched content as a TOML content file (balance content EXPERIMENT --variant N)."""
    return dumps(data)

