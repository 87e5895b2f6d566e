"""Numbers and words for the page. Every number goes through a fixed format here, so the
same data always prints the same text, and a missing value prints as a dash, never "nan".

Rates print with their 95% interval in percentage points: "62% ± 1%" when the interval is
symmetric at the printed precision, otherwise as a range, "100% (96–100%)". The precision
follows the interval: whole points when it is a point or wider, then tenths, then hundredths.
"""

from __future__ import annotations

import math

DASH = "—"


def missing(x) -> bool:
    return x is None or (isinstance(x, float) and not math.isfinite(x))


def count(n) -> str:
    return DASH if missing(n) else f"{int(n):,}"


def num(x, decimals: int = 1) -> str:
    """A number with at most `decimals` decimals, whole numbers without any: 9, 9.5."""
    if missing(x):
        return DASH
    text = f"{float(x):.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def pct(p, decimals: int = 0) -> str:
    return DASH if missing(p) else f"{100 * float(p):.{decimals}f}%"


def signed_points(d, decimals: int = 0) -> str:
    """A difference of rates in percentage points: +12 pp, −3 pp."""
    if missing(d):
        return DASH
    text = f"{100 * float(d):+.{decimals}f}"
    if float(text) == 0:
        text = f"{0:.{decimals}f}"
    return text.replace("-", "−") + " pp"


def _decimals(width_pp: float) -> int:
    if width_pp >= 0.95:
        return 0
    if width_pp >= 0.095:
        return 1
    return 2


def rate(p, lo, hi) -> str:
    """A rate with its interval: "62% ± 1%", or "100% (96–100%)" when asymmetric."""
    if missing(p):
        return DASH
    if missing(lo) or missing(hi):
        return pct(p)
    below, above = 100 * (p - lo), 100 * (hi - p)
    d = _decimals(max(below, above))
    b, a = f"{below:.{d}f}", f"{above:.{d}f}"
    if b == a:
        return f"{pct(p, d)} ± {b}%"
    return f"{pct(p, d)} ({100 * lo:.{d}f}–{100 * hi:.{d}f}%)"


def difference(d, lo, hi) -> str:
    """A difference of rates with its interval, in percentage points: "+12 pp (5 to 19)"."""
    if missing(d):
        return DASH
    if missing(lo) or missing(hi):
        return signed_points(d)
    dec = _decimals(100 * max(d - lo, hi - d))

    def pp(x: float) -> str:
        t = f"{100 * x:.{dec}f}"
        return ("0" if float(t) == 0 else t).replace("-", "−")

    return f"{signed_points(d, dec)} ({pp(lo)} to {pp(hi)})"


def spread(row: dict, lo: str = "q10", hi: str = "q90") -> str:
    """The middle of a distribution row: "7–12" (10th to 90th percentile)."""
    if missing(row.get(lo)) or missing(row.get(hi)):
        return DASH
    a, b = num(row[lo]), num(row[hi])
    return a if a == b else f"{a}–{b}"


def plural(n: int, noun: str) -> str:
    """"1 player", "3 players"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def players_label(players: int) -> str:
    return f"{players}-player"


def level_label(level: float) -> str:
    return f"{num(100 * level, 0)}%"


def join_words(items: list[str], last: str = "and") -> str:
    """"a, b and c" ("a, b or c" with `last` "or")."""
    if len(items) <= 2:
        return f" {last} ".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def signed(x, decimals: int = 1) -> str:
    """A signed difference with a true minus: "+1.2", "−0.3"; "0.0" where it rounds to zero."""
    if missing(x):
        return DASH
    t = f"{float(x):+.{decimals}f}"
    return t[1:] if float(t) == 0 else t.replace("-", "−")
