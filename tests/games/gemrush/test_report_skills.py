"""Skill balance in the report: the each_skill experiment, each skill's paired effect ranked
with Holm, the variants against Normal beside the rulebook, the Rush holders' win rates
against the fair share, and the skill x room associations."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from balance.errors import InputError
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from reports.compare.compare import compare_run
from reports.gemrush import skills
from reports.page.build import build_report
from tests.test_report_build import check_page

EACH = """\
[experiment]
name = "each"
description = "each skill against No Skills"
edition = "2e"
mode = "crisis"
games = 40
seed = 9
players = 3
exhaust = true
each_skill = true
"""

VARIANTS = """\
[experiment]
name = "variants"
description = "the skill variants"
edition = "2e"
mode = "crisis"
games = 60
seed = 10
players = 3
exhaust = true

[grid]
skills = ["normal", "none", "circle", "chaos"]
"""


# A run of no skill measure, reported beside the skill runs as in the main job: the skill runs
# are then read in the Skills section only (GameReport.apart). Reported alone, their 25
# versions of the game would fill every other section too, about a hundred figures.
BASE = """\
[experiment]
name = "base"
description = "3-player Crisis"
edition = "2e"
mode = "crisis"
games = 20
seed = 11
players = 3
exhaust = true
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("skills")
    out = []
    for name, text in (("each", EACH), ("variants", VARIANTS), ("base", BASE)):
        path = root / f"{name}.toml"
        path.write_text(text)
        out.append(run_experiment(load_experiment(path), out=root / "runs", jobs=1).run_dir)
    return root, out


@pytest.fixture(scope="module")
def page(runs):
    """The report of the three runs, built once."""
    root, dirs = runs
    return check_page(build_report(dirs, root / "report"))


def test_each_skill_makes_one_variant_per_skill_against_no_skills(tmp_path):
    p = tmp_path / "e.toml"
    p.write_text(EACH)
    e = load_experiment(p)
    assert len(e.variants) == 21
    assert e.variants[0].swept == {"skill": "none"} and e.variants[0].rules["skills"] == "none"
    v = e.variants[1]
    assert v.swept == {"skill": "Harmonization"}
    assert v.rules == {"skills": "shared", "shared_skill": "Harmonization"}


@pytest.mark.parametrize("extra, phrase", [
    ("each_skill = 1\n", "must be true or false"),
    ("[grid]\nhand_limit = [4, 5]\n", "takes no \\[grid\\]"),
])
def test_a_bad_each_skill_experiment_is_refused(tmp_path, extra, phrase):
    p = tmp_path / "e.toml"
    text = EACH.replace("each_skill = true\n", "") + extra if extra.startswith("each") \
        else EACH + extra
    p.write_text(text)
    with pytest.raises(InputError, match=phrase):
        load_experiment(p)


def test_each_skill_is_a_crisis_measure(tmp_path):
    p = tmp_path / "e.toml"
    p.write_text(EACH.replace('mode = "crisis"', 'mode = "rush"').replace("exhaust = true\n",
                                                                           ""))
    with pytest.raises(InputError, match="Crisis team"):
        load_experiment(p)


def test_skills_are_ranked_by_their_paired_effect(runs):
    _, (each, *_) = runs
    cmp = compare_run(each)
    e = skills.effects(cmp, ("score:mean",))
    assert e.height == 20 and e["skill"].n_unique() == 20
    assert e["difference"].to_list() == sorted(e["difference"].to_list(), reverse=True)
    assert e["pairs"].min() == 40  # every skill paired with No Skills on the same 40 seeds


