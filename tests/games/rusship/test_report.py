"""Rusship's report (reports/rusship/): its numbers on a constructed table, where every rate
and fit is known by hand, and its sections and verdicts on a tiny real run; and the commands
that answer the designer's questions on Rusship's measures (`balance compare`, `balance tune
--goal`, `balance run --precision`)."""

from __future__ import annotations

import math
import re
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest

from balance.games.rusship.game import GAME, GAMES
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from balance.running.store import read_run
from balance.stats.intervals import wilson
from balance.stats.measures import headline_rates, widest_half_width
from reports.compare.compare import compare
from reports.page import game_report
from reports.page.build import build_report
from reports.rusship import findings as rfindings
from reports.rusship import length, page
from reports.rusship.levers import BOX_KIND, COMPENSATION_KIND, pairs_of
from reports.rusship.report import REPORT

ROOT = Path(__file__).resolve().parents[3]
_TYPES = {"string": pl.Utf8, "bool": pl.Boolean, "int8": pl.Int8, "int16": pl.Int16,
          "int32": pl.Int32, "int64": pl.Int64, "float32": pl.Float32,
          "list<int16>": pl.List(pl.Int16), "list<int8>": pl.List(pl.Int8)}


def game_row(variant: int, game: int, *, starter: int = 1, winner: int = 1,
             first_hit: int = 2, turns: int = 10, first_power: str = "plus_one",
             first_hit_turn: int = 3) -> dict:
    """One decided game of the games table, as Rusship's records write it."""
    return {"experiment": "made", "variant": variant, "game": game, "seed": game,
            "players": 2, "heuristic": "racer", "went_first": 1, "won": None,
            "winner": winner, "score": 3, "scores": [3, 1] if winner == 1 else [1, 3],
            "turns": turns, "end_reason": "planet_destroyed", "engine_version": "1",
            "source_hash": "x", "starter": starter, "starter_won": starter == winner,
            "hits_1": 3 - (winner == 1) * 2, "hits_2": 3 - (winner == 2) * 2,
            "winner_hits": 1, "first_hit": first_hit, "first_hit_turn": first_hit_turn,
            "comeback": first_hit == winner, "captures_1": 1, "captures_2": 1, "captures": 2,
            "mothership_moves": 0, "lost_dice": 0, "first_power": first_power,
            **{c: 0 for c in GAMES.columns if c.startswith("power_")}, "decisions": 20,
            "branching": 3.0, "lead_turns": [turns], "leaders": [winner]}


def table(rows: list[dict], swept: dict[str, list]) -> pl.DataFrame:
    schema = {c: (pl.List(pl.Int16) if c == "scores" else _TYPES[t])
              for c, t in GAMES.columns.items()}
    df = pl.DataFrame(rows, schema=schema)
    for key, per_variant in swept.items():
        df = df.with_columns(pl.col("variant").replace_strict(
            dict(enumerate(per_variant)), default=None).alias(key))
    return df


def manifest(rules: list[dict], name: str = "made") -> dict:
    return {"experiment": name, "game": "rusship", "variants": [
        {"variant": i, "label": ", ".join(f"{k}={v}" for k, v in r.items()) or "unchanged",
         "players": 2, "heuristic": "racer", "rules": r, "swept": r}
        for i, r in enumerate(rules)]}


@pytest.fixture(scope="module")
def made():
    """Two variants of 40 games on the same seeds: unchanged rules, where the starter wins
    30 (75%) and the side attacked first 34 (85%), in 10 turns; and second_tokens=1, where
    the starter wins 20 (50%) and the side attacked first 10 (25%), in 14 turns."""
    rows = []
    for g in range(40):
        rows.append(game_row(0, g, starter=1, winner=1 if g < 30 else 2,
                             first_hit=1 if g < 24 else 2, turns=10,
                             first_power="plus_one" if g < 20 else "reroll"))
        rows.append(game_row(1, g, starter=1, winner=1 if g < 20 else 2,
                             first_hit=1 if g < 10 or g >= 20 else 2, turns=14))
    games = table(rows, {"second_tokens": [0, 1]})
    m = manifest([{"second_tokens": 0}, {"second_tokens": 1}])
    return SimpleNamespace(games=games, manifest=m)


def test_the_declaration_names_this_report():
    assert game_report.of(GAME) is REPORT


