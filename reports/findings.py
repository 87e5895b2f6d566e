"""What a designer reads in one minute: at most five sentences of key findings, each picked
by how large and how sure it is, and one headline table.

Candidates, each with a weight (larger first):
- who played (always first: every figure is a player's);
- Crisis difficulty: where the curve crosses a coin flip, and how far the named difficulties
  sit from it;
- the largest difference between versions that survives Holm (from the comparisons);
- the largest gap between players (Verdicts by player);
- the most unbalanced Rush seat off its fair share beyond chance (reports/rush.py's test);
- the room whose ablation costs most, when the run has one.
Everything else stays in the folded list of all findings and in the sections.
"""

from __future__ import annotations

import polars as pl

from reports import paired, text

MAX_FINDINGS = 5


def _crisis(difficulty: pl.DataFrame, order: list[str]) -> list[tuple[float, str]]:
    d = difficulty.filter(pl.col("difficulty").is_not_null() & pl.col("win_rate").is_not_null())
    rank = {x: i for i, x in enumerate(order)}
    d = d.sort(pl.col("setting").replace_strict(rank, default=len(rank)), "players")
    if d.height == 0:
        return []
    out = []
    per_setting = d.group_by("setting", maintain_order=True)
    for (setting,), g in per_setting:
        # the named difficulty nearest a coin flip, over the player counts
        g = g.with_columns((pl.col("win_rate") - 0.5).abs().alias("gap"))
        best = g.sort("gap", "players").row(0, named=True)
        lo_p, hi_p = int(g["players"].min()), int(g["players"].max())
        who = (text.players_label(lo_p) if lo_p == hi_p else f"{lo_p} to {hi_p} players")
        rates = g.filter(pl.col("difficulty") == best["difficulty"])
        lo_r, hi_r = text.pct(rates["win_rate"].min()), text.pct(rates["win_rate"].max())
        span = lo_r if lo_r == hi_r else f"{lo_r} to {hi_r}"
        harder = g.filter(pl.col("target") > best["target"])
        tail = ""
        if harder.height:
            top = harder["win_rate"].max()
            tail = (f"; no harder difficulty is won more than {text.pct(top, 1)} of the time"
                    if top < 0.05 else "")
        # The first setting (the baseline, as the designer ordered them) leads; the others
        # are in the headline table.
        out.append((3.0 if not out else 0.5, f"{setting}, Crisis with {who}: {best['difficulty']} "
                         f"({best['target']} points) is the closest to an even game, won "
                         f"{span} of the time{tail}."))
    return out


def _comparisons(cmps: list) -> list[tuple[float, str]]:
    out = []
    for name, cmp in cmps:
        d = cmp.differences.filter(pl.col("holm"))
        if d.height == 0:
            continue
        rates = d.filter(pl.col("kind") == "rate")
        pick = rates if rates.height else d
        scale = 100.0 if pick["kind"][0] == "rate" else 1.0
        r = pick.sort(pl.col("difference").abs(), descending=True).row(0, named=True)
        unit = " percentage points" if scale == 100.0 else ""
        out.append((2.5 + min(abs(r["difference"]) * scale / 100, 1.0),
                    f"{name}: the largest sure difference is {r['label']}, which moves the "
                    f"{r['name']} by {scale * r['difference']:+.1f}{unit} (95% interval "
                    f"{scale * r['ci_low']:+.1f} to {scale * r['ci_high']:+.1f}) against its "
                    "baseline."))
    return out


def _players(player_targets: pl.DataFrame) -> list[tuple[float, str]]:
    t = player_targets
    if t.height == 0 or "spread" not in t.columns:
        return []
    t = t.filter(pl.col("spread").is_not_null())
    if t.height == 0:
        return []
    r = t.sort("spread", descending=True).row(0, named=True)
    at = t.filter((pl.col("base_setting") == r["base_setting"])
                  & (pl.col("players") == r["players"]) & (pl.col("level") == r["level"]))
    parts = ", ".join(f"{x['heuristic']} {x['target']}" for x in at.iter_rows(named=True)
                      if x["target"] is not None)
    return [(2.8, f"The player moves the verdict: the target won {text.level_label(r['level'])} "
                  f"of the time with {text.plural(r['players'], 'player')} is {parts} "
                  f"({r['spread']} points apart).")]


