"""Gem Rush's lines of `balance run`'s headline (reports/headline.py), one variant at a time:

- Crisis: the win rate at each named target with its 95% Wilson interval (at the targets the
  games answer: all of them when played to exhaustion), and the team score.
- Rush: each seat's share of the wins against the fair share, ties, and the length in rounds
  (reports/headline.py's seat lines).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from reports.gemrush.compare import reached
from reports.headline import rate_text, seat_lines
from reports.render import text


def crisis_lines(games: pl.DataFrame, info: dict) -> list[str]:
    """The win rate at each named target the games answer, and the team score."""
    score = games["score"].fill_null(0).to_numpy().astype(np.int64)
    won = games["won"].fill_null(False).to_numpy() if "won" in games.columns else None
    n = len(score)
    how = "played to exhaustion" if info.get("exhaust") else \
        f"played to {info.get('target')} points"
    lines = [f"Win rate at each named target (95% Wilson intervals; {n:,} games {how}):"]
    named = {str(k): int(t) for k, t in (info.get("difficulties") or {}).items()}
    for name in sorted(named, key=lambda k: (named[k], k)):
        hit, known = reached(score, won, info, named[name])
        if known.all():
            lines.append(f"  {name + f' ({named[name]})':<20} {rate_text(hit.sum(), n)}")
        else:
            lines.append(f"  {name + f' ({named[name]})':<20} {text.DASH} (the games stop at "
                         "their target, below this one)")
    own = info.get("target")
    if own is not None and own not in named.values():
        hit, _ = reached(score, won, info, own)
        lines.append(f"  {f'its target ({own})':<20} {rate_text(hit.sum(), n)}")
    if info.get("exhaust"):
        lines.append(f"Team score: median {text.num(float(np.median(score)))} (10–90%: "
                     f"{text.num(float(np.quantile(score, 0.1)))}–"
                     f"{text.num(float(np.quantile(score, 0.9)))}), mean "
                     f"{text.num(float(score.mean()))}.")
    return lines


def rush_lines(games: pl.DataFrame, info: dict,
               off: list[bool | None] | None = None) -> list[str]:
    """Each seat's share of the wins against the fair share, ties, and the length in rounds
    (a round is one turn of every player)."""
    return seat_lines(games, int(info["players"]), off, "rounds", rounds=True)
