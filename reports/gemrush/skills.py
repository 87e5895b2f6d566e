"""Skill balance (2nd edition): what each skill is worth, how the variants move the game, and
which rooms a skill is worth more with.

- Crisis, from an `each_skill` run (balance/running/experiment.py): every skill held by the whole
  team (Shared Skill) against No Skills on the same seeds. The effect is variant minus
  baseline, so a skill worth having is positive; intervals and Holm's verdicts are the
  comparison's (reports/compare/compare.py).
- Rush, from any run that deals skills: the share of games each skill's holders win, against
  the fair share (the share of games with one winner, over the players). Skills are dealt at
  random, so a holder's edge is the skill's (or its seat's, which the deal averages out).
- Variants, from a run that sweeps `skills`: each variant's shift of the mean team score
  against Normal, beside the rulebook's "about 5 to 10 points" for No Skills and Magic Circle.
- Skill x room: in an `each_skill` run, whether a skill's paired effect is larger in games
  whose baseline built a given room early. The room's early arrival is fixed by the seed
  before the skill acts, but many pairs are tried: these are associations, Holm-corrected.
- The typical skill: the median of the skills' effects on the mean team score, the level a
  nerf (or a boost) that should make a skill ordinary aims for, with a 95% interval, and the
  mean team score the median skill gives, a goal `balance tune --goal score=N` can seek.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from balance.running.store.read import read_run
from balance.stats.distributions import binomial_two_sided_p, t_quantile, t_two_sided_p
from balance.stats.intervals import UPPER, with_wilson
from balance.stats.paired import CONFIDENCE, RESAMPLES, SEED, TOO_FEW, holm, too_few
from reports.tables import pieces

# The rulebook's names of the skill variants (the rule `skills`, balance/games/gemrush/rules.py).
VARIANT_NAMES = {"normal": "Normal", "none": "No Skills", "choice": "Choice of Skills",
                 "shared": "Shared Skill", "chaos": "Chaos Magic", "circle": "Magic Circle"}
# The swept keys of a skills run, as the manifest records each variant's (Comparison.value):
# the skill the whole team holds (each_skill), the rule choosing how skills are dealt.
SKILL = "skill"
VARIANTS = "skills"
RULEBOOK_SHIFT = (5.0, 10.0)  # points: No Skills lowers, Magic Circle raises Crisis scores
EARLY_TURNS = 6  # a room "comes out early" when the baseline game built it by this turn
MIN_GROUP = 20  # games on each side of a skill x room split, or the split is not tried


def swept(cmp, key: str) -> dict[int, str]:
    """The value of the swept key `key` of each variant of `cmp` that sweeps it, as the
    manifest records it (Comparison.swept: "Encore" for skill), never read back from a
    label."""
    return {int(v): str(s[key]) for v, s in cmp.swept.items() if (s or {}).get(key) is not None}


def is_skill_effects(cmp) -> bool:
    return bool(swept(cmp, SKILL))


def is_skill_variants(cmp) -> bool:
    return bool(swept(cmp, VARIANTS))


def effects(cmp, quantities: tuple[str, ...] | None = None) -> pl.DataFrame:
    """Per skill (from an each_skill comparison) and quantity: the effect (variant minus No
    Skills) with its interval and verdicts, ranked by the effect on the mean team score."""
    d = cmp.differences
    if quantities:
        d = d.filter(pl.col("quantity").is_in(list(quantities)))
    d = d.with_columns(pl.col("variant").cast(pl.Int64).replace_strict(
        swept(cmp, SKILL), default=None, return_dtype=pl.Utf8).alias("skill"))
    d = d.filter(pl.col("skill").is_not_null() & (pl.col("skill") != "none"))
    order = (d.filter(pl.col("quantity") == "score:mean").sort("difference", descending=True)
             .with_row_index("rank").select("skill", "rank"))
    return (d.join(order, on="skill", how="left").sort("rank", "quantity")
            .select("skill", "quantity", "name", "kind", "pairs", "baseline", "value",
                    "difference", "ci_low", "ci_high", "p_holm", "found", "holm"))


@dataclass(frozen=True)
class MedianSkill:
    """The typical skill of an each_skill run: the median of the skills' effects on the mean
    team score (points a game, skill minus No Skills), and the median skill's mean team score,
    each with its 95% interval (NaN with too few games)."""

    skills: int  # skills ranked
    games: int  # games every arm played (the same seeds)
    effect: float
    effect_low: float
    effect_high: float
    score: float  # the median skill's mean team score
    score_low: float
    score_high: float
    baseline: float  # No Skills' mean team score on the same games
    middle: tuple[tuple[str, float], ...]  # the skill or two at the middle: (name, effect)

    @property
    def too_few(self) -> bool:
        return too_few(self.games)


def median_skill(scores: np.ndarray, names: list[str], resamples: int = RESAMPLES,
                 seed: int = SEED) -> MedianSkill:
    """The typical skill from `scores`, one row per game and one column per arm, No Skills
    first, then a column per skill named by `names`, every arm on the same games.

    The interval is a parametric bootstrap: the arms' mean scores are drawn `resamples` times
    from their joint normal distribution (the means, and the games' covariance over their
    number: every arm plays the same games, so their luck is shared and cancels in the
    effects), seed `seed`, and the interval holds the middle 95% of the drawn medians. It
    costs the same for a million games as for a thousand, where resampling the games would
    not."""
    x = np.asarray(scores, np.float64)
    n, arms = x.shape
    mean = x.mean(axis=0)
    effects = mean[1:] - mean[0]
    order = np.argsort(effects, kind="stable")
    k = len(effects)
    mid = order[[(k - 1) // 2, k // 2]] if k % 2 == 0 else order[[k // 2]]
    middle = tuple((names[i], float(effects[i])) for i in dict.fromkeys(mid.tolist()))
    effect, score = float(np.median(effects)), float(np.median(mean[1:]))
    nan = (math.nan, math.nan)
    if too_few(n) or k == 0:
        return MedianSkill(k, n, effect, *nan, score, *nan, float(mean[0]), middle)
    cov = np.cov(x, rowvar=False).reshape(arms, arms) / n
    draws = np.random.default_rng(seed).multivariate_normal(mean, cov, resamples,
                                                            method="eigh")
    tail = (1 - CONFIDENCE) / 2
    e_lo, e_hi = np.quantile(np.median(draws[:, 1:] - draws[:, :1], axis=1), [tail, 1 - tail])
    s_lo, s_hi = np.quantile(np.median(draws[:, 1:], axis=1), [tail, 1 - tail])
    return MedianSkill(k, n, effect, float(e_lo), float(e_hi), score, float(s_lo),
                       float(s_hi), float(mean[0]), middle)


def run_median_skill(cmp) -> MedianSkill | None:
    """median_skill() of the run an each_skill comparison was made from, on the games every
    arm played; None when the comparison is not one of skills against No Skills."""

    if not getattr(cmp, "run_dir", "") or not is_skill_effects(cmp):
        return None
    arms = swept(cmp, SKILL)
    base = next((v for v, name in arms.items() if name == "none"), None)
    if base is None:
        return None
    order = [base] + [v for v in arms if v != base]
    games = read_run(cmp.run_dir, columns=["variant", "game", "score"]).games
    wide = (games.filter(pl.col("variant").is_in(order))
            .with_columns(pl.col("variant").cast(pl.Int64))
            .pivot(on="variant", index="game", values="score").drop_nulls().sort("game"))
    if wide.height == 0:
        return None
    x = wide.select([pl.col(str(v)) for v in order]).to_numpy()
    return median_skill(x, [arms[v] for v in order[1:]])


def median_sentences(m: MedianSkill, lever: str = "NAME.uses") -> list[str]:
    """The typical skill in plain words, and the goal a nerf aims for."""
    if m.skills == 0:
        return []
    between = " and ".join(f"{name} ({e:+.1f})" for name, e in m.middle)
    where = f"between {between}" if len(m.middle) == 2 else f"{between}"
    if m.too_few:
        return [f"The typical skill, the median of the {m.skills} skills' effects, is "
                f"{where}: {m.effect:+.1f} points a game to the team; {TOO_FEW} for an "
                f"interval ({m.games:,} in common)."]
    return [f"The typical skill, the median of the {m.skills} skills' effects, is worth "
            f"{m.effect:+.1f} points a game to the team (95% interval {m.effect_low:+.1f} to "
            f"{m.effect_high:+.1f}, {m.games:,} games): {where}. A skill worth much more "
            "than that is a candidate for a nerf, and the nerf that makes it typical aims "
            "there.",
            f"With these settings a team holding the median skill scores {m.score:.1f} points "
            f"a game (95% interval {m.score_low:.1f} to {m.score_high:.1f}; No Skills: "
            f"{m.baseline:.1f}). With a skill held by the whole team and a patch on it, "
            f"`balance tune FILE --lever {lever} --goal score={m.score:.1f}` (or its "
            "`amount`) seeks the nerf that makes it typical."]


def variant_shifts(cmp) -> pl.DataFrame:
    """Per variant (from a comparison sweeping `skills`): the shift of the mean team score
    against the baseline, with its interval and verdicts."""
    d = cmp.differences.filter(pl.col("quantity") == "score:mean")
    d = d.with_columns(pl.col("variant").cast(pl.Int64).replace_strict(
        swept(cmp, VARIANTS), default=None, return_dtype=pl.Utf8).alias("variant_name"))
    return d.filter(pl.col("variant_name").is_not_null()).select(
        "variant_name", "pairs", "baseline", "value", "difference", "ci_low", "ci_high",
        "found", "holm")


def rulebook_sentences(shifts: pl.DataFrame, baseline_name: str) -> list[str]:
    """A sentence for No Skills and for Magic Circle: does the measured shift agree with the
    rulebook's 5 to 10 points (down for No Skills, up for Magic Circle)?"""
    lo, hi = RULEBOOK_SHIFT
    out = []
    for name, sign, what in (("none", -1, "No Skills lowers"), ("circle", 1, "Magic Circle "
                                                                 "raises")):
        row = shifts.filter(pl.col("variant_name") == name)
        if row.height == 0 or baseline_name != "normal":
            continue
        r = row.row(0, named=True)
        if r.get("pairs") is not None and too_few(r["pairs"]):
            out.append(f"The rulebook says {what} Crisis scores by about {lo:.0f} to "
                       f"{hi:.0f} points; against Normal on {r['pairs']:,} games: {TOO_FEW}.")
            continue
        d, a, b = sign * r["difference"], sign * r["ci_low"], sign * r["ci_high"]
        a, b = min(a, b), max(a, b)
        measured = (f"{d:.1f} points ({a:.1f} to {b:.1f})" if d >= 0 else
                    f"{r['difference']:+.1f} points, the other way")
        if b < lo:
            verdict = "less than the rulebook's"
        elif a > hi:
            verdict = "more than the rulebook's"
        elif a <= hi and b >= lo:
            verdict = "within the rulebook's"
        else:
            verdict = "unlike the rulebook's"
        agree = verdict == "within the rulebook's"
        out.append(f"The rulebook says {what} Crisis scores by about {lo:.0f} to {hi:.0f} "
                   f"points; measured against Normal, {measured}: {verdict} "
                   f"{lo:.0f} to {hi:.0f}." + ("" if agree else
                                               " The measured shift disagrees with the book."))
    return out


