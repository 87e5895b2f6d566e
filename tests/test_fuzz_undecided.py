"""Issue 47, class 1: a game stopped at the turn cap is undecided, never a loss.

Every rate is a share of the decided games (balance/stats/measures.py): the headline, the
measures, `balance compare` (rates pair the games decided in both arms), `balance tune
--goal`, `balance run --precision` and `balance rusship strength` count the undecided games
apart and show them; a run with no decided game says so; whether a seat or the team wins is
the game's declaration, never its games. Rusship with a short turn cap on a long board
(max_turns = 10, length = 40) stops every game undecided; max_turns = 14 on the default board
stops about 40% of them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest

from balance.contract.game import Game
from balance.games.rusship.game import GAME as RUSSHIP
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from balance.running.store import read_run
from balance.stats import measures
from reports.compare.compare import compare_run
from reports.headline import headline
from tests.fuzz import Case
from tests.games.dice.game import GAME as DICE
from tests.games.rusship.test_report import game_row, table

# The fault-hunt suites each list their refusal cases (tests/test_fuzz.py counts them). This
# class gave wrong numbers, not refusals: nothing here is to be refused, and its cases are the
# tests below, each a number the hunt found wrong.
CASES: dict[str, Case] = {}

HEAD = """\
[experiment]
name = "{name}"
description = "Rusship at a short turn cap"
game = "rusship"
players = 2
games = {games}
seed = 3
"""
STALLED = HEAD + "\n[rules]\nmax_turns = 10\nlength = 40\n"  # every game stops undecided
CAPS = HEAD + "\n[grid]\nmax_turns = [400, 14]\n"  # 14: about 40% stop undecided


def _write(tmp: Path, text: str, name: str, games: int) -> Path:
    path = tmp / f"{name}.toml"
    path.write_text(text.format(name=name, games=games), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("undecided")
    for text, name, games in ((STALLED, "stalled", 100), (CAPS, "caps", 300)):
        run_experiment(load_experiment(_write(tmp, text, name, games)), tmp / "runs", jobs=1)
    return tmp


def _undecided_row(variant: int, game: int) -> dict:
    """A game Rusship's records write when the turn cap stops it: no winner, no result."""
    return {**game_row(variant, game), "winner": None, "starter_won": None, "comeback": None,
            "winner_hits": None, "end_reason": "turn_cap", "turns": 14}


# -- the measures -----------------------------------------------------------------------------

def test_a_rate_is_a_share_of_the_decided_games_and_the_undecided_are_counted():
    # 6 decided games (the starter, seat 1, wins 4; the side attacked first wins 4 of the 5
    # with an attack), 4 undecided ones.
    rows = [game_row(0, g, starter=1, winner=1 if g < 4 else 2, first_hit=1 if g < 3 else 2)
            for g in range(6)]
    rows[5]["comeback"] = None  # a decided game without an attack
    rows += [_undecided_row(0, g) for g in range(6, 10)]
    games = table(rows, {})
    manifest = {"game": "rusship", "variants": [{"variant": 0, "players": 2}]}
    got = {r["measure"]: r for r in measures.headline_rates(games, manifest).iter_rows(
        named=True)}
    assert (got["First player's wins"]["wins"], got["First player's wins"]["games"]) == (4, 6)
    assert (got["Humanity wins"]["wins"], got["Humanity wins"]["games"]) == (4, 6)
    assert (got["Comebacks"]["wins"], got["Comebacks"]["games"]) == (4, 5)
    assert {r["undecided"] for r in got.values()} == {4}
    assert got["Comebacks"]["of"] == "decided games with an attack"
    assert got["First player's wins"]["of"] == "decided games"
    every = measures.aggregate(games, manifest).filter(pl.col("key") == "starter").row(
        0, named=True)
    assert (every["n"], every["value"], every["undecided"]) == (6, pytest.approx(4 / 6), 4)
    hits = measures.aggregate(games, manifest).filter(pl.col("key") == "winner_hits")
    assert hits["n"].item() == 6  # an undecided game has no winner's attacks, not 0


def test_a_run_all_undecided_is_still_a_race_and_has_no_rate():
    games = table([_undecided_row(0, g) for g in range(8)], {})
    manifest = {"game": "rusship", "variants": [{"variant": 0, "players": 2}]}
    rates = measures.headline_rates(games, manifest)
    assert "won" not in rates["measure"].to_list()  # the declaration: a seat wins
    assert rates["games"].to_list() == [0] * rates.height
    assert rates["rate"].is_null().all() and rates["ci_low"].is_null().all()
    assert measures.widest_half_width(rates) == 1.0  # never precise
    assert measures.unmeasured(rates).height == rates.height


def test_the_dice_race_s_cap_is_undecided_too():
    # The race writes winner -1 and first_won false at its cap: still no loss.
    games = pl.DataFrame({"variant": [0] * 4, "winner": [1, 2, -1, -1],
                          "first_won": [True, False, False, False],
                          "end_reason": ["target", "target", "cap", "cap"],
                          "turns": [5, 6, 200, 200]})
    manifest = {"game": "dice", "variants": [{"variant": 0, "players": 2}]}
    got = measures.headline_counts(games, manifest, DICE)
    assert got.select("measure", "wins", "games", "undecided").rows() == [
        ("seat 1 wins", 1, 2, 2), ("seat 2 wins", 1, 2, 2), ("Seat 1's wins", 1, 2, 2)]


