"""A comparison (reports/compare/compare.py) as text for the terminal, at most 100 columns wide.

`full_table` is what `balance compare` prints: one block per variant, a line per quantity with
the baseline's value, the variant's, and the difference with its 95% interval. `short_table`
is what `balance run` ends with: one line per variant, one column per headline quantity.

A difference whose interval contains zero never shows its estimate, which would pass for an
effect: it reads "no difference found", followed by the interval, which says how large a
difference could still hide there. The Holm column says whether a difference that was found
survives Holm's correction over every difference of the table. Below paired.MIN_PAIRS games
in common a difference reads "too few games to compare", with no interval (balance/stats/paired.py).
"""

from __future__ import annotations

import json
import math
import textwrap

import polars as pl

from balance.contract.experiment import CONTROL
from balance.stats.paired import MIN_PAIRS, TOO_FEW, too_few
from reports.compare.compare import MEAN, MEDIAN, RATE, Comparison, compare_run
from reports.render import text

WIDTH = 100
LABEL_WIDTH = 40  # a longer label has a line of its own above its row (short_table)
NOT_FOUND = "no difference found"
CONTROL_WORDS = "the unchanged box and the fixed settings: no grid value, no patch"


def _pp(x: float, decimals: int) -> str:
    t = f"{100 * x:.{decimals}f}"
    return ("0" if float(t) == 0 else t).replace("-", "−")


def _decimals(half_width: float) -> int:
    # The interval's half-width to one or two significant figures, at most two decimals:
    # enough to tell the bounds apart and from zero, no more than the games can support.
    return 0 if half_width >= 9.5 else 1 if half_width >= 0.095 else 2


def _rate_decimals(half_width: float) -> int:
    return _decimals(100 * half_width)


def _amount_decimals(half_width: float) -> int:
    return _decimals(half_width)


def _signed(x: float, decimals: int) -> str:
    t = f"{x:+.{decimals}f}"
    return ("0" if float(t) == 0 else t).replace("-", "−")


def _plain(x: float, decimals: int) -> str:
    t = f"{x:.{decimals}f}"
    return ("0" if float(t) == 0 else t).replace("-", "−")


def _clear_of_zero(dec: int, row: dict, scale: float) -> int:
    """More decimals, up to 4, while a bound of a difference that was found prints as 0: an
    interval that excludes zero must not read "(−0.3 to 0)"."""
    if not row["found"] or row["kind"] == MEDIAN:
        return dec
    while dec < 4 and any(float(f"{scale * row[k]:.{dec}f}") == 0 for k in ("ci_low", "ci_high")):
        dec += 1
    return dec


def value_text(value: float, kind: str) -> str:
    """One arm's value: a rate as a percentage and a mean with one decimal, a median with
    at most one (whole numbers and halves). A mean below 1 keeps two significant digits: a
    share of the game or a drama of 0.056 would read 0.1 beside its own difference of
    −0.0014."""
    if text.missing(value):
        return text.DASH
    if kind == RATE:
        return text.pct(value, 1)
    if kind != MEAN:
        return text.num(value, 1)
    if 0 < abs(value) < 1:
        return f"{value:.{max(1, 1 - math.floor(math.log10(abs(value))))}f}"
    return f"{value:.1f}"


