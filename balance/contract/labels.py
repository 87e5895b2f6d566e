"""A variant in the words a designer uses: the one place that turns the keys and values of an
experiment file (`heuristic=reference`, `box_plus_one=false`, `knob.hold_at=15.0`) into what a
report, a chart's legend and the terminal print ("Reference", "no extra die", "holds at 15").

The words are the game's own, declared with it (balance/contract/game.py: Setting.label and
values, Label, seat_names; heuristics/player.py: Player.title; heuristics/knobs.py: Knob.label).
A key a game gives no words is written with its name, so a new game still reports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from balance.contract.experiment import CONTROL, KNOB_PREFIX
from balance.contract.game import resolve

UNCHANGED = "the unchanged game"  # ablate's "none", a control: the rules as they are
_NO_PART = "none"  # the ablate value of the variant that takes nothing out
_FORM = re.compile(r"([a-z_]+)\.(.+)")  # a setting form: NAME.PART
_SEAT = re.compile(r"^seat([0-9]+)$")


def number(x) -> str:
    """A knob's or a setting's value as a designer writes it: 15, not 15.0."""
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    if isinstance(x, float):
        return f"{x:g}"
    return str(x)


def _player(game, name: str) -> str:
    try:
        players = game.player_registry()
    except (LookupError, ImportError):
        return name
    p = players.get(name) if hasattr(players, "get") else None
    return getattr(p, "title", "") or name


def seats_words(game, seats: Iterable[str]) -> str:
    """A seat arrangement: "Expert (North) vs Novice", "Novice in every seat"."""
    names = [str(s) for s in seats]
    titles = [_player(game, n) for n in names]
    if len(set(names)) == 1:
        return f"{titles[0]} in every seat"
    first = game.seat_names[0] if game.seat_names else "seat 1"
    if len(titles) == 2:
        return f"{titles[0]} ({first}) vs {titles[1]}"
    return ", ".join([f"{titles[0]} ({first})", *titles[1:]])


def _knob(game, name: str):
    try:
        players = game.player_registry()
    except (LookupError, ImportError):
        return None
    return next((k for p in players.values() for k in getattr(p, "knobs", ())
                 if k.name == name), None)


def value_words(game, key: str, value, info: dict | None = None) -> str:
    """One key of a variant and its value, in words; `info`, the variant as the manifest
    records it, for a key whose words hang on more than its value (Label.of_variant)."""
    declared = game.label_of(key)
    hook = getattr(declared, "of_variant", "")
    if hook and info is not None:
        said = resolve(hook)(value, info)
        if said:
            return said
    if key == "players":
        return f"{number(value)} players"
    if key == "heuristic" and "," in str(value):
        # The games table's heuristic: the seats' players joined by "," where they differ.
        return seats_words(game, str(value).split(","))
    if key == "heuristic":
        return _player(game, str(value))
    if key == "seats":
        return seats_words(game, value.split(",") if isinstance(value, str) else value)
    if key.startswith(KNOB_PREFIX):
        k = _knob(game, key[len(KNOB_PREFIX):])
        return _filled((k.label if k is not None else "") or key[len(KNOB_PREFIX):], value)
    if key == "ablate" and value == _NO_PART:
        return UNCHANGED
    base, seat = key, ""
    if game.label_of(key) is None and (m := _FORM.fullmatch(key)):
        # A setting form: one seat's value ("deal.seat2"), one entry of a table's.
        base, part = m.group(1), m.group(2)
        seat = " (" + _SEAT.sub(r"seat \1", part) + ")"
    declared = game.label_of(base)
    if declared is not None:
        for v, words in declared.values:
            if v == value and type(v) is type(value):
                return words + seat
        if declared.label:
            return _filled(declared.label, value) + seat
    if key == "ablate":
        return "without " + _SEAT.sub(r"seat \1", str(value))
    return f"{key} {number(value)}"


def value_alone(game, key: str, value) -> str:
    """A value that needs no key to be read (a setting label's lead, a chart's row named by
    one key), in `game`'s words: a player's title, a value the game names (Setting.values,
    Label.values), else the value as written."""
    if key == "heuristic":
        return value_words(game, key, value)
    declared = game.label_of(key)
    named = dict(getattr(declared, "values", ()) or ())
    return named.get(value) or number(value)


def key_words(game, key: str) -> str:
    """A key alone, as an axis names it: its declared label less the value's place
    ("board length"), a knob's label, else the key itself."""
    if key.startswith(KNOB_PREFIX):
        k = _knob(game, key[len(KNOB_PREFIX):])
        said = (k.label if k is not None else "") or key[len(KNOB_PREFIX):]
    else:
        declared = game.label_of(key)
        said = (declared.label if declared is not None else "") or key
    return said.replace("{}", "").strip()


def _filled(label: str, value) -> str:
    # "{}" in a label places the value ("{} taken out"); else the value follows the label.
    return label.replace("{}", number(value)) if "{}" in label else f"{label} {number(value)}"


def variant_words(game, info: dict, against: dict | None = None,
                  keep: tuple[str, ...] = ()) -> str:
    """A variant (as the manifest records it) in words: each key its grid sweeps, or, given
    `against` (its baseline), each whose value differs from the baseline's and each in
    `keep` (a setting that tells apart variants compared with baselines of their own: the
    player count), the settings first, the rest in the grid's order. A control is the
    unchanged game; a variant of no swept key keeps its label."""
    if info.get("control") or info.get("label") == CONTROL:
        return UNCHANGED
    swept = dict(info.get("swept") or {})
    if not swept:
        return str(info.get("label") or "")
    other = dict((against or {}).get("swept") or {})
    keys = [k for k in keep if k in swept] + [
        k for k in swept if k not in keep and (against is None or against.get("control")
                                               or other.get(k) != swept[k])]
    if not keys:
        keys = list(swept)
    return ", ".join(value_words(game, k, swept[k], info) for k in keys
                     if swept[k] is not None) \
        or str(info.get("label") or "")
