"""`balance validate`: shipped content passes; every broken file fails with exit 2 and one
'error: ...' line per problem that names the file, the room/card/gem, the field and the problem.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from balance.games.gemrush.content import CONTENT_DIR

BALANCE_BIN = Path(sys.executable).parent / "balance"


def _room(data: dict, name: str) -> dict:
    return next(r for r in data["rooms"] if r["name"] == name)


def _gem(data: dict, name: str) -> dict:
    return next(g for g in data["gems"] if g["name"] == name)


@dataclass(frozen=True)
class Case:
    """Break the minimal content one way. `mutate(data, text)` edits `data` in place (return
    None) or returns replacement TOML text; `write=False` leaves the file missing."""

    mutate: Callable[[dict, str], str | None] | None
    where: str | None  # expected 'where' part of the error line (None: nothing to name)
    field: str | None  # expected field name, shown as "field '<name>'"
    phrase: str  # a phrase of the specific problem
    args: tuple[str, ...] = ()
    write: bool = True


def _set(path_fn, key, value):
    def mutate(data, _text):
        path_fn(data)[key] = value

    return mutate


def _del(path_fn, key):
    def mutate(data, _text):
        del path_fn(data)[key]

    return mutate


VEIN = 'room "Electrum Vein"'
SHAFT = 'room "Ruby Shaft"'
TUNNEL = 'room "Straight Tunnel"'


def _vein(d):
    return _room(d, "Electrum Vein")


def _shaft(d):
    return _room(d, "Ruby Shaft")


def _tunnel(d):
    return _room(d, "Straight Tunnel")


def _all_walls(data, _text):
    for side in ("north", "east", "south", "west"):
        _shaft(data)[side] = "wall"


def _dup_gem(data, _text):
    data["gems"].append({"name": "Fire Ruby", "kind": "standard"})


def _three_gem_card(data, _text):
    data["cards"][0]["gems"] = ["Electrum", "Fire Ruby", "Electrum"]


CASES: dict[str, Case] = {
    "invalid-toml-syntax": Case(lambda d, t: t.replace("[box]", "[box"), None, None,
                                "not valid TOML"),
    "missing-content-table": Case(_del(lambda d: d, "content"), None, "content",
                                  "missing [content] table"),
    "unknown-top-level-field": Case(_set(lambda d: d, "expansions", ["gold"]), None,
                                    "expansions", "unknown field"),
    "unknown-room-field": Case(_set(_vein, "colour", "red"), VEIN, "colour", "unknown field"),
    "unknown-gem-in-card": Case(_set(lambda d: d["cards"][0], "gems",
                                     ["Electrum", "Moonstone"]),
                                "card #1", "gems", "unknown gem 'Moonstone'"),
    "unknown-gem-in-door-cost": Case(_set(lambda d: _vein(d)["north"], "cost",
                                          ["Fire Ruby", "Moonstone"]),
                                     VEIN, "north.cost", "unknown gem 'Moonstone'"),
    "duplicate-room-name": Case(_set(_shaft, "name", "Electrum Vein"), VEIN, "name",
                                "duplicate room name"),
    "duplicate-gem-name": Case(_dup_gem, 'gem "Fire Ruby"', "name", "duplicate gem name"),
    "room-without-door": Case(_all_walls, SHAFT, "north/east/south/west", "has no door"),
    "tunnel-pairs-do-not-pair-doors": Case(
        _set(_tunnel, "pairs", [["north", "east"], ["north", "west"]]), TUNNEL, "pairs",
        "do not join each door exactly once"),
    "tunnel-pairs-missing": Case(_del(_tunnel, "pairs"), TUNNEL, "pairs",
                                 "a tunnel must say which doors are joined"),
    "ability-unknown-step": Case(_set(_shaft, "ability", "discard 1 Fire Ruby; fly 3"), SHAFT,
                                 "ability", "unknown step 'fly 3'"),
    "ability-named-without-name": Case(_set(_vein, "ability", "dig 2 named"), VEIN, "ability",
                                       "before any 'name' step"),
    "ability-x-unbounded": Case(_set(_shaft, "ability", "discard 1 Fire Ruby; draw X"), SHAFT,
                                "ability", "X is unbounded"),
    "negative-points": Case(_set(lambda d: _vein(d)["north"], "points", -1), VEIN,
                            "north.points", "cannot be negative"),
    "negative-room-copies": Case(_set(_vein, "copies", -2), VEIN, "copies",
                                 "must be at least 1, got -2"),
    "zero-card-copies": Case(_set(lambda d: d["cards"][1], "copies", 0), "card #2", "copies",
                             "must be at least 1, got 0"),
    "box-room-count-disagrees": Case(_set(lambda d: d["box"], "room_tiles", 6), "[box]",
                                     "room_tiles",
                                     "declares 6 room tiles but the rooms' copies add up to 5"),
    "box-card-count-disagrees": Case(_set(lambda d: d["box"], "gem_cards", 7), "[box]",
                                     "gem_cards",
                                     "declares 7 gem cards but the cards' copies add up to 6"),
    "card-with-three-gems": Case(_three_gem_card, "card #1", "gems",
                                 "a card shows one or two gems, got 3"),
    "special-gem-without-power": Case(_del(lambda d: _gem(d, "Diamond Dust"), "power"),
                                      'gem "Diamond Dust"', "power",
                                      "a special gem needs a power"),
    "unknown-room-kind": Case(_set(_shaft, "kind", "elevator"), SHAFT, "kind",
                              "must be one of action, movement, free, tunnel, minecart"),
    "missing-edge": Case(_del(_vein, "west"), VEIN, "west", "is missing"),
    "tunnel-door-with-cost": Case(_set(_tunnel, "east", {"cost": ["Electrum"], "points": 0}),
                                  TUNNEL, "east", "tunnel doors never cost or score"),
    "file-does-not-exist": Case(None, None, None, "file not found", write=False),
    "tunnels-under-1e-profile": Case(None, "rooms", "kind",
                                     "has tunnels but profile 1e has tunnels = false",
                                     args=("--edition", "1e")),
}


def _make(case: Case, data: dict, text: str, write_content, tmp_path: Path, name: str) -> Path:
    if not case.write:
        return tmp_path / name
    out = case.mutate(data, text) if case.mutate else None
    return write_content(out if isinstance(out, str) else data, name)


def _error_lines(result) -> list[str]:
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert lines, f"no error printed; stdout was:\n{result.stdout}"
    for ln in lines:
        assert ln.startswith("error: "), f"stderr line is not an 'error: ...' line: {ln!r}"
    return lines


def _assert_no_traceback(result) -> None:
    assert "Traceback" not in result.output
    assert "Traceback" not in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"crashed with {result.exception!r}")


def _matching_line(lines: list[str], path: Path, case: Case) -> str | None:
    for ln in lines:
        if str(path) not in ln or case.phrase not in ln:
            continue
        if case.where is not None and case.where not in ln:
            continue
        if case.field is not None and f"field '{case.field}'" not in ln:
            continue
        return ln
    return None


def test_at_least_14_distinct_broken_files():
    assert len(CASES) >= 14


@pytest.mark.parametrize("case_id", list(CASES))
def test_broken_content_fails_with_clear_error(case_id, cli, minimal, minimal_text,
                                               write_content, tmp_path):
    case = CASES[case_id]
    path = _make(case, minimal, minimal_text, write_content, tmp_path, f"{case_id}.toml")
    assert path.exists() == case.write
    result = cli("validate", path, *case.args)
    _assert_no_traceback(result)
    assert result.exit_code == 2, result.output
    lines = _error_lines(result)
    line = _matching_line(lines, path, case)
    assert line is not None, (
        f"no error line names file, {case.where!r}, field {case.field!r} and "
        f"{case.phrase!r}:\n" + "\n".join(lines))
    assert ": valid" not in result.stdout


def test_minimal_content_is_valid(cli, minimal, write_content):
    path = write_content(minimal, "mini.toml")
    result = cli("validate", path)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert "mini (edition 2e): valid" in result.stdout
    assert "room tiles  5 (3 types): action 3, movement 0, free 0, tunnel 2, minecart 0" \
        in result.stdout


@pytest.mark.parametrize("by_path", [False, True], ids=["by-name", "by-path"])
def test_shipped_content_validates_with_summary(cli, by_path):
    names = ["gemrush-1e", "gemrush-2e"]
    args = [CONTENT_DIR / f"{n}.toml" for n in names] if by_path else names
    result = cli("validate", *args)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    out = result.stdout
    assert "gemrush-1e (edition 1e): valid" in out
    assert "gemrush-2e (edition 2e): valid" in out
    # tiles by kind
    assert "room tiles  48 (33 types): action 47, movement 1, free 0, tunnel 0, minecart 0" in out
    assert "room tiles  80 (51 types): action 67, movement 2, free 1, tunnel 6, minecart 4" in out
    assert "gem cards   50 (" in out and "gem cards   75 (" in out
    # gem frequency on cards: every standard gem equally often
    assert "gems on cards   Electrum 12, Fire Ruby 12, Obsidian 12" in out
    assert "gems on cards   Electrum 16, Fire Ruby 16, Obsidian 16" in out
    # door cost and door points
    assert out.count("door cost (gems: doors)") == 2
    assert out.count("door points (points: doors)") == 2
    assert "gems in costs" in out


def test_three_mistakes_are_reported_at_once(cli, minimal, write_content):
    minimal["cards"][0]["gems"] = ["Electrum", "Moonstone"]
    _room(minimal, "Ruby Shaft")["east"]["points"] = -3
    _room(minimal, "Straight Tunnel")["kind"] = "wormhole"
    path = write_content(minimal, "three.toml")
    result = cli("validate", path)
    _assert_no_traceback(result)
    assert result.exit_code == 2
    text = result.stderr
    assert "card #1" in text and "unknown gem 'Moonstone'" in text
    assert f"{SHAFT}: field 'east.points': cannot be negative, got -3" in text
    assert f"{TUNNEL}: field 'kind': must be one of" in text and "'wormhole'" in text
    assert all(str(path) in ln for ln in _error_lines(result))


def test_several_files_each_reported_and_valid_ones_summarised(cli, minimal, write_content):
    good = write_content(minimal, "good.toml")
    minimal["box"]["gem_cards"] = 9
    bad = write_content(minimal, "bad.toml")
    result = cli("validate", good, bad)
    assert result.exit_code == 2
    assert "mini (edition 2e): valid" in result.stdout
    lines = _error_lines(result)
    assert lines and all(str(bad) in ln for ln in lines)


def test_not_a_toml_name_or_shipped_content(cli):
    result = cli("validate", "gemrush-9e")
    _assert_no_traceback(result)
    assert result.exit_code == 2
    assert "gemrush-9e" in result.stderr
    assert "no such content file or shipped content" in result.stderr
    assert "gemrush-1e" in result.stderr and "gemrush-2e" in result.stderr


def test_real_process_prints_no_traceback(minimal_text, write_content, tmp_path):
    """The installed `balance` script on every broken file at once: exit 2, one error line per
    problem, every file named, no traceback."""
    if not BALANCE_BIN.exists():
        pytest.skip(f"{BALANCE_BIN} is not installed")
    paths = []
    for case_id, case in CASES.items():
        if case.args:
            continue
        data = tomllib.loads(minimal_text)
        paths.append(_make(case, data, minimal_text, write_content, tmp_path,
                           f"{case_id}.toml"))
    proc = subprocess.run([str(BALANCE_BIN), "validate", *map(str, paths)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert all(ln.startswith("error: ") for ln in lines), proc.stderr
    for p in paths:
        assert any(str(p) in ln for ln in lines), f"{p} not named"


# ------------------------------------------------------------------ bugs found in the code


def test_unknown_edition_in_content_names_the_file(cli, minimal, write_content):
    """A content file whose [content] edition is not a profile must be reported against that
    file (a designer validating many files must see which one is wrong)."""
    minimal["content"]["edition"] = "3e"
    path = write_content(minimal, "third.toml")
    result = cli("validate", path)
    _assert_no_traceback(result)
    assert result.exit_code == 2
    lines = _error_lines(result)
    assert any(str(path) in ln and "edition" in ln and "unknown edition" in ln
               for ln in lines), "\n".join(lines)


def test_ability_with_non_ascii_digit_is_an_error_not_a_crash(cli, minimal, write_content,
                                                             tmp_path):
    """'draw ²': str.isdigit() accepts '²' but int() does not; the ValueError escapes."""
    _room(minimal, "Ruby Shaft")["ability"] = "discard 1 Fire Ruby; draw \u00b2"
    path = write_content(minimal, "superscript.toml")
    result = cli("validate", path)
    _assert_no_traceback(result)
    assert result.exit_code == 2
    lines = _error_lines(result)
    assert any(str(path) in ln and SHAFT in ln and "field 'ability'" in ln for ln in lines)


def test_rules_table_in_content_is_not_silently_ignored(cli, minimal, write_content):
    """[rules] is accepted as a top-level table but never read: a misspelt or out-of-range rule
    in it passes validation without a word (FORMAT.md does not list [rules] either)."""
    minimal["rules"] = {"hand_limt": 5}
    path = write_content(minimal, "rules.toml")
    result = cli("validate", path)
    _assert_no_traceback(result)
    assert result.exit_code == 2, result.output
    lines = _error_lines(result)
    assert any(str(path) in ln and ("hand_limt" in ln or "'rules'" in ln) for ln in lines)
