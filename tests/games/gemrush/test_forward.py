"""The forward model (balance/games/gemrush/engine/forward.py), the search's rollouts over it
(heuristics/gemrush/rollout_nb.py, generated) and the search-based reference player.

- A rollout replays the turn faithfully: with the hidden information kept, a rollout of
  greedy's own choice ends exactly as the real greedy game does, at every decision.
- Resampling keeps everything the player knows and depends on nothing it does not.
- A player's decision does not change when hidden information it cannot know is permuted.
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.gemrush.engine.forward import copy_state_nb, determinize_nb
from balance.games.gemrush.engine.game_nb import R_TEAM_SCORE, R_VIOLATION
from balance.games.gemrush.engine.state import (
    PILE_BURNT,
    PILE_BURNT_SEEN,
    PILE_DISC,
    S_BURNT_N,
    S_BURNT_SEEN_N,
    S_CARD_VER,
    S_DECK_N,
    S_DISC_N,
    S_TEAM_SCORE,
    S_TILES_N,
    S_TURN,
    S_VIOLATION,
    new_state,
)
from balance.games.gemrush.play import play_batch, prepare
from heuristics.external import playing
from heuristics.gemrush.dispatch_nb import (
    POLICY_GREEDY,
    POLICY_PYTHON,
    POLICY_REPLAY,
    copy_memories_nb,
    new_memories,
    pick_nb,
)
from heuristics.gemrush.rollout_nb import rollout_nb
from heuristics.search import Rollouts
from heuristics.search_nb import RP_AT, RP_THEN
from heuristics.seats import Seats


class Recorder:
    """A Python player that plays greedy's choice and, at chosen decisions, runs a rollout of
    that same choice with the true hidden information, or asks greedy again on a copy of the
    state whose hidden information was resampled."""

    def __init__(self, setup, st, every=7):
        self.s, self.st, self.every = setup, st, every
        tb, ru = setup.tables, setup.rules
        p = ru.players
        seats = Seats(pol=np.full(p, POLICY_REPLAY, np.int64), w=setup.players.w.copy(),
                      rng=np.zeros(4, np.int64), mem=new_memories(tb, p))
        seats.mem.replay[RP_THEN] = POLICY_GREEDY
        self.ws = Rollouts(sim=new_state(tb, ru), snap=new_state(tb, ru),
                           mem=new_memories(tb, p), seats=seats, words=np.zeros(4, np.int64))
        self.other = new_state(tb, ru)
        # Greedy asked on a resampled copy thinks with a copy of the memory: the live one
        # must not learn from a world that is not the real one.
        self.other_seats = Seats(pol=setup.players.pol.copy(), w=setup.players.w,
                                 rng=np.zeros(4, np.int64), mem=new_memories(tb, p))
        self.history: list[int] = []
        self.turn = -1
        self.asked = 0
        self.rollout_scores: list[float] = []
        self.same_choice = self.changed_choice = 0

    def turn_start(self, p):
        copy_state_nb(self.ws.snap, self.st)
        self.turn, self.history = int(self.st.sc[S_TURN]), []

    def choose(self, kind, n, p):
        s, st = self.s, self.st
        if self.asked % 5 == 0:
            self._hidden_check(kind, n, p)  # on a copy taken before greedy thinks here
        g = int(pick_nb(POLICY_GREEDY, kind, st, s.tables, s.rules, s.players, n, p))
        if self.asked % 5 == 0:
            self.same_choice += self.again == g
            self.changed_choice += self.again != g
        if self.turn == int(st.sc[S_TURN]):
            self.asked += 1
            if self.asked % self.every == 0:
                m = len(self.history) + 1
                replay = self.ws.seats.mem.replay
                replay[RP_AT: RP_AT + m - 1] = self.history
                replay[RP_AT + m - 1] = g
                self.ws.seats.w[:] = s.players.w
                copy_memories_nb(self.ws.mem, s.players.mem)
                words = np.array([1, 2, 3, 4], np.int64)
                self.rollout_scores.append(rollout_nb(self.ws, s.tables, s.rules, words, m, p,
                                                      0))
            self.history.append(g)
        return g

    def _hidden_check(self, kind, n, p):
        s, o = self.s, self.other
        copy_state_nb(o, self.st)
        o.opt[:] = self.st.opt
        determinize_nb(o, s.tables, s.rules, p, np.array([9, 8, 7, self.asked], np.int64))
        o.sc[S_CARD_VER] = self.st.sc[S_CARD_VER]  # keep greedy's plan: compare information
        copy_memories_nb(self.other_seats.mem, s.players.mem)
        self.again = int(pick_nb(POLICY_GREEDY, kind, o, s.tables, s.rules, self.other_seats, n,
                                 p))


def _recorded(edition, mode, players, seed):
    s = prepare(edition, mode, players, "greedy", exhaust=(mode == "crisis"))
    real = play_batch(s, [seed]).out[0]
    s.players.pol[:] = POLICY_PYTHON
    st = new_state(s.tables, s.rules)
    rec = Recorder(s, st)
    with playing(rec):
        from balance.games.gemrush.engine.game_nb import play_game_nb
        from balance.kernels.rng import seed_state

        play_game_nb(st, s.tables, s.rules, s.players, seed_state(seed), 0, 1)
    return real, st, rec


@pytest.mark.parametrize("edition, mode, players", [("2e", "crisis", 4), ("1e", "crisis", 3),
                                                    ("2e", "rush", 3)])
def test_a_rollout_without_resampling_ends_as_the_real_game(edition, mode, players):
    for seed in (3, 11):
        real, st, rec = _recorded(edition, mode, players, seed)
        # A Python player that plays greedy's choices plays greedy's game...
        assert int(st.sc[S_TEAM_SCORE]) == real[R_TEAM_SCORE]
        assert len(rec.rollout_scores) > 3
        if mode == "crisis":
            # ...and every rollout of its choice, replayed from the start of the turn, ends
            # there too.
            assert set(rec.rollout_scores) == {float(real[R_TEAM_SCORE])}, seed


@pytest.mark.parametrize("edition, mode, players", [("2e", "rush", 3), ("1e", "rush", 2),
                                                    ("2e", "crisis", 4), ("1e", "crisis", 3)])
def test_greedy_reads_no_hidden_information(edition, mode, players):
    # Greedy asked again on a copy whose hidden information (deck order, unseen burns, in
    # Rush the other hands) was resampled chooses the same option every time.
    for seed in (1, 2):
        _, _, rec = _recorded(edition, mode, players, seed)
        assert rec.same_choice > 20
        assert rec.changed_choice == 0


def _knowledge(st, p, ru):
    """What seat p knows: pile sizes, its hand, the discard pile, the seen burns, the mine."""
    hands = [sorted(st.hand[q, : st.hand_n[q]].tolist()) for q in range(ru.players)
             if ru.mode == 0 or q == p]
    return (int(st.sc[S_DECK_N]), int(st.sc[S_DISC_N]), int(st.sc[S_BURNT_N]),
            st.hand_n[: ru.players].tolist(), hands,
            st.piles[PILE_DISC, : st.sc[S_DISC_N]].tolist(),
            sorted(st.piles[PILE_BURNT_SEEN, : st.sc[S_BURNT_SEEN_N]].tolist()),
            int(st.sc[S_TILES_N]), st.pl.tolist(), st.pos.tolist(), st.score.tolist())


@pytest.mark.parametrize("edition, mode", [("1e", "crisis"), ("2e", "crisis"), ("2e", "rush")])
def test_resampling_keeps_what_the_player_knows_and_only_that(edition, mode):
    from balance.games.gemrush.engine.check_nb import check_invariants_nb

    s = prepare(edition, mode, 3, "greedy", exhaust=(mode == "crisis"))
    st = new_state(s.tables, s.rules)
    # A game stopped part-way: the target of 15 points ends it early.
    s_short = prepare(edition, mode, 3, "greedy", target=15)
    play_batch(s_short, [4], state=st)
    ru = s_short.rules
    before = _knowledge(st, 0, ru)
    a, b = new_state(s.tables, ru), new_state(s.tables, ru)
    copy_state_nb(a, st)
    copy_state_nb(b, st)
    # b's hidden cards in another true order: the deck reversed.
    b.piles[0, : b.sc[S_DECK_N]] = b.piles[0, : b.sc[S_DECK_N]][::-1].copy()
    for x in (a, b):
        determinize_nb(x, s.tables, ru, 0, np.array([5, 6, 7, 8], np.int64))
        assert _knowledge(x, 0, ru) == before
        check_invariants_nb(x, s.tables, ru)
        assert x.sc[S_VIOLATION] == 0
        assert _unseen(x, 0, ru) == _unseen(st, 0, ru)
    # The world drawn depends on what the player knows and the stream, not the true order.
    assert (a.piles[0] == b.piles[0]).all() and (a.hand == b.hand).all()
    assert (a.piles[PILE_BURNT] == b.piles[PILE_BURNT]).all()
    assert not (a.piles[0, : a.sc[S_DECK_N]] == st.piles[0, : st.sc[S_DECK_N]]).all()


def _unseen(st, p, ru):
    """The cards seat p cannot place: the deck, the unseen burns, in Rush the other hands."""
    seen = set(st.piles[PILE_BURNT_SEEN, : st.sc[S_BURNT_SEEN_N]].tolist())
    cards = st.piles[0, : st.sc[S_DECK_N]].tolist()
    cards += [c for c in st.piles[PILE_BURNT, : st.sc[S_BURNT_N]].tolist() if c not in seen]
    if ru.mode == 1:
        cards += [c for q in range(ru.players) if q != p
                  for c in st.hand[q, : st.hand_n[q]].tolist()]
    return sorted(cards)


def test_reference_plays_legal_games_and_is_repeatable():
    s = prepare("2e", "crisis", 2, "reference", exhaust=True, knobs={"budget": 8})
    a = play_batch(s, [21, 22], check=True).out
    b = play_batch(s, [21, 22], check=True).out
    assert (a[:, R_VIOLATION] == 0).all()
    assert (a == b).all()  # the search draws only from the players' stream, seeded per game
    rush = prepare("2e", "rush", 3, seats=["reference", "greedy", "greedy"],
                   knobs={"budget": 8})
    r = play_batch(rush, [5], check=True).out
    assert r[0, R_VIOLATION] == 0
