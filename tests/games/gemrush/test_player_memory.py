"""A player's memory is its own (heuristics/gemrush/memory.py, in Seats.mem.greedy), not the
game's State: greedy thinking at a decision writes nothing in the State but the engine's declared
work space, and its memory is forgotten when a new game starts."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.gemrush.engine.game_nb import R_TEAM_SCORE, play_game_nb
from balance.games.gemrush.engine.state import (
    S_ENDED,
    S_SUP_ECHO,
    S_SUP_ECHO_UNITS,
    S_SUP_KEY,
    S_SUP_WILD,
    S_TEAM_SCORE,
    State,
    new_state,
)
from balance.games.gemrush.play import play_batch, prepare
from balance.kernels.rng import seed_state
from heuristics.external import playing
from heuristics.gemrush.dispatch_nb import POLICY_GREEDY, POLICY_PYTHON, pick_nb
from heuristics.gemrush.memory import F_POINTS, F_TILE, M_FRONT_N, M_NEED_VER, Memory

# What a player may write while it thinks: the payment tally (payment_nb.hand_supply_nb, and
# the stamp of whose hand it holds), a service of the engine that greedy calls to see what its
# hand can pay.
WORK_FIELDS = {"gtmp", "work"}
WORK_SCALARS = {S_SUP_WILD, S_SUP_ECHO, S_SUP_ECHO_UNITS, S_SUP_KEY}


def test_the_state_holds_no_player_memory():
    assert not set(State._fields) & (set(Memory._fields) - {"sc"})
    assert not {"bfs", "front", "gem_est", "card_val", "script"} & set(State._fields)
    # Every player's memory travels with the seats, by player name.
    s = prepare("2e", "crisis", 2)
    assert isinstance(s.players.mem.greedy, Memory)
    assert set(s.players.mem._fields) == {"greedy", "learned", "scripted", "replay"}


class Watcher:
    """A Python player that plays greedy's choice and checks, at every decision, that greedy
    left the State as it found it (apart from the engine's work space)."""

    def __init__(self, setup, st):
        self.s, self.st = setup, st
        self.decisions = 0
        self.memory_writes = 0

    def turn_start(self, p):
        pass

    def choose(self, kind, n, p):
        s, st = self.s, self.st
        before = {f: getattr(st, f).copy() for f in State._fields if f not in WORK_FIELDS}
        mem_before = s.players.mem.greedy.sc.copy()
        k = int(pick_nb(POLICY_GREEDY, kind, st, s.tables, s.rules, s.players, n, p))
        for f, a in before.items():
            now = getattr(st, f)
            if f == "sc":
                keep = np.ones(len(a), bool)
                keep[list(WORK_SCALARS)] = False
                assert (now[keep] == a[keep]).all(), (kind, np.flatnonzero(now != a))
            else:
                assert (now == a).all(), (kind, f)
        self.decisions += 1
        self.memory_writes += int((s.players.mem.greedy.sc != mem_before).any())
        return k


@pytest.mark.parametrize("edition, mode, players", [("2e", "crisis", 4), ("1e", "crisis", 3),
                                                    ("2e", "rush", 3)])
def test_greedy_thinks_in_its_own_memory(edition, mode, players):
    s = prepare(edition, mode, players, "greedy", exhaust=(mode == "crisis"))
    real = play_batch(s, [5]).out[0]
    s.players.pol[:] = POLICY_PYTHON
    st = new_state(s.tables, s.rules)
    w = Watcher(s, st)
    with playing(w):
        play_game_nb(st, s.tables, s.rules, s.players, seed_state(5), 0, 1)
    assert st.sc[S_ENDED]
    assert w.decisions > 50 and w.memory_writes > 10  # greedy remembered, in its memory
    if mode == "crisis":
        assert int(st.sc[S_TEAM_SCORE]) == real[R_TEAM_SCORE]  # and played greedy's game


def test_memory_is_forgotten_between_games():
    s = prepare("2e", "crisis", 4, "greedy", exhaust=True)
    alone = play_batch(s, [9]).out
    # A memory left by another game, whose frontier stamp a new game's mine reaches at once:
    # if it were not forgotten, greedy would trust a frontier that is not there.
    s.players.mem.greedy.sc[M_NEED_VER] = 1
    s.players.mem.greedy.sc[M_FRONT_N] = 6
    s.players.mem.greedy.rows[F_TILE:F_POINTS + 1] = 0
    s.players.mem.greedy.est[:] = 7.0
    after = play_batch(s, [9]).out
    assert (alone == after).all()
