"""Issue 12: every bad input is refused cleanly. Each case below is one broken input (content,
experiment, command line, damaged run folder). For each: exit code 2, one message that names
the file (or option), the field and the problem, no traceback, and no folder created or
changed (the whole test folder is compared before and after). The harness is tests/fuzz.py;
the other suites (tests/test_fuzz_*.py) add the classes a second fault hunt found."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tests.conftest import PLAYABLE_TOML
from tests.fuzz import (
    EXPERIMENT,
    SHARD,
    Case,
    G,
    _exp,
    _flip,
    _lost_rows,
    _manifest,
    _other_seed,
    _rename,
    _room,
    _symlink_loop,
    _truncate,
    _write,
    assert_refused_cleanly,
    cli_args,
    damaged,
    exp,
    exp_raw,
    make_base_runs,
    run_cli,
    validate,
)

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
                                  ("fz.toml", "[patches.gone] in variant", "every room")),
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




@pytest.fixture(scope="module", autouse=True)
def base_runs(tmp_path_factory):
    make_base_runs(tmp_path_factory.mktemp("fuzz-base"))


def test_the_suites_keep_every_case_found():
    # A guard against a case lost in a merge or an edit: the first hunt's 103 here, and the
    # second hunt's in the other suites (tests/test_fuzz_*.py).
    assert len(CASES) >= 103
    assert {c.kind for c in CASES.values()} == {"content", "experiment", "cli", "run folder"}
    others = [importlib.import_module(f"tests.{p.stem}").CASES
              for p in sorted(Path(__file__).parent.glob("test_fuzz_*.py"))]
    assert len(others) >= 5 and sum(map(len, others)) >= 100


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_input_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)
