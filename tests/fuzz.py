"""The fuzz suites' harness: a case is one broken or hostile input (content, experiment, command
line, damaged run folder, planted link, ...) made under a test's tmp folder, with the argv to
run. `assert_refused_cleanly` checks exit code 2, one message that names the file (or option),
the field and the problem, no traceback, and no file created or changed anywhere under the
tmp folder (so a victim file planted beside a run folder shows any write that escaped it).

Damaged-run cases copy a real run made once per test module (`make_base_runs`, called by an
autouse fixture in each suite) and damage the copy."""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
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


BASE: dict[str, Path] = {}  # "run": a real run of seed 3, "other": of seed 4 (make_base_runs)


def make_base_runs(tmp: Path) -> None:
    """One real run (seed 3) and one of another seed (4), both of 2 shards, under tmp."""
    for seed, out in ((3, "runs"), (4, "other")):
        path = tmp / f"fz{seed}.toml"
        path.write_text(EXPERIMENT.replace("seed = 3", f"seed = {seed}"), encoding="utf-8")
        run_experiment(load_experiment(path), tmp / out, jobs=1)
    BASE["run"], BASE["other"] = tmp / "runs" / "fz", tmp / "other" / "fz"
    (BASE["run"] / ".lock").unlink()


def copy_run(tmp: Path) -> Path:
    """A copy of the base run at tmp/runs/fz."""
    run = tmp / "runs" / "fz"
    shutil.copytree(BASE["run"], run, symlinks=True)
    return run


def damaged(damage: Callable[[Path], None], command: str = "report"):
    def make(tmp):
        run = copy_run(tmp)
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
    (run / G).write_bytes((BASE["other"] / G).read_bytes())


def _lost_rows(run):
    f = run / "rooms" / f"{SHARD}.parquet"
    t = pq.read_table(f)
    pq.write_table(t.slice(0, t.num_rows // 2), f)


def _rename(run):
    # the games file of the first shard copied over the second's
    second = run / "games" / "v00000-g000000000005-000000000010.parquet"
    second.write_bytes((run / G).read_bytes())


G = f"games/{SHARD}.parquet"



def snapshot(folder: Path) -> dict:
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_symlink():
            out[p] = ("link", os.readlink(p))
        elif p.is_dir():
            out[p] = "dir"
        elif not p.is_file():
            out[p] = "special"
        elif p.stat().st_size > 2**20:
            out[p] = p.stat().st_size
        else:
            out[p] = p.read_bytes()
    return out


def assert_refused_cleanly(case: Case, tmp_path: Path, cli) -> None:
    argv = case.make(tmp_path)
    before = snapshot(tmp_path)
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
    assert snapshot(tmp_path) == before, "the command changed or created files"