# -- Rush: the holders' share of wins -----------------------------------------------------------
HOLDER_SCHEMA = {"players": pl.Int64, "skill": pl.Utf8, "games": pl.Int64, "wins": pl.Int64,
                 "fair_share": pl.Float64}


def holder_counts(games) -> pl.DataFrame:
    """Rush games that dealt skills, read a piece at a time: per player count and skill, the
    seats that held it (`games`), how many of them won, and the fair share at that count."""
    parts = []
    totals = []
    for piece in pieces.of(games, ["mode", "players", "skills", "winner"]):
        if "skills" not in piece.columns:
            return pl.DataFrame(schema=HOLDER_SCHEMA)
        rush = piece.filter((pl.col("mode") == "rush") & (pl.col("skills").list.len() > 0))
        if rush.height == 0:
            continue
        totals.append(rush.group_by("players").agg(
            pl.len().alias("n"), (pl.col("winner") >= 1).sum().alias("sole")))
        # Seat k (from 1, as `winner` counts them) holds the k-th skill of the list.
        seats = (rush.with_columns(pl.int_ranges(1, pl.col("skills").list.len() + 1)
                                   .alias("seat"))
                 .explode("skills", "seat")
                 .with_columns(pl.col("skills").str.split(" + ").alias("skill"))
                 .explode("skill"))
        parts.append(seats.group_by("players", "skill").agg(
            pl.len().alias("games"), (pl.col("winner") == pl.col("seat")).sum().alias("wins")))
    if not parts:
        return pl.DataFrame(schema=HOLDER_SCHEMA)
    tot = (pl.concat(totals).group_by("players").agg(pl.col("n").sum(), pl.col("sole").sum())
           .with_columns((pl.col("sole") / pl.col("n") / pl.col("players"))
                         .alias("fair_share")))
    out = pl.concat(parts).group_by("players", "skill").agg(pl.col("games").sum(),
                                                             pl.col("wins").sum())
    return (out.join(tot.select("players", "fair_share"), on="players")
            .cast({k: v for k, v in HOLDER_SCHEMA.items()}).select(list(HOLDER_SCHEMA))
            .sort("players", "skill"))


