"""Invariants over many games: both editions, both modes, every allowed player count, the
random player (every rule path) and the greedy one, in the engine's check mode."""

import numpy as np
import pytest

from balance.games.gemrush.check import check_content, variants
from balance.games.gemrush.engine.game_nb import (
    R_END_REASON,
    R_TARGET_TURN,
    R_TEAM_SCORE,
    R_TURNS,
    R_WINNER,
    R_WON,
)
from balance.games.gemrush.engine.state import (
    END_EXHAUSTED,
    END_RUSH_TARGET,
    END_TARGET,
    END_TURN_CAP,
)
from balance.games.gemrush.play import play_batch, prepare

GAMES = 220  # per variant and player: 48 variants, 10,560 games in all


@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_no_invariant_breaks_in_any_mode_or_player_count(edition):
    results = check_content(edition, None, GAMES)
    broken = [(r.variant, r.bad_seeds[:3]) for r in results if r.bad_seeds]
    assert not broken
    profile = prepare(edition).profile
    assert len(results) == 2 * len(list(variants(profile)))


def test_the_sweep_covers_ten_thousand_games():
    n = sum(2 * GAMES * len(list(variants(prepare(e).profile))) for e in ("1e", "2e"))
    assert n >= 10_000


@pytest.mark.parametrize("edition,players", [("2e", 4), ("1e", 3), ("2e", 1)])
def test_crisis_records_agree_with_the_score_trajectory(edition, players):
    s = prepare(edition, "crisis", players, target="Journeyman", exhaust=True)
    b = play_batch(s, np.arange(300))
    for g in range(300):
        turns = b.out[g, R_TURNS]
        traj = b.score_by_turn[g, :turns]
        assert (np.diff(traj) >= 0).all(), "scores never fall"
        assert (b.score_by_turn[g, turns:] == -1).all()
        assert traj[-1] == b.out[g, R_TEAM_SCORE]
        reached = np.nonzero(traj >= s.rules.target)[0]
        expect = reached[0] + 1 if len(reached) else -1
        assert b.out[g, R_TARGET_TURN] == expect
        assert b.out[g, R_WON] == int(traj[-1] >= s.rules.target)
        assert b.out[g, R_END_REASON] != END_TARGET  # to exhaustion: the clock ends it


def test_crisis_stops_at_the_target_when_not_exhausting():
    s = prepare("2e", "crisis", 4, target=20)
    b = play_batch(s, np.arange(300))
    won = b.out[:, R_WON] == 1
    assert won.any()
    assert (b.out[won, R_END_REASON] == END_TARGET).all()
    assert (b.out[won, R_TURNS] == b.out[won, R_TARGET_TURN]).all()
    lost = ~won
    assert (b.out[lost, R_END_REASON] == END_EXHAUSTED).all()


def test_rush_ends_at_the_first_player_with_equal_turns():
    s = prepare("2e", "rush", 3)
    b = play_batch(s, np.arange(300))
    done = b.out[:, R_END_REASON] == END_RUSH_TARGET
    assert done.any()
    assert (b.out[done, R_TURNS] % 3 == 0).all()
    for g in np.nonzero(done)[0]:
        top = b.scores[g].max()
        assert top >= s.rules.target
        leaders = np.nonzero(b.scores[g] == top)[0]
        assert b.out[g, R_WINNER] == (leaders[0] if len(leaders) == 1 else -1)
    capped = b.out[:, R_END_REASON] == END_TURN_CAP
    assert (b.out[capped, R_WON] == 0).all()


def test_the_turn_cap_ends_a_rush_that_cannot_finish():
    s = prepare("2e", "rush", 2, target=1000, rules={"rush_round_cap": 5})
    b = play_batch(s, np.arange(20))
    assert (b.out[:, R_END_REASON] == END_TURN_CAP).all()
    assert (b.out[:, R_TURNS] <= 10).all()


def test_the_same_seed_gives_the_same_game():
    s = prepare("2e", "crisis", 3, exhaust=True)
    a = play_batch(s, [7, 8, 9])
    b = play_batch(s, [9, 7, 8])
    assert (a.out[0] == b.out[1]).all() and (a.out[2] == b.out[0]).all()
    assert (a.rooms[1] == b.rooms[2]).all()