def test_a_skill_is_read_from_what_the_variant_sweeps_never_from_its_label(runs):
    # A label is only the key a variant's rows are found by: renamed, nothing changes.
    import dataclasses

    from reports.compare import compare_figures

    _, (each, variants_run, _) = runs
    for run, read in ((each, lambda c: skills.effects(c, ("score:mean",))),
                      (variants_run, skills.variant_shifts)):
        cmp = compare_run(run)
        renamed = dataclasses.replace(
            cmp, variants=cmp.variants.with_columns(pl.format("version {}", "variant")
                                                    .alias("label")),
            differences=cmp.differences.with_columns(pl.format("version {}", "variant")
                                                     .alias("label")))
        assert skills.is_skill_effects(renamed) == skills.is_skill_effects(cmp)
        assert read(renamed).equals(read(cmp)) and read(renamed).height > 0
    fig = compare_figures.forest_figure(renamed, "score:mean", "t", ranked=skills.VARIANTS)
    rows = {t.get_text() for t in fig.axes[0].get_yticklabels()}
    assert "No Skills" in rows and not any(r.startswith("version") for r in rows), rows


def test_the_report_has_the_skills_section_from_real_runs(runs, page):
    root, _ = runs
    body = page
    assert '<section id="skills">' in body
    assert "what each skill is worth to a Crisis team" in body
    assert "Skills ranked by their effect" in body
    assert "the skill variants against normal" in body
    assert "Magic Circle raises Crisis scores by about 5 to 10" in body
    assert "Skill x room: too few games" in body  # 40 games a skill: no split has 20 a side
    figures = root / "report" / "figures"
    assert (figures / "skills-ranked-each.png").exists()
    # read in the Skills section only: no skill's own burn, curve or rooms figure
    assert not list(figures.glob("*-skill-*"))
    assert (figures / "crisis-curve-2nd-edition.png").exists()


def test_rulebook_sentences_say_when_the_shift_disagrees():
    shifts = pl.DataFrame({"variant_name": ["none", "circle"], "difference": [-7.0, 1.5],
                           "ci_low": [-8.0, 1.0], "ci_high": [-6.0, 2.0]})
    none, circle = skills.rulebook_sentences(shifts, "normal")
    assert "No Skills lowers" in none and "within the rulebook's 5 to 10" in none
    assert "disagrees" not in none
    assert "Magic Circle raises" in circle and "less than the rulebook's" in circle
    assert "disagrees" in circle
    assert skills.rulebook_sentences(shifts, "chaos") == []  # only against Normal


def test_a_skill_whose_holders_win_more_is_found_and_ranked_first():
    rng = np.random.default_rng(3)
    rows = []
    for _ in range(1200):
        seats = list(rng.permutation(["Lucky", "Plain", "Other"])[:2])
        lucky = seats.index("Lucky") + 1 if "Lucky" in seats else None  # seats from 1
        if lucky is not None and rng.random() < 0.4:
            winner = lucky
        else:
            winner = int(rng.integers(1, 3))
        rows.append({"mode": "rush", "players": 2, "skills": seats, "winner": winner})
    rows.append({"mode": "crisis", "players": 2, "skills": ["Lucky", "Plain"], "winner": None})
    games = pl.DataFrame(rows, schema={"mode": pl.Utf8, "players": pl.Int64,
                                       "skills": pl.List(pl.Utf8), "winner": pl.Int64})
    t = skills.holder_table(skills.holder_counts(games))
    by = {r["skill"]: r for r in t.iter_rows(named=True)}
    assert by["Lucky"]["holm"] and by["Lucky"]["edge"] > 0.1
    assert t["skill"][0] == "Lucky"  # ranked by the edge
    assert by["Plain"]["edge"] < 0 and by["Other"]["edge"] < 0  # what Lucky's holders win
    assert abs(by["Plain"]["fair_share"] - 0.5) < 1e-9  # no ties: one winner in two
    assert by["Lucky"]["games"] + by["Plain"]["games"] + by["Other"]["games"] == 2400


def test_magic_circle_seats_count_for_both_their_skills():
    games = pl.DataFrame({"mode": ["rush"], "players": [2], "skills": [["A + B", "B + A"]],
                          "winner": [1]})
    c = skills.holder_counts(games)
    assert dict(c.select("skill", "games").rows()) == {"A": 2, "B": 2}
    assert dict(c.select("skill", "wins").rows()) == {"A": 1, "B": 1}


