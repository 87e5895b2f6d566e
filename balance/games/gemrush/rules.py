"""Rule profiles: every number and switch of an edition, by name.

An edition is a profile (balance/games/gemrush/data/profiles/<name>.toml) plus its content file. Any
field can be overridden by name, from the CLI (`--set hand_limit=5`) or a `[rules]` table in a file.
The schema below is the single list of tunable rules: its ranges are what validation enforces.

Seats are places in the turn order: seat 1 plays first (it holds the first player marker),
seat 2 next, and so on. The deal and the starting points may differ by seat: `deal.seat5 = 5`
deals seat 5 five cards and the others `deal`. `first_player` says which of the players seated
for a variant (an experiment's `seats` list, in clockwise order) takes seat 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from balance import textfile
from balance.errors import Problems, twice

PROFILE_DIR = Path(__file__).parent / "data" / "profiles"
INT_RE = re.compile(r"-?[0-9]+")


class Typed(str):
    """A rule value typed on the command line (`--set hand_limit=5`): text, read as the
    rule's type. Text anywhere else (`hand_limit = "5"` in a TOML file) is a type error,
    as `players = 2.0` is."""
SKILL_VARIANTS = ("normal", "choice", "shared", "chaos", "circle", "none")


@dataclass(frozen=True)
class Field:
    kind: type  # int, bool or str
    lo: int = 0
    hi: int = 1
    doc: str = ""
    choices: tuple[str, ...] = ()  # a str field's allowed values; empty: any short text
    words: tuple[tuple[str, int], ...] = ()  # an int field's values that have a name


SCHEMA: dict[str, Field] = {
    "players_min": Field(int, 1, 16, "fewest players the edition allows"),
    "players_max": Field(int, 1, 16, "most players the edition allows"),
    "deal": Field(int, 0, 30, "gem cards dealt to each player at setup"),
    "hand_limit": Field(int, 0, 30, "discard down to this many cards at the start of a turn"),
    "steps": Field(int, 0, 20, "movement steps per turn"),
    "start_vp": Field(int, 0, 100, "victory points each player starts with"),
    "first_player": Field(
        int, 0, 16, "which of the players, in the order they are listed, sits in seat 1 and "
        "plays first: 1 the first listed, k the k-th; random (0): one drawn each game", words=(
            ("random", 0),)),
    "start_tunnel_chain": Field(bool, doc="a tunnel start tile chains new tiles until a room"),
    "burn_per_turn": Field(int, 1, 30, "Crisis: cards burnt at the end of every player turn"),
    "burn_from_hands": Field(bool,
                             doc="Crisis: burnt cards may come from hands, not only the deck"),
    "cannot_burn_loses": Field(
        bool, doc="Crisis: true = the team loses when a full burn is impossible (1st edition); "
        "false = burning the last card ends the game (2nd edition)"),
    "crisis_voluntary_discard": Field(bool, doc="Crisis: players may discard at any time"),
    "rush_voluntary_discard": Field(bool, doc="Rush: players may discard when not required"),
    "rush_target_small": Field(int, 1, 1000, "Rush target for fewer than rush_large_from players"),
    "rush_target_large": Field(int, 1, 1000, "Rush target from rush_large_from players on"),
    "rush_large_from": Field(int, 1, 17, "player count from which rush_target_large applies"),
    "rush_round_cap": Field(int, 1, 10000,
                            "Rush: rounds after which a game is stopped and recorded as turn_cap"),
    "tunnels": Field(bool, doc="tunnel tiles are in play"),
    "mine_carts": Field(bool, doc="mine cart rooms are in play"),
    "special_gems": Field(bool, doc="Echoglass, Orichalcum and Warpstone powers are in play"),
    "skills": Field(str, doc="the skill-card variant: normal (one each, dealt), choice (deal "
                    "skill_choice, keep one), shared (one for everyone: shared_skill, or dealt), "
                    "chaos (redraw at the end of a turn), circle (a card between neighbours, "
                    "two each) or none", choices=SKILL_VARIANTS),
    "skill_choice": Field(int, 2, 5, "Choice of Skills: skill cards dealt to each player"),
    "shared_skill": Field(str, doc="Shared Skill: the skill everyone uses, by name; empty: "
                          "dealt at random"),
    "echo_copies_own_card": Field(
        bool, doc="Echoglass may copy the other gem on its own card (false: only a gem another "
        "card in the payment shows)"),
    "warp_build_at_tunnels": Field(
        bool, doc="a Warpstone build may start at a tunnel's open door (for no gems, no points)"),
    "free_use_cap": Field(int, 1, 100, "engine guard: most uses of a free room's ability in one "
                          "movement phase (the rulebook sets no limit)"),
}


# Fields that may differ by seat, as `<field>.seat<k>` (seats count from 1): the seat's own
# value, in place of the field's for that seat. A key per seat, not a list, so that one seat's
# value is one number wherever a rule field goes: --set, [rules], a [grid] axis and its
# games-table column, and a `balance tune` lever.
PER_SEAT = ("deal", "start_vp")
SEAT_KEY = re.compile(r"^([a-z_]+)\.seat([0-9]+)$")
MAX_SEATS = 16  # the most players any profile may allow (players_max's range)


def seat_key(key: str) -> tuple[str, int] | None:
    """(field, seat) of a per-seat key such as deal.seat5; None for any other key."""
    m = SEAT_KEY.match(key)
    return (m.group(1), int(m.group(2))) if m else None


def is_rule_key(key: str) -> bool:
    """A name a [rules] table, --set or a [grid] may set (valid or not: a per-seat key of a
    field that has none, or seat 0, is refused with its own message)."""
    return key in SCHEMA or (key.startswith("crisis_targets.") and len(key) > 15) \
        or seat_key(key) is not None


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    content: str  # default content name
    values: dict[str, int | bool | str]
    crisis_targets: dict[str, int] = field(default_factory=dict)

    def __getitem__(self, key: str) -> int | bool | str:
        return self.values[key]

    def seat_value(self, name: str, seat: int) -> int:
        """The value of a PER_SEAT field at seat `seat` (counting from 1)."""
        return self.values.get(f"{name}.seat{seat}", self.values[name])

    def seat_keys(self) -> list[str]:
        """The per-seat keys set, by field then seat."""
        keys = [k for k in self.values if seat_key(k)]
        return sorted(keys, key=lambda k: (PER_SEAT.index(seat_key(k)[0]), seat_key(k)[1]))

    def rush_target(self, players: int) -> int:
        v = self.values
        return v["rush_target_large"] if players >= v["rush_large_from"] else v["rush_target_small"]

    def crisis_target(self, difficulty: str) -> int:
        named = _difficulty(self.crisis_targets, difficulty)
        if named not in self.crisis_targets:
            known = ", ".join(self.crisis_targets)
            probs = Problems(f"profile {self.name}")
            probs.add("crisis_targets", "", f"unknown difficulty {difficulty!r} (known: {known})")
            probs.raise_if_any()
        return self.crisis_targets[named]

    def with_overrides(self, overrides: dict, source: str) -> Profile:
        """Apply {name: value} overrides; `source` names where they came from in errors."""
        probs = Problems(source)
        values = dict(self.values)
        targets = dict(self.crisis_targets)
        named: dict[str, str] = {}  # each difficulty these overrides set: the key that set it
        for key, raw in overrides.items():
            if key == "crisis_targets" and isinstance(raw, dict):
                for diff, t in raw.items():
                    _set_target(probs, targets, diff, t, named)
                continue
            if key.startswith("crisis_targets."):
                _set_target(probs, targets, key.split(".", 1)[1], raw, named)
                continue
            if seat_key(key):
                _set_seat(probs, values, key, raw)
                continue
            if key in PER_SEAT and isinstance(raw, dict):
                # An unquoted `deal.seat5 = 5` in TOML is a table {"deal": {"seat5": 5}}.
                probs.add("rules", key, f"must be a single value, got a table {raw!r}: write "
                          f"one seat's value as a quoted key, \"{key}.seat5\" = 5")
                continue
            if key not in SCHEMA:
                probs.add("rules", key, f"unknown rule (known: {', '.join(SCHEMA)}, "
                          "crisis_targets.<difficulty>, "
                          f"{', '.join(f'{n}.seat<k>' for n in PER_SEAT)})")
                continue
            value = _coerce(probs, key, raw)
            if value is not None:
                values[key] = value
        _check_consistency(probs, values, targets)
        probs.raise_if_any()
        return Profile(self.name, self.title, self.content, values, targets)

    def describe(self) -> list[tuple[str, str, str]]:
        rows = [(k, _show(self.values[k], SCHEMA[k]), SCHEMA[k].doc) for k in SCHEMA]
        for k in self.seat_keys():
            name, seat = seat_key(k)
            rows.append((k, str(self.values[k]), f"{name} for seat {seat} (the other seats: "
                         f"{name})"))
        for d, t in self.crisis_targets.items():
            rows.append((f"crisis_targets.{d}", str(t), "Crisis target for this difficulty"))
        return rows


def _show(v, spec: Field | None = None) -> str:
    if spec is not None:
        for word, code in spec.words:
            if v == code:
                return word
    return str(v).lower() if isinstance(v, bool) else str(v)


def _set_seat(probs: Problems, values: dict, key: str, raw) -> None:
    name, seat = seat_key(key)
    if name not in PER_SEAT:
        probs.add("rules", key, f"{name} cannot differ by seat (per-seat fields: "
                  f"{', '.join(f'{n}.seat<k>' for n in PER_SEAT)})")
        return
    if not 1 <= seat <= MAX_SEATS:
        probs.add("rules", key, f"seats count from 1 (seat 1 plays first) to {MAX_SEATS}, "
                  f"got seat {seat}")
        return
    if key != f"{name}.seat{seat}":  # one key per seat: deal.seat05 would miss deal.seat5
        probs.add("rules", key, f"write the seat's number without leading zeros: "
                  f"{name}.seat{seat}")
        return
    value = _coerce(probs, key, raw, SCHEMA[name])
    if value is not None:
        values[key] = value


def _set_target(probs: Problems, targets: dict, diff: str, raw, named: dict) -> None:
    key, same = f"crisis_targets.{diff}", _difficulty(targets, diff)
    if same in named:  # crisis_targets.apprentice beside crisis_targets.Apprentice
        probs.add("rules", key, f"sets {same}, as {named[same]} does: give it once")
        return
    named[same] = key
    if isinstance(raw, Typed) and INT_RE.fullmatch(raw.strip()):
        raw = int(raw)
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
        probs.add("rules", key, f"must be a whole number >= 1, got {raw!r}")
        return
    targets[same] = raw


def _difficulty(targets: dict, name: str) -> str:
    """The difficulty `name` means, as the profile spells it: the rulebook's difficulties are
    words (Apprentice, Master), so `apprentice` is Apprentice, not a new difficulty beside it;
    a name no difficulty has, whatever its case, is itself (an override may add one)."""
    return next((k for k in targets if k.casefold() == name.casefold()), name)


def _coerce(probs: Problems, key: str, raw, spec: Field | None = None
            ) -> int | bool | str | None:
    spec = spec or SCHEMA[key]
    if spec.kind is str:
        if not isinstance(raw, str) or len(raw) > 100:
            probs.add("rules", key, f"must be a short text, got {raw!r}")
            return None
        if spec.choices and raw not in spec.choices:
            probs.add("rules", key, f"must be one of {', '.join(spec.choices)}, got {raw!r}")
            return None
        return raw
    if spec.kind is bool:
        if isinstance(raw, Typed) and raw.lower() in ("true", "false", "1", "0", "yes", "no"):
            return raw.lower() in ("true", "1", "yes")
        if isinstance(raw, bool):
            return raw
        probs.add("rules", key, f"must be true or false, got {raw!r}")
        return None
    if isinstance(raw, str) and raw.strip() in dict(spec.words):
        return dict(spec.words)[raw.strip()]
    if isinstance(raw, Typed) and INT_RE.fullmatch(raw.strip()):
        raw = int(raw)
    if isinstance(raw, bool) or not isinstance(raw, int):
        named = "".join(f" or {w}" for w, _ in spec.words)
        probs.add("rules", key, f"must be a whole number{named}, got {raw!r}")
        return None
    if not spec.lo <= raw <= spec.hi:
        probs.add("rules", key, f"must be between {spec.lo} and {spec.hi}, got {raw}")
        return None
    return raw


def _check_consistency(probs: Problems, values: dict, targets: dict) -> None:
    missing = [k for k in SCHEMA if k not in values]
    for k in missing:
        probs.add("rules", k, "is missing from the profile")
    if missing:
        return
    if values["players_min"] > values["players_max"]:
        probs.add("rules", "players_min",
                  f"is {values['players_min']}, above players_max {values['players_max']}")
    most = values["players_max"]
    for key in values:
        if seat_key(key) and seat_key(key)[1] > most:
            probs.add("rules", key, f"names seat {seat_key(key)[1]}, but the edition allows at "
                      f"most {most} players")
    if values["first_player"] > most:
        probs.add("rules", "first_player", f"is {values['first_player']}, but the edition "
                  f"allows at most {most} players")
    if not targets:
        probs.add("crisis_targets", "", "no Crisis difficulty is defined")


def parse_overrides(pairs: list[str], source: str = "--set") -> dict[str, str]:
    """Turn ['hand_limit=5', ...] into a dict; errors name the bad pair."""
    probs = Problems(source)
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            probs.add("", pair, "expected NAME=VALUE, e.g. hand_limit=5")
            continue
        if key.strip() in out:
            probs.add("", key.strip(), twice(str(out[key.strip()]), value.strip()))
            continue
        out[key.strip()] = Typed(value.strip())
    probs.raise_if_any()
    return out


def available_profiles() -> list[str]:
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


def load_profile(name_or_path: str | Path, overrides: dict | None = None,
                 source: str = "--set") -> Profile:
    p = Path(name_or_path)
    if p.suffix != ".toml":
        p = PROFILE_DIR / f"{name_or_path}.toml"
        if not p.exists():
            probs = Problems(str(name_or_path))
            probs.add("", "edition", f"unknown edition (known: {', '.join(available_profiles())})")
            probs.raise_if_any()
    data = textfile.read_toml(p, "TOML file")
    probs = Problems(str(p))
    for key in data:
        if key not in ("profile", "rules", "crisis_targets"):
            probs.add("", key, "unknown table (allowed: profile, rules, crisis_targets)")
    head = data.get("profile", {})
    name = head.get("name", p.stem)
    title = head.get("title", name)
    content = head.get("content", "")
    if not content:
        probs.add("[profile]", "content", "is missing: name the edition's content file")
    probs.raise_if_any()
    base = Profile(name, title, content, {}, {})
    merged = dict(data.get("rules", {}))
    merged["crisis_targets"] = data.get("crisis_targets", {})
    profile = base.with_overrides(merged, str(p))
    if overrides:
        profile = profile.with_overrides(overrides, source)
    return profile


def profile_for(content, edition: str | None = None, overrides: dict | None = None,
                source: str = "--set") -> Profile:
    """The rules a content file (a content.Content) plays under: its edition's profile (or
    `edition`), then the file's own [rules] table, then `overrides`. Rules sit below content
    (a content file's [rules] table is checked against them), so this names no Content type."""
    profile = load_profile(edition or content.edition)
    if content.rules:
        profile = profile.with_overrides(content.rules, f"{content.path} [rules]")
    if overrides:
        profile = profile.with_overrides(overrides, source)
    return profile
