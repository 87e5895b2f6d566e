"""What `balance run` prints when it has played: the answer to the experiment's question in a
short table, read back from the run folder (only the columns it needs).

- One variant, Crisis: the win rate at each named target with its 95% Wilson interval (at the
  targets the games answer: all of them when played to exhaustion), and the team score.
- One variant, Rush: each seat's share of the wins with its interval, ties, and the length.
- Several variants: the comparison with the baseline, in its short form
  (reports/compare_text.short_table).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from reports import compare, compare_text, text
from reports.intervals import wilson


def headline(run_dir: str | Path) -> str:
    """The headline of a run folder (InputError if it cannot be read)."""
    from balance.store import read_manifest

    manifest = read_manifest(run_dir)
    if len(manifest["variants"]) > 1:
        return compare_text.short_table(compare.compare_run(run_dir), str(run_dir))
    games, manifest, _ = compare.load(run_dir)
    info = manifest["variants"][0]
    if games.height == 0:
        return "No games played yet."
    if info.get("mode") == "rush":
        return "\n".join(rush_lines(games, info))
    return "\n".join(crisis_lines(games, info))


def _rate(k: int, n: int) -> str:
    lo, hi = wilson(int(k), int(n))
    return text.rate(k / n, lo, hi)


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
        hit, known = compare.reached(score, won, info, named[name])
        if known.all():
            lines.append(f"  {name + f' ({named[name]})':<20} {_rate(hit.sum(), n)}")
        else:
            lines.append(f"  {name + f' ({named[name]})':<20} {text.DASH} (the games stop at "
                         "their target, below this one)")
    own = info.get("target")
    if own is not None and own not in named.values():
        hit, _ = compare.reached(score, won, info, own)
        lines.append(f"  {f'its target ({own})':<20} {_rate(hit.sum(), n)}")
    if info.get("exhaust"):
        lines.append(f"Team score: median {text.num(float(np.median(score)))} (10–90%: "
                     f"{text.num(float(np.quantile(score, 0.1)))}–"
                     f"{text.num(float(np.quantile(score, 0.9)))}), mean "
                     f"{text.num(float(score.mean()))}.")
    return lines


def rush_lines(games: pl.DataFrame, info: dict) -> list[str]:
    """Each seat's share of the wins against the fair share, ties, and the length."""
    players = int(info["players"])
    winner = games["winner"].fill_null(-1).to_numpy()
    n = len(winner)
    rounds = -(-games["turns"].fill_null(0).to_numpy().astype(np.int64) // players)
    ties = float(np.mean(winner == -1))
    lines = [f"Share of the wins by seat (95% Wilson intervals; {n:,} games; a fair share is "
             f"{text.pct((1 - ties) / players)}):"]
    for seat in range(players):
        lines.append(f"  seat {seat + 1:<3} {_rate(np.count_nonzero(winner == seat), n)}")
    lines.append(f"  ties     {text.pct(ties, 1)}")
    lines.append(f"Length: {text.num(float(np.median(rounds)))} rounds (median; 10–90%: "
                 f"{text.num(float(np.quantile(rounds, 0.1)))}–"
                 f"{text.num(float(np.quantile(rounds, 0.9)))}), mean "
                 f"{text.num(float(rounds.mean()))}.")
    return lines
