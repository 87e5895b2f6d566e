"""The report's Skills section (reports/gemrush/skills.py computes it): each skill's worth to a
Crisis team, ranked; the skill variants against Normal beside the rulebook; the Rush holders' share
of wins; and the skill x room associations."""

from __future__ import annotations

import polars as pl

from balance.stats import paired
from reports.compare import compare_figures
from reports.gemrush import ablation, skills
from reports.gemrush.figures import curves_figure
from reports.render import text
from reports.render.section import Block, Section, Table, slug
from reports.render.section import figure_or_none as _fig

INTRO = ["What each skill is worth to a team, how the ways of dealing skills move the game, and "
         "whether a skill's holder wins more in Rush."]
METHOD = [
    "Skills are the 2nd edition's one-rule breaks (the content file's [[skills]]; 16 of the "
    "20 are reconstructed, see the README). Each figure here pairs games on the same seeds, "
    "so the luck of the deal cancels; intervals are 95%, and a result marked as surviving "
    "Holm holds after correcting for every comparison made beside it.",
]


def _effect(r: dict | None, scale: float = 1.0) -> str:
    if r is None:
        return text.DASH
    if paired.too_few(r["pairs"]):
        return paired.TOO_FEW
    if not r["found"]:
        return (f"none found ({scale * r['ci_low']:+.2f} to {scale * r['ci_high']:+.2f})")
    return (f"{scale * r['difference']:+.2f} ({scale * r['ci_low']:+.2f} to "
            f"{scale * r['ci_high']:+.2f})" + (" *" if r["holm"] else ""))


def skills_section(a, cmps: list) -> Section:
    s = Section("skills", "Skills", intro=list(INTRO), method=list(METHOD))
    for name, cmp in cmps:
        if skills.is_skill_effects(cmp):
            s.blocks.append(_effects_block(name, cmp))
            s.blocks.append(_rooms_block(name, cmp))
        elif skills.is_skill_variants(cmp):
            s.blocks.append(_variants_block(name, cmp))
    holders = a.skill_holders
    if holders.height:
        s.blocks.append(_holders_block(holders))
    if not s.blocks:
        s.missing.append("No run here measures skills: an experiment with each_skill = true "
                         "ranks them (experiments/gemrush/skills.toml), one sweeping the rule "
                         "`skills` compares the variants "
                         "(experiments/gemrush/skill-variants.toml), "
                         "and Rush games that deal skills give the holders' win rates.")
    return s


def _effects_block(name: str, cmp) -> Block:
    b = Block(f"{name}: what each skill is worth to a Crisis team", paragraphs=[
        "Every player holds the skill (the Shared Skill variant), against the same games "
        "with No Skills: the effect is the skill's games minus No Skills, so a skill worth "
        "having is positive. Holding it four times over is not holding it once, so read the "
        "ranking, and the size only against the other skills. * survives Holm."])
    typical = skills.run_median_skill(cmp)
    if typical is not None:
        b.paragraphs += skills.median_sentences(typical)
    target = ablation.headline_target(cmp)
    key = slug(name)
    for q, label in (("score:mean", "mean team score"),):
        f = _fig(f"skills-ranked-{key}.png", "Skills ranked by their paired effect on the "
                 f"{label}, with 95% intervals; a filled dot survives Holm, grey found no "
                 "difference.", compare_figures.forest_figure(
                     cmp, q, f"{name}: each skill's effect on the {label}",
                     ranked=skills.SKILL))
        if f:
            b.figures.append(f)
    e = skills.effects(cmp, ("score:mean", target) if target else ("score:mean",))
    rows = []
    tname = text.DASH
    for skill in dict.fromkeys(e["skill"].to_list()):
        got = {r["quantity"]: r for r in e.filter(pl.col("skill") == skill).iter_rows(named=True)}
        if target and target in got:
            tname = got[target]["name"]
        rows.append([skill, _effect(got.get("score:mean")),
                     _effect(got.get(target), 100.0) if target else text.DASH])
    b.tables.append(Table("Skills ranked by their effect (skill's games minus No Skills; "
                          "* survives Holm)", ["Skill", "Mean team score",
                                               f"{tname} (pp)"], rows, fold="closed"))
    every = skills.effects(cmp)
    wins = [q for q in dict.fromkeys(every["quantity"].to_list()) if q.startswith("win:")]
    names = dict(every.select("quantity", "name").unique().rows())
    full = []
    for skill in dict.fromkeys(every["skill"].to_list()):
        got = {r["quantity"]: r for r in every.filter(pl.col("skill") == skill)
               .iter_rows(named=True)}
        full.append([skill, *(_effect(got.get(q), 100.0) for q in wins)])
    if wins:
        b.tables.append(Table("The effect on the win rate at every named target (percentage "
                              "points; * survives Holm)", ["Skill", *(names[q] for q in wins)],
                              full, fold="closed"))
    for note in cmp.notes:
        b.paragraphs.append(note)
    return b


