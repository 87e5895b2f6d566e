"""`balance report RUN_DIR...`: one self-contained HTML page, `report.html`, written into the
run directory, with every figure also saved as a PNG in `figures/` beside it for slides.

`write_report` does the work from anything with `.games`, `.manifest` and the game's other
tables by name (what `balance.running.store.read_run` returns), so it runs on hand-made tables
as well as on a real run. The page is the game's: its report (reports/page/game_report.py, named in
the game's declaration; the neutral one otherwise) analyses the run and gives its sections.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Protocol

import polars as pl

from balance import files
from balance.errors import InputError, Problem
from reports.compare.compare import compare_run
from reports.course import summary as course_summary
from reports.page import game_report
from reports.page.merge import merged_groups
from reports.page.page import build_sections, render
from reports.render import text
from reports.render.figures import rendered_by
from reports.tables.combine import check_distinct, combine, game_name, run_labels

PAGE = "report.html"
FIGURES = "figures"
# The figures the last report wrote, one name a line: a report deletes only these, never a
# picture the user put beside them.
FIGURE_LIST = "written-by-report.txt"
LIST_LIMIT = 4 * files.MiB


class RunData(Protocol):
    games: pl.DataFrame  # or a balance.running.store ShardTable, read piece by piece
    manifest: dict  # and each of the game's other tables, as an attribute of its name


def write_report(data: RunData, out_dir: str | Path, comparisons: list | None = None,
                 levels: tuple[float, ...] | None = None, jobs: int = 1,
                 ladder=None) -> Path:
    """Analyse the run, write `report.html` and `figures/*.png` into `out_dir`; return the
    page's path. The same data always gives the same bytes. `comparisons`: (run name,
    reports.compare.compare.Comparison) for the Comparison section. A manifest's `runs`
    (build_report's) names every run read, those read in a section apart too. `jobs`:
    processes that draw the figures of a report with more than a few (figures.later).
    `ladder`: a strength ladder of the same game (balance.ladder.store.Ladder), shown as the
    section Strength and luck before About this run."""
    out_dir = files.check_dir(out_dir)
    _check_earlier(out_dir)
    report = game_report.of_manifest(data.manifest or {})
    a = report.analyse(data, levels)
    runs = a.manifest.get("runs") or []
    merged = merged_groups(a.kinds, a.manifest, {r["name"]: r for r in runs},
                           report.kind_column, report.played_alike)
    played = course_summary.summarise(
        course_summary.games_of(data, a.manifest, report.layout), report.game, a.manifest)
    with rendered_by(jobs):
        sections = build_sections(a, report, comparisons, merged, played)
        figures = {f.name: f.png for s in sections for b in s.blocks for f in b.figures}
        if ladder is not None:  # before About this run, the page's last section
            # lazy: only a report given a ladder draws its section
            from reports.ladder.section import ladder_section

            own = ladder_section(ladder.summary, str(ladder.folder))
            sections.insert(len(sections) - 1, own)
            figures.update({f.name: f.png for b in own.blocks for f in b.figures})
    title = f"{report.game.title} balance report" + (
        "" if len(runs) > 1 else f": {a.manifest.get('experiment') or out_dir.name}")
    html = render(sections, title, runs_line(runs))

    return _publish(out_dir, html.encode("utf-8"), figures)


def _check_earlier(out_dir: Path) -> None:
    """_publish's checks of the folder's figures/ and of an earlier report's FIGURE_LIST,
    made before the work as well as before the writing: a bad folder is refused at once, not
    once every figure is drawn. Nothing is created."""
    fig_dir = out_dir / FIGURES
    files.refuse_link(fig_dir)
    files.check_dir(fig_dir)
    if fig_dir.is_dir():
        _recorded(fig_dir)


def _publish(out_dir: Path, page: bytes, figures: dict[str, bytes]) -> Path:
    """Write the page and its figures whole or not at all, then delete the figures an
    earlier report recorded as its own (FIGURE_LIST) that this one lacks; never any other
    file. Everything is written to exclusive temporary names first: a failure (a full disk,
    a read-only folder, an interrupt) removes them and leaves the earlier report as it was.
    A `figures/` that is a link is refused before anything is written, and the folders a
    failed report made are removed (only if empty, so nothing else can go with them)."""
    made = [d for d in (Path(out_dir), Path(out_dir) / FIGURES) if not os.path.lexists(d)]
    out_dir = files.safe_dir(out_dir)
    fig_dir = files.owned_dir(out_dir, FIGURES)
    earlier = _recorded(fig_dir)
    paths = [fig_dir / name for name in figures] + [out_dir / PAGE]
    staged: list[Path] = []
    try:
        for path, data in zip(paths, [*figures.values(), page], strict=True):
            staged.append(files.write_temp(path, data))
        for tmp, path in zip(staged, paths, strict=True):
            os.replace(tmp, path)
    except BaseException:
        for tmp in staged:
            with contextlib.suppress(OSError):
                tmp.unlink()
        for d in reversed(made):
            with contextlib.suppress(OSError):
                d.rmdir()
        raise
    for name in sorted(earlier - set(figures)):
        with contextlib.suppress(FileNotFoundError, IsADirectoryError):
            (fig_dir / name).unlink()  # a link is removed, never what it points to
    files.write_atomic(fig_dir / FIGURE_LIST, "".join(f"{n}\n" for n in sorted(figures))
                       .encode("utf-8"))
    return out_dir / PAGE


def _recorded(fig_dir: Path) -> set[str]:
    """The figures the last report wrote into fig_dir, by its FIGURE_LIST; only plain PNG
    names, so an edited list cannot reach outside the folder."""
    path = fig_dir / FIGURE_LIST
    if not os.path.lexists(path):
        return set()
    text = files.read_bytes(path, "list of a report's figures", LIST_LIMIT).decode(
        "utf-8", errors="replace")
    return {n for n in text.splitlines()
            if n.endswith(".png") and n == Path(n).name and not n.startswith(".")}


def runs_line(runs: list[dict]) -> str:
    """The line under the title that names every run the page reads."""
    if len(runs) < 2:
        return ""
    return (f"From {text.count(len(runs))} runs: "
            + text.join_words([r["name"] for r in runs])
            + ". Their folders, and which section reads which, are in About these runs.")


def build_report(run_dirs: str | Path | list, out: str | Path | None = None,
                 levels: tuple[float, ...] | None = None, merge: bool = False,
                 jobs: int = 1, ladder: str | Path | None = None) -> Path:
    """Read one run, or several to report as one (reports/tables/combine.py), and write the report
    into `out`: by default the run directory, or for several runs a `report` folder in the
    first run's parent directory. Several runs are kept apart (a setting two runs share is
    named with its run) unless `merge`: then games of different runs played under the same
    setting are counted together, and the page says where. `jobs`: processes that draw the figures
    (`balance report` gives one per core). `ladder`: the folder of a strength ladder of the same
    game (`balance ladder`), shown as the section Strength and luck."""
    dirs = [Path(d) for d in (run_dirs if isinstance(run_dirs, list | tuple) else [run_dirs])]
    if not dirs:
        raise InputError([Problem("", "", "", "no run directory given")])
    missing = [Problem(str(d), "", "", "no such run directory") for d in dirs if not d.is_dir()]
    if missing:
        raise InputError(missing)
    if len({d.resolve() for d in dirs}) < len(dirs):
        raise InputError([Problem(", ".join(map(str, dirs)), "", "",
                                  "the same run directory is given twice")])
    from balance.running.store.read import read_run  # lazy: the runner's reader, only when needed

    # The games and the game's other tables are counted shard by shard, never held whole
    # (README, Scale): lazy_tables reads the other tables lazily.
    runs = [read_run(d, lazy_tables=True, lazy_games=True, compact=True) for d in dirs]
    data = combined(runs, dirs, merge)
    found = None if ladder is None else ladder_of(ladder, data.manifest)
    if out is None:
        out = dirs[0] if len(dirs) == 1 else dirs[0].parent / "report"
    return write_report(data, out, comparisons_of(dirs, [r.manifest for r in runs]), levels,
                        jobs, found)


def ladder_of(folder: str | Path, manifest: dict):
    """The ladder's folder, read; one message when it is none, or another game's."""
    from balance.ladder.store import read  # lazy: only a report given a ladder reads one

    found = read(folder)
    game = manifest.get("game")
    if game and found.summary.get("game") != game:
        raise InputError([Problem(str(folder), "", "--ladder", f"is a ladder of "
                                  f"{found.summary.get('game')!r}, and the runs are of "
                                  f"{game!r}: give a ladder of the same game")])
    return found


def combined(runs: list, dirs: list[Path], merge: bool = False):
    """The runs read from `dirs` as build_report reports them: one run of those read in every
    section (reports/tables/combine.py), whose manifest names every run (`runs`, those read in a
    section apart too) and the shards not yet played."""
    game_name([r.manifest for r in runs], [str(d) for d in dirs])
    check_distinct(runs, [str(d) for d in dirs])  # every run, those read apart too
    report = game_report.of_manifest(runs[0].manifest) if runs else None
    # A run the game reads in a section of its own (GameReport.apart) is read there alone;
    # in the other sections its many versions of the game would bury the rest.
    apart = [report.apart(r.manifest) if report else "" for r in runs]
    general = [i for i, x in enumerate(apart) if not x] or list(range(len(runs)))
    data = combine([runs[i] for i in general], [str(dirs[i]) for i in general], merge)
    labels = run_labels([r.manifest for r in runs], [str(d) for d in dirs])
    elsewhere = sorted({x for i, x in enumerate(apart) if x and i not in general})
    everywhere = ("every section but " + text.join_words(elsewhere) if elsewhere
                  else "every section")
    # Unplayed shards of an interrupted run: the page says so at the top.
    data.manifest = dict(data.manifest, missing_shards=[
        f"{d}/{name}" for d, r in zip(dirs, runs, strict=True)
        for name in getattr(r, "missing", [])], runs=[
        run_facts(label, d, r, apart[i] if i not in general else everywhere, i not in general)
        for i, (label, d, r) in enumerate(zip(labels, dirs, runs, strict=True))])
    return data


def run_facts(name: str, folder: Path, run, read_in: str, apart: bool = False) -> dict:
    """What the page says of one run it reads: its name and folder, what it is, and which
    sections read it (`apart`: one section alone)."""
    m = run.manifest
    variants = m.get("variants", [])
    return {
        "name": name, "folder": str(folder), "experiment": m.get("experiment"),
        "description": m.get("description"), "file": m.get("file"), "hash": m.get("hash"),
        "seed": m.get("seed"), "games": int(run.games.height),
        "games_per_variant": m.get("games_per_variant"), "variants": len(variants),
        "heuristics": sorted({str(v.get("heuristic")) for v in variants
                              if v.get("heuristic")}),
        "source_hash": m.get("source_hash"), "engine_version": m.get("engine_version"),
        "read_in": read_in, "apart": apart, "text": m.get("text"),
    }


def comparisons_of(dirs: list[Path], manifests: list[dict]) -> list:
    """(run name, Comparison) of every run whose versions differ by a lever (not only by the
    player count, which is a setting)."""
    out = []
    for d, manifest in zip(dirs, manifests, strict=True):
        if len(manifest.get("variants", [])) < 2:
            continue
        cmp = compare_run(d)
        if cmp.differences.height:
            out.append((str(manifest.get("experiment") or d.name), cmp))
    return out