def difference_text(row: dict) -> str:
    """"+4.8 pp (2.0 to 7.9)", "+2.0 (1.6 to 2.5)", "no difference found (−0.7 to 1.4 pp)",
    or "too few games to compare (2 in common, 6 needed)"."""
    if too_few(row["pairs"]):
        return f"{TOO_FEW} ({row['pairs']:,} in common, {MIN_PAIRS} needed)"
    lo, hi, d = row["ci_low"], row["ci_high"], row["difference"]
    half = max(d - lo, hi - d, 0.0)
    if row["kind"] == RATE:
        dec = _clear_of_zero(_rate_decimals(half), row, 100.0)
        interval = f"{_pp(lo, dec)} to {_pp(hi, dec)} pp"
        if not row["found"]:
            return f"{NOT_FOUND} ({interval})"
        return f"{_signed(100 * d, dec)} pp ({interval[:-3]})"
    dec = _clear_of_zero(_amount_decimals(half), row, 1.0)
    lo_t, hi_t, d_t = _plain(lo, dec), _plain(hi, dec), _signed(d, dec)
    if row["kind"] == MEDIAN or lo == hi:
        # Medians of whole numbers are whole or halves: "+1.5 (1 to 3)", not "(1.0 to 3.0)";
        # an interval of no width (every game moved by the same amount) is exact.
        lo_t, hi_t, d_t = (t.rstrip("0").rstrip(".") if "." in t else t
                           for t in (lo_t, hi_t, d_t))
    if not row["found"]:
        return f"{NOT_FOUND} ({lo_t} to {hi_t})"
    return f"{d_t} ({lo_t} to {hi_t})"


def holm_text(row: dict) -> str:
    if not row["found"]:
        return ""
    return "yes" if row["holm"] else "no"


def _wrap(line: str, indent: str = "") -> list[str]:
    return textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _methods(cmp: Comparison) -> str:
    kinds = set(cmp.differences["kind"].to_list())
    parts = []
    if RATE in kinds:
        parts.append("win rates, Tango's score interval for paired proportions")
    if MEAN in kinds:
        parts.append("means, the paired t interval")
    if MEDIAN in kinds:
        parts.append(f"medians, a paired bootstrap of {cmp.resamples:,} resamples (seed "
                     f"{cmp.seed})")
    return "; ".join(parts)


def _named(cmp: Comparison, v: int) -> str:
    """A variant's label, and what a control is (balance/running/experiment.py, `control =
    true`)."""
    label = cmp.label(v)
    return f"{cmp.words(v)} (variant {v}: {CONTROL_WORDS})" if label == CONTROL \
        else cmp.words(v)


def header(cmp: Comparison) -> list[str]:
    base = cmp.words(cmp.baseline)
    n = cmp.variants.height
    several = int(cmp.variants["baseline"].sum()) > 1
    against = (f"with the baseline's settings at its own player count (baseline: {base}, "
               f"variant {cmp.baseline})" if several else f"with {_named(cmp, cmp.baseline)}"
               if cmp.label(cmp.baseline) == CONTROL else f"with the baseline, {base} "
               f"(variant {cmp.baseline})")
    what = cmp.kind[:1].upper() + cmp.kind[1:]
    lines = _wrap(f"{cmp.experiment}: {n} variants of {what}, each compared "
                  f"{against}, on the games both played (the same seeds).")
    lines += _wrap(f"Differences are variant minus baseline, with 95% intervals that use the "
                   f"pairing: {_methods(cmp)}.")
    return lines + alike_lines(cmp)


def alike_lines(cmp: Comparison) -> list[str]:
    """Variants whose games all left the same record (reports/compare/alike.py)."""
    return [x for a in cmp.alike for x in _wrap(f"Played alike: {a.sentence()}", "  ")]


def footer(cmp: Comparison) -> list[str]:
    lines = _wrap(f"{NOT_FOUND}: the 95% interval contains zero; the games are consistent "
                  "with no difference, and with any difference inside the interval. Holm: "
                  "'yes' if the difference survives Holm's correction "
                  f"over all {cmp.family} differences of the table (5% family-wise), 'no' if "
                  "it may be one of the chance findings expected among so many.")
    lines += _too_few_legend(cmp)
    for note in cmp.notes:
        lines += _wrap(f"Note: {note}", "      ")
    return lines


def _too_few_legend(cmp: Comparison) -> list[str]:
    if not any(too_few(n) for n in cmp.differences["pairs"].to_list()):
        return []
    return _wrap(f"{TOO_FEW}: fewer than {MIN_PAIRS} games in common. Below {MIN_PAIRS}, even "
                 "games that all moved the same way could be chance (an exact sign test "
                 "cannot reach p < 0.05), so no interval is given and nothing is found.")