def _rooms_block(name: str, cmp) -> Block:
    b = Block("", fold=f"{name}: rooms a skill is worth more with")
    inter = skills.run_interactions(cmp)
    if inter.height == 0:
        b.paragraphs.append(
            "Skill x room: too few games to look for rooms a skill is worth more with (each "
            f"split needs {skills.MIN_GROUP} games on either side of a room built by turn "
            f"{skills.EARLY_TURNS}, and the run's rooms table).")
    else:
        found = inter.filter(pl.col("holm"))
        tried = inter.height
        b.paragraphs.append(
            f"Skill x room: each skill's effect compared between games whose baseline built a "
            f"room by turn {skills.EARLY_TURNS} and games that did not ({tried:,} pairs tried, "
            "Holm-corrected). These are associations: a room that comes out early also "
            "changes the rest of the game.")
        show = found if found.height else inter.head(5)
        caption = ("Skill x room associations that survive Holm" if found.height else
                   "No skill x room association survives Holm: the five strongest, for "
                   "reference")
        b.tables.append(Table(caption, ["Skill", "Room", "Effect, room early", "Effect, "
                                        "room late", "Difference (95%)", "Holm p"],
                              [[r["skill"], r["room"], f"{r['effect_early']:+.2f}",
                                f"{r['effect_late']:+.2f}",
                                f"{r['difference']:+.2f} ({r['ci_low']:+.2f} to "
                                f"{r['ci_high']:+.2f})", f"{r['p_holm']:.3f}"]
                               for r in show.iter_rows(named=True)], left=2))
    return b


def _variants_block(name: str, cmp) -> Block:
    base = str(cmp.value(cmp.baseline, skills.VARIANTS) or "")
    b = Block(f"{name}: the skill variants against {base or 'the baseline'}")
    shifts = skills.variant_shifts(cmp)
    b.paragraphs += skills.rulebook_sentences(shifts, base)
    curves = _fig(f"skills-curves-{slug(name)}.png", "Each skill variant's share of Crisis "
                  "games won at each target, one panel per player count, 95% Wilson bands.",
                  curves_figure(cmp, f"{name}: win rate by skill variant"))
    if curves:
        b.figures.append(curves)
    f = _fig(f"skills-variants-{slug(name)}.png", "Each skill variant's shift of the mean "
             f"team score against {base}, with 95% paired intervals.",
             compare_figures.forest_figure(cmp, "score:mean", f"{name}: mean team score "
                                           f"against {base}", ranked=skills.VARIANTS))
    if f:
        b.figures.append(f)
    b.tables.append(Table(f"Shift of the mean team score against {base} (* survives Holm)",
                          ["Variant", "Games", f"{base} mean", "Variant's mean", "Shift (95%)"],
                          [[r["variant_name"], text.count(r["pairs"]), f"{r['baseline']:.1f}",
                            f"{r['value']:.1f}", _effect(r)]
                           for r in shifts.iter_rows(named=True)]))
    return b


def _holders_block(h: pl.DataFrame) -> Block:
    b = Block("Rush: the share of games each skill's holders win", paragraphs=[
        "Skills are dealt at random, so a skill whose holders win more than the fair share "
        "(the share of games with one winner, over the players) gives its holder an edge. "
        "Each row counts the seats that held the skill; in Magic Circle a seat holds two. "
        "The test is exact (binomial) against the fair share; * survives Holm over every "
        "row."])
    b.tables.append(Table(
        "Holders' win rate by skill, largest edge first", ["Players", "Skill", "Seats",
                                                           "Won (95% interval)", "Fair share",
                                                           "Edge"],
        [[str(r["players"]), r["skill"], text.count(r["games"]),
          text.rate(r["win_rate"], r["ci_low"], r["ci_high"]) + (" *" if r["holm"] else ""),
          text.pct(r["fair_share"]), f"{100 * r['edge']:+.1f} pp"]
         for r in h.iter_rows(named=True)], left=2, fold="closed"))
    return b
