"""Issue 12: every bad input is refused cleanly. Each case below is one broken input (content,
experiment, command line, damaged run folder). For each: exit code 2, one message that names
the file (or option), the field and the problem, no traceback, and no folder created or
changed (the whole test folder is compared before and after)."""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from balance.experiment import load_experiment
from balance.runner import run_experiment
from tests.conftest import PLAYABLE_TOML, dump_toml

EXPERIMENT = """\
[experiment]
name = "fz"
description = "fuzz base"
edition = "2e"
mode = "crisis"
games = 10
seed = 3
shard_size = 5
exhaust = true
players = 2
"""


@dataclass(frozen=True)
class Case:
    kind: str  # content | experiment | cli | run folder
    make: Callable[[Path], list[str]]  # writes the broken input under tmp, returns argv
    expect: tuple[str, ...]  # substrings of the one message: file or option, field, problem


def _content(tmp: Path, mutate=None, text: str | None = None, raw: bytes | None = None,
             name: str = "c.toml") -> Path:
    path = tmp / name
    if raw is not None:
        path.write_bytes(raw)
    elif text is not None:
        path.write_text(text, encoding="utf-8")
    else:
        d = tomllib.loads(PLAYABLE_TOML)
        mutate(d)
        path.write_text(dump_toml(d), encoding="utf-8")
    return path


def validate(**kw) -> Callable[[Path], list[str]]:
    return lambda tmp: ["validate", str(_content(tmp, **kw))]


def _room(d, i=0):
    return d["rooms"][i]


def _exp(tmp: Path, text: str) -> list[str]:
    (tmp / "mini.toml").write_text(PLAYABLE_TOML, encoding="utf-8")
    path = tmp / "fz.toml"
    path.write_text(text, encoding="utf-8")
    return ["run", str(path), "--out", str(tmp / "runs"), "--jobs", "1"]


def exp(old: str = "", new: str = "", append: str = "") -> Callable[[Path], list[str]]:
    def make(tmp):
        assert old in EXPERIMENT
        return _exp(tmp, EXPERIMENT.replace(old, new, 1) + append)
    return make


def exp_raw(raw: bytes) -> Callable[[Path], list[str]]:
    def make(tmp):
        path = tmp / "fz.toml"
        path.write_bytes(raw)
        return ["run", str(path), "--out", str(tmp / "runs"), "--jobs", "1"]
    return make


def cli_args(*args: str) -> Callable[[Path], list[str]]:
    return lambda tmp: [a.replace("TMP", str(tmp)) for a in args]


def run_cli(*extra: str) -> Callable[[Path], list[str]]:
    return lambda tmp: _exp(tmp, EXPERIMENT) + list(extra)


def _symlink_loop(tmp: Path) -> list[str]:
    os.symlink(tmp / "b.toml", tmp / "a.toml")
    os.symlink(tmp / "a.toml", tmp / "b.toml")
    return ["validate", str(tmp / "a.toml")]


# -- damaged run folders: a real run is copied in, then damaged ---------------------------

SHARD = "v00000-g000000000000-000000000005"


def damaged(damage: Callable[[Path], None], command: str = "report"):
    def make(tmp):
        run = tmp / "runs" / "fz"
        shutil.copytree(_RUN, run)
        damage(run)
        if command == "report":
            return ["report", str(run), "--out", str(tmp / "report")]
        (tmp / "fz.toml").write_text(EXPERIMENT, encoding="utf-8")
        return ["run", str(tmp / "fz.toml"), "--out", str(tmp / "runs"), "--jobs", "1"]
    return make


def _manifest(edit):
    def damage(run):
        m = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
        edit(m)
        (run / "manifest.json").write_text(json.dumps(m), encoding="utf-8")
    return damage


def _write(rel: str, data: bytes):
    return lambda run: (run / rel).write_bytes(data)


def _flip(rel: str, at: int):
    def damage(run):
        b = bytearray((run / rel).read_bytes())
        b[at if at >= 0 else len(b) + at] ^= 0xFF
        (run / rel).write_bytes(bytes(b))
    return damage