def full_table(cmp: Comparison) -> str:
    """The whole comparison, one block per variant, in variant order."""
    out = header(cmp) + [""]
    rows = cmp.differences
    name_w = max([len("quantity"), *(len(x) for x in rows["name"].to_list())])
    for v in cmp.variants.filter(~pl.col("baseline"))["variant"].to_list():
        block = rows.filter(pl.col("variant") == v)
        label = cmp.words(v)
        if block.height == 0:
            out += _wrap(f"{label} (variant {v}): not compared (see the notes below).")
            out.append("")
            continue
        pairs = block["pairs"].max()
        b = int(block["against"].max())
        against = "the baseline" if b == cmp.baseline else f"its baseline, {cmp.words(b)}"
        out += _wrap(f"{label} (variant {v}), {pairs:,} games in common with {against}:")
        out.append(f"  {'quantity':<{name_w}}  {'baseline':>8}  {'variant':>8}  "
                   f"{'difference (95% interval)':<40} Holm")
        for r in block.iter_rows(named=True):
            line = (f"  {r['name']:<{name_w}}  {value_text(r['baseline'], r['kind']):>8}  "
                    f"{value_text(r['value'], r['kind']):>8}  {difference_text(r):<40} "
                    f"{holm_text(r)}")
            out.append(line.rstrip())
        out.append("")
    out += footer(cmp)
    return "\n".join(out)


# -- the short form -----------------------------------------------------------------------

def _headline_quantities(cmp: Comparison) -> list[tuple[str, str, str]]:
    """(quantity, column title, kind) of the short form, in table order, as the game's
    comparison chose them (reports/compare/compare.py, Quantities.short)."""
    return list(cmp.short)


def _short_cell(row: dict) -> str:
    """The variant's value, then its difference with its 95% interval, as short as it reads:
    "50.1%  −6.9 ± 0.8 pp *" when the interval is symmetric at the printed precision,
    "61.0%  +4.8 pp (2.0 to 7.9)" when it is not, "57.2%  no difference (−0.7 to 1.4 pp)"
    when it contains zero."""
    value, difference = _short_parts(row)
    return f"{value}  {difference}" if value else difference


def _short_parts(row: dict) -> tuple[str, str]:
    """_short_cell's two parts, the value ("" where it has none of its own: NaN) and the
    difference, for a table to align each in a column of its own."""
    value = row.get("value")
    if value is None or value != value:
        return "", _difference_cell(row)
    return value_text(value, row["kind"]), _difference_cell(row)


def _difference_cell(row: dict) -> str:
    if too_few(row["pairs"]):
        return "too few games"
    d, lo, hi = row["difference"], row["ci_low"], row["ci_high"]
    half = max(d - lo, hi - d, 0.0)
    rate = row["kind"] == RATE
    scale, unit = (100.0, " pp") if rate else (1.0, "")
    dec = _clear_of_zero(_rate_decimals(half) if rate else _amount_decimals(half), row, scale)
    # Medians of whole numbers are whole or halves, and an interval of no width is exact:
    # "+1.5 (1 to 3)", "+2 ± 0", as difference_text writes them.
    bare = (lambda t: t.rstrip("0").rstrip(".") if "." in t else t) \
        if not rate and (row["kind"] == MEDIAN or lo == hi) else (lambda t: t)
    low, high = bare(_plain(scale * lo, dec)), bare(_plain(scale * hi, dec))
    if not row["found"]:
        return f"no difference ({low} to {high}{unit})"
    mark = " *" if row["holm"] else ""
    est = bare(_signed(scale * d, dec))
    below, above = bare(_plain(scale * (d - lo), dec)), bare(_plain(scale * (hi - d), dec))
    if below == above:
        return f"{est} ± {below}{unit}{mark}"
    return f"{est}{unit} ({low} to {high}){mark}"