def test_rates_are_the_counts_with_their_wilson_intervals(made):
    a = REPORT.analyse(made)
    base, comp = (a.levers.sort("variant")["setting"].to_list())
    s = page.rate_row(a.starter, base)
    assert (s["wins"], s["games"]) == (30, 40)
    assert (s["ci_low"], s["ci_high"]) == pytest.approx(wilson(30, 40))
    c = page.rate_row(a.comeback, comp)
    # variant 1: games 0-9 and 20-29 attacked seat 1 first, who won games 0-19
    assert (c["wins"], c["games"]) == (10, 40)
    fp = a.first_power.filter(pl.col("setting") == base).sort("power")
    # the side attacked first chose plus_one in games 0-19 (seat 1, who won: all
    # comebacks) and reroll in games 20-39: seat 1 in 20-23 (won), seat 1 in 24-29 (lost),
    # seat 2 in 30-39 (won)
    assert fp.select("power", "games", "wins").rows() == [("plus_one", 20, 20),
                                                          ("reroll", 20, 14)]
    assert a.turns.filter(pl.col("setting") == comp)["mean"][0] == 14
    lv = a.levers.filter(pl.col("setting") == comp).row(0, named=True)
    assert (lv["second_tokens"], lv["length"], lv["in_box"]) == (1, 12, 5)


def test_the_compensation_nearest_half_is_named_with_its_paired_difference(made):
    a = REPORT.analyse(made)
    cmp = compare(made.games, made.manifest)
    pairs = pairs_of([("made", cmp)], made.manifest, a.kinds)
    assert [p.kind for p in pairs] == [COMPENSATION_KIND]
    [(best, r)] = page.closest(pairs)  # the unchanged rules are told apart, paired
    assert best.label == "second player's head-start ships 1"
    assert r["difference"] == pytest.approx(-0.25)  # 50% against 75%, the same 40 games
    assert r["ci_high"] < 0
    verdicts = rfindings.verdicts(a, pairs, [("made", cmp)], {})
    topics = [v.topic for v in verdicts]
    assert "Compensation" in topics and "First player" in topics
    said = next(v for v in verdicts if v.topic == "Compensation").sentence
    assert said.startswith("second player's head-start ships 1 brings the first player's wins "
                           "closest to 50%")


def test_an_ablation_ranks_the_power_whose_loss_costs_the_most_comebacks():
    """Without plus_one the side attacked first wins 10 of 40, without reroll 22 of 40,
    against 24 of 40 with the full box."""
    rows = []
    for g in range(40):
        rows.append(game_row(0, g, first_hit=1 if g < 24 else 2))
        rows.append(game_row(1, g, first_hit=1 if g < 10 else 2, first_power="reroll"))
        rows.append(game_row(2, g, first_hit=1 if g < 22 else 2))
    games = table(rows, {"ablate": ["none", "plus_one", "reroll"]})
    m = manifest([{}, {"box_plus_one": False}, {"box_reroll": False}], "ablation")
    cmp = compare(games, m)
    data = SimpleNamespace(games=games, manifest=m)
    a = REPORT.analyse(data)
    pairs = pairs_of([("ablation", cmp)], m, a.kinds)
    assert {p.kind for p in pairs} == {BOX_KIND}
    effects = page.power_effects(pairs)
    # Issue 50: the powers as the rulebook's tokens read, not their keys.
    assert [e["power"] for e in effects] == ["the +1 power", "the reroll power"]
    assert effects[0]["effect"] == pytest.approx(14 / 40)
    assert effects[0]["low"] > 0
    v = next(x for x in rfindings.verdicts(a, pairs, [("ablation", cmp)], {})
             if x.topic == "Strongest power")
    assert v.sentence.startswith("The +1 power is the strongest catch-up power")
    assert "without the +1 power against " in v.sentence and "ablate=" not in v.sentence


def test_the_length_fit_recovers_a_power_law():
    """Turns exactly 2 x length^1.5 at every length: the exponent and scale come back, and
    the curve holds."""
    counts = pl.DataFrame({"setting": ["a", "b", "c"], "turns": [16, 54, 128],
                           "n": [10, 10, 10]})
    f = length.fit("made", [("a", 4), ("b", 9), ("c", 16)], counts)
    assert f.exponent == pytest.approx(1.5)
    assert f.scale == pytest.approx(2.0)
    assert f.worst == pytest.approx(0.0, abs=1e-9)
    assert f.lengths["step"].to_list()[1:] == pytest.approx([38 / 5, 74 / 7])
    assert math.isclose(f.exponent_low, 1.5, abs_tol=1e-6)


