"""Input errors that a designer can act on.

Every problem names the file, the thing inside it (a card, a tile, a rule), the field and what
is wrong. Loaders collect all problems before raising, so one run shows every mistake at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    file: str
    where: str  # e.g. 'card "Fire Ruby"', 'card #3', 'rules'
    field: str  # e.g. 'east.cost', 'copies'
    message: str

    def __str__(self) -> str:
        parts = [self.file]
        if self.where:
            parts.append(self.where)
        if self.field:
            parts.append(f"field '{self.field}'")
        return ": ".join(parts) + f": {self.message}"


class InputError(Exception):
    """Bad input from a designer's file or command line; carries every problem found, with
    repeats grouped (see grouped)."""

    def __init__(self, problems: list[Problem]):
        self.problems = grouped(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self):
        # A refusal raised in a worker process reaches the command pickled. Rebuilt from its
        # args, the message text, it would fail to unpickle (grouped() cannot read a text),
        # and the pool would report a dead worker instead of the refusal.
        return type(self), (self.problems,), self.__dict__


def grouped(problems: list[Problem]) -> list[Problem]:
    """One problem per file, field and message: a mistake repeated in many places (one patch
    that breaks every card it selects, in every variant) is one line naming the first place
    and how many more, not hundreds. Places are grouped only when they are of one kind (the
    same first word: `card`, `variant`, ...), so that "and 51 more" says what they are."""
    groups: dict[tuple, dict[str, int]] = {}
    for p in problems:
        m = _MORE.fullmatch(p.where)  # grouped before: count its places too
        where, more = (m[1], int(m[2])) if m else (p.where, 0)
        places = groups.setdefault((p.file, p.field, p.message, where.split(" ", 1)[0]), {})
        places[where] = max(places.get(where, 0), more)
    out = []
    for (file, fld, message, _), places in groups.items():
        first = next(iter(places))
        more = len(places) - 1 + sum(places.values())
        out.append(Problem(file, f"{first} and {more} more" if more else first, fld, message))
    return out


_MORE = re.compile(r"(.*) and (\d+) more", re.DOTALL)


class Problems:
    """Collects problems for one file; raise them all at the end."""

    def __init__(self, file: str):
        self.file = file
        self.items: list[Problem] = []

    def add(self, where: str, field: str, message: str) -> None:
        self.items.append(Problem(self.file, where, field, message))

    def raise_if_any(self) -> None:
        if self.items:
            raise InputError(self.items)


def twice(first, second) -> str:
    """The message for a name a command line gives twice (`--set`, `--knob`): keeping the
    last would drop the first without a word."""
    return f"is given twice ({first!r}, then {second!r}): give it once"
