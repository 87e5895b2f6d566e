"""`reference`: a search-based player, there to measure how strong play scores, not to play
millions of games.

Determinized flat Monte Carlo (as the TabletopGames and OpenSpiel players do it, written anew
here): at each of its decisions of the kinds it searches (by default all of steps, the
action, payments, discards to the hand limit, tile rotations, skill uses: those of the
movement step are steps, the rest D_SKILL; the `searched` knob narrows them, and
`first_turn` and `last_turn` the turns) it spends
`budget` rollouts on its options by successive halving (rounds over the options still in the
race, the weaker half dropped after each). Each rollout starts from the state saved at the
start of the turn, replays the turn's decisions so far, takes the option, resamples what the
player cannot know, and lets greedy (with this player's greedy knobs) play every seat to the
end (balance/games/gemrush/engine/forward.py).
Rollout r of every option uses the same resampled world, so options are compared on common
random numbers. A rollout's value is the team score in Crisis; in Rush a win, plus a
hundredth of a point per point of lead. It keeps greedy's choice unless another option's mean
lead over it, paired world by world, is clear of `confidence` standard errors; then it takes
the best such option. Its
other decisions (burns, keeps, X, named gems, special moves, discards at will), and any made
before its first turn, are greedy's.

In Crisis the team plays as one mind with open hands, so a reference seat searches over
everyone's cards; in Rush it sees only its own hand, and the other hands are resampled.
"""

from __future__ import annotations

import numpy as np

from balance.games.gemrush.engine.decisions import (
    D_ACTION,
    D_DISCARD_LIMIT,
    D_PAYMENT,
    D_ROTATION,
    D_SKILL,
    D_STEP,
)
from balance.games.gemrush.engine.forward import copy_state_nb
from balance.games.gemrush.engine.rollout_nb import greedy_pick_nb, search_nb
from balance.games.gemrush.engine.seats import Seats
from balance.games.gemrush.engine.state import MAX_SCRIPT, S_TURN, new_state
from heuristics.gemrush import greedy
from heuristics.gemrush.dispatch import POLICY_ROLLOUT
from heuristics.gemrush.memory import copy_memory_nb, new_memory
from heuristics.knobs import Knob

KNOBS = (
    Knob("budget", 64, 2, 4096, "rollouts per searched decision, over its options by "
         "successive halving",
         integer=True),
    Knob("confidence", 1.0, 0.0, 4.0, "leave greedy's choice only for an option whose mean "
         "lead over it, paired on common worlds, exceeds this many standard errors"),
    Knob("searched", 63, 1, 63, "the decisions it searches, a sum of: 1 steps, 2 the action, "
         "4 payments, 8 discards to the hand limit, 16 rotations, 32 skill uses after an "
         "ability; greedy takes the rest", integer=True),
    Knob("first_turn", 1, 1, 99, "the first turn it searches (turns count from 1, as "
         "`balance play` prints them); greedy plays the turns outside", integer=True),
    Knob("last_turn", 99, 1, 99, "the last turn it searches", integer=True),
)
KNOB_NAMES = tuple(k.name for k in KNOBS)
# The decision kinds it can search, by their bit in the `searched` knob and a name for the
# command line (`balance strength --search steps,rotations`). Searching one kind alone, the
# rest greedy's, measures how much greedy loses on that kind (README, "How strong are the
# players").
SEARCHABLE = (("steps", D_STEP), ("action", D_ACTION), ("payments", D_PAYMENT),
              ("discards", D_DISCARD_LIMIT), ("rotations", D_ROTATION), ("skills", D_SKILL))
SEARCHED = frozenset(kind for _name, kind in SEARCHABLE)


def searched_mask(names: list[str]) -> int:
    """The `searched` knob's value for these kind names (a ValueError names an unknown one)."""
    bits = {name: 1 << i for i, (name, _kind) in enumerate(SEARCHABLE)}
    mask = 0
    for name in names:
        if name not in bits:
            raise ValueError(f"unknown decision kind {name!r} (known: {', '.join(bits)})")
        mask |= bits[name]
    return mask


def searched_names(mask: int) -> list[str]:
    return [name for i, (name, _kind) in enumerate(SEARCHABLE) if (mask >> i) & 1]


def _searched_kinds(mask: int) -> frozenset[int]:
    return frozenset(kind for i, (_name, kind) in enumerate(SEARCHABLE) if (mask >> i) & 1)


