"""Seats: each seat has its own player, and players draw from their own random stream, never
the one that shuffles the deck, so variants that differ only in their players share every
shuffle (the common-random-numbers promise of balance/running/seeds.py)."""

from __future__ import annotations

import numpy as np
import pytest

from balance.errors import InputError
from balance.games.gemrush.engine.decisions import D_X
from balance.games.gemrush.engine.events import EV_DEAL, EV_SETUP
from balance.games.gemrush.engine.game_nb import R_VIOLATION, R_WINNER
from balance.games.gemrush.engine.options_nb import offer_nb
from balance.games.gemrush.engine.players import decide_nb
from balance.games.gemrush.play import play_batch, play_traced, prepare
from balance.games.gemrush.scenario import Scenario


def test_a_random_choice_leaves_the_game_stream_alone():
    sc = Scenario("2e", players=2, heuristic="random")
    sc.place("Great Cavern", 0, 0)
    game = sc.st.rng.copy()
    own = sc.setup.players.rng.copy()
    picks = set()
    for _ in range(20):
        for i in range(5):
            offer_nb(sc.st, i, i, 0, 0, 0)
        k = decide_nb(sc.st, sc.tb, sc.ru, sc.setup.players, D_X, 5, 0)
        picks.add(int(sc.st.opt[k, 0]))  # the chosen row, as the engine reads it
    assert (sc.st.rng == game).all()  # the deck's shuffles are untouched...
    assert not (sc.setup.players.rng == own).all()  # ...the player drew from its own stream
    assert len(picks) > 1


def test_variants_that_differ_only_in_players_share_the_shuffles():
    # Same seed, different players: the first shuffles (start tile, deal) are the same.
    for seed in range(20):
        deals = []
        for h in ("greedy", "random"):
            ev = play_traced(prepare("1e", "crisis", 2, h, exhaust=True), seed)[1]
            deals.append(ev[np.isin(ev[:, 2], [EV_SETUP, EV_DEAL])][:, 2:4].tolist())
        assert deals[0] == deals[1], seed


def test_each_seat_plays_its_own_player():
    mixed = prepare("2e", "rush", 3, seats=["greedy", "random", "random"])
    assert mixed.seats == ("greedy", "random", "random")
    assert mixed.heuristic == "greedy,random,random"
    assert list(mixed.players.pol) != [mixed.players.pol[0]] * 3
    b = play_batch(mixed, np.arange(200), check=True)
    winners = b.out[:, R_WINNER]
    wins = np.bincount(winners[winners >= 0], minlength=3)
    assert wins[0] > wins[1] + wins[2]  # greedy beats two random players


def test_seats_must_match_the_player_count():
    with pytest.raises(InputError, match="seats"):
        prepare("2e", "rush", 3, seats=["greedy", "random"])


# ------------------------------------------------------------------ per-seat rules (issue 26)


def _dealt(events) -> list[int]:
    seats = events[events[:, 2] == EV_DEAL][:, 4]  # EV_DEAL's second argument is the seat
    return np.bincount(seats, minlength=5).tolist()


def test_each_seat_is_dealt_its_own_hand():
    s = prepare("2e", "rush", 5, rules={"deal.seat1": 2, "deal.seat5": 6})
    for seed in range(5):
        assert _dealt(play_traced(s, seed)[1]) == [2, 4, 4, 4, 6]


def test_each_seat_starts_with_its_own_points():
    s = prepare("2e", "crisis", 3, exhaust=True, rules={"start_vp.seat2": 5, "start_vp": 1})
    b = play_batch(s, np.arange(100), check=True)  # the score invariant holds seat by seat
    assert not b.out[:, R_VIOLATION].any()
    st, _ = play_traced(s, 3)
    assert (st.score - st.door_pts - st.bonus_pts).tolist() == [1, 5, 1]
    # The team starts with every seat's points: 7 more than nothing built.
    base = play_batch(prepare("2e", "crisis", 3, exhaust=True), np.arange(100))
    assert (b.score_by_turn[:, 0] >= 7).all() and (base.score_by_turn[:, 0] < 7).any()


