"""The report page: its sections, from an analysis and the game's report
(reports/page/game_report.py), and their rendering into one self-contained HTML file (jinja2,
figures as data URIs).

The framework's own sections open and close the page: the Summary (the verdicts, the game's
summary tables, every finding in one sentence), the Comparison (reports/compare/comparison_page.py)
and About this run. The game's sections come between, then How the game plays
(reports/course/).

Nothing here reads the clock or the environment, every table is sorted and every number goes
through `reports.render.text`, so the same analysis always gives the same page.
"""

from __future__ import annotations

from importlib import resources

import jinja2
import polars as pl

from balance.contract.labels import value_words
from reports.compare.comparison_page import comparison_section
from reports.course.section import course_section, labels_of
from reports.course.summary import Course
from reports.outcomes.findings import Verdict, who_of
from reports.page.game_report import Analysis, GameReport
from reports.render import prose, text
from reports.render.section import Block, Section, Table, in_order
from reports.render.text import DASH


def build_sections(a: Analysis, report: GameReport, comparisons: list | None = None,
                   merged: list | None = None, played: Course | None = None) -> list[Section]:
    """The page's sections; `comparisons` are (run name, reports.compare.compare.Comparison) of the
    runs whose versions differ by a lever; `merged` (reports.page.merge.Merged) where games of
    different runs were counted together; `played` how the games went (reports/course/), for
    the section How the game plays after the game's own."""
    cmps = list(comparisons or [])
    merged = list(merged or [])
    sections = [summary_section(a, report, cmps, merged)]
    # The game may read some comparisons in a section of its own; the others go here.
    levers = [(n, c) for n, c in cmps if report.in_comparison(c)]
    if levers:
        sections.append(comparison_section(levers, a, report))
    how = course_section(played, labels_of(played, in_order(a.kinds, played.rows))) \
        if played is not None else None
    return [*sections, *report.sections(a, cmps, merged), *([how] if how else []),
            run_section(a, report, merged)]


def player_words(report: GameReport, heuristic: str) -> str:
    """A games table's players (heuristic) as the game names them: a player's title, or a
    seat arrangement's words (labels.seats_words)."""
    return value_words(report.game, "heuristic", heuristic)


def players_of(a: Analysis, report: GameReport) -> dict[str, list[str]]:
    """The players (heuristics) of each setting, of each run by its name, and of any other
    label the game's verdicts name, in the game's words (player_words)."""
    out: dict[str, set[str]] = {}
    if a.kinds.height:
        for setting, h in a.kinds.select("setting", pl.col("heuristic").cast(pl.Utf8)).rows():
            out.setdefault(setting, set()).add(h)
    for label, names in report.players(a).items():
        out.setdefault(label, set()).update(names)
    for r in a.manifest.get("runs") or []:
        out.setdefault(r["name"], set()).update(r.get("heuristics") or [])
    if a.manifest.get("experiment") and not a.manifest.get("runs") and a.kinds.height:
        out.setdefault(str(a.manifest["experiment"]), set()).update(
            a.kinds["heuristic"].cast(pl.Utf8).to_list())
    return {k: sorted({player_words(report, h) for h in v}) for k, v in out.items()}


def where_of(a: Analysis) -> dict[str, str]:
    """Where each setting's games come from, in a verdict's brackets: its run, when the page
    reads several apart, else the setting itself."""
    if "run" not in a.kinds.columns:
        return {}
    return {setting: f"{run} run" for setting, run in
            a.kinds.select("setting", "run").unique().rows() if run is not None}


def summary_section(a: Analysis, report: GameReport, cmps: list | None = None,
                    merged: list | None = None) -> Section:
    """The first screen: the game's lead chart and numbers of each kind of run
    (GameReport.lead_blocks), one plain sentence per verdict with its statistics folded under it
    (reports/outcomes/findings.py), the game's own summary (the values to print, say), and every
    sentence the sections compute, folded."""
    s = Section("summary", "Summary")
    if a.games:
        names = sorted({player_words(report, h)
                        for h in a.kinds["heuristic"].cast(pl.Utf8).to_list()})
        s.intro = [f"Played by {text.join_words(names)}; each verdict names its players, and "
                   "a stronger player can move it. Click a verdict for its statistics."]
    who = players_of(a, report)
    s.blocks += report.lead_blocks(a, cmps or [])
    found = report.verdicts(a, cmps or [], who, where_of(a)) + alike_verdicts(cmps or [], who)
    if found:
        s.blocks.append(Block("", verdicts=found))
    s.blocks += report.summary_blocks(a, who, cmps or [])
    every = report.sentences(a)
    b = Block("", tables=report.summary_tables(a))
    if every:
        b.items = (f"Every finding of the sections, in one sentence each ({len(every)})", every)
    if b.tables or b.items:
        s.blocks.append(b)
    if a.games == 0:
        s.missing.insert(0, "The run has no games.")
    for m in merged or []:
        s.missing.append(m.sentence())
    unplayed = a.manifest.get("missing_shards") or []
    if unplayed:
        s.missing.insert(0, f"The run is incomplete: {text.count(len(unplayed))} shard(s) "
                         "are not played yet, so these figures cover only the games played "
                         "so far. Rerun `balance run` with the same experiment to finish it.")
    return s