def test_a_game_s_kind_and_undecided_ends_are_declared():
    with pytest.raises(ValueError, match="declares kind_of"):
        replace(DICE, cooperative=None)
    with pytest.raises(ValueError, match="not among its end_reasons"):
        replace(DICE, undecided_ends=("stalemate",))
    assert isinstance(RUSSHIP, Game) and RUSSHIP.undecided_ends == ("turn_cap",)
    assert RUSSHIP.competitive({}) and DICE.competitive({})


# -- the commands, on real runs ---------------------------------------------------------------

def test_the_headline_of_a_run_all_undecided_says_no_game_was_decided(runs):
    out = headline(runs / "runs" / "stalled")
    assert "No game was decided: 100 of 100 games stopped undecided (turn cap reached)" in out
    assert "team wins" not in out and "0.0%" not in out


def test_the_headline_gives_shares_of_the_decided_games_and_counts_the_undecided(runs):
    run = read_run(runs / "runs" / "caps")
    mine = run.games.filter(pl.col("variant") == 1)
    stopped = int((mine["end_reason"] == "turn_cap").sum())
    assert 0 < stopped < mine.height
    out = " ".join(headline(runs / "runs" / "caps").split())  # unwrapped
    assert f"{stopped} of {mine.height} games stopped undecided (turn cap reached)" in out
    assert "turn cap (both sides' turns) 14 (fair share 50.0%)" in out


def test_compare_pairs_the_games_decided_in_both_arms(runs):
    cmp = compare_run(runs / "runs" / "caps")
    run = read_run(runs / "runs" / "caps")
    capped = run.games.filter(pl.col("variant") == 1)
    decided = int((capped["end_reason"] != "turn_cap").sum())
    d = {r["quantity"]: r for r in cmp.differences.iter_rows(named=True)}
    for q in ("starter", "seat:1", "seat:2"):
        # A game decided within 14 turns plays the same at a cap of 400 (the same seeds):
        # over the games decided in both, the cap changes nothing.
        assert d[q]["pairs"] == decided and not d[q]["found"], d[q]
        assert abs(d[q]["difference"]) < 0.02 and d[q]["of"] == "decided games"
    assert d["comeback"]["of"] == "decided games with an attack"
    assert any(f"{capped.height - decided:,} in the variant" in n and
               f"pairs the {decided:,} games decided in both" in n for n in cmp.notes)
    # The note names the variant as the report does, not by its key=value label.
    note = next(n for n in cmp.notes if "in the variant" in n)
    assert note.startswith(cmp.words(1) + ":") and "max_turns=" not in note, note


def test_tune_does_not_read_undecided_games_as_losses(tmp_path, cli):
    exp = _write(tmp_path, HEAD, "tune", 400)
    r = cli("tune", exp, "--lever", "max_turns", "--range", "10:40", "--goal", "starter=50%",
            "--first", "200", "--games", "400", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "decided" in next(x for x in r.output.splitlines() if "value" in x)
    # Over the decided games the first player wins about 60% at every cap: the goal is met
    # nowhere (the undecided games made 10 turns look like 8%, and "meets at 14").
    assert "meets starter=50%" not in r.output and "is not met anywhere" in r.output
    at_10 = next(x for x in r.output.splitlines() if x.split()[:1] == ["10"]).split()
    assert int(at_10[2]) < 200 and float(at_10[3].rstrip("%")) > 40


def test_tune_where_no_game_is_decided_says_so(tmp_path, cli):
    exp = _write(tmp_path, HEAD + "\n[rules]\nlength = 40\n", "tune", 400)
    r = cli("tune", exp, "--lever", "max_turns", "--range", "10:12", "--goal", "starter=50%",
            "--first", "50", "--games", "50", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "no game was decided at max_turns = 10" in r.output and "meets" not in r.output


def test_precision_is_never_reached_on_games_all_undecided(tmp_path, cli):
    exp = _write(tmp_path, STALLED, "stalled", 400)
    r = cli("run", exp, "--precision", "3", "--games", "200", "--out", tmp_path / "runs",
            "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "precision reached" not in r.output and "precision NOT reached" in r.output
    assert re.search(r"First player's wins, a share of decided games, has none \(200 games "
                     r"stopped undecided\)", r.output), r.output
    assert "No game was decided" in r.output


def test_strength_gives_no_rate_where_no_game_is_decided(cli):
    r = cli("rusship", "strength", "--set", "max_turns=10", "--set", "length=40", "--games",
            "20", "--budgets", "2")
    assert r.exit_code == 0, r.output
    racer = next(x for x in r.output.splitlines() if x.strip().startswith("racer vs random"))
    assert "no game decided" in racer and "50.0%" not in racer and "40" in racer.split()
    assert "they count in no win rate" in r.output


def test_strength_is_a_share_of_the_decided_games():
    import numpy as np

    from balance.games.rusship.tuning import decided_rate, interval

    # Two seeds: a won both; one game won, one undecided. 3 of 3 decided, not 75%.
    assert decided_rate(np.array([2, 1]), np.array([2, 1]))[0] == 1.0
    assert decided_rate(np.array([0, 0]), np.array([0, 0])) is None
    # Every game decided: the seeds' interval of their scores, as before.
    w = np.array([2, 1, 0, 2, 1, 1])
    mean, lo, hi = interval(w / 2)
    assert decided_rate(w, np.full(6, 2)) == pytest.approx((mean, lo, hi))
