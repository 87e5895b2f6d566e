"""How many worker processes: one per core unless told, and never more than a few per core.
`balance run`, `balance report` (its figures) and the Python API read the same rule."""

from __future__ import annotations

import os

from balance.errors import InputError, Problem

JOBS_PER_CORE = 4  # each run worker holds a compiled engine (~250 MB): more only thrash


def default_jobs() -> int:
    return os.cpu_count() or 1


def check_jobs(jobs: int) -> None:
    most = JOBS_PER_CORE * default_jobs()
    if not 1 <= jobs <= most:
        raise InputError([Problem("--jobs", "", "", f"must be from 1 to {most} "
                                  f"({JOBS_PER_CORE} per core on this machine), got {jobs:,}")])
