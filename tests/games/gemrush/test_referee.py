"""The referee (balance/games/gemrush/referee/) over a few hundred games of every edition, mode and
player
count, with the random and greedy players; and proof that it catches what it checks."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.gemrush.engine import events as E
from balance.games.gemrush.play import play_traced, prepare
from balance.games.gemrush.referee import Report, referee_events, referee_game

GAMES = 150  # per edition, mode, player count and player

VARIANTS = [(ed, mode, p) for ed, top in (("1e", 6), ("2e", 7)) for mode in ("crisis", "rush")
            for p in range(1 if mode == "crisis" else 2, top + 1)]


@pytest.mark.parametrize("edition, mode, players", VARIANTS)
def test_the_referee_finds_nothing_wrong(edition, mode, players):
    total = Report()
    for heuristic in ("random", "greedy"):
        s = prepare(edition, mode, players, heuristic, exhaust=(mode == "crisis"))
        for seed in range(GAMES):
            total.add(referee_game(s, seed))
    assert total.games == 2 * GAMES
    assert total.events > 100 * total.games
    assert total.violations == [], [str(v) for _, v in total.violations[:5]]


def _trace(edition="2e", mode="crisis", players=3, seed=3, heuristic="random"):
    s = prepare(edition, mode, players, heuristic, exhaust=(mode == "crisis"))
    _, ev = play_traced(s, seed, check=False)
    assert referee_events(s, ev)[0] == []
    return s, ev.copy()


def _first(ev, code, start=0):
    return start + int(np.argmax(ev[start:, 2] == code))


def _caught(s, ev, words):
    v, _ = referee_events(s, ev)
    assert any(words in x.what for x in v), [str(x) for x in v[:3]]


def test_it_catches_a_card_drawn_twice():
    s, ev = _trace()
    i = _first(ev, E.EV_DRAW)
    j = _first(ev, E.EV_DRAW, i + 1)
    ev[j, 3] = ev[i, 3]
    _caught(s, ev, "is not in the deck")


def test_it_catches_a_payment_with_a_spare_card():
    s, ev = _trace()
    i = _first(ev, E.EV_BUILD)
    spare = _first(ev, E.EV_DRAW)  # a card drawn earlier is still in hand: pay with it too
    card = int(ev[spare, 3])
    row = ev[i - 1].copy()
    row[3] = card
    ev = np.insert(ev, i, row, axis=0)
    _caught(s, ev, "could have been left out")


def test_it_catches_a_move_through_a_wall_and_a_wrong_score():
    s, ev = _trace()
    i = _first(ev, E.EV_MOVE)
    bad = ev.copy()
    bad[i, 5] = (bad[i, 5] + 1) % 4
    v, _ = referee_events(s, bad)
    assert v
    j = _first(ev, E.EV_TURN_END)
    ev[j, 3] += 1
    _caught(s, ev, "scores team")


def test_it_catches_a_burn_from_a_hand_in_the_1st_edition():
    s, ev = _trace("1e")
    i = _first(ev, E.EV_BURN)
    deal = _first(ev, E.EV_DEAL)
    ev[i, 3], ev[i, 4] = ev[deal, 3], ev[deal, 4]
    _caught(s, ev, "burns come from the deck only")


def test_it_catches_a_rush_game_that_goes_on_past_its_target():
    s = prepare("2e", "rush", 2, "greedy")
    _, ev = play_traced(s, 4, check=False)
    end = _first(ev, E.EV_END)
    # Say the game ended at the round cap although a player had reached the target.
    ev[end, 3] = 5
    _caught(s, ev, "at the target")


def test_balance_check_referee_audits_a_designers_content(cli, write_content, minimal):
    for card in minimal["cards"]:
        card["copies"] *= 5  # enough cards to deal 4 to each of 7 players
    minimal["box"]["gem_cards"] *= 5
    path = write_content(minimal)
    out = cli("check", "--content", path, "--games", "5", "--referee")
    assert out.exit_code == 0, out.output
    assert "events refereed" in out.output and "0 broke" in out.output
    missing = cli("check", "--content", str(path) + ".nope", "--games", "5", "--referee")
    assert missing.exit_code == 2 and "Traceback" not in missing.output


SEAT_RULES = {"deal.seat1": 2, "deal.seat3": 6, "start_vp.seat2": 3, "start_vp.seat3": 1}


@pytest.mark.parametrize("mode", ["crisis", "rush"])
def test_the_referee_follows_per_seat_deals_and_points(mode):
    total = Report()
    for heuristic in ("random", "greedy"):
        s = prepare("2e", mode, 3, heuristic, exhaust=(mode == "crisis"), rules=SEAT_RULES)
        for seed in range(40):
            total.add(referee_game(s, seed))
    assert total.violations == [], [str(v) for _, v in total.violations[:5]]


def test_it_catches_a_deal_that_ignores_a_seats_own_number():
    s, ev = _trace()  # dealt 4 each; the referee reads rules that deal seat 2 five
    seat_rules = prepare("2e", "crisis", 3, "random", exhaust=True, rules={"deal.seat2": 5})
    _caught(seat_rules, ev, "seats were dealt [4, 4, 4] cards, the rules deal [4, 5, 4]")


def test_it_catches_a_score_that_ignores_a_seats_starting_points():
    s, ev = _trace()
    seat_rules = prepare("2e", "crisis", 3, "random", exhaust=True,
                         rules={"start_vp.seat1": 2})
    _caught(seat_rules, ev, "the referee has")