def holder_table(counts: pl.DataFrame) -> pl.DataFrame:
    """holder_counts with the win rate's Wilson interval, the exact binomial test against
    the fair share, and Holm's correction over every row; ranked by the holders' edge."""
    if counts.height == 0:
        return counts
    p = [binomial_two_sided_p(int(k), int(n), float(f)) if n > 0 else math.nan
         for k, n, f in counts.select("wins", "games", "fair_share").rows()]
    survives, adjusted = holm(p)
    out = with_wilson(counts).with_columns(
        pl.Series("p_value", p, pl.Float64), pl.Series("p_holm", adjusted, pl.Float64),
        pl.Series("holm", survives, pl.Boolean))
    return out.with_columns((pl.col("win_rate") - pl.col("fair_share")).alias("edge")).sort(
        "players", "edge", descending=[False, True])


# -- Skill x room ------------------------------------------------------------------------------
INTERACTION_SCHEMA = {"skill": pl.Utf8, "room": pl.Utf8, "early_games": pl.Int64,
                      "late_games": pl.Int64, "effect_early": pl.Float64,
                      "effect_late": pl.Float64, "difference": pl.Float64,
                      "ci_low": pl.Float64, "ci_high": pl.Float64, "p_value": pl.Float64,
                      "p_holm": pl.Float64, "holm": pl.Boolean}


