"""`balance report RUN_DIR...`: one self-contained HTML page, `report.html`, written into the
run directory, with every figure also saved as a PNG in `figures/` beside it for slides.

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
    games: pl.DataFrame  # or a balance.store ShardTable, read piece by piece
    rooms: pl.DataFrame | None
    manifest: dict


def write_report(data: RunData, out_dir: str | Path, comparisons: list | None = None,
                 levels: tuple[float, ...] | None = None) -> Path:
    """Analyse the run, write `report.html` and `figures/*.png` into `out_dir`; return the
    page's path. The same data always gives the same bytes. `comparisons`: (run name,
    reports.compare.Comparison) for the Comparison section."""
    out_dir = Path(out_dir)
    a = analyse(data.games, data.rooms, data.manifest, levels)
    sections = build_sections(a, comparisons)
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


def build_report(run_dirs: str | Path | list, out: str | Path | None = None,
                 levels: tuple[float, ...] | None = None) -> Path:
    """Read one run, or several to report as one (reports/combine.py), and write the report
    into `out`: by default the run directory, or for several runs a `report` folder in the
    first run's parent directory."""
    dirs = [Path(d) for d in (run_dirs if isinstance(run_dirs, list | tuple) else [run_dirs])]
    if not dirs:
        raise InputError([Problem("", "", "", "no run directory given")])
    missing = [Problem(str(d), "", "", "no such run directory") for d in dirs if not d.is_dir()]
    if missing:
        raise InputError(missing)
    if len({d.resolve() for d in dirs}) < len(dirs):
        raise InputError([Problem(", ".join(map(str, dirs)), "", "",
                                  "the same run directory is given twice")])
    from balance.store import read_run  # the runner's reader; imported only when needed
    from reports.combine import check_distinct, combine

    # The games and rooms are counted shard by shard, never held whole (README, Scale).
    runs = [read_run(d, lazy_rooms=True, lazy_games=True, compact=True) for d in dirs]
    check_distinct(runs, [str(d) for d in dirs])  # every run, the Skills section's too
    # A run that measures skills (each skill, or the skill variants) is read in the Skills
    # section; in the other sections its 20-odd versions of the game would bury the rest.
    general = [i for i, r in enumerate(runs) if not measures_skills(r.manifest)] or \
        list(range(len(runs)))
    data = combine([runs[i] for i in general], [str(dirs[i]) for i in general])
    # Unplayed shards of an interrupted run: the page says so at the top.
    data.manifest = dict(data.manifest, missing_shards=[
        f"{d}/{name}" for d, r in zip(dirs, runs, strict=True)
        for name in getattr(r, "missing", [])])
    if out is None:
        out = dirs[0] if len(dirs) == 1 else dirs[0].parent / "report"
    return write_report(data, out, comparisons_of(dirs, [r.manifest for r in runs]), levels)


def measures_skills(manifest: dict) -> bool:
    """Whether a run's versions differ by the skill held or the skill variant."""
    return any(k in (v.get("swept") or {}) for v in manifest.get("variants", [])
               for k in ("skill", "skills"))


def comparisons_of(dirs: list[Path], manifests: list[dict]) -> list:
    """(run name, Comparison) of every run whose versions differ by a lever (not only by the
    player count, which is a setting)."""
    from reports.compare import compare_run

    out = []
    for d, manifest in zip(dirs, manifests, strict=True):
        if len(manifest.get("variants", [])) < 2:
            continue
        cmp = compare_run(d)
        if cmp.differences.height:
            out.append((str(manifest.get("experiment") or d.name), cmp))
    return out


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
