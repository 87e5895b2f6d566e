"""`make test`'s first step: balance.compile.all over every game the suite plays, the test
games (dice, Pig, cards: tests/conftest.py registers them) as well as the project's.

Why: the suite plays the test games most, from its first tests on. Left out of the step, on
a fresh clone both workers compiled each of them at once (about 20 s of CPU for the three),
and so did the processes the tests start before either had saved it (loky's workers, the
CLI's subprocesses)."""

from __future__ import annotations

import tests.conftest  # noqa: F401  (registers the test games)
from balance.compile.all import main

if __name__ == "__main__":
    raise SystemExit(main())