def alike_verdicts(cmps: list, who: dict[str, list[str]]) -> list[Verdict]:
    """A verdict for each group of versions of a run that played every game alike
    (reports/compare/alike.py): read as "no difference found", it would hide that they never
    chose differently."""
    return [Verdict("Played alike", x.sentence(), who_of(who.get(name, []), f"{name} run"),
                    ["Alike: every game dealt from the same seed has the same record in "
                     "every column the games table records of how it went (not the "
                     "version's own settings), so nothing the run recorded tells them apart."])
            for name, cmp in cmps for x in cmp.alike]


def run_section(a: Analysis, report: GameReport, merged: list | None = None) -> Section:
    """Every run the page reads (build_report's manifest `runs`), what was merged, the
    facts of the games, the variants and the experiment files."""
    m = a.manifest
    runs = m.get("runs") or []
    s = Section("run", "About these runs" if len(runs) > 1 else "About this run")
    versions = a.versions
    games = text.count(a.games)
    if report.kind_column:
        by_kind = ", ".join(f"{text.count(n)} {kind}" for kind, n in
                            sorted(a.games_of(report.kind_column).items())) if a.games else "none"
        games += f" ({by_kind})"
    if len(runs) > 1:
        b = Block("", tables=[Table(
            "The runs this page reads", ["Run", "Folder", "What it is", "Games", "Seed",
                                         "Played by", "Read in"],
            [[r["name"], r["folder"], str(r.get("description") or DASH),
              text.count(r["games"]), str(r.get("seed", DASH)),
              ", ".join(player_words(report, h) for h in r.get("heuristics") or []) or DASH,
              r["read_in"]] for r in runs],
            left=3)])
        if m.get("merged"):
            b.paragraphs.append(
                "Merged on request (--merge): games of different runs played under the same "
                "setting and player count are counted together"
                + (": " + " ".join(x.sentence() for x in merged) if merged else
                   "; no two runs share one, so nothing was counted together."))
        else:
            b.paragraphs.append(
                "The runs are kept apart: a setting two runs share is named with its run, and "
                "no game of one run is counted with another's. `balance report --merge` counts "
                "the games of different runs played under the same setting together.")
        b.tables.append(Table(
            "What identifies each run", ["Run", "Experiment file", "Experiment hash",
                                         "Code hash", "Engine version"],
            [[r["name"], str(r.get("file") or DASH), str(r.get("hash") or DASH),
              str(r.get("source_hash") or DASH), str(r.get("engine_version") or DASH)]
             for r in runs], left=5, fold="closed"))
        s.blocks.append(b)
    head = [
        ["Experiment", str(m.get("experiment", DASH))],
        ["Description", str(m.get("description", DASH))],
        ["Experiment file", str(m.get("file", DASH))],
        ["Experiment hash", str(m.get("hash", DASH))],
    ]
    facts = [
        *report.facts(a),
        ["Games", games],
        ["Games per variant", text.count(m.get("games_per_variant"))],
        ["Seed", str(m.get("seed", DASH))],
        ["Engine version", str(m.get("engine_version") or ", ".join(versions) or DASH)],
    ]
    if len(runs) > 1:
        facts = [["Runs", ", ".join(r["name"] for r in runs if not r.get("apart"))], *facts]
    else:
        facts = [*head, *facts]
    if versions and m.get("engine_version") and versions != [m.get("engine_version")]:
        facts.append(["Engine versions in the games", ", ".join(versions)])
    packages = m.get("packages") or {}
    if packages:
        facts.append(["Packages", ", ".join(f"{k} {packages[k]}" for k in sorted(packages))])
    apart = [r for r in runs if r.get("apart")]
    caption = (f"The games of every section but {apart[0]['read_in']}" if len(runs) > 1 and
               apart else "The games" if len(runs) > 1 else "The run")
    b = Block("", tables=[Table(caption, ["Item", "Value"], facts, left=2)])
    b.tables.append(variants_table(a, report, len(runs) > 1))
    s.blocks.append(b)
    texts = [(r["name"], r.get("file"), r.get("text")) for r in runs] if runs else \
        [(None, m.get("file"), m.get("text"))]
    for name, file, body in texts:
        if body:
            s.blocks.append(Block("", listing=(
                f"The experiment file{' of ' + name if name and len(texts) > 1 else ''}, "
                f"{file or 'as run'}", str(body))))
    return s


def variants_table(a: Analysis, report: GameReport, by_run: bool = False) -> Table:
    per_variant = a.games_of("variant")
    columns = report.variant_columns()
    rows = []
    for v in sorted(a.manifest.get("variants", []), key=lambda v: int(v.get("variant", 0))):
        rules = v.get("rules") or {}
        rows.append(([str(v.get("from_run", DASH)), str(v.get("run_variant", DASH))]
                     if by_run else [str(v.get("variant", DASH))])
                    + [cell(v) for _, cell in columns]
                    + [", ".join(value_words(report.game, k, rules[k]) for k in sorted(rules))
                       or DASH,
                       text.count(per_variant.get(int(v.get("variant", -1)), 0))])
    lead = ["Run", "Variant"] if by_run else ["Variant"]
    return Table("Variants" + (" (each numbered within its run)" if by_run else ""),
                 [*lead, *(h for h, _ in columns), "Rules changed", "Games"], rows,
                 left=len(lead) + len(columns) + 1, fold="closed")


# --- rendering -------------------------------------------------------------------------------

def render(sections: list[Section], title: str, subtitle: str = "") -> str:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_template), autoescape=True, keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters.update(prose=prose.inline, plain=prose.plain)
    return env.get_template("report.html.j2").render(title=title, subtitle=subtitle,
                                                     sections=sections)


def _template(name: str) -> str:
    return resources.files("reports").joinpath("templates", name).read_text(encoding="utf-8")
