"""Input errors that a designer can act on.

Every problem names the file, the thing inside it (a room, a card, a rule), the field and what
is wrong. Loaders collect all problems before raising, so one run shows every mistake at once.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    file: str
    where: str  # e.g. 'room "Fire Ruby Vein"', 'card #3', 'rules'
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
    """Bad input from a designer's file or command line; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


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