def _truncate(rel: str):
    def damage(run):
        b = (run / rel).read_bytes()
        (run / rel).write_bytes(b[: len(b) // 2])
    return damage


def _other_seed(run):
    (run / G).write_bytes((_OTHER / G).read_bytes())


def _lost_rows(run):
    f = run / "rooms" / f"{SHARD}.parquet"
    t = pq.read_table(f)
    pq.write_table(t.slice(0, t.num_rows // 2), f)


def _rename(run):
    # the games file of the first shard copied over the second's
    second = run / "games" / "v00000-g000000000005-000000000010.parquet"
    second.write_bytes((run / G).read_bytes())


G = f"games/{SHARD}.parquet"

CASES: dict[str, Case] = {
    # -- content files (balance validate) -----------------------------------------------
    "content-bom": Case("content", validate(raw=b"\xef\xbb\xbf" + PLAYABLE_TOML.encode()),
                        ("c.toml", "byte-order mark")),
    "content-not-utf8": Case("content", validate(raw=b"[content]\nname = \"\xff\xfe\"\n"),
                             ("c.toml", "not a UTF-8 text file")),
    "content-symlink-loop": Case("content", _symlink_loop, ("a.toml", "loops")),
    "content-dev-zero": Case("content", cli_args("validate", "/dev/zero"),
                             ("/dev/zero", "not a regular file")),
    "content-directory": Case("content", cli_args("validate", "TMP"),
                              ("is a directory",)),
    "content-missing": Case("content", cli_args("validate", "TMP/nope.toml"),
                            ("nope.toml", "file not found")),
    "content-nested": Case("content", validate(text="a = " + "[" * 3000 + "]" * 3000),
                           ("c.toml", "not valid TOML")),
    "content-bad-toml": Case("content", validate(text="[content\nname = 1"),
                             ("c.toml", "not valid TOML")),
    "content-too-large": Case("content", validate(text="#" * (6 * 2**20)),
                              ("c.toml", "more than a TOML file can be")),
    "content-copies-1e30": Case("content", validate(mutate=lambda d: (
        d["cards"][0].update(copies=10**30), d["box"].update(gem_cards=10**30 + 12))),
        ("c.toml", "field 'gem_cards'", "engine's bound")),
    "content-ability-1e23": Case("content", validate(mutate=lambda d: _room(d).update(
        ability="draw 100000000000000000000000")), ("room \"Electrum Vein\"", "'ability'",
                                                    "engine's bound")),
    "content-points-1e30": Case("content", validate(mutate=lambda d: _room(d)["north"].update(
        points=10**30)), ("room \"Electrum Vein\"", "north.points", "score column")),
    "content-huge-ability": Case("content", validate(mutate=lambda d: _room(d).update(
        ability="dig 1 " + "x" * 10**6)), ("room \"Electrum Vein\"", "'ability'",
                                           "1,000,006 characters")),
    "content-5000-cards": Case("content", validate(mutate=lambda d: (
        d["cards"][0].update(copies=5000), d["box"].update(gem_cards=5012))),
        ("c.toml", "field 'gem_cards'", "4,095")),
    "content-reveal-4500": Case("content", validate(mutate=lambda d: _room(d).update(
        ability="reveal 4500; keep 2")), ("room \"Electrum Vein\"", "'reveal 4500'")),
    "content-unknown-gem": Case("content", validate(mutate=lambda d: d["cards"][0].update(
        gems=["Electrum", "Moonstone"])), ("card #1", "'gems'", "unknown gem 'Moonstone'")),
    "content-negative-points": Case("content", validate(mutate=lambda d: _room(d, 1)["east"]
                                                        .update(points=-3)),
                                    ("room \"Ruby Shaft\"", "east.points", "negative")),
    "content-zero-copies": Case("content", validate(mutate=lambda d: d["cards"][1].update(
        copies=0)), ("card #2", "'copies'", "at least 1")),
    "content-box-mismatch": Case("content", validate(mutate=lambda d: d["box"].update(
        gem_cards=15)), ("[box]", "'gem_cards'", "add up to 14")),
    "content-unknown-table": Case("content", validate(mutate=lambda d: d.update(extra={})),
                                  ("field 'extra'", "unknown field")),
    "content-unknown-kind": Case("content", validate(mutate=lambda d: _room(d).update(
        kind="wormhole")), ("room \"Electrum Vein\"", "'kind'", "wormhole")),
    "content-no-payable-door": Case("content", validate(mutate=lambda d: [
        r.update({s: {"cost": ["Fire Ruby"] * 20, "points": 1}}) for r in d["rooms"][:2]
        for s in ("north", "east", "south", "west") if isinstance(r[s], dict)]),
        ("field 'cost'", "no scoring door can ever be paid")),
    "content-unknown-edition": Case("content", validate(mutate=lambda d: d["content"].update(
        edition="9e")), ("[content]", "'edition'", "unknown edition '9e'")),
    "content-bad-tunnel-pairs": Case("content", validate(mutate=lambda d: _room(d, 2).update(
        pairs=[["north", "south"]])), ("room \"Straight Tunnel\"", "'pairs'",
                                       "exactly once")),
    # -- experiment files (balance run) ------------------------------------------------
    "exp-missing": Case("experiment", cli_args("run", "TMP/none.toml", "--out", "TMP/runs"),
                        ("none.toml", "no such experiment file")),
    "exp-directory": Case("experiment", cli_args("run", "TMP", "--out", "TMP/runs"),
                          ("is a directory",)),
    "exp-bom": Case("experiment", exp_raw(b"\xef\xbb\xbf" + EXPERIMENT.encode()),
                    ("fz.toml", "byte-order mark")),
    "exp-not-utf8": Case("experiment", exp_raw(b"[experiment]\nname = \"\xff\"\n"),
                         ("fz.toml", "not a UTF-8")),
    "exp-nested": Case("experiment", exp_raw(("a = " + "[" * 3000 + "]" * 3000).encode()),
                       ("fz.toml", "not valid TOML")),
    "exp-bad-toml": Case("experiment", exp_raw(b"[experiment\n"), ("fz.toml", "not valid TOML")),
    "exp-unknown-table": Case("experiment", exp(append="[extra]\na = 1\n"),
                              ("fz.toml", "field 'extra'", "unknown table")),
    "exp-unknown-field": Case("experiment", exp("seed = 3", "seed = 3\ncolour = 1"),
                              ("[experiment]", "'colour'", "unknown field")),
    "exp-bad-name": Case("experiment", exp('name = "fz"', 'name = "Bad Name"'),
                         ("[experiment]", "'name'", "lowercase")),
    "exp-unknown-edition": Case("experiment", exp('edition = "2e"', 'edition = "9e"'),
                                ("[experiment]", "'edition'", "unknown edition")),
    "exp-bad-mode": Case("experiment", exp('mode = "crisis"', 'mode = "chess"'),
                         ("[experiment]", "'mode'", "crisis or rush")),
    "exp-unknown-heuristic": Case("experiment", exp("seed = 3", 'seed = 3\nheuristic = "nope"'),
                                  ("[experiment]", "'heuristic'", "unknown player")),
    "exp-games-zero": Case("experiment", exp("games = 10", "games = 0"),
                           ("[experiment]", "'games'", "from 1")),
    "exp-games-text": Case("experiment", exp("games = 10", 'games = "ten"'),
                           ("[experiment]", "'games'", "'ten'")),
    "exp-games-1e11": Case("experiment", exp("games = 10", "games = 100000000000"),
                           ("[experiment]", "'games'", "shards, more than")),
    "exp-seed-negative": Case("experiment", exp("seed = 3", "seed = -1"),
                              ("[experiment]", "'seed'", "from 0")),
    "exp-seed-2e64": Case("experiment", exp("seed = 3", "seed = 18446744073709551616"),
                          ("[experiment]", "'seed'", "from 0")),
    "exp-shard-zero": Case("experiment", exp("shard_size = 5", "shard_size = 0"),
                           ("[experiment]", "'shard_size'", "from 1")),
    "exp-players-zero": Case("experiment", exp("players = 2", "players = 0"),
                             ("[experiment]", "'players'", ">= 1")),
    "exp-target-1e10": Case("experiment", exp("exhaust = true", "target = 10000000000"),
                            ("fz.toml", "'target'", "more than any game can score")),
    "exp-exhaust-text": Case("experiment", exp("exhaust = true", 'exhaust = "yes"'),
                             ("[experiment]", "'exhaust'", "true or false")),
    "exp-grid-not-list": Case("experiment", exp(append="[grid]\nhand_limit = 4\n"),
                              ("[grid]", "'hand_limit'", "non-empty list")),
    "exp-grid-unknown": Case("experiment", exp(append="[grid]\ncolour = [1, 2]\n"),
                             ("[grid]", "'colour'", "unknown key")),
    "exp-grid-duplicate": Case("experiment", exp(append="[grid]\nhand_limit = [4, 4]\n"),
                               ("[grid]", "'hand_limit'", "lists 4 twice")),
    "exp-rule-unknown": Case("experiment", exp(append="[rules]\ncolour = 1\n"),
                             ("fz.toml", "'colour'", "unknown rule")),
    "exp-rule-range": Case("experiment", exp(append="[rules]\nhand_limit = 99\n"),
                           ("fz.toml", "'hand_limit'", "between 0 and 30")),
    "exp-content-missing": Case("experiment", exp("seed = 3", 'seed = 3\ncontent = "gone.toml"'),
                                ("fz.toml", "[experiment]", "'content'", "gone.toml",
                                 "file not found")),
    "exp-round-cap-wraps": Case("experiment", exp(
        'mode = "crisis"\ngames = 10\nseed = 3\nshard_size = 5\nexhaust = true\nplayers = 2\n',
        'mode = "rush"\ngames = 10\nseed = 3\nshard_size = 5\nplayers = 4\n'
        '[rules]\nrush_round_cap = 10000\n'), ("fz.toml", "'rush_round_cap'", "'turns' column")),
    "exp-short-deal": Case("experiment", exp("seed = 3", 'seed = 3\ncontent = "mini.toml"',
                                             append="[rules]\ndeal = 8\n"),
                           ("fz.toml", "'deal'", "need 16 gem cards")),
    "exp-patch-selects-nothing": Case("experiment", exp(append='[patches.cheap]\nselect = '
                                                       '{ rooms = "Nowhere *" }\ndoor_cost = -1\n'),
                                      ("fz.toml", "[patches.cheap]", "variant",
                                       "selects no door")),
    "exp-patch-no-select": Case("experiment", exp(append="[patches.cheap]\ndoor_cost = -1\n"),
                                ("fz.toml", "[patches.cheap]", "'select'", "is missing")),
    "exp-patch-unknown-op": Case("experiment", exp(append='[patches.cheap]\nselect = { rooms '
                                                   '= "*" }\ndoor_cost = -1\ncolour = 1\n'),
                                 ("[patches.cheap]", "'colour'", "unknown field")),
    "exp-patch-float": Case("experiment", exp(append='[patches.cheap]\nselect = { rooms = "*" '
                                              '}\ndoor_cost = 0.5\n'),
                            ("[patches.cheap]", "'door_cost'", "whole number")),
    "exp-patch-grid-field": Case("experiment", exp(append='[patches.cheap]\nselect = { rooms = '
                                                   '"*" }\ndoor_cost = -1\n[grid]\n'
                                                   '"cheap.select" = [1, 2]\n'),
                                 ("[grid]", "'cheap.select'", "can sweep only")),
    "exp-patch-empties-box": Case("experiment", exp(append='[patches.gone]\nselect = { rooms '
                                                    '= "*" }\ncopies = 0\n'),
                                  ("fz.toml", "[patches.gone] (variant", "every room")),
    "exp-ablate-mode": Case("experiment", exp("players = 2", 'players = 2\nablate = "half"'),
                            ("[experiment]", "'ablate'", "must be one of")),
    "exp-grid-edition": Case("experiment", exp('edition = "2e"\n', "",
                                               append='[grid]\nedition = ["9e"]\n'),
                             ("[grid]", "'edition'", "unknown edition")),
    # -- command line --------------------------------------------------------------------
    "cli-tune-goal": Case("cli", lambda tmp: ["tune", _exp(tmp, EXPERIMENT)[1], "--lever",
                                              "hand_limit", "--range", "3:9", "--goal",
                                              "Journeyman"], ("--goal", "is not a goal")),
    "cli-tune-range": Case("cli", lambda tmp: ["tune", _exp(tmp, EXPERIMENT)[1], "--lever",
                                               "hand_limit", "--range", "9:3", "--goal",
                                               "score=30"], ("--range", "LOW < HIGH")),
    "cli-content-variant": Case("cli", lambda tmp: ["content", _exp(tmp, EXPERIMENT)[1],
                                                    "--variant", "5"],
                                ("--variant", "variants 0 to 0")),
    "cli-ablate-how": Case("cli", lambda tmp: ["ablate", _exp(tmp, EXPERIMENT)[1], "--how",
                                               "half", "--out", str(tmp / "runs")],
                           ("--how", "must be one of")),
    "cli-run-precision": Case("cli", run_cli("--precision", "0"),
                              ("--precision", "between")),
    "cli-games-zero": Case("cli", run_cli("--games", "0"),
                           ("'--games'", "greater than or equal to 1")),
    "cli-games-1e15": Case("cli", run_cli("--games", "1000000000000000"),
                           ("--games", "'games'", "from 1 to 100,000,000,000")),
    "cli-jobs-zero": Case("cli", run_cli("--jobs", "0"),
                          ("'--jobs'", "greater than or equal to 1")),
    "cli-jobs-1000": Case("cli", run_cli("--jobs", "1000"), ("--jobs", "per core")),
    "cli-out-file": Case("cli", lambda tmp: (tmp / "f").write_text("x") and
                         _exp(tmp, EXPERIMENT) + ["--out", str(tmp / "f")],
                         ("f: field '--out'", "is a file")),
    "cli-scheduler": Case("cli", run_cli("--scheduler", "not-an-address"),
                          ("--scheduler", "cannot reach the Dask scheduler")),
    "cli-play-seed-2e63": Case("cli", cli_args("play", "--seed", str(2**63)),
                               ("'--seed'", "less than or equal to")),
    "cli-play-players": Case("cli", cli_args("play", "--players", "99"),
                             ("'players'", "allows 1 to 7 players")),
    "cli-play-edition": Case("cli", cli_args("play", "--edition", "9e"),
                             ("9e", "'edition'", "unknown edition")),
    "cli-play-mode": Case("cli", cli_args("play", "--mode", "chess"),
                          ("'mode'", "crisis or rush")),
    "cli-play-heuristic": Case("cli", cli_args("play", "--heuristic", "nope"), ("nope",)),
    "cli-play-set-unknown": Case("cli", cli_args("play", "--set", "colour=1"),
                                 ("'colour'", "unknown rule")),
    "cli-play-set-range": Case("cli", cli_args("play", "--set", "hand_limit=99"),
                               ("'hand_limit'", "between 0 and 30")),
    "cli-play-set-malformed": Case("cli", cli_args("play", "--set", "hand_limit"),
                                   ("--set", "hand_limit", "NAME=VALUE")),
    "cli-play-target": Case("cli", cli_args("play", "--target", "Legendary"),
                            ("crisis_targets", "unknown difficulty 'Legendary'")),
    "cli-play-content": Case("cli", cli_args("play", "--content", "TMP/nope.toml"),
                             ("nope.toml", "file not found")),
    "cli-rules-edition": Case("cli", cli_args("rules", "9e"), ("9e", "unknown edition")),
    "cli-check-games": Case("cli", cli_args("check", "--games", "0"),
                            ("'--games'", "greater than or equal to 1")),
    "cli-report-missing": Case("cli", cli_args("report", "TMP/nowhere"),
                               ("nowhere", "no such run directory")),
    # -- damaged run folders ---------------------------------------------------------------
    "run-manifest-string-count": Case("run folder", damaged(_manifest(
        lambda m: m.update(games_per_variant="10"))), ("manifest.json: games_per_variant",
                                                       "damaged")),
    "run-manifest-not-json": Case("run folder", damaged(_write("manifest.json", b"{nope")),
                                  ("fz", "manifest.json", "cannot be read")),
    "run-manifest-empty": Case("run folder", damaged(_write("manifest.json", b"")),
                               ("fz", "manifest.json", "cannot be read")),
    "run-manifest-keys": Case("run folder", damaged(_manifest(lambda m: m.pop("seed"))),
                              ("manifest.json", "missing: seed")),
    "run-no-manifest": Case("run folder", damaged(lambda run: (run / "manifest.json").unlink()),
                            ("fz", "not a run folder")),
    "run-truncated-shard": Case("run folder", damaged(_truncate(G)),
                                (SHARD, "damaged shard")),
    "run-flipped-middle": Case("run folder", damaged(_flip(G, -400)), (SHARD, "damaged shard")),
    "run-flipped-page": Case("run folder", damaged(_flip(G, 200)), (SHARD, "damaged shard")),
    "run-other-seed": Case("run folder", damaged(_other_seed), (SHARD, "seed 4 (this run: 3)")),
    "run-lost-rows": Case("run folder", damaged(_lost_rows), (SHARD, "were written")),
    "run-renamed-shard": Case("run folder", damaged(_rename),
                              ("g000000000005-000000000010", "its start 0 (this run: 5)")),
    "run-missing-rooms": Case("run folder", damaged(
        lambda run: (run / "rooms" / f"{SHARD}.parquet").unlink()),
        (SHARD, "rooms shard does not")),
    "run-stray-file": Case("run folder", damaged(_write("games/notes.parquet", b"x")),
                           ("notes.parquet", "not a shard file name")),
    "resume-other-seed": Case("run folder", damaged(_other_seed, "run"),
                              (SHARD, "seed 4 (this run: 3)")),
    "resume-lost-rows": Case("run folder", damaged(_lost_rows, "run"), (SHARD, "were written")),
    "resume-string-count": Case("run folder", damaged(_manifest(
        lambda m: m.update(games_per_variant="10")), "run"), ("games_per_variant", "damaged")),
    "resume-stray-folder-file": Case("run folder", damaged(
        lambda run: (run / "manifest.json").rename(run / "notes.json"), "run"),
        ("fz", "not a run folder", "notes.json")),
    "resume-other-code": Case("run folder", damaged(_manifest(
        lambda m: m.update(source_hash="0" * 16)), "run"), ("fz", "other engine or player code",
                                                             "--out")),
}


_RUN: Path
_OTHER: Path


@pytest.fixture(scope="module", autouse=True)
def base_runs(tmp_path_factory):
    """One real run (seed 3) and one of another seed (4), both of 2 shards."""
    global _RUN, _OTHER
    tmp = tmp_path_factory.mktemp("fuzz-base")
    for seed, out in ((3, "runs"), (4, "other")):
        path = tmp / f"fz{seed}.toml"
        path.write_text(EXPERIMENT.replace("seed = 3", f"seed = {seed}"), encoding="utf-8")
        run_experiment(load_experiment(path), tmp / out, jobs=1)
    _RUN, _OTHER = tmp / "runs" / "fz", tmp / "other" / "fz"
    (_RUN / ".lock").unlink()


def _snapshot(folder: Path) -> dict:
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_symlink():
            out[p] = "link"
        elif p.is_dir():
            out[p] = "dir"
        elif p.stat().st_size > 2**20:
            out[p] = p.stat().st_size
        else:
            out[p] = p.read_bytes()
    return out


def test_there_are_at_least_60_distinct_cases():
    assert len(CASES) >= 60
    kinds = {c.kind for c in CASES.values()}
    assert kinds == {"content", "experiment", "cli", "run folder"}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_input_is_refused_cleanly(case_id, tmp_path, cli):
    case = CASES[case_id]
    argv = case.make(tmp_path)
    before = _snapshot(tmp_path)
    r = cli(*argv)
    assert isinstance(r.exception, SystemExit), f"traceback: {r.exception!r}"
    assert r.exit_code == 2, (r.exit_code, r.stdout[-500:], r.stderr[-500:])
    text = r.stderr
    assert "Traceback" not in text + r.stdout
    errors = [line for line in text.splitlines()
              if line.startswith("error:") or "─ Error ─" in line]
    assert len(errors) == 1, text
    for want in case.expect:
        assert want in text, (want, text)
    assert len(text) < 2000, "a message quotes the input whole"
    assert _snapshot(tmp_path) == before, "the command changed or created files"
