"""`balance ladder` and `balance report --ladder`: bad input refused cleanly, one message,
exit 2, nothing written (the harness is tests/fuzz.py)."""

from __future__ import annotations

import json

import polars as pl
import pytest

from tests.fuzz import Case, assert_refused_cleanly

PIG = ["ladder", "--game", "pig", "--games", "20", "--jobs", "1"]


def _out(tmp, *extra):
    return [*PIG, "--out", str(tmp / "lad"), *extra]


def _held(tmp):
    (tmp / "lad").mkdir()
    (tmp / "lad" / "notes.txt").write_text("mine")
    return _out(tmp)


def _two_variants(tmp):
    path = tmp / "two.toml"
    path.write_text('[experiment]\nname = "two"\ndescription = "d"\ngame = "pig"\n'
                    'games = 5\nseed = 1\n[grid]\nplayers = [2, 3]\n')
    return ["ladder", str(path), "--out", str(tmp / "lad")]


def _run_and_ladder(tmp, summary: dict | None, game: str = "pig"):
    exp = tmp / "pig.toml"
    exp.write_text('[experiment]\nname = "pig-run"\ndescription = "d"\ngame = "pig"\n'
                   'players = 2\ngames = 10\nseed = 1\n')
    from balance.running.experiment import load_experiment
    from balance.running.runner import run_experiment

    run_experiment(load_experiment(exp), tmp / "runs", jobs=1)
    lad = tmp / "lad"
    lad.mkdir()
    if summary is not None:
        (lad / "ladder.json").write_text(json.dumps(summary))
        pl.DataFrame({"game": [0]}).write_parquet(lad / "games.parquet")
    return ["report", str(tmp / "runs" / "pig-run"), "--ladder", str(lad), "--out",
            str(tmp / "page")]


CASES: dict[str, Case] = {
    "out-holds-results": Case("cli", _held, ("lad", "already holds files")),
    "budgets-without-a-search": Case("cli", lambda tmp: _out(tmp, "--budgets", "8"),
                                     ("--budgets", "Pig has no search player")),
    "budgets-not-numbers": Case("cli", lambda tmp: [*PIG, "--game", "cards", "--budgets",
                                                    "8,lots", "--out", str(tmp / "l")],
                                ("--budgets", "whole numbers")),
    "budgets-falling": Case("cli", lambda tmp: [*PIG, "--game", "cards", "--budgets",
                                                "16,8", "--out", str(tmp / "l")],
                            ("--budgets", "must rise")),
    "budget-out-of-range": Case("cli", lambda tmp: [*PIG, "--game", "cards", "--budgets",
                                                    "1,8", "--out", str(tmp / "l")],
                                ("--budgets", "from 2 to 4096")),
    "no-game-and-no-file": Case("cli", lambda tmp: ["ladder", "--out", str(tmp / "l")],
                                ("--game", "one of the two")),
    "unknown-game": Case("cli", lambda tmp: ["ladder", "--game", "chess", "--out",
                                             str(tmp / "l")], ("--game", "no such game")),
    "players-the-game-never-seats": Case("cli", lambda tmp: _out(tmp, "--players", "9"),
                                         ("--players", "Pig plays 2, 3, 4 players")),
    "game-that-needs-its-own-keys": Case(
        "cli", lambda tmp: ["ladder", "--game", "gemrush", "--out", str(tmp / "l")],
        ("--game", "cannot be played from its defaults alone", "edition is missing",
         "give an experiment file")),
    "one-replay": Case("cli", lambda tmp: _out(tmp, "--repeats", "1"),
                       ("--repeats", "from 2 to 100")),
    "no-games": Case("cli", lambda tmp: [*PIG[:3], "--games", "0", "--out", str(tmp / "l")],
                     ("--games", "from 1 to")),
    "file-of-two-variants": Case("cli", _two_variants, ("two.toml", "makes 2 variants")),
    "report-ladder-not-a-ladder": Case("cli", lambda tmp: _run_and_ladder(tmp, None),
                                       ("lad", "is no ladder's folder")),
    "report-ladder-of-another-kind": Case(
        "cli", lambda tmp: _run_and_ladder(tmp, {"kind": "run"}),
        ("ladder.json", "kind", "is not a ladder's summary")),
    "report-ladder-of-another-game": Case(
        "cli", lambda tmp: _run_and_ladder(tmp, {"kind": "strength ladder", "game": "dice"}),
        ("lad", "--ladder", "a ladder of 'dice'", "runs are of 'pig'")),
    "report-ladder-games-damaged": Case(
        "cli", lambda tmp: _damaged(tmp), ("games.parquet", "cannot be read")),
}


def _damaged(tmp):
    argv = _run_and_ladder(tmp, {"kind": "strength ladder", "game": "pig"})
    (tmp / "lad" / "games.parquet").write_bytes(b"not parquet")
    return argv


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_input_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)
