"""Issue 50, point 11: `make` says which of its stages it is in, what each plays and how many
games, so that a designer waiting minutes sees where they go. The stage lines are printed by
make itself (every command replaced by `true`, nothing is played or written), and the
variant counts they state are the experiments' own."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from balance.running.experiment import load_experiment

ROOT = Path(__file__).resolve().parents[1]
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")
STAGE = re.compile(r"^\t\$\(call stage,(\d+),(\d+),(.*)\)$")
PLAYS = re.compile(r"^([\w-]+): .*; (\d+) variants x \$\((\w+)\) games")
LINE = re.compile(r"^== make: stage (\d+) of (\d+), \d+ s in: (.+) ==$")


def _recipe(target: str) -> list[str]:
    lines = MAKEFILE.split(f"\n{target}: ", 1)[1].splitlines()[1:]
    return lines[:next(i for i, x in enumerate(lines) if not x.strip())]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_names_each_stage_as_it_starts():
    fake = ["BALANCE=true", "PY=true", "STAMP=Makefile", "MAIN_RUNS=x", "RUSSHIP_RUNS=x",
            "GEM_MOUNTAIN_RUNS=x", "GEM_RUNNER_RUNS=x"]
    out = subprocess.run(["make", "--no-print-directory", "-s", "main", *fake], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    stages = [LINE.match(x) for x in out.stdout.splitlines() if x.startswith("== make")]
    assert [int(m[1]) for m in stages] == list(range(1, 20))
    assert {m[2] for m in stages} == {"19"}
    assert "players: 4-player Crisis by greedy, the learned player" in out.stdout
    assert "Gem Mountain's report of the two runs" in out.stdout
    assert "Gem Runner's report of the two runs" in out.stdout
    assert re.search(r"^make: done in \d+ s$", out.stdout, re.M)


def test_the_stages_count_and_state_the_experiments_variants():
    main, subs = _recipe("main"), {name: _recipe(name) for name in ("rusship", "gem_mountain",
                                                               "gem_runner")}
    own = [STAGE.match(x) for x in main if STAGE.match(x)]
    theirs = {name: [STAGE.match(x) for x in r if STAGE.match(x)] for name, r in subs.items()}
    total = len(own) + sum(len(t) for t in theirs.values())
    assert [int(m[1]) for m in own] == list(range(1, len(own) + 1))
    assert {int(m[2]) for m in own} == {total}
    base = len(own)
    for name, stages in theirs.items():  # each sub-make's stages follow the last's
        assert [int(m[1]) for m in stages] == list(range(1, len(stages) + 1))
        assert {int(m[2]) for m in stages} == {len(stages)}
        assert f"{name} STAGE_BASE={base} STAGE_TOTAL={total}" in "\n".join(main)
        base += len(stages)
    counted = 0
    for recipe in (main, *subs.values()):
        for i, line in enumerate(recipe):
            m = STAGE.match(line)
            plays = m and PLAYS.match(m[3])
            if not plays:
                continue
            name, variants, games = plays.groups()
            run = recipe[i + 1].split()
            assert run[:2] == ["$(BALANCE)", "run"] and Path(run[2]).stem == name, line
            assert run[run.index("--games") + 1] == f"$({games})", line
            assert len(load_experiment(run[2]).variants) == int(variants), name
            counted += 1
    assert counted == 14
