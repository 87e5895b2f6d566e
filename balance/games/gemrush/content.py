"""What is in the box: gem types, gem cards, room tiles and skills, loaded from TOML.

`load_content` validates a file completely and raises `InputError` with every problem found;
a `Content` that exists is therefore valid. The format is documented in
balance/docs/guide/reference/content.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from balance import textfile
from balance.errors import InputError, Problems
from balance.games.gemrush.ability import AbilityError, Step, parse_ability
from balance.games.gemrush.capacity import content_problems
from balance.games.gemrush.rules import available_profiles, load_profile
from balance.games.gemrush.skill import Effect, SkillError, parse_effect
from balance.textfile import short

SIDES = ("north", "east", "south", "west")  # clockwise; index = side number
ROOM_KINDS = ("action", "movement", "free", "tunnel", "minecart", "plain")
GEM_KINDS = ("standard", "special")
POWERS = ("wild", "echo", "bonus", "warp")
MAX_GEM_TYPES = 32  # gem sets are int64 bitmasks in the engine
CONTENT_DIR = Path(__file__).parent / "data" / "content"
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class Gem:
    name: str
    kind: str  # standard | special
    power: str = ""  # for special gems: wild | echo | bonus | warp


@dataclass(frozen=True)
class Card:
    gems: tuple[str, ...]  # one or two names; a double repeats the name
    copies: int


@dataclass(frozen=True)
class Door:
    cost: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class Room:
    name: str
    copies: int
    kind: str
    ability_text: str
    ability: tuple[Step, ...]
    edges: tuple[Door | None, ...]  # by side number; None is a wall
    pairs: tuple[tuple[int, int], ...] = ()  # tunnels: joined sides

    @property
    def doors(self) -> int:
        return sum(e is not None for e in self.edges)


@dataclass(frozen=True)
class Skill:
    name: str
    text: str
    effect: Effect  # balance/games/gemrush/skill.py
    uses: int = 1  # per turn
    copies: int = 1


@dataclass(frozen=True)
class Content:
    path: str
    name: str
    edition: str
    description: str
    reconstructed: str
    declared_rooms: int
    declared_cards: int
    gems: tuple[Gem, ...]
    cards: tuple[Card, ...]
    rooms: tuple[Room, ...]
    skills: tuple[Skill, ...]
    rules: dict = field(default_factory=dict)  # the file's own rule overrides

    @property
    def room_tiles(self) -> int:
        return sum(r.copies for r in self.rooms)

    @property
    def gem_cards(self) -> int:
        return sum(c.copies for c in self.cards)

    def gem(self, name: str) -> Gem:
        return next(g for g in self.gems if g.name == name)


TOP_KEYS = {"content", "box", "gems", "cards", "rooms", "skills", "rules"}
CONTENT_KEYS = {"name", "edition", "description", "reconstructed"}
BOX_KEYS = {"room_tiles", "gem_cards"}
GEM_KEYS = {"name", "kind", "power"}
CARD_KEYS = {"gems", "copies"}
ROOM_KEYS = {"name", "copies", "kind", "ability", "pairs", *SIDES}
DOOR_KEYS = {"cost", "points"}
SKILL_KEYS = {"name", "text", "effect", "uses", "copies"}


def resolve_content_path(name_or_path: str | Path) -> Path:
    """A shipped content name ('gemrush-2e') or a path to a TOML file."""
    p = Path(name_or_path)
    if p.suffix == ".toml" or p.exists():
        return p
    shipped = CONTENT_DIR / f"{name_or_path}.toml"
    if shipped.exists():
        return shipped
    known = ", ".join(sorted(q.stem for q in CONTENT_DIR.glob("*.toml")))
    raise input_error(str(name_or_path),
                      f"no such content file or shipped content (shipped: {known})")


def input_error(file: str, message: str) -> InputError:
    probs = Problems(file)
    probs.add("", "", message)
    return InputError(probs.items)


def read_toml(path: Path) -> dict:
    return textfile.read_toml(path, "TOML file")


def load_content(name_or_path: str | Path) -> Content:
    path = resolve_content_path(name_or_path)
    data = read_toml(path)
    return parse_content(data, str(path))


def _unknown_keys(probs: Problems, where: str, table: dict, allowed: set[str], prefix="") -> None:
    for key in table:
        if key not in allowed:
            probs.add(where, prefix + key, f"unknown field (allowed: {', '.join(sorted(allowed))})")


def _int(probs, where, field, value, minimum=0) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        probs.add(where, field, f"must be a whole number, got {value!r}")
        return None
    if value < minimum:
        probs.add(where, field, f"must be at least {minimum}, got {value}")
        return None
    return value


def _str(probs, where, field, value, required=True) -> str | None:
    if value is None:
        if required:
            probs.add(where, field, "is missing")
        return None
    if not isinstance(value, str):
        probs.add(where, field, f"must be text, got {value!r}")
        return None
    return value


def _table_list(probs, data, key) -> list:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        probs.add("", key, f"must be an array of tables ([[{key}]])")
        return []
    return value


def parse_content(data: dict, file: str) -> Content:
    probs = Problems(file)
    _unknown_keys(probs, "", data, TOP_KEYS)

    head = data.get("content")
    if not isinstance(head, dict):
        probs.add("", "content",
                  "missing [content] table (name, edition, description, reconstructed)")
        head = {}
    _unknown_keys(probs, "[content]", head, CONTENT_KEYS)
    name = _str(probs, "[content]", "name", head.get("name")) or "?"
    if name != "?" and not NAME_RE.match(name):
        probs.add("[content]", "name", f"use lowercase letters, digits and '-', got {name!r}")
    edition = _str(probs, "[content]", "edition", head.get("edition")) or "?"
    editions = available_profiles()
    if edition != "?" and edition not in editions:
        probs.add("[content]", "edition",
                  f"unknown edition {edition!r} (known: {', '.join(editions)})")
    description = _str(probs, "[content]", "description", head.get("description"), False) or ""
    reconstructed = _str(probs, "[content]", "reconstructed", head.get("reconstructed"), False)
    reconstructed = reconstructed or ""

    box = data.get("box")
    if not isinstance(box, dict):
        probs.add("", "box", "missing [box] table declaring room_tiles and gem_cards")
        box = {}
    _unknown_keys(probs, "[box]", box, BOX_KEYS | {"skill_cards"})
    declared_rooms = declared_cards = None
    for key in BOX_KEYS:
        if key not in box:
            probs.add("[box]", key, "is missing")
    if "room_tiles" in box:
        declared_rooms = _int(probs, "[box]", "room_tiles", box["room_tiles"], 1)
    if "gem_cards" in box:
        declared_cards = _int(probs, "[box]", "gem_cards", box["gem_cards"], 1)

    gem_rows = _table_list(probs, data, "gems")
    card_rows = _table_list(probs, data, "cards")
    room_rows = _table_list(probs, data, "rooms")
    gems = _parse_gems(probs, gem_rows)
    # A gem declared with a mistake is still declared: its users must not also be flagged.
    gem_names = {r["name"] for r in gem_rows if isinstance(r.get("name"), str)}
    cards = _parse_cards(probs, card_rows, gems, gem_names)
    rooms = _parse_rooms(probs, room_rows, gem_names)
    skills = _parse_skills(probs, _table_list(probs, data, "skills"), gem_names)
    if "skill_cards" in box:
        declared = _int(probs, "[box]", "skill_cards", box["skill_cards"], 0)
        have = sum(k.copies for k in skills)
        if declared is not None and len(skills) == len(data.get("skills", [])) \
                and declared != have:
            probs.add("[box]", "skill_cards", f"declares {declared} skill cards but the "
                      f"skills' copies add up to {have}")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        probs.add("", "rules", "must be a table of rule overrides ([rules])")
        rules = {}
    elif rules and edition in editions:
        try:
            load_profile(edition).with_overrides(rules, file)
        except InputError as e:
            probs.items.extend(e.problems)

    # Count copies from the rows themselves, so a broken room does not also break the totals.
    n_rooms = _copies_total(room_rows)
    n_cards = _copies_total(card_rows)
    # A row whose copies are already reported as wrong would make the totals disagree too.
    rooms_counted = all(_copies_ok(r) for r in room_rows)
    cards_counted = all(_copies_ok(r) for r in card_rows)
    if declared_rooms is not None and n_rooms != declared_rooms and rooms_counted:
        probs.add("[box]", "room_tiles",
                  f"declares {declared_rooms} room tiles but the rooms' copies add up to {n_rooms}")
    if declared_cards is not None and n_cards != declared_cards and cards_counted:
        probs.add("[box]", "gem_cards",
                  f"declares {declared_cards} gem cards but the cards' copies add up to {n_cards}")
    if not rooms:
        probs.add("", "rooms", "no room tiles")
    elif all(r.kind == "tunnel" for r in rooms):
        probs.add("", "rooms", "every room is a tunnel; the mine needs a room to stand in")
    if not cards:
        probs.add("", "cards", "no gem cards")
    content_problems(probs, n_cards, n_rooms, rooms)
    if cards and rooms and not probs.items:
        _check_payable(probs, gems, cards, rooms)

    probs.raise_if_any()
    return Content(file, name, edition, description, reconstructed, n_rooms, n_cards,
                   tuple(gems), tuple(cards), tuple(rooms), tuple(skills), dict(rules))


def _check_payable(probs: Problems, gems: list[Gem], cards: list[Card],
                   rooms: list[Room]) -> None:
    """Refuse a box in which no scoring door could ever be paid: every game would score only
    its start points. A door is counted payable if the whole box holds enough of each gem,
    Diamond Dust and Echoglass standing in for anything (an upper bound, so a door refused
    here truly never pays)."""
    power = {g.name: g.power for g in gems}
    held: dict[str, int] = {}
    jokers = symbols = 0
    for card in cards:
        for name in card.gems:
            symbols += card.copies
            if power.get(name) in ("wild", "echo"):
                jokers += card.copies
            else:
                held[name] = held.get(name, 0) + card.copies
    scoring = [(r, e) for r in rooms for e in r.edges if e is not None and e.points > 0]
    if not scoring:
        probs.add("rooms", "points", "no door scores a point: every game would end with "
                  "the start points only")
        return

    def payable(cost: tuple[str, ...]) -> bool:
        need: dict[str, int] = {}
        for name in cost:
            need[name] = need.get(name, 0) + 1
        short = sum(max(0, n - held.get(g, 0)) for g, n in need.items())
        return short <= jokers and len(cost) <= symbols

    if not any(payable(e.cost) for _, e in scoring):
        r, e = scoring[0]
        probs.add("rooms", "cost", f"no scoring door can ever be paid with the gem cards in "
                  f"the box (e.g. room \"{r.name}\" costs {list(e.cost)}): every game would "
                  "score 0")


def _copies_ok(row: dict) -> bool:
    c = row.get("copies", 1)
    return isinstance(c, int) and not isinstance(c, bool) and c > 0


def _copies_total(rows: list[dict]) -> int:
    total = 0
    for row in rows:
        c = row.get("copies", 1)
        if isinstance(c, int) and not isinstance(c, bool) and c > 0:
            total += c
    return total


def _parse_gems(probs: Problems, rows: list[dict]) -> list[Gem]:
    gems: list[Gem] = []
    seen: set[str] = set()
    if not rows:
        probs.add("", "gems", "no gem types declared")
    for i, row in enumerate(rows):
        where = f"gem #{i + 1}" if not isinstance(row.get("name"), str) else f'gem "{row["name"]}"'
        _unknown_keys(probs, where, row, GEM_KEYS)
        name = _str(probs, where, "name", row.get("name"))
        kind = _str(probs, where, "kind", row.get("kind"))
        power = _str(probs, where, "power", row.get("power"), False) or ""
        if name is None or kind is None:
            continue
        if name in seen:
            probs.add(where, "name", "duplicate gem name")
            continue
        seen.add(name)
        if kind not in GEM_KINDS:
            probs.add(where, "kind", f"must be one of {', '.join(GEM_KINDS)}, got {kind!r}")
            continue
        if kind == "special" and power not in POWERS:
            probs.add(where, "power",
                      f"a special gem needs a power: one of {', '.join(POWERS)}, got {power!r}")
            continue
        if kind == "standard" and power:
            probs.add(where, "power", "standard gems have no power")
            continue
        gems.append(Gem(name, kind, power))
    if len(gems) > MAX_GEM_TYPES:
        probs.add("", "gems", f"at most {MAX_GEM_TYPES} gem types, got {len(gems)}")
    if rows and not any(g.kind == "standard" for g in gems):
        probs.add("", "gems", "at least one standard gem type is needed")
    return gems


def _parse_cards(probs: Problems, rows: list[dict], gems: list[Gem],
                 declared: set[str]) -> list[Card]:
    by_name = {g.name: g for g in gems}
    cards = []
    for i, row in enumerate(rows):
        where = f"card #{i + 1}"
        _unknown_keys(probs, where, row, CARD_KEYS)
        names = row.get("gems")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            probs.add(where, "gems", "must be a list of one or two gem names")
            continue
        where = f"card #{i + 1} {names}"
        copies = _int(probs, where, "copies", row.get("copies", 1), 1)
        if not 1 <= len(names) <= 2:
            probs.add(where, "gems", f"a card shows one or two gems, got {len(names)}")
            continue
        unknown = [n for n in names if n not in declared]
        if unknown:
            probs.add(where, "gems", f"unknown gem {unknown[0]!r}")
            continue
        if any(n not in by_name for n in names):
            continue  # the gem's own entry is broken and already reported
        powers = [by_name[n].power for n in names]
        # These powers act through the other gem on the card, so a card needs a paying partner.
        for n, p in zip(names, powers, strict=True):
            if p in ("bonus", "echo", "warp") and len(names) == 2 and names[0] == names[1]:
                probs.add(where, "gems", f"{n} cannot be doubled on a card")
            if p == "bonus" and (len(names) == 1 or all(q in ("bonus", "warp") for q in powers)):
                probs.add(where, "gems", f"{n} adds points only beside a gem that pays; "
                          "pair it with a standard gem, Diamond Dust or Echoglass")
        if copies is not None:
            cards.append(Card(tuple(names), copies))
    return cards


def _parse_door(probs, where, side, value, gem_names) -> tuple[bool, Door | None]:
    """Returns (ok, door-or-None-for-wall)."""
    if value == "wall":
        return True, None
    if value == "door":
        return True, Door((), 0)
    if not isinstance(value, dict):
        probs.add(where, side, f'must be "wall", "door" or {{ cost = [...], points = N }}, '
                  f"got {value!r}")
        return False, None
    _unknown_keys(probs, where, value, DOOR_KEYS, prefix=f"{side}.")
    ok = True
    cost = value.get("cost", [])
    if not isinstance(cost, list) or not all(isinstance(c, str) for c in cost):
        probs.add(where, f"{side}.cost",
                  "must be a list of gem names (repeat a name to count it twice)")
        ok = False
        cost = []
    for c in cost:
        if c not in gem_names:
            probs.add(where, f"{side}.cost", f"unknown gem {c!r}")
            ok = False
    if "points" not in value:
        probs.add(where, f"{side}.points", "is missing")
        ok = False
    points = value.get("points", 0)
    if isinstance(points, bool) or not isinstance(points, int):
        probs.add(where, f"{side}.points", f"must be a whole number, got {points!r}")
        ok = False
    elif points < 0:
        probs.add(where, f"{side}.points", f"cannot be negative, got {points}")
        ok = False
    return ok, (Door(tuple(cost), points) if ok else None)


def _parse_rooms(probs: Problems, rows: list[dict], gem_names: set[str]) -> list[Room]:
    rooms = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        name = row.get("name")
        where = f'room "{name}"' if isinstance(name, str) else f"room #{i + 1}"
        _unknown_keys(probs, where, row, ROOM_KEYS)
        name = _str(probs, where, "name", name)
        if name is not None:
            if name in seen:
                probs.add(where, "name", "duplicate room name")
            seen.add(name)
        copies = _int(probs, where, "copies", row.get("copies", 1), 1)
        kind = _str(probs, where, "kind", row.get("kind"))
        if kind is not None and kind not in ROOM_KINDS:
            probs.add(where, "kind", f"must be one of {', '.join(ROOM_KINDS)}, got {kind!r}")
            kind = None
        text = _str(probs, where, "ability", row.get("ability", ""), False) or ""
        ability: tuple[Step, ...] = ()
        try:
            ability = parse_ability(text, gem_names)
        except AbilityError as e:
            probs.add(where, "ability", short(str(e), 300))
            text = None
        if kind in ("tunnel", "minecart", "plain") and ability:
            probs.add(where, "ability", f"a {kind} has no ability; use \"\"")
        if kind in ("action", "movement", "free") and text == "":
            probs.add(where, "ability", f"an {kind} room needs an ability")
        edges: list[Door | None] = []
        edges_ok = True
        for side in SIDES:
            if side not in row:
                probs.add(where, side, 'is missing: give "wall", "door" or { cost, points }')
                edges_ok = False
                edges.append(None)
                continue
            ok, door = _parse_door(probs, where, side, row[side], gem_names)
            edges_ok &= ok
            edges.append(door)
        if edges_ok and not any(e is not None for e in edges):
            probs.add(where, "north/east/south/west",
                      "the tile has no door; it could never be entered")
            edges_ok = False
        pairs = _parse_pairs(probs, where, row, kind, edges if edges_ok else None)
        if kind == "tunnel" and edges_ok and sum(e is not None for e in edges) != 4:
            # A tunnel is never stopped in, so every side must lead on (rulebook: four doors).
            probs.add(where, "north/east/south/west", "a tunnel has a door on all four sides")
            edges_ok = False
        if kind == "tunnel" and edges_ok:
            for s, e in enumerate(edges):
                if e is not None and (e.cost or e.points):
                    probs.add(where, SIDES[s], "tunnel doors never cost or score; write \"door\"")
                    edges_ok = False
        if (name is None or copies is None or kind is None or text is None or not edges_ok
                or pairs is None):
            continue
        rooms.append(Room(name, copies, kind, text, ability, tuple(edges), pairs))
    return rooms


def _parse_pairs(probs, where, row, kind, edges) -> tuple[tuple[int, int], ...] | None:
    raw = row.get("pairs")
    if kind != "tunnel":
        if raw is not None:
            probs.add(where, "pairs", "only tunnels join doors in pairs")
            return None
        return ()
    if raw is None:
        probs.add(where, "pairs", 'a tunnel must say which doors are joined, e.g. '
                  '[["north", "south"], ["east", "west"]]')
        return None
    if (not isinstance(raw, list) or not all(isinstance(p, list) and len(p) == 2 for p in raw)
            or not all(s in SIDES for p in raw for s in p)):
        probs.add(where, "pairs", f"must be a list of [side, side] pairs of {', '.join(SIDES)}")
        return None
    if edges is None:
        return None
    used = [SIDES.index(s) for p in raw for s in p]
    doors = [s for s in range(4) if edges[s] is not None]
    if sorted(used) != doors:
        probs.add(where, "pairs", f"the pairs {raw} do not join each door exactly once "
                  f"(doors: {', '.join(SIDES[s] for s in doors)})")
        return None
    return tuple((SIDES.index(a), SIDES.index(b)) for a, b in raw)


def _parse_skills(probs: Problems, rows: list[dict], gem_names: set[str]) -> list[Skill]:
    skills = []
    seen = set()
    for i, row in enumerate(rows):
        where = f"skill #{i + 1}"
        _unknown_keys(probs, where, row, SKILL_KEYS)
        name = _str(probs, where, "name", row.get("name"))
        text = _str(probs, where, "text", row.get("text"), False) or ""
        if name is not None:
            where = f"skill {name!r}"
        raw = _str(probs, where, "effect", row.get("effect"))
        uses = _int(probs, where, "uses", row.get("uses", 1), 1)
        copies = _int(probs, where, "copies", row.get("copies", 1), 0)
        if uses is not None and uses > 9:
            probs.add(where, "uses", f"at most 9 uses a turn, got {uses}")
            uses = None
        effect = None
        if raw is not None:
            try:
                effect = parse_effect(raw, gem_names)
            except SkillError as e:
                probs.add(where, "effect", str(e))
        if name is None:
            continue
        if name in seen:
            probs.add(where, "name", "duplicate skill name")
        seen.add(name)
        if effect is not None and uses is not None and copies is not None:
            skills.append(Skill(name, text, effect, uses, copies))
    return skills
