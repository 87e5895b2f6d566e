"""A player's knobs: the numbers that tune it, each with a default and the range a tuner may
search (as TabletopGames and Catanatron declare a player's parameters). A player module
declares them; the registry reads them; nothing else lists them."""

from __future__ import annotations

from dataclasses import dataclass

from balance.errors import Problems


@dataclass(frozen=True)
class Knob:
    name: str
    default: float
    lo: float
    hi: float
    doc: str
    integer: bool = False  # a count (e.g. steps), tuned in whole numbers
    # A tuner's first step for this knob, where a fifth of the range (its default step) is
    # far too coarse: a model's weights range widely but matter at a tenth of a unit.
    step: float | None = None
    # Knobs that are one model's weights, given together or not at all in a knob file (a
    # model fitted without one of its weights is not that model): what they are, in words.
    group: str = ""
    label: str = ""  # its words, read before a value ("holds at 20"); "" for its name


def knob_values(knobs: tuple[Knob, ...], overrides: dict, source: str, player: str
                ) -> dict[str, float]:
    """Every knob's value: its default, or the override. An unknown name, a value that is no
    number or one outside the knob's range is an error naming the knob and the range."""
    probs = Problems(source)
    by_name = {k.name: k for k in knobs}
    values = {k.name: float(k.default) for k in knobs}
    for name, raw in overrides.items():
        if name not in by_name:
            known = ", ".join(by_name) or "none"
            probs.add("knobs", name, f"player {player!r} has no such knob (known: {known})")
            continue
        k = by_name[name]
        try:
            v = float(raw) if not isinstance(raw, bool) else None
        except (TypeError, ValueError):
            v = None
        if v is None or v != v:
            probs.add("knobs", name, f"must be a number, got {raw!r}")
        elif not k.lo <= v <= k.hi:
            probs.add("knobs", name, f"must be between {k.lo:g} and {k.hi:g}, got {v:g}")
        elif k.integer and v != int(v):
            probs.add("knobs", name, f"must be a whole number, got {v:g}")
        else:
            values[name] = v
    probs.raise_if_any()
    return values
