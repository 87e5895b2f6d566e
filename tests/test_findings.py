"""The report's first screen: one plain sentence per verdict, naming its players, with the
statistics folded under it; "clearly" only where Holm's correction allows it."""

from __future__ import annotations

import re
from types import SimpleNamespace

import polars as pl

from reports.gemrush.findings import crisis_verdicts, headline_rows, verdicts
from reports.outcomes import outcomes
from reports.outcomes.findings import lever_verdicts, seat_verdicts


def _difficulty(settings):
    rows = []
    for s in settings:
        for p in (2, 3):
            for name, t, rate in (("Apprentice", 35, 0.16), ("Journeyman", 45, 0.001)):
                rows.append((s, p, name, t, rate, max(rate - 0.01, 0), rate + 0.01))
    return pl.DataFrame(rows, schema=["setting", "players", "difficulty", "target", "win_rate",
                                      "ci_low", "ci_high"], orient="row")


def _seats(wins: list[int], games: int = 2000) -> pl.DataFrame:
    """A Rush seat table as reports/outcomes/outcomes.py makes it (seats from 1, no tied games),
    with its fair-share test."""
    n = len(wins)
    rate = [w / games for w in wins]
    p = [outcomes.fair_share_p(w, games, n) for w in wins]
    return pl.DataFrame({"setting": ["2e"] * n, "players": [n] * n, "seat": list(range(1, n + 1)),
                         "games": [games] * n, "wins": wins, "win_rate": rate,
                         "ci_low": [r - 0.02 for r in rate], "ci_high": [r + 0.02 for r in rate],
                         "fair_share": [1 / n] * n, "p_fair": p,
                         "off_fair": outcomes.off_fair_share(p)})


def test_the_crisis_verdict_is_the_designers_first_setting_and_names_its_players():
    out = crisis_verdicts(_difficulty(["b", "a", "c"]), ["b", "a", "c"], {"b": ["greedy"]},
                          {"b": "crisis-difficulty run"})
    assert len(out) == 1
    v = out[0]
    assert "Apprentice (35 points) is the difficulty closest to an even game" in v.sentence
    assert v.who == "greedy players; crisis-difficulty run"
    assert v.details and all("%" in d for d in v.details[1:])


def test_a_seat_is_called_unfair_only_past_holms_correction():
    # Seat 1 of 4 wins 31% of 2,000 games against a fair share of 25%: clear.
    clear = seat_verdicts(_seats([620, 480, 460, 440]), {"2e": ["greedy"]}, {}, "Rush seats")
    assert len(clear) == 1 and clear[0].topic == "Rush seats"
    assert clear[0].sentence.startswith("Not every seat wins its fair share: seat 1 of 4 wins")
    assert "exact binomial test" in clear[0].details[0] and "greedy" in clear[0].who
    # 25.3% ± 2% against 25%: the largest gap, named, within what chance gives among 4 seats,
    # and every interval within a tenth of the fair share (22.5% to 27.5%).
    near = seat_verdicts(_seats([5050, 5000, 4975, 4975], 20000), {}, {})
    assert near[0].sentence.startswith("Every seat wins about its fair share: each one's 95% "
                                       "interval lies within a tenth of it")
    assert "seat 1 of 4" in near[0].sentence and "chance" in near[0].sentence


def test_a_seat_whose_interval_reaches_past_a_tenth_of_its_share_is_too_few_to_tell():
    # 27% ± 2% against 25%: no seat is off past Holm, yet 29% is no fair share either.
    few = seat_verdicts(_seats([540, 500, 490, 470]), {}, {})
    assert len(few) == 1
    assert few[0].sentence.startswith("Too few games to tell: no seat is clearly off")
    assert "seat 1 of 4 wins 27% ± 2% of 2,000 games" in few[0].sentence
    assert "about its fair share" not in few[0].sentence


def test_the_seats_are_stated_once_over_every_setting_and_player():
    """Three settings (a run of greedy, and greedy and learned in another) give one verdict:
    the settings that agree together, the one too small to tell named apart."""
    seats = pl.concat([
        _seats([5050, 5000, 4975, 4975], 20000),
        _seats([5050, 5000, 4975, 4975], 20000).with_columns(setting=pl.lit("greedy")),
        _seats([54, 50, 49, 47], 200).with_columns(setting=pl.lit("learned"))])
    out = seat_verdicts(seats, {"2e": ["greedy"], "greedy": ["greedy"],
                                "learned": ["learned"]},
                        {"2e": "rush run", "greedy": "rush-players run",
                         "learned": "rush-players run"}, "Rush seats")
    assert len(out) == 1
    said = out[0].sentence
    assert said.startswith("Every seat wins about its fair share in rush run (greedy) and "
                           "rush-players run (greedy): each one's 95% interval lies within")
    assert "Too few games to tell in rush-players run (learned)" in said
    assert out[0].who == "greedy and learned players; rush run, rush-players run, 4 players"