def test_a_skill_worth_more_with_a_room_built_early_is_found():
    rng = np.random.default_rng(4)
    n = 400
    early = rng.random(n) < 0.5
    base = rng.normal(30, 5, n)
    games = pl.DataFrame({
        "variant": [0] * n + [1] * n + [2] * n, "game": list(range(n)) * 3,
        "score": np.concatenate([base, base + 1 + 4 * early + rng.normal(0, 1, n),
                                 base + 1 + rng.normal(0, 1, n)])})
    k = int(early.sum())
    rooms = pl.DataFrame({"variant": [0] * k, "game": np.flatnonzero(early).tolist(),
                          "room": ["Lucky Seam"] * k, "turn": [2] * k})
    held = {0: "none", 1: "Geode Sense", 2: "Plain"}
    t = skills.interactions(games, rooms, held, 0)
    by = {r["skill"]: r for r in t.iter_rows(named=True)}
    assert by["Geode Sense"]["holm"] and 3 < by["Geode Sense"]["difference"] < 5
    assert not by["Plain"]["holm"]


# -- the typical skill (issue 26 item 6) ------------------------------------------------------

def _arms(n: int, shifts: list[float], noise: float, seed: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = rng.normal(30, 8, n)
    return np.column_stack([base] + [base + s + rng.normal(0, noise, n) for s in shifts])


def test_the_median_skill_and_its_interval_agree_with_resampling_the_games():
    x = _arms(600, [0.5, 1.0, 2.0, 2.5, 6.0, 9.0], noise=3.0)
    names = ["a", "b", "c", "d", "e", "f"]
    m = skills.median_skill(x, names)
    mean = x.mean(axis=0)
    assert m.effect == pytest.approx(np.median(mean[1:] - mean[0]))
    assert m.score == pytest.approx(np.median(mean[1:])) and m.baseline == mean[0]
    assert [name for name, _ in m.middle] == ["c", "d"]  # six skills: the middle two
    rng = np.random.default_rng(8)
    eff, score = [], []
    for _ in range(3000):
        mm = x[rng.integers(0, 600, 600)].mean(axis=0)
        eff.append(np.median(mm[1:] - mm[0]))
        score.append(np.median(mm[1:]))
    lo, hi = np.quantile(eff, [0.025, 0.975])
    assert (m.effect_low, m.effect_high) == pytest.approx((lo, hi), abs=0.06)
    lo, hi = np.quantile(score, [0.025, 0.975])
    assert (m.score_low, m.score_high) == pytest.approx((lo, hi), abs=0.12)
    # The games' luck is shared by every arm: the effect's interval is far narrower than the
    # score's.
    assert m.effect_high - m.effect_low < 0.5 * (m.score_high - m.score_low)


def test_a_median_skill_that_moves_every_game_alike_is_exact_and_too_few_games_give_none():
    x = _arms(50, [1.0, 3.0, 5.0], noise=0.0)
    m = skills.median_skill(x, ["a", "b", "c"])
    assert m.middle == (("b", pytest.approx(3.0)),)
    assert (m.effect_low, m.effect, m.effect_high) == pytest.approx((3.0, 3.0, 3.0))
    few = skills.median_skill(x[:5], ["a", "b", "c"])
    assert few.too_few and np.isnan(few.effect_low) and few.effect == pytest.approx(3.0)
    assert "too few games to compare" in skills.median_sentences(few)[0]


def test_the_typical_skill_is_in_the_headline_and_the_report(runs, page):
    from reports.headline import headline

    _, (each, *_) = runs
    cmp = compare_run(each)
    m = skills.run_median_skill(cmp)
    e = skills.effects(cmp, ("score:mean",))
    assert m.skills == 20 and m.games == 40
    assert m.effect == pytest.approx(float(np.median(e["difference"].to_numpy())))
    assert m.effect_low <= m.effect <= m.effect_high
    said = skills.median_sentences(m)
    assert said[0].startswith("The typical skill, the median of the 20 skills' effects, is "
                              f"worth {m.effect:+.1f} points")
    assert f"--goal score={m.score:.1f}" in said[1]
    out = headline(each)
    assert "The typical skill, the median of the 20 skills' effects" in out
    assert skills.run_median_skill(compare_run(runs[1][1])) is None  # not an each_skill run
    assert "The typical skill, the median of the 20 skills" in page