@pytest.fixture(scope="module")
def tiny_runs(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs")
    names = ["first-player", "power-ablation", "board-length", "rusship-players"]
    for name in names:
        exp = load_experiment(ROOT / "experiments" / "rusship" / f"{name}.toml")
        run_experiment(exp, out, games=40 if name != "rusship-players" else 8, jobs=1)
    return out, names


def test_a_tiny_run_of_the_main_jobs_files_has_every_section_and_verdict(tiny_runs):
    out, names = tiny_runs
    page_path = build_report([out / n for n in names], out / "report")
    html = page_path.read_text(encoding="utf-8")
    for section in ("first-player", "powers", "length", "players", "outcomes", "comparison"):
        assert f'id="{section}"' in html
    for topic in ("First player.", "Compensation.", "Catch-up.", "Strongest power.",
                  "Length.", "Players."):
        assert f"<strong>{topic}</strong>" in html
    assert "seat 1: Humanity, seat 2: the Alien Empire" in html


def test_compare_reads_rusships_measures(tiny_runs, cli):
    out, _ = tiny_runs
    r = cli("compare", out / "first-player")
    assert r.exit_code == 0, r.output
    for name in ("First player's wins", "Comebacks", "mean first attack"):
        assert name in r.output


TUNE = """\
[experiment]
name = "tune"
description = "Rusship, racer against racer"
game = "rusship"
players = 2
games = 400
seed = 3
"""


def test_tune_seeks_the_second_players_tokens_for_an_even_start(tmp_path, cli):
    exp = tmp_path / "tune.toml"
    exp.write_text(TUNE, encoding="utf-8")
    r = cli("tune", exp, "--lever", "second_tokens", "--range", "0:4", "--goal",
            "starter=50%", "--games", "1000", "--first", "400", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "second_tokens meets starter=50% at" in r.output
    assert "the closest whole value is 1" in r.output


def test_tune_seeks_the_board_length_for_a_mean_length(tmp_path, cli):
    exp = tmp_path / "tune.toml"
    exp.write_text(TUNE, encoding="utf-8")
    r = cli("tune", exp, "--lever", "length", "--range", "6:24", "--goal", "turns=20",
            "--games", "1000", "--first", "200", "--jobs", "1")
    assert r.exit_code == 0, r.output
    # Whatever the players make of the rules, the value found plays about 20 turns, strictly
    # inside the range (6 spaces play about 5 turns, 24 about 40).
    m = re.search(r"the closest whole value is (\d+) \(([\d.]+) there\)", r.output)
    assert m, r.output
    assert 6 < int(m.group(1)) < 24 and abs(float(m.group(2)) - 20) < 2


def test_precision_narrows_rusships_headline_rates(tmp_path, cli):
    exp = tmp_path / "tune.toml"
    exp.write_text(TUNE, encoding="utf-8")
    r = cli("run", exp, "--precision", "4", "--games", "3000", "--out", tmp_path / "runs",
            "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "precision reached" in r.output
    run = read_run(tmp_path / "runs" / "tune")
    rates = headline_rates(run.games, run.manifest)
    assert {"First player's wins", "Comebacks"} <= set(rates["measure"].to_list())
    assert widest_half_width(rates) <= 0.04


def test_a_report_without_a_box_run_sends_no_reader_to_one():
    """Issue 50: "the box runs (power-ablation) do" was said in a report that had none."""
    rows = []
    for g in range(40):
        rows.append(game_row(0, g, first_hit=1 if g < 24 else 2))
        rows.append(game_row(1, g, first_hit=1 if g < 20 else 2))
    games = table(rows, {"second_tokens": [0, 1]})
    m = manifest([{"second_tokens": 0}, {"second_tokens": 1}], "first")
    cmp = compare(games, m)
    a = REPORT.analyse(SimpleNamespace(games=games, manifest=m))
    pairs = pairs_of([("first", cmp)], m, a.kinds)
    chosen = [x for x in rfindings.verdicts(a, pairs, [("first", cmp)], {})
              if x.topic == "Power chosen first"]
    assert chosen and all("power-ablation" not in x.sentence and "box run" not in x.sentence
                          for x in chosen)
    assert "chooses the +1 power first" in chosen[0].sentence
    assert "balance ablate --how powers" in chosen[0].sentence
