"""Issue 50, point 7: the room ablation read in one way. Each number is signed so that a
positive one means the room helps, the heading says so in words, the rooms are ranked by the
run's question (the win rate at the named target nearest an even game), both ways of ablating
stand side by side, and a room is named as worth most only when its interval is clear of zero
and of the next room's."""

from __future__ import annotations

import numpy as np
import polars as pl

from reports.compare.compare import compare
from reports.gemrush import ablation, findings
from reports.gemrush.ablation_page import ablation_block

N = 400
ROOMS = ["Side Gallery", "Great Cavern", "Mine Cart", "Quiet Room"]


def _manifest(how: str) -> dict:
    names = ["none", *ROOMS]
    patch = [{"kind": "plain"}] if how == "plain" else [{"kind": "remove"}]
    return {"experiment": f"abl-{how}", "game": "gemrush",
            "text": f'[experiment]\nname = "abl-{how}"\nablate = "{how}"\n',
            "variants": [{"variant": v, "mode": "crisis", "exhaust": True, "target": None,
                          "players": 4, "label": f"ablate={r}", "swept": {"ablate": r},
                          "patches": patch if v else [],
                          "difficulties": {"Apprentice": 35, "Master": 75}}
                         for v, r in enumerate(names)]}


def _games(base: np.ndarray, without: dict[str, np.ndarray]) -> pl.DataFrame:
    frames = []
    for v, s in enumerate([base, *(without[r] for r in ROOMS)]):
        frames.append(pl.DataFrame({
            "variant": np.full(N, v, np.int32), "game": np.arange(N, dtype=np.int64),
            "score": np.asarray(s, np.int16), "won": pl.Series([None] * N, dtype=pl.Boolean)}))
    return pl.concat(frames)


def _scores(shift: dict[str, int], seed: int = 1):
    """Baseline scores around 35 (an even game at Apprentice); without each room, every game
    moved by `shift[room]` plus a little noise of its own (none for a room never used)."""
    rng = np.random.default_rng(seed)
    base = rng.integers(25, 46, N)
    without = {}
    for r in ROOMS:
        noise = rng.integers(-1, 2, N) if shift[r] is not None else 0
        without[r] = base + (shift[r] or 0) + noise
    return base, without


def test_a_room_the_game_is_better_without_shows_negative_and_the_heading_says_why():
    base, without = _scores({"Side Gallery": 3, "Great Cavern": -6, "Mine Cart": -1,
                             "Quiet Room": None})
    cmp = compare(_games(base, without), _manifest("out"))
    e = ablation.effects(cmp)
    score = dict(e.filter(pl.col("quantity") == "score:mean").select("room", "effect").rows())
    assert score["Side Gallery"] < 0 < score["Great Cavern"]  # the game gains without it
    # Ranked by the win at Apprentice (the target nearest an even game), not by the score.
    assert ablation.lead_quantity(cmp) == "win:Apprentice"
    assert [r for r, _ in ablation.by_room(e)][0] == "Great Cavern"
    b = ablation_block([("abl-out", cmp)], None)
    assert "a positive number means the room helps" in b.heading
    assert any(p.startswith("A positive number means the room helps") for p in b.paragraphs)
    assert "baseline minus variant" not in " ".join(b.paragraphs)
    rows = {r[0]: r for r in b.tables[0].rows}
    assert abs(float(rows["Side Gallery"][2].split()[0]) + 3) < 0.2  # the mean score, signed
    assert rows["Quiet Room"][1:3] == ["no game changed", "no game changed"]
    assert b.tables[0].caption == "Every room, ranked by Taken out: win at Apprentice (35) (pp)"


def test_both_ways_of_ablating_stand_side_by_side():
    base, without = _scores({"Side Gallery": 3, "Great Cavern": -6, "Mine Cart": -1,
                             "Quiet Room": 0})
    out = compare(_games(base, without), _manifest("out"))
    base2, without2 = _scores({"Side Gallery": -2, "Great Cavern": -1, "Mine Cart": -1,
                               "Quiet Room": 0}, seed=2)
    plain = compare(_games(base2, without2), _manifest("plain"))
    b = ablation_block([("abl-plain", plain), ("abl-out", out)], None)
    assert b.tables[0].headers == [
        "Room", "Made plain: win at Apprentice (35) (pp)", "Made plain: mean team score",
        "Taken out: win at Apprentice (35) (pp)", "Taken out: mean team score",
        "Association (Room value)"]
    text = " ".join(b.paragraphs)
    assert "Made plain (abl-plain run): the room swapped for a plain room with the same " \
        "doors: what its ability alone is worth." in text
    assert "Taken out (abl-out run): the room taken out of the box" in text
    assert "they can disagree" in text


def _effects(rows: list[tuple[str, float, float, float]]) -> pl.DataFrame:
    return pl.DataFrame([(room, "score:mean", "mean team score", x, lo, hi, lo > 0 or hi < 0,
                          lo > 0, 2000, True) for room, x, lo, hi in rows],
                        schema=ablation.SCHEMA, orient="row")


def test_a_room_is_named_worth_most_only_clear_of_the_next_and_of_zero():
    overlapping = _effects([("Side Gallery", 0.16, -0.14, 0.46), ("Mine Cart", 0.1, -0.2, 0.4)])
    assert ablation.standout(overlapping, "score:mean")[0] is None
    said = ablation.most_sentence(overlapping, "score:mean", "the mean team score")
    assert "worth most is" not in said and "within chance of no effect" in said
    close = _effects([("Great Cavern", 1.2, 0.7, 1.8), ("Geode Chamber", 1.0, 0.5, 1.5),
                      ("Mine Cart", 0.2, 0.0, 0.4)])
    said = ablation.most_sentence(close, "score:mean", "the mean team score")
    assert said == ("No room is clearly worth most: Great Cavern and Geode Chamber are "
                    "within chance of each other on the mean team score.")
    apart = _effects([("Great Cavern", 1.2, 0.9, 1.5), ("Geode Chamber", 0.5, 0.2, 0.8)])
    assert ablation.standout(apart, "score:mean")[0]["room"] == "Great Cavern"
    assert ablation.most_sentence(apart, "score:mean", "the mean team score").startswith(
        "The room worth most is Great Cavern: the mean team score is 1.2 higher with it")


def test_the_summary_names_no_room_on_an_interval_that_overlaps():
    base, without = _scores({"Side Gallery": 1, "Great Cavern": 1, "Mine Cart": 1,
                             "Quiet Room": 1})
    cmp = compare(_games(base, without), _manifest("plain"))
    [v] = findings.ablation_verdicts([("abl-plain", cmp)], {"abl-plain": ["greedy"]})
    assert v.topic == "Rooms (made plain)"
    assert "worth most is" not in v.sentence and v.sentence.startswith(
        "No room is clearly worth most:")