def _rush(seats: pl.DataFrame) -> list[tuple[float, str]]:
    # A seat's share from a handful of games is no finding (the comparisons' rule).
    if "games" in seats.columns:
        seats = seats.filter(pl.col("games") >= paired.MIN_PAIRS)
    if seats.height == 0:
        return []
    if "off_fair" in seats.columns:  # reports/rush.py: exact binomial, Holm over the seats
        off = seats.filter(pl.col("off_fair").fill_null(False))
        none = ("Rush: no seat wins more or less than its fair share beyond chance (the exact "
                "binomial test of each seat, Holm-corrected over every seat).")
    else:
        off = seats.filter((pl.col("ci_low") > pl.col("fair_share"))
                           | (pl.col("ci_high") < pl.col("fair_share")))
        none = ("Rush: no seat wins more or less than its fair share (every seat's 95% "
                "interval contains it).")
    if off.height == 0:
        return [(1.0, none)]
    r = off.sort((pl.col("win_rate") - pl.col("fair_share")).abs(),
                 descending=True).row(0, named=True)
    return [(2.0, f"{r['setting']}, Rush with {text.players_label(r['players'])}: seat "
                  f"{r['seat']} wins {text.rate(r['win_rate'], r['ci_low'], r['ci_high'])} "
                  f"against a fair share of {text.pct(r['fair_share'])}.")]


def _ablations(cmps: list) -> list[tuple[float, str]]:
    from reports import ablation

    out = []
    for name, cmp in cmps:
        if not cmp.variants["label"].str.starts_with("ablate=").any():
            continue
        e = ablation.effects(cmp).filter(pl.col("quantity") == "score:mean")
        if e.height == 0:
            continue
        r = e.row(0, named=True)
        if paired.too_few(r["pairs"]):
            continue  # no room can be ranked on a handful of games
        sure = "surviving Holm" if r["holm"] else "not surviving Holm"
        out.append((2.2, f"{name}: the room worth most is {r['room']}: without it the mean "
                         f"team score falls by {r['effect']:.2f} (95% interval "
                         f"{r['ci_low']:.2f} to {r['ci_high']:.2f}, {sure})."))
    return out


def key_findings(played_by: str, difficulty: pl.DataFrame, player_targets: pl.DataFrame,
                 seats: pl.DataFrame, cmps: list, order: list[str] | None = None) -> list[str]:
    """At most MAX_FINDINGS sentences, the player first, the rest by weight; `order` lists
    the settings as the designer gave them."""
    candidates = (_crisis(difficulty, order or []) + _comparisons(cmps) + _players(player_targets)
                  + _rush(seats) + _ablations(cmps))
    # Weights below 1 are repeats of what the headline table shows: left to the table.
    candidates = sorted((c for c in candidates if c[0] >= 1.0), key=lambda c: -c[0])
    picked = [played_by] if played_by else []
    picked += [s for _, s in candidates[: MAX_FINDINGS - len(picked)]]
    return picked


def headline_rows(difficulty: pl.DataFrame, order: list[str] | None = None
                  ) -> tuple[list[str], list[list[str]]]:
    """(headers, rows): per setting (in `order`) and player count, the win rate at each named
    difficulty."""
    rank = {x: i for i, x in enumerate(order or [])}
    d = difficulty.filter(pl.col("difficulty").is_not_null()).sort(
        pl.col("setting").replace_strict(rank, default=len(rank)), "players")
    if d.height == 0:
        return [], []
    names = (d.select("difficulty", "target").group_by("difficulty")
             .agg(pl.col("target").min()).sort("target")["difficulty"].to_list())
    rows = []
    for (setting, players), g in d.group_by("setting", "players", maintain_order=True):
        cells = []
        for n in names:
            x = g.filter(pl.col("difficulty") == n)
            cells.append(text.rate(x["win_rate"][0], x["ci_low"][0], x["ci_high"][0])
                         if x.height else text.DASH)
        rows.append([setting, str(players), *cells])
    return ["Setting", "Players", *names], rows
