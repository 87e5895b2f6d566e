"""The strength ladder (balance/ladder/, `balance ladder`, the report's section Strength and luck),
checked where the answer is known: the dice race as a game of pure chance (a race to 2
points: the first roll that is no 1 wins, and no seat is ever asked anything) has one tier
and its deal decides everything; Pig and the dice race at their own rules, where banking in
time is the whole game, have two."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from balance.errors import InputError
from balance.kernels.rng import seed_states
from balance.kernels.streams import seed_states_with
from balance.ladder import store
from balance.ladder.luck import deal_share, favourites, stays
from balance.ladder.run import Prepared, run
from balance.ladder.steps import per_seed
from tests.games.pig.game import PLAYERS as PIG_PLAYERS

CHANCE = str(Path(__file__).parent / "games" / "dice" / "chance.toml")


def ladder(tmp_path: Path, game=None, file=None, games=60, repeats=2, budgets=None,
           players=None):
    p = Prepared(game, file, players, None if file else 1, budgets, games, repeats)
    return run(p, tmp_path / "ladder", 1)


def test_pure_chance_has_one_tier_and_the_deal_decides_it(tmp_path):
    # Seat 1 rolls first and wins most races to 2 points: were the seats not rotated, the
    # stopper (the upper rung, in seat 1 alone) would be told apart from random.
    s = ladder(tmp_path, file=CHANCE).summary
    assert [r["name"] for r in s["rungs"]] == ["random", "stopper"]
    assert s["tiers"] == 1
    (step,) = s["steps"]
    assert not step["told_apart"] and step["difference"] == 0
    assert [d["deal_share"] for d in s["luck"]["deal"]] == [1.0, 1.0]
    assert s["luck"]["stays"][0]["stays"] == 1.0


@pytest.mark.parametrize("game", ["pig", "dice"])
def test_a_game_of_skill_has_two_tiers(tmp_path, game):
    s = ladder(tmp_path, game=game).summary
    assert s["tiers"] == 2
    (step,) = s["steps"]
    assert step["told_apart"] and step["low"] > 0.2
    # The stronger player loses fewer games than the half it would lose by chance alone.
    assert step["upset"] < 0.4 and step["upset_chance"] == 0.5


def test_the_step_pairs_the_rotations_of_each_seed(tmp_path):
    result = ladder(tmp_path, game="pig", games=30)
    g = result.games.filter(pl.col("part") == "step")
    assert g.group_by("game").len()["len"].unique().to_list() == [2]  # each seat in turn
    down, up = per_seed(result.games, 2, True, 1, 0)
    assert len(up) == 30 and np.allclose(up + down, 1.0)  # a race of two: no ties
    saved = store.read(tmp_path / "ladder")
    assert saved.summary == json.loads(json.dumps(result.summary))
    assert saved.games.equals(result.games)


def test_a_lone_seat_against_the_rules_climbs_on_common_seeds(tmp_path):
    # The card race at one seat: no seats to rotate; each rung plays the seat, seed by seed.
    s = ladder(tmp_path, game="cards", players=1, budgets=(8,), games=30).summary
    assert not s["race"] and [r["name"] for r in s["rungs"]] == \
        ["random", "collector", "search@8"]
    assert all(st["seeds"] == 30 for st in s["steps"])
    assert s["steps"][0]["difference"] > 0  # collector beats the Computer more than random


def test_the_deal_share_splits_variance_between_and_within_seeds():
    rng = np.random.default_rng(3)
    fixed = np.repeat(rng.integers(0, 2, (200, 1, 1)).astype(float), 4, axis=1)
    assert deal_share(fixed)[0] == 1.0  # every replay of a seed alike: the deal decides
    coin = rng.integers(0, 2, (200, 4, 1)).astype(float)
    share, lo, hi = deal_share(coin)
    assert share < 0.1 and lo <= share <= hi  # replays independent of the seed
    assert deal_share(np.zeros((50, 3, 1)))[0] is None  # nothing varies: no share


def test_a_seeds_favourite_and_whether_it_stays():
    y = np.array([[[1, 0], [1, 0]], [[0, 1], [1, 0]], [[0, 1], [0, 1]]], float)
    assert favourites(y).tolist() == [0, -1, 1]
    same, chance, n = stays(np.array([0, 1, 0, -1]), np.array([0, 1, 1, 1]))
    assert (same, n) == (2 / 3, 3) and chance == pytest.approx(2 / 3 * 1 / 3 + 1 / 3 * 2 / 3)


def test_streams_redraw_the_players_and_keep_the_deal():
    seeds = np.arange(5, 10)
    assert np.array_equal(seed_states_with(seeds, 0), seed_states(seeds))
    a, b = seed_states_with(seeds, 1), seed_states_with(seeds, 2)
    assert np.array_equal(a[:, :4], seed_states(seeds)[:, :4])
    assert not np.array_equal(a[:, 4:], seed_states(seeds)[:, 4:])
    assert not np.array_equal(a[:, 4:], b[:, 4:])


def test_a_knob_may_differ_from_seat_to_seat():
    from tests.games.pig.game import KIT

    seats = PIG_PLAYERS.seats(("hold_at", "hold_at"), (), {"hold_at": (10, 25)})
    assert seats.w[:, 0].tolist() == [10, 25]
    with pytest.raises(InputError, match="gives 3 values, one per seat needs 2"):
        PIG_PLAYERS.seats(("hold_at", "hold_at"), (), {"hold_at": (10, 25, 30)})
    assert KIT.name == "pig"


def test_the_command_and_the_report_section(tmp_path, cli):
    out = tmp_path / "lad"
    r = cli("ladder", "--game", "pig", "--games", "40", "--repeats", "2", "--jobs", "1",
            "--out", str(out))
    assert r.exit_code == 0, r.stderr
    assert "2 tiers a designer can tell apart" in r.stdout
    assert "Hold at a total against Random" in r.stdout
    assert sorted(p.name for p in out.iterdir()) == ["games.parquet", "ladder.json"]
    exp = tmp_path / "pig.toml"
    exp.write_text('[experiment]\nname = "pig-run"\ndescription = "d"\ngame = "pig"\n'
                   'players = 2\ngames = 30\nseed = 1\nheuristic = "hold_at"\n')
    assert cli("run", str(exp), "--out", str(tmp_path / "runs"), "--jobs", "1").exit_code == 0
    r = cli("report", str(tmp_path / "runs" / "pig-run"), "--ladder", str(out), "--jobs", "1")
    assert r.exit_code == 0, r.stderr
    page = (tmp_path / "runs" / "pig-run" / "report.html").read_text()
    assert "Strength and luck" in page and "How much is luck" in page
    assert (tmp_path / "runs" / "pig-run" / "figures" / "strength-ladder.png").is_file()


def test_the_winner_is_named_by_the_listed_seat_where_the_rules_seat_players_in_turn():
    # A game that seats its players in turn by its own rules (went_first) sat listed player
    # i in seat (i - went_first) % players + 1: seat 1 won with listed player 2 first.
    from balance.ladder.plan import STEP, Match
    from balance.ladder.play import outcomes
    from balance.running.runner import Job
    from balance.running.store.layout import Shard

    g = pl.DataFrame({"players": [2, 2, 3, 3], "winner": [1, 2, 1, None],
                      "went_first": [2, 2, 3, 1], "won": [None, None, None, None],
                      "end_reason": ["a", "a", "a", "cap"], "game": [0, 1, 2, 3],
                      "seed": [5, 6, 7, 8], "turns": [9, 9, 9, 9]},
                     schema_overrides={"won": pl.Boolean})
    job = Job(None, "x", 1, None, Shard(4, 0, 4))
    rows = outcomes(g, Match(STEP, 1, 0, 1, 0), job, ("cap",))
    assert rows["winner"].to_list() == [1, 0, 2, -1]
    assert rows["undecided"].to_list() == [False, False, False, True]
    assert rows["match"].unique().to_list() == [4]