def test_a_seat_value_equal_to_the_field_plays_the_same_games():
    plain = play_batch(prepare("2e", "rush", 4), np.arange(50))
    same = play_batch(prepare("2e", "rush", 4, rules={"deal.seat4": 4, "start_vp.seat1": 0}),
                      np.arange(50))
    assert np.array_equal(plain.out, same.out) and np.array_equal(plain.scores, same.scores)


def test_the_first_player_is_a_listed_player_the_others_follow_clockwise():
    lineup = ["greedy", "random", "random"]
    third = prepare("2e", "rush", 3, seats=lineup, rules={"first_player": 3})
    assert third.seated(2).seats == ("random", "greedy", "random")
    # Naming the third listed player first plays the games of that player listed first.
    a = play_batch(third, np.arange(60))
    b = play_batch(prepare("2e", "rush", 3, seats=["random", "greedy", "random"]),
                   np.arange(60))
    assert np.array_equal(a.out, b.out) and a.first.tolist() == [2] * 60


def test_a_random_first_player_is_drawn_per_game_from_its_own_stream():
    lineup = ["greedy", "random", "random"]
    drawn = prepare("2e", "rush", 3, seats=lineup, rules={"first_player": "random"})
    seeds = np.arange(3000)
    first = drawn.first_players(seeds)
    counts = np.bincount(first, minlength=3)
    assert counts.min() > 900  # about 1,000 each
    b = play_batch(drawn, seeds[:90])
    assert b.first.tolist() == first[:90].tolist()
    for k in range(3):  # each game is the game of its seating, played on its own
        games = np.flatnonzero(b.first == k)[:5]
        alone = play_batch(drawn.seated(k), seeds[games])
        assert np.array_equal(b.out[games], alone.out)
    # Greedy wins from whichever seat it was given.
    greedy_seat = (0 - b.first) % 3
    won = b.out[:, R_WINNER]
    assert np.mean(won == greedy_seat) > 0.8
    # The draw leaves the shuffles alone: with one player in every seat, drawn and fixed
    # first players play the same games.
    same = prepare("2e", "rush", 3, rules={"first_player": "random"})
    assert np.array_equal(play_batch(same, seeds[:40]).out,
                          play_batch(prepare("2e", "rush", 3), seeds[:40]).out)


def test_a_traced_game_is_told_in_its_seating():
    s = prepare("2e", "rush", 3, seats=["greedy", "random", "random"],
                rules={"first_player": 2})
    seated = s.seated_for(4)
    assert seated.seats == ("random", "random", "greedy") and seated.rules.first_player == 1
    assert seated.seated_for(4) is seated  # seating a seated variant changes nothing


def test_tune_player_scores_the_candidate_wherever_it_sits():
    from balance.games.gemrush.tuning import seat_objective as _objective

    s = prepare("2e", "rush", 3, seats=["greedy", "random", "random"],
                rules={"first_player": "random"})
    seeds = np.arange(60)
    b = play_batch(s, seeds)
    assert _objective(s, "rush", seeds).tolist() == \
        (b.out[:, R_WINNER] == (-b.first) % 3).astype(float).tolist()
    assert _objective(s, "rush", seeds).mean() > 0.8


def test_check_plays_the_player_counts_that_have_every_named_seat():
    from balance.games.gemrush.check import check_content, variants
    from balance.games.gemrush.rules import load_profile

    counts = [p for _, p in variants(load_profile("2e", {"deal.seat3": 5}))]
    assert min(counts) == 3 and max(counts) == 7
    assert min(p for _, p in variants(load_profile("2e", {"first_player": 4}))) == 4
    results = check_content("2e", None, 3, heuristics=("random",),
                            rules={"start_vp.seat6": 2, "deal.seat7": 1}, referee=True)
    assert [r.variant for r in results] == ["random crisis 7p", "random rush 7p"]
    assert not any(r.bad_seeds for r in results)
