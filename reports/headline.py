"""What `balance run` prints when it has played: the answer to the experiment's question in a
short table, read back from the run folder (only the columns it needs).

- One variant, Crisis: the win rate at each named target with its 95% Wilson interval (at the
  targets the games answer: all of them when played to exhaustion), and the team score.
- One variant, Rush: each seat's share of the wins with its interval, whether it is off its
  fair share beyond chance (reports/gemrush/rush.py: the exact binomial test, Holm over every seat
  the headline prints), ties, and the length.
- Several variants: the comparison with the baseline, in its short form
  (reports/compare_text.short_table).

The headline rates (headline_rates) are what `balance run --precision` makes precise: in
Crisis played to exhaustion, each variant's win rate at each named difficulty (a game wins at
a target when its final team score reached it; scores never fall); in Crisis to a target, the
win rate; in Rush, each seat's win share. Computed lazily from a few columns, so a large run
is never loaded whole.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import polars as pl

from balance.stats.intervals import wilson
from balance.stats.paired import MIN_PAIRS
from reports import compare, compare_text, text, variants
from reports.gemrush import skills


def headline(run_dir: str | Path) -> str:
    """The headline of a run folder (InputError if it cannot be read)."""
    from balance.running.store import read_manifest

    manifest = read_manifest(run_dir)
    if len(manifest["variants"]) > 1:
        from reports.gemrush import ablation
        cmp = compare.compare_run(run_dir)
        if ablation.is_ablation(manifest):
            return ablation.ranking_text(cmp, ablation.how_of(manifest))
        if cmp.differences.height:
            out = compare_text.short_table(cmp, str(run_dir))
            if cmp.mode == "rush":
                games, manifest, _ = compare.load(run_dir)
                out += "\n\n" + "\n".join(_fairness_block(games, manifest))
            typical = skills.run_median_skill(cmp)
            if typical is not None:
                out += "".join("\n\n" + "\n".join(textwrap.wrap(x, 100))
                               for x in skills.median_sentences(typical))
            return out
        # Only settings were swept (the player count): each variant's own headline.
    games, manifest, _ = compare.load(run_dir)
    if games.height == 0:
        return "No games played yet."
    labels = variants.labels(manifest)
    out = []
    seats = _seat_tests(games, manifest)
    for info in manifest["variants"]:
        v = int(info["variant"])
        mine = games.filter(pl.col("variant") == v)
        if len(manifest["variants"]) > 1:
            out.append(f"{labels[v]}:")
        if mine.height == 0:
            out.append("  no games played yet")
        elif info.get("mode") == "rush":
            out += rush_lines(mine, info, seats.get(v))
        else:
            out += crisis_lines(mine, info)
    if seats:
        out += _fairness_note(seats)
    return "\n".join(out)


def _seat_counts(games: pl.DataFrame, players: int) -> tuple[list[int], int]:
    """(each seat's wins, the games one seat won) of one Rush variant, seat 1 first."""
    winner = games["winner"].fill_null(-1).to_numpy()
    wins = [int(np.count_nonzero(winner == seat)) for seat in range(1, players + 1)]
    return wins, int(np.count_nonzero(winner >= 1))


def _seat_tests(games: pl.DataFrame, manifest: dict) -> dict[int, list[bool | None]]:
    """For each Rush variant of two players or more, each seat: off its fair share beyond
    chance (True), not (False), or not tested (None: too few games one seat won), Holm over
    every seat of every variant the headline prints."""
    from reports.gemrush import rush
    rows = []
    for info in manifest["variants"]:
        v, players = int(info["variant"]), int(info.get("players") or 0)
        mine = games.filter(pl.col("variant") == v)
        if info.get("mode") != "rush" or players < 2 or mine.height == 0:
            continue
        wins, decided = _seat_counts(mine, players)
        rows += [(v, k, rush.fair_share_p(k, decided, players)) for k in wins]
    off = rush.off_fair_share([p for _, _, p in rows])
    out: dict[int, list[bool | None]] = {}
    for (v, _, p), o in zip(rows, off, strict=True):
        out.setdefault(v, []).append(None if np.isnan(p) else o)
    return out


def _fairness_block(games: pl.DataFrame, manifest: dict) -> list[str]:
    """Each Rush variant's seats off their fair share, after a comparison's short form."""
    seats = _seat_tests(games, manifest)
    labels = variants.labels(manifest)
    out = ["Seats against their fair share:"]
    for info in manifest["variants"]:
        v = int(info["variant"])
        flags = seats.get(v)
        if not flags:
            continue
        mine = games.filter(pl.col("variant") == v)
        wins, decided = _seat_counts(mine, len(flags))
        off = [f"seat {s + 1} {'above' if wins[s] * len(flags) > decided else 'below'} "
               f"({text.pct(wins[s] / mine.height, 1)})" for s, o in enumerate(flags) if o]
        fair = text.pct(decided / mine.height / len(flags), 1)
        said = ", ".join(off) if off else "every seat within chance of it" \
            if any(x is not None for x in flags) else "too few games to test"
        out += textwrap.wrap(f"{labels[v]} (fair share {fair}): {said}", 100,
                             initial_indent="  ", subsequent_indent="    ")
    return out + _fairness_note(seats)


def _fairness_note(seats: dict[int, list[bool | None]]) -> list[str]:
    tested = sum(x is not None for flags in seats.values() for x in flags)
    if tested == 0:
        return [f"Too few games that one seat won (fewer than {MIN_PAIRS}) to test the "
                "seats against their fair share."]
    return textwrap.wrap(
        "Above or below its fair share: the seat's share of the games one seat won differs "
        "from 1/players beyond chance (the exact binomial test, Holm-corrected over the "
        f"{tested} seats tested here, 5% family-wise); a seat not marked cannot be told "
        "from fair on these games.", 100)


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


def rush_lines(games: pl.DataFrame, info: dict,
               off: list[bool | None] | None = None) -> list[str]:
    """Each seat's share of the wins against the fair share, ties, and the length. `off`
    marks the seats off their fair share (_seat_tests); without it, the variant's own seats
    are tested, Holm over them."""
    from reports.gemrush import rush
    players = int(info["players"])
    winner = games["winner"].fill_null(-1).to_numpy()
    n = len(winner)
    rounds = -(-games["turns"].fill_null(0).to_numpy().astype(np.int64) // players)
    ties = float(np.mean(winner == -1))
    wins, decided = _seat_counts(games, players)
    if off is None and players > 1:
        p = [rush.fair_share_p(k, decided, players) for k in wins]
        off = [None if np.isnan(x) else o for x, o in zip(p, rush.off_fair_share(p),
                                                           strict=True)]
    fair = (1 - ties) / players
    lines = [f"Share of the wins by seat (95% Wilson intervals; {n:,} games; a fair share is "
             f"{text.pct(fair, 1)}):"]
    for seat, k in enumerate(wins):
        mark = ""
        if off and off[seat]:
            mark = "  above its fair share" if k / n > fair else "  below its fair share"
        lines.append(f"  seat {seat + 1:<3} {_rate(k, n)}{mark}")
    lines.append(f"  ties     {text.pct(ties, 1)}")
    lines.append(f"Length: {text.num(float(np.median(rounds)))} rounds (median; 10–90%: "
                 f"{text.num(float(np.quantile(rounds, 0.1)))}–"
                 f"{text.num(float(np.quantile(rounds, 0.9)))}), mean "
                 f"{text.num(float(rounds.mean()))}.")
    return lines


# -- the headline rates, for --precision ----------------------------------------------------

COLUMNS = ("variant", "mode", "players", "exhaust", "won", "score", "winner")
SCHEMA = {"variant": pl.Int64, "measure": pl.Utf8, "wins": pl.Int64, "games": pl.Int64,
          "rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}


def _named(manifest: dict) -> dict[int, dict[str, int]]:
    out = {}
    for v in manifest.get("variants", []):
        out[int(v["variant"])] = {str(k): int(t) for k, t in (v.get("difficulties") or {}).items()}
    return out


def headline_counts(games: pl.LazyFrame | pl.DataFrame, manifest: dict) -> pl.DataFrame:
    """(variant, measure, wins, games) for every headline rate of the run, in variant order
    and, within a variant, in the order of the named targets or seats."""
    lf = games.lazy().select(*COLUMNS)
    named = _named(manifest)
    per_variant = (lf.group_by("variant").agg(pl.first("mode"), pl.first("players"),
                                              pl.first("exhaust"), pl.len().alias("n"))
                   .collect().sort("variant"))
    parts = []
    for variant, mode, players, exhaust, n in per_variant.rows():
        one = lf.filter(pl.col("variant") == variant)
        if mode == "rush":
            seats = (one.filter(pl.col("winner") >= 1).group_by("winner").len().collect())
            wins = dict(seats.rows())
            parts += [(variant, f"seat {s} wins", int(wins.get(s, 0)), n)
                      for s in range(1, players + 1)]
        elif exhaust:
            targets = sorted(named.get(variant, {}).items(), key=lambda kv: kv[1])
            if not targets:
                continue
            counts = one.select([(pl.col("score") >= t).sum().alias(name)
                                 for name, t in targets]).collect().row(0)
            parts += [(variant, f"{name} ({t})", int(k), n)
                      for (name, t), k in zip(targets, counts, strict=True)]
        else:
            k = one.select(pl.col("won").fill_null(False).sum()).collect().item()
            parts.append((variant, "won", int(k), n))
    return pl.DataFrame(parts, schema={k: SCHEMA[k] for k in ("variant", "measure", "wins",
                                                               "games")}, orient="row")


def headline_rates(games: pl.LazyFrame | pl.DataFrame, manifest: dict) -> pl.DataFrame:
    """headline_counts with each rate and its 95% Wilson interval."""
    counts = headline_counts(games, manifest)
    rows = []
    for variant, measure, k, n in counts.rows():
        lo, hi = wilson(k, n) or (None, None)
        rows.append((variant, measure, k, n, k / n if n else None, lo, hi))
    return pl.DataFrame(rows, schema=SCHEMA, orient="row")


def widest_half_width(table: pl.DataFrame) -> float:
    """The largest half-width of the headline intervals (1.0 when there are none yet)."""
    if table.height == 0:
        return 1.0
    return float(((table["ci_high"] - table["ci_low"]) / 2).max())
