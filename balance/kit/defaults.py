"""A game's default rule values as data: a TOML file of one value per setting (a game's
data/rules.toml), each checked against its Setting, so that a designer changes a default
without touching code, and a value that is missing, unknown or out of range is one message
naming the file and the setting, never a game played with it."""

from __future__ import annotations

from pathlib import Path

from balance.contract.game import Setting
from balance.errors import InputError, Problem
from balance.textfile import read_toml


def read_defaults(path: Path, settings: tuple[Setting, ...]) -> dict:
    """Every setting's default value from `path`, checked."""
    data = read_toml(path, "rules file")
    known = ", ".join(s.name for s in settings)
    names = {s.name for s in settings}
    probs = [Problem(str(path), "", str(k), f"is no setting of the game (known: {known})")
             for k in data if k not in names]
    probs += [Problem(str(path), "", s.name, "is missing") for s in settings
              if s.name not in data]
    probs += [Problem(str(path), "", s.name, why) for s in settings if s.name in data
              and (why := s.problem(data[s.name])) is not None]
    if probs:
        raise InputError(probs)
    return data
