"""Seats: each seat has its own player, and players draw from their own random stream, never
the one that shuffles the deck, so variants that differ only in their players share every
shuffle (the common-random-numbers promise of balance/seeds.py)."""

from __future__ import annotations

import numpy as np
import pytest

from balance.engine.decisions import D_X
from balance.engine.events import EV_DEAL, EV_SETUP
from balance.engine.game_nb import R_WINNER
from balance.engine.options_nb import offer_nb
from balance.engine.players import decide_nb
from balance.errors import InputError
from balance.play import play_batch, play_traced, prepare
from balance.scenario import Scenario


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
