"""`balance report RUN_DIR`: one self-contained HTML page, `report.html`, written into the run
directory, with every figure also saved as a PNG in `figures/` beside it for slides.

`write_report` does the work from anything with `.games`, `.rooms` and `.manifest` (what
`balance.store.read_run` returns), so it runs on hand-made tables as well as on a real run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

import polars as pl

from balance.errors import InputError, Problem
from reports.analysis import analyse
from reports.page import build_sections, render

PAGE = "report.html"
FIGURES = "figures"


class RunData(Protocol):
    games: pl.DataFrame
    rooms: pl.DataFrame | None
    manifest: dict


def write_report(data: RunData, out_dir: str | Path) -> Path:
    """Analyse the run, write `report.html` and `figures/*.png` into `out_dir`; return the
    page's path. The same data always gives the same bytes."""
    out_dir = Path(out_dir)
    a = analyse(data.games, data.rooms, data.manifest)
    sections = build_sections(a)
    title = f"Gem Rush balance report: {a.manifest.get('experiment') or out_dir.name}"
    html = render(sections, title)

    fig_dir = out_dir / FIGURES
    fig_dir.mkdir(parents=True, exist_ok=True)
    for old in fig_dir.glob("*.png"):  # figures of an earlier report that this one lacks
        old.unlink()
    for s in sections:
        for b in s.blocks:
            for f in b.figures:
                _write_atomic(fig_dir / f.name, f.png)
    page = out_dir / PAGE
    _write_atomic(page, html.encode("utf-8"))
    return page


def build_report(run_dir: str | Path, out: str | Path | None = None) -> Path:
    """Read the run in `run_dir` and write its report into `out` (default: `run_dir`)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise InputError([Problem(str(run_dir), "", "", "no such run directory")])
    from balance.store import read_run  # the runner's reader; imported only when needed

    return write_report(read_run(run_dir), out if out is not None else run_dir)


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
