"""Checks of what a fresh process imports: the command line's processes keep heavy libraries
out until they are used (balance/docs/guide/developers/performance.md, What a command
imports)."""

from __future__ import annotations

import subprocess
import sys


def imports_none(code: str, modules: tuple[str, ...]) -> None:
    """Run `code` in a fresh Python process; fail with its error, or when it imported any of
    `modules`."""
    check = f"\nimport sys\nbad = [m for m in {modules!r} if m in sys.modules]\nassert not bad, bad"
    done = subprocess.run([sys.executable, "-c", code + check], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