def interactions(games: pl.DataFrame, rooms: pl.DataFrame, held: dict[int, str],
                 baseline: int) -> pl.DataFrame:
    """Each skill's paired effect on the team score split by whether the baseline game built
    each room by turn EARLY_TURNS: the effect when early minus when not (Welch's interval),
    Holm-corrected over every (skill, room) pair tried; `held`, each variant's skill (swept)."""
    base = games.filter(pl.col("variant") == baseline).select("game", pl.col("score")
                                                                .alias("s0"))
    early = (rooms.filter((pl.col("variant") == baseline) & (pl.col("turn") >= 0)
                          & (pl.col("turn") < EARLY_TURNS))
             .select("game", pl.col("room").cast(pl.Utf8)).unique())
    room_names = sorted(early["room"].unique().to_list())
    rows = []
    for v, skill in sorted(held.items()):
        if v == baseline or not skill or skill == "none":
            continue
        d = (games.filter(pl.col("variant") == v).select("game", "score")
             .join(base, on="game").with_columns((pl.col("score") - pl.col("s0"))
                                                 .cast(pl.Float64).alias("d")))
        if d.height == 0:
            continue
        for room in room_names:
            hit = early.filter(pl.col("room") == room)["game"]
            x = d["game"].is_in(hit.implode()).to_numpy()
            a, b = d["d"].to_numpy()[x], d["d"].to_numpy()[~x]
            if len(a) < MIN_GROUP or len(b) < MIN_GROUP:
                continue
            diff = float(a.mean() - b.mean())
            va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
            se = math.sqrt(va + vb)
            if se == 0:
                continue
            dof = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
            t = t_quantile(dof, UPPER)
            pv = t_two_sided_p(dof, diff / se)
            rows.append((skill, room, len(a), len(b), float(a.mean()), float(b.mean()), diff,
                         diff - t * se, diff + t * se, pv))
    if not rows:
        return pl.DataFrame(schema=INTERACTION_SCHEMA)
    survives, adjusted = holm([r[-1] for r in rows])
    out = pl.DataFrame([(*r, float(a), bool(s)) for r, a, s in zip(rows, adjusted, survives,
                                                                    strict=True)],
                       schema=INTERACTION_SCHEMA, orient="row")
    return out.sort("p_value")


def run_interactions(cmp) -> pl.DataFrame:
    """interactions() for the run an each_skill comparison was made from (its run folder):
    the run's games and rooms are read whole, which an each_skill run of thousands of games
    a variant allows."""

    if not getattr(cmp, "run_dir", ""):
        return pl.DataFrame(schema=INTERACTION_SCHEMA)
    run = read_run(cmp.run_dir, columns=["variant", "game", "score"])
    rooms = run.rooms
    if rooms is None or rooms.height == 0:
        return pl.DataFrame(schema=INTERACTION_SCHEMA)
    return interactions(run.games, rooms.select("variant", "game", "room", "turn"),
                        swept(cmp, SKILL), cmp.baseline)
