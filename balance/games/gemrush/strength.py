"""`balance strength`: how strong the players are, on the same seeds.

Each player plays the same Crisis games to exhaustion (seeds from `seed` onwards): the mean
team score with its 95% t interval, the median, the paired difference from greedy on the
same seeds (paired t interval), greedy's mean as a share of a stronger player's (paired
bootstrap interval), the win rate at each named difficulty, and the
speed in games per CPU-second of this process (one core). The reference player's budgets are
expensive, so it plays fewer games; its differences pair with the first games of the others.
Below balance.stats.paired.MIN_PAIRS games a row gives no interval, difference or share: too few
games to compare.
Searching only some kinds of decision (`searched`), or only some turns (`turns`), the rest
greedy's, shows how much greedy loses on those.
The clairvoyant bound (the same search, its rollouts on the true deck and room tiles) plays
the reference's games at its own budgets; where both play a budget, the table is followed by
what the hidden information costs there: the clairvoyant's lead over the reference, paired.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from balance.games.gemrush.engine.forward import FORWARD
from balance.games.gemrush.engine.game_nb import R_TEAM_SCORE
from balance.games.gemrush.engine.state import new_state
from balance.games.gemrush.play import play_batch, prepare
from balance.stats.paired import TOO_FEW, mean_difference, too_few
from heuristics.gemrush.registry import PLAYERS
from heuristics.search import searched_mask

# The players that search (slow): they play --reference-games, the others --games.
SEARCHES = ("reference", "clairvoyant")


@dataclass
class Strength:
    label: str
    scores: np.ndarray
    games_per_cpu_s: float
    targets: dict[str, int]


def play(label: str, edition: str | None, players: int, heuristic: str, games: int,
         seed: int, knobs: dict | None = None, rules: dict | None = None,
         content: str | None = None, progress: Callable[[int], None] | None = None
         ) -> Strength:
    """`games` games of one player from `seed` on. They are played in chunks, so that
    `progress` hears of each; one state serves every chunk, and only the play is timed."""
    s = prepare(edition, "crisis", players, heuristic, exhaust=True, rules=rules or {},
                content=content, knobs=knobs or {})
    st = new_state(s.tables, s.rules)
    # A compiled player plays ~5,000 games a second: chunks of 500 keep the per-call cost out
    # of its speed. A Python player takes seconds a game: one game a chunk.
    python = any(PLAYERS.player(n).python is not None for n in s.seats)
    chunk = 1 if python else 500
    if not python:
        play_batch(s, np.arange(seed, seed + 1), state=st)  # loads the compiled code, untimed
    scores = []
    dt = 0.0
    for lo in range(seed, seed + games, chunk):
        seeds = np.arange(lo, min(lo + chunk, seed + games))
        t = time.process_time()
        scores.append(play_batch(s, seeds, state=st).out[:, R_TEAM_SCORE])
        dt += time.process_time() - t
        if progress is not None:
            progress(len(seeds))
    return Strength(label, np.concatenate(scores).astype(float), games / max(dt, 1e-9),
                    dict(s.profile.crisis_targets))


def _t_interval(x: np.ndarray) -> tuple[float, float] | None:
    """The mean's 95% t interval (the paired interval of x against zeros), None with too few
    games (balance.stats.paired's rule)."""
    r = mean_difference(np.zeros(len(x)), x)
    return None if r is None or r.too_few else (r.low, r.high)


def share(base: np.ndarray, other: np.ndarray, resamples: int = 10_000
          ) -> tuple[float, float, float]:
    """base's mean as a share of other's, on paired games (base[i] and other[i] are the same
    seed), with a 95% percentile bootstrap interval that resamples games, both players'
    scores together. Issue 10 asks that greedy score within 10% of the reference: a share
    of at least 0.9. The bootstrap's stream is fixed, so the same games print the same.
    With too few games (balance.stats.paired.MIN_PAIRS) the interval is NaN."""
    if too_few(len(base)):
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(base.mean() / other.mean()), float("nan"), float("nan")
    rng = np.random.default_rng(0)
    idx = rng.integers(0, len(base), (resamples, len(base)))
    with np.errstate(divide="ignore", invalid="ignore"):
        boot = base[idx].mean(axis=1) / other[idx].mean(axis=1)
        ratio = base.mean() / other.mean()
    lo, hi = np.nanpercentile(boot, [2.5, 97.5]) if np.isfinite(boot).any() else (ratio, ratio)
    return float(ratio), float(lo), float(hi)


def table(rows: list[Strength], against: str) -> str:
    """A Markdown table of the rows, differences paired with the row named `against`, and,
    for a player that outscores it, its mean as a share of that player's (`share`)."""
    base = next(r for r in rows if r.label == against).scores
    names = sorted(rows[0].targets, key=lambda k: rows[0].targets[k])
    head = ("| player | games | mean (95% CI) | median | vs " + against + ", paired | " +
            against + "'s share of it | " +
            " | ".join(f"{k} ({rows[0].targets[k]})" for k in names) + " | games/CPU-s |")
    out = [head, "|" + "---|" * (7 + len(names))]
    for r in rows:
        n = len(r.scores)
        ci = _t_interval(r.scores)
        mean = f"{r.scores.mean():.1f} " + (f"({ci[0]:.1f}–{ci[1]:.1f})" if ci else
                                            "(too few games)")
        part = "—"
        if r.label == against:
            diff = "—"
        elif too_few(n):
            diff = part = TOO_FEW
        else:
            d = r.scores - base[:n]
            dlo, dhi = _t_interval(d)
            diff = f"{d.mean():+.2f} ({dlo:+.2f} to {dhi:+.2f})"
            if r.scores.mean() > base[:n].mean():
                ratio, slo, shi = share(base[:n], r.scores)
                part = f"{100 * ratio:.1f}% ({100 * slo:.1f}–{100 * shi:.1f}%)"
        wins = " | ".join(f"{100 * (r.scores >= r.targets[k]).mean():.1f}%" for k in names)
        out.append(f"| {r.label} | {n:,} | {mean} | "
                   f"{np.median(r.scores):.0f} | {diff} | {part} | {wins} | "
                   f"{r.games_per_cpu_s:,.1f} |")
    return "\n".join(out)


def hidden_cost(rows: list[Strength]) -> str:
    """For each budget both the reference and the clairvoyant bound played: the bound's mean
    lead over the reference on the same seeds, with its paired 95% interval."""
    out = []
    honest = {r.label.removeprefix("reference "): r for r in rows
              if r.label.startswith("reference ")}
    for r in rows:
        if not r.label.startswith("clairvoyant "):
            continue
        tag = r.label.removeprefix("clairvoyant ")
        ref = honest.get(tag)
        if ref is None:
            continue
        n = min(len(r.scores), len(ref.scores))
        d = mean_difference(ref.scores[:n], r.scores[:n])
        if d is None or d.too_few:
            out.append(f"- budget {tag}: {TOO_FEW}")
        else:
            out.append(f"- budget {tag}: the clairvoyant bound scores {d.estimate:+.2f} "
                       f"({d.low:+.2f} to {d.high:+.2f}) over the reference, paired on "
                       f"{n:,} games")
    if not out:
        return ""
    return "\n".join(["", "What the hidden information costs the search (the deck and the "
                       "room tiles it cannot see):", *out])


def strength(edition: str | None, players: int, games: int, reference_games: int,
             budgets: list[int], seed: int = 7000, baseline_knobs: dict | None = None,
             say: Callable[[str], None] = print, rules: dict | None = None,
             content: str | None = None, searched: list[str] | None = None,
             turns: tuple[int, int] | None = None,
             progress: Callable[[str, int], Callable[[int], None]] | None = None,
             clairvoyant: list[int] | None = None, knobs_player: str = "greedy") -> str:
    """Play random, greedy, learned (and `knobs_player` with `baseline_knobs`, when given),
    the reference at each budget (searching only the decision kinds `searched` names, and
    only the turns `turns` spans, first and last counted from 1, when given) and the
    clairvoyant bound at each of its budgets; return the Markdown table, and what the hidden
    information costs (hidden_cost). `progress(label, games)` returns the callback a player's
    games advance."""
    rows = []
    plan = [("random", "random", games, None), ("greedy", "greedy", games, None),
            ("learned", "learned", games, None)]
    if baseline_knobs is not None:
        # A search given knobs plays as many games as the search does, not greedy's thousands
        n = reference_games if knobs_player in SEARCHES else games
        plan.insert(1, (f"{knobs_player} (given knobs)", knobs_player, n, baseline_knobs))
    ref = {}
    tags = []
    if searched:
        ref["searched"] = searched_mask(FORWARD.searchable, searched)
        tags.append(", ".join(searched))
    if turns:
        ref["first_turn"], ref["last_turn"] = turns
        tags.append(f"turns {turns[0]}–{turns[1]}")
    tag = f" ({'; '.join(tags)})" if tags else ""
    plan += [(f"reference {b}{tag}", "reference", reference_games, {"budget": b, **ref})
             for b in budgets]
    plan += [(f"clairvoyant {b}{tag}", "clairvoyant", reference_games, {"budget": b, **ref})
             for b in clairvoyant or ()]
    for label, heuristic, n, knobs in plan:
        say(f"{label}: {n:,} games...")
        tick = progress(label, n) if progress is not None else None
        rows.append(play(label, edition, players, heuristic, n, seed, knobs, rules, content,
                         tick))
    return table(rows, "greedy") + hidden_cost(rows)
