"""What a report page is made of: sections of blocks, each with sentences, figures and tables.

Every section builder, the framework's (reports/page/page.py, comparison_page.py, outcome_page.py)
and a game's (reports/<game>/), makes these, and reports/page/page.py renders them. They live apart
from both so that neither imports the other to build a page.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import polars as pl

from balance.stats import paired
from reports.render import figures, text


@dataclass
class Table:
    caption: str
    headers: list[str]
    rows: list[list[str]]
    note: str = ""
    left: int = 1          # leading text columns (left-aligned); the rest are numbers
    fold: str = ""         # "open" or "closed": shown in a <details> block under its caption


@dataclass
class Figure:
    name: str              # file name of the PNG beside the page
    caption: str
    rendered: bytes | Callable[[], bytes]  # the PNG, or what gives it (figures.later)

    @property
    def png(self) -> bytes:
        if callable(self.rendered):
            self.rendered = self.rendered()
        return self.rendered

    @property
    def data_uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


@dataclass
class Block:
    heading: str
    paragraphs: list[str] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    listing: tuple[str, str] | None = None  # (caption, text): a folded verbatim text
    items: tuple[str, list[str]] | None = None  # (caption, bullets): a folded list
    fold: str = ""  # when set, the block's content is folded under this line
    verdicts: list = field(default_factory=list)  # outcomes.findings.Verdict: a sentence each,
    #                                               its statistics folded under it


@dataclass
class Section:
    id: str
    title: str
    intro: list[str] = field(default_factory=list)  # plain sentences: what the section shows
    missing: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    method: list[str] = field(default_factory=list)  # how it is measured, folded


# A section of more settings than this (a sweep) shows them in one overview chart, a row per
# setting, and folds each setting's tables under its name without charts of its own: a sweep
# of 25 versions drew 50 charts in Outcomes, 25 of them two nearly equal bars each.
MANY_SETTINGS = 6
# At most so many settings a chart: one chart of 2,000 settings would be 84,000 pixels tall,
# about 300 MB to draw.
SETTINGS_PER_CHART = 50


def chunked(settings: list[str], size: int) -> list[tuple[list[str], str, str]]:
    """An overview's charts: (settings, file suffix, what the title says of them) of each
    chart of at most `size` settings ("" and "every setting" when one chart holds them)."""
    parts = [settings[i:i + size] for i in range(0, len(settings), size)]
    if len(parts) == 1:
        return [(settings, "", "every setting")]
    return [(part, f"-{k + 1}", f"settings {k * size + 1}–{k * size + len(part)} of "
             f"{len(settings)}") for k, part in enumerate(parts)]


def overview_block(settings: list[str], size: int, what: str, aside: str = ""
                   ) -> tuple[Block, list[tuple[list[str], str, str]]]:
    """The "Every setting" block that opens a sweep's section, saying where each setting's
    `what` is charted, and the charts to draw into it (chunked, at most `size` settings a
    chart); `aside` ends its sentence."""
    charts = chunked(settings, size)
    where = "one chart" if len(charts) == 1 else f"{len(charts)} charts"
    return Block("Every setting", paragraphs=[
        f"{len(settings)} settings: each one's {what} is in {where} here, and its tables are "
        f"folded under its name below{aside}."]), charts


SLUG_MAX = 80  # a figure's file name holds one; a file name may have 255 bytes


def slug(s: str) -> str:
    """`s` as a file-name part. A long one (a setting named by every rule the report's runs
    sweep) is cut, with a hash of the whole that keeps two such names apart."""
    out = re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-") or "all"
    if len(out) > SLUG_MAX:
        out = out[:SLUG_MAX - 9].rstrip("-") + "-" + hashlib.sha256(s.encode()).hexdigest()[:8]
    return out


def figure(name: str, caption: str, fig) -> Figure:
    return Figure(name, caption, figures.later(fig))


def figure_or_none(name: str, caption: str, fig) -> Figure | None:
    """A figure, or None where a chart had nothing to draw."""
    return None if fig is None else figure(name, caption, fig)


def of(df: pl.DataFrame, setting: str) -> pl.DataFrame:
    """The rows of one setting."""
    return df.filter(pl.col("setting") == setting) if df.height else df


def in_order(kinds: pl.DataFrame, *tables: pl.DataFrame) -> list[str]:
    """The settings the tables hold, in the order the designer gave the versions (their
    first variant, from `kinds`: a tally's keys), then by name."""
    found: set[str] = set()
    for t in tables:
        if t.height:
            found.update(t["setting"].to_list())
    first = {}
    if kinds.height and "setting" in kinds.columns:
        for setting, variant in kinds.select("setting", "variant").rows():
            first[setting] = min(first.get(setting, variant), variant)
    return sorted(found, key=lambda x: (first.get(x, 1 << 30), x))


BOXES = "Boxes: quartiles and median; whiskers: 10th to 90th percentile."
DIST_HEADERS = ["Median", "10–90%", "Quartiles", "Mean", "Range"]


def paired_cell(r: dict | None) -> str:
    """A comparison's difference row (reports/compare/compare.py) as a table cell: points for
    a rate, the measure's units for a mean, with its paired 95% interval and " *" where it
    survives Holm."""
    if r is None:
        return text.DASH
    if paired.too_few(r["pairs"]):
        return paired.TOO_FEW
    mark = " *" if r["holm"] else ""
    if r["kind"] == "rate":
        return text.difference(r["difference"], r["ci_low"], r["ci_high"]) + mark
    if text.missing(r["ci_low"]):
        return f"{r['difference']:+.2f}"
    return f"{r['difference']:+.2f} ({r['ci_low']:+.2f} to {r['ci_high']:+.2f})" + mark


def dist_row(r: dict) -> list[str]:
    """A distribution (reports/tables/counts.py) as the cells under DIST_HEADERS."""
    return [text.num(r["q50"]), text.spread(r), text.spread(r, "q25", "q75"),
            text.num(r["mean"]), text.spread(r, "min", "max")]
