"""A knob file (`balance tune-player --out`, `balance train-player --out`, or by hand) read for
the seats of one game's command: NAME = number lines, with an optional `player` naming whose
knobs they are. Every problem names the file, never the option the command also takes
(`--knob`): the file is what the designer opens to fix it.

What is checked here, before anything plays: the file's player is one of the game's and sits
at the table (a model's weights given to another game, or to another player's seats, is one
message, not one per weight), every name is a knob of that player (of a seated player, when
the file names none), every value is in its knob's range, and a model's weights (knobs of
one `group`) come together: a file that lacks one would play that weight's default beside
the file's others, a model nobody fitted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from balance.errors import InputError, Problem, Problems
from balance.textfile import read_toml
from heuristics.knobs import knob_values

SHOWN = 3  # names a message quotes before "and N more"


@dataclass(frozen=True)
class KnobFile:
    path: Path
    player: str | None  # the player the file names, None when it names none
    values: dict[str, float]


def read_knob_file(path: str | Path) -> KnobFile:
    """The file's values and player, each value a number (InputError naming the file)."""
    p = Path(path)
    data = read_toml(p, "knob file")  # the one reader: a pipe or /dev/zero is refused
    probs = Problems(str(p))
    player = data.pop("player", None)
    if player is not None and not isinstance(player, str):
        probs.add("", "player", f"must be a player's name, got {player!r}")
    for k, v in data.items():
        if isinstance(v, bool) or not isinstance(v, int | float):
            probs.add("", k, f"must be a number, got {v!r}")
    probs.raise_if_any()
    return KnobFile(p, player, {k: float(v) for k, v in data.items()})


def check_for_seats(kf: KnobFile, players: Mapping, seated: Sequence[str], title: str,
                    hint: str) -> dict[str, float]:
    """The knob file's values, checked for a table of `seated` players (by name) of the game
    `title`, whose players by name are `players` (its Roster). `hint` says how to seat the
    file's player when no seat plays it, with {player} for its name."""
    where = str(kf.path)
    if kf.player is not None:
        if kf.player not in players:
            _refuse(where, "player", f"names {kf.player!r}, which is no player of {title} "
                    f"(its players: {', '.join(players)})")
        if kf.player not in seated:
            _refuse(where, "player", f"names {kf.player!r}, but no seat plays it (seats: "
                    f"{', '.join(seated)}): {hint.format(player=kf.player)}")
    owners = [kf.player] if kf.player is not None else list(dict.fromkeys(seated))
    knobs = {k.name: k for name in owners for k in players[name].knobs}
    probs = Problems(where)
    unknown = [k for k in kf.values if k not in knobs]
    if unknown:  # one message, not one a name: a file of another player's has dozens
        more = f"; nor are {_names(unknown[1:])}" if len(unknown) > 1 else ""
        probs.add("", unknown[0], f"is no knob of {' or '.join(owners)}{more} (known: "
                  f"{', '.join(knobs) or 'none'})")
    for name in owners:
        own = {k.name for k in players[name].knobs}
        mine = {k: v for k, v in kf.values.items() if k in own}
        try:
            knob_values(players[name].knobs, mine, where, name)
        except InputError as e:
            probs.items.extend(e.problems)
        probs.items.extend(_partial_groups(where, name, players[name].knobs, mine))
    probs.raise_if_any()
    return kf.values


def _partial_groups(where: str, player: str, knobs, given: dict) -> list[Problem]:
    """One problem per group of knobs the file gives some of, not all."""
    out = []
    groups: dict[str, list[str]] = {}
    for k in knobs:
        if k.group:
            groups.setdefault(k.group, []).append(k.name)
    for group, names in groups.items():
        missing = [n for n in names if n not in given]
        if 0 < len(missing) < len(names):
            out.append(Problem(where, "knobs", missing[0], f"is missing: the file gives "
                               f"{len(names) - len(missing)} of the {len(names)} weights of "
                               f"{player}'s {group}, which go together ("
                               + (f"also missing: {_names(missing[1:])}; " if len(missing) > 1
                                  else "") + "a weight of 0 leaves its feature out)"))
    return out


def _names(names: list[str]) -> str:
    shown = ", ".join(repr(n) for n in names[:SHOWN])
    return shown + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "")


def _refuse(where: str, field: str, message: str) -> None:
    raise InputError([Problem(where, "", field, message)])