def _comparison(difference: float, low: float, high: float, holm: bool):
    differences = pl.DataFrame([{
        "variant": 1, "against": 0,
        "label": "hand_limit=6", "quantity": "score:mean", "name": "mean team score",
        "kind": "mean", "pairs": 400, "difference": difference, "ci_low": low,
        "ci_high": high, "holm": holm, "found": low > 0 or high < 0}])
    variants = pl.DataFrame({"variant": [0, 1], "label": ["hand_limit=5", "hand_limit=6"]})
    return SimpleNamespace(differences=differences, variants=variants, baseline=0, family=7,
                           label=lambda v: variants["label"][v],
                           swept={0: {"hand_limit": 5}, 1: {"hand_limit": 6}})


def test_a_lever_verdict_says_clearly_only_what_survives_holm():
    sure = lever_verdicts([("hands", _comparison(1.5, 0.9, 2.1, True))], {"hands": ["greedy"]})
    assert sure[0].sentence == ("hand_limit=6 raises the mean team score by 1.5 points "
                                "against hand_limit=5. Measured with greedy only.")
    assert sure[0].who == "greedy players; hands run"
    assert "+1.5 points (95% paired interval +0.9 to +2.1, 400 games)" in sure[0].details[0]
    unsure = lever_verdicts([("hands", _comparison(0.4, 0.1, 0.7, False))], {})
    assert unsure[0].sentence.startswith("No version differs clearly from hand_limit=5.")
    assert "not clear after Holm's correction over 7 differences" in unsure[0].details[0]


def test_every_verdict_has_a_topic_a_sentence_and_its_players():
    out = verdicts(_difficulty(["2e"]), _seats([620, 480, 460, 440]), pl.DataFrame(),
                   [("hands", _comparison(1.5, 0.9, 2.1, True))], ["2e"],
                   {"2e": ["greedy"], "hands": ["greedy"]})
    assert [v.topic for v in out] == ["Crisis difficulty", "Rush seats", "Versions compared"]
    assert all(v.sentence.endswith(".") and "greedy" in v.who and v.details for v in out)


def test_the_headline_table_keeps_the_designers_order():
    headers, rows = headline_rows(_difficulty(["b", "a"]), ["b", "a"])
    assert headers == ["Setting", "Players", "Apprentice", "Journeyman"]
    assert [r[:2] for r in rows] == [["b", "2"], ["b", "3"], ["a", "2"], ["a", "3"]]
    assert all(re.search(r"\d", c) for r in rows for c in r[2:])


def test_a_lever_verdict_gives_a_mean_in_its_measures_unit():
    from balance.games.rusship.game import GAME

    cmp = _comparison(0.5, 0.2, 0.8, True)
    cmp.differences = cmp.differences.with_columns(
        quantity=pl.lit("winner_hits:mean"), name=pl.lit("attacks the winner took"))
    cmp.game = GAME
    [v] = lever_verdicts([("hands", cmp)], {})
    assert "raises the attacks the winner took by 0.5 attacks against" in v.sentence
    cmp.differences = cmp.differences.with_columns(quantity=pl.lit("score:mean"))
    [v] = lever_verdicts([("hands", cmp)], {})
    assert "by 0.5 attacks against" in v.sentence  # Rusship's score counts attacks


def test_a_quantity_s_name_reads_as_words_inside_a_sentence():
    """"raises the The least decides" read twice: a measure's title is capitalised as a
    heading, and a sentence lowers it, but not a side's own name."""
    from types import SimpleNamespace

    from reports.outcomes.findings import _the

    sides = SimpleNamespace(game=SimpleNamespace(seat_names=("Humanity", "the Alien Empire")))
    assert _the(sides, "The least decides") == "the least decides"
    assert _the(sides, "First player's wins") == "the first player's wins"
    assert _the(sides, "Humanity win share") == "the Humanity win share"
    assert _the(SimpleNamespace(), "Mean team score") == "the mean team score"