def short_table(cmp: Comparison, run_dir: str | None = None) -> str:
    """The headline differences: a line per variant (the baseline's own values first), a
    column per quantity; columns that do not fit in 100 go to a second table below."""
    quantities = _headline_quantities(cmp)
    d = cmp.differences
    base = cmp.baseline
    labels: list[str] = []
    cells: list[list[tuple[str, str]]] = []  # (value, difference) per quantity
    for v in cmp.variants["variant"].to_list():
        is_base = cmp.variants.filter(pl.col("variant") == v)["baseline"].item()
        if is_base:
            # A baseline's own values, from the rows compared with it.
            mine = d.filter(pl.col("against") == v).group_by("quantity",
                                                              maintain_order=True).first()
            if mine.height == 0:
                continue
            labels.append(f"{cmp.words(v)} (baseline)")
            cells.append([(value_text(mine.filter(pl.col("quantity") == q)["baseline"].item(),
                                      kind), "") if q in mine["quantity"].to_list() else
                           (text.DASH, "") for q, _, kind in quantities])
            continue
        # What differs from the baseline, not every setting: the part that tells rows apart.
        labels.append(cmp.words(v, differs=True))
        row = []
        for q, _, _ in quantities:
            r = d.filter((pl.col("variant") == v) & (pl.col("quantity") == q))
            row.append(_short_parts(r.row(0, named=True)) if r.height else (text.DASH, ""))
        cells.append(row)
    label_w = min(max(len(x) for x in labels), LABEL_WIDTH)
    # Values right-aligned in a column of their own, the differences left-aligned beside
    # them, so that a column reads down as numbers do.
    value_w = [max(len(c[i][0]) for c in cells) for i in range(len(quantities))]
    diff_w = [max(len(c[i][1]) for c in cells) for i in range(len(quantities))]
    joined = [[f"{c[i][0]:>{value_w[i]}}" + (f"  {c[i][1]:<{diff_w[i]}}" if diff_w[i] else "")
               for i in range(len(quantities))] for c in cells]
    widths = [max(len(title), *(len(c[i]) for c in joined)) for i, (_, title, _) in
              enumerate(quantities)]
    against = _named(cmp, base) if cmp.label(base) == CONTROL else \
        f"the baseline, {cmp.words(base)}"
    out = alike_lines(cmp) + _wrap(f"Against {against}, on the same games (paired 95% "
                                   "intervals):")
    start = 0
    while start < len(quantities):
        # As many columns as fit beside the labels; the rest in another table below.
        stop, used = start, label_w + 2
        while stop < len(quantities) and (stop == start or used + widths[stop] + 2 <= WIDTH):
            used += widths[stop] + 2
            stop += 1
        out.append(" " * (label_w + 2) + "".join(f"{quantities[i][1]:>{widths[i] + 2}}"
                                                 for i in range(start, stop)))
        for label, row in zip(labels, joined, strict=True):
            # A label is never cut (the part cut may be all that tells two rows apart): one
            # too long for the column has a line of its own, its values below it.
            shown = label
            if len(label) > label_w:
                out += textwrap.wrap(label, WIDTH, subsequent_indent="  ")
                shown = ""
            out.append((f"{shown:<{label_w + 2}}" + "".join(f"{row[i]:>{widths[i] + 2}}"
                                                            for i in range(start, stop)))
                       .rstrip())
        start = stop
        out.append("")
    more = f"; every quantity: balance compare {run_dir}" if run_dir else ""
    out += _wrap(f"Each cell is the variant's value, then its difference from the baseline's "
                 f"with its 95% interval; no difference: the interval contains zero; * the "
                 f"difference "
                 f"survives Holm's correction over all {cmp.family} differences{more}")
    out += _too_few_legend(cmp)
    for note in cmp.notes:
        out += _wrap(f"Note: {note}", "      ")
    return "\n".join(out)


def compare_output(run_dir, baseline: int | None = None, as_json: bool = False) -> str:
    """What `balance compare` prints: the full table, or the comparison as JSON. A function of
    the run folder alone, so that the command can run it in a child process (out of memory,
    polars aborts the process it runs in: balance/cli/guard.py)."""

    cmp = compare_run(run_dir, baseline)
    if as_json:
        return json.dumps(cmp.to_dict(), indent=1, ensure_ascii=False, allow_nan=False)
    return full_table(cmp)
