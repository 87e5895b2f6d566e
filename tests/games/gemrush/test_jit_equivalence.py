"""The compiled engine and the pure-Python one (NUMBA_DISABLE_JIT=1) play identical games."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.games.gemrush.jit_replay import records

ROOT = Path(__file__).resolve().parents[3]


def test_jit_and_no_jit_play_identical_games():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "tests.games.gemrush.jit_replay"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=900, check=True)
    slow = json.loads(proc.stdout)
    fast = json.loads(json.dumps(records()))
    assert slow.keys() == fast.keys()
    for key in fast:
        assert slow[key] == fast[key], key