class ReferenceGame:
    """The Python side of one engine call with reference seats: the callbacks of
    heuristics/external.py land here."""

    def __init__(self, setup, st):
        self.setup = setup
        self.st = st
        tb, ru = setup.tables, setup.rules
        self.snap = new_state(tb, ru)
        self.sim = new_state(tb, ru)
        p = ru.players
        self.pps = Seats(pol=np.full(p, POLICY_ROLLOUT, np.int64),
                         w=setup.players.w.copy(), rng=np.zeros(4, np.int64),
                         mem=new_memory(tb))
        self.snap_mem = new_memory(tb)
        self.own = greedy.N_KNOBS + len(tb.room_kind)  # where a seat's own knobs start in w
        self.script = np.zeros(MAX_SCRIPT, np.int64)
        self.turn = -1
        self.history: list[int] = []
        self.rollouts = 0
        # A seat of another player reads 0 for these knobs: it searches nothing.
        self.kinds = [_searched_kinds(int(self._knob(q, "searched"))) for q in range(p)]
        # Turns it searches, counted from 0 as the engine counts them.
        self.turns = [range(int(self._knob(q, "first_turn")) - 1,
                            int(self._knob(q, "last_turn"))) for q in range(p)]

    def _knob(self, p: int, name: str) -> float:
        return self.setup.players.w[p, self.own + KNOB_NAMES.index(name)]

    def budget(self, p: int) -> int:
        return int(self._knob(p, "budget"))

    def confidence(self, p: int) -> float:
        return float(self._knob(p, "confidence"))

    def turn_start(self, p: int) -> None:
        copy_state_nb(self.snap, self.st)
        self.turn = int(self.st.sc[S_TURN])
        self.history = []

    def choose(self, kind: int, n: int, p: int) -> int:
        s, st = self.setup, self.st
        g = int(greedy_pick_nb(kind, st, s.tables, s.rules, s.players, n, p))
        in_turn = self.turn == int(st.sc[S_TURN])
        k = self._search(n, p, g) if in_turn and kind in self.kinds[p] \
            and self.turn in self.turns[p] else g
        if in_turn:
            self.history.append(k)
        return k

    def _search(self, n: int, p: int, greedy_choice: int) -> int:
        """Successive halving: the budget is spent in rounds, each over the options still in
        the race, with fresh common worlds; after each round the half whose mean lead over
        greedy's choice is lowest drops out (greedy's choice always stays). The survivors are
        then judged on every rollout they played."""
        s = self.setup
        m = len(self.history) + 1
        self.script[: m - 1] = self.history
        copy_memory_nb(self.snap_mem, s.players.mem)  # the rollouts' greedy goes on from here
        self.pps.w[:] = s.players.w[p]
        alive = list(range(n))
        rounds = max(1, int(np.ceil(np.log2(n))))
        leads: dict[int, list[np.ndarray]] = {i: [] for i in alive}
        for _ in range(rounds):
            per = max(2, self.budget(p) // (rounds * len(alive)))
            opts = np.array(alive, np.int64)
            vals = np.zeros((len(alive), per))
            search_nb(self.sim, self.snap, self.snap_mem, s.tables, s.rules, self.pps,
                      s.players.rng, self.script, m, opts, per, p,
                      np.zeros(4 * per, np.int64), np.zeros(4, np.int64), vals)
            self.rollouts += vals.size
            base = vals[alive.index(greedy_choice)]
            for j, i in enumerate(alive):
                leads[i].append(vals[j] - base)
            if len(alive) <= 2:
                continue
            mean = {i: np.concatenate(leads[i]).mean() for i in alive}
            keep = sorted(alive, key=lambda i: -mean[i])[: (len(alive) + 1) // 2]
            alive = sorted(set(keep) | {greedy_choice})
        # Keep greedy's choice unless another option's lead, paired world by world, is clear
        # of the noise: the best of many noisy means is mostly luck, and a search that follows
        # luck plays worse than its rollout policy.
        best, best_mean = greedy_choice, 0.0
        for i in alive:
            d = np.concatenate(leads[i])
            if i == greedy_choice or len(d) < 2:
                continue
            se = d.std(ddof=1) / np.sqrt(len(d))
            if d.mean() - self.confidence(p) * se > 0 and d.mean() > best_mean:
                best, best_mean = i, d.mean()
        return best
