"""Reading a designer's text file (content, experiment, profile) with one clear message for
every way it can fail to be a text file: missing, a folder, a device (/dev/zero would be read
forever), a symlink loop, unreadable, too large, not UTF-8, or saved with a byte-order mark."""

from __future__ import annotations

import tomllib
from pathlib import Path

from balance.errors import InputError, Problem
from balance.files import read_bytes

MAX_BYTES = 5 * 2**20  # the largest shipped content file is 40 KB
MAX_ECHO = 120  # characters of a bad value quoted back in a message


def short(text: str, limit: int = MAX_ECHO) -> str:
    """A value to quote in a message: a 10 MB ability is not echoed whole."""
    text = str(text)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def _fail(path: Path | str, message: str) -> InputError:
    return InputError([Problem(str(path), "", "", message)])


def read_text(path: Path | str, what: str = "TOML file") -> str:
    data = read_bytes(path, what, MAX_BYTES)
    if data.startswith(b"\xef\xbb\xbf"):
        raise _fail(path, "starts with a byte-order mark (BOM); save it as UTF-8 without one")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _fail(path, f"not a UTF-8 text file (byte {e.start:,})") from None


def parse_toml(text: str, path: Path | str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise _fail(path, f"not valid TOML: {short(e)}") from None
    except RecursionError:
        raise _fail(path, "not valid TOML: nested too deeply") from None


def read_toml(path: Path | str, what: str = "TOML file") -> dict:
    return parse_toml(read_text(path, what), path)
