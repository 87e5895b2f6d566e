"""The search player, for any game that gives a forward model (balance/contract/forward.py):
there to measure how strong play scores, not to play millions of games.

Determinized flat Monte Carlo (as the TabletopGames and OpenSpiel players do it, written anew
here): at each of its decisions of the kinds it searches (the game's searchable kinds; the
`searched` knob narrows them, and `first_turn` and `last_turn` the turns) it spends `budget`
rollouts on its options by successive halving (rounds over the options still in the race,
the weaker half dropped after each). Each rollout starts from the state saved at the start of
the turn, replays the turn's decisions so far, takes the option, resamples what the seat
cannot know (for a game on the engine kit, the kit's forward model redraws the game's stream
and the hidden parts it declares, from the seat's view: KitGame.forward_hooks), and lets the
rollout player (the game's fast player, with this player's knobs for it) play every seat to
the end; the game's forward model scores the end for the seat.
Rollout r of every option uses the same resampled world, so options are compared on common
random numbers. It keeps the rollout player's choice unless another option's mean lead over
it, paired world by world, is clear of `confidence` standard errors; then it takes the best
such option. Its other decisions, and any made before its first turn, are the rollout
player's.

It is written in Python over the game's compiled code: the engine reaches it through
heuristics/external.py, and its rollouts run in the kernels generated for the game's players
(heuristics/generate.py). Its own memory, in Python, is the state at the start of the turn
and the turn's choices so far; the rollout player's compiled memory is copied at each search.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from balance.contract.forward import ForwardModel
from balance.contract.game import resolve
from heuristics.knobs import Knob
from heuristics.player import REPLAY, Player, Roster
from heuristics.search_nb import RP_AT, RP_THEN
from heuristics.seats import Seats

SEARCH_KNOB_NAMES = ("budget", "confidence", "searched", "first_turn", "last_turn")


def search_knobs(searchable: tuple[tuple[str, int], ...]) -> tuple[Knob, ...]:
    """The search's own knobs; `searched` is a sum of one bit per searchable kind."""
    bits = ", ".join(f"{1 << i} {name}" for i, (name, _kind) in enumerate(searchable))
    every = (1 << len(searchable)) - 1
    return (
        Knob("budget", 64, 2, 4096, "rollouts per searched decision, over its options by "
             "successive halving", integer=True),
        Knob("confidence", 1.0, 0.0, 4.0, "leave the rollout player's choice only for an "
             "option whose mean lead over it, paired on common worlds, exceeds this many "
             "standard errors"),
        Knob("searched", every, 1, every, f"the decisions it searches, a sum of: {bits}; the "
             "rollout player takes the rest", integer=True),
        Knob("first_turn", 1, 1, 99, "the first turn it searches (turns count from 1, as "
             "`balance play` prints them); the rollout player plays the turns outside",
             integer=True),
        Knob("last_turn", 99, 1, 99, "the last turn it searches", integer=True),
    )


def searched_mask(searchable: tuple[tuple[str, int], ...], names: list[str]) -> int:
    """The `searched` knob's value for these kind names (a ValueError names an unknown one)."""
    bits = {name: 1 << i for i, (name, _kind) in enumerate(searchable)}
    mask = 0
    for name in names:
        if name not in bits:
            raise ValueError(f"unknown decision kind {name!r} (known: {', '.join(bits)})")
        mask |= bits[name]
    return mask


def searched_names(searchable: tuple[tuple[str, int], ...], mask: int) -> list[str]:
    return [name for i, (name, _kind) in enumerate(searchable) if (mask >> i) & 1]


def _searched_kinds(searchable, mask: int) -> frozenset[int]:
    return frozenset(kind for i, (_name, kind) in enumerate(searchable) if (mask >> i) & 1)


class Rollouts(NamedTuple):
    """A search's work space, passed whole to the generated rollout kernels."""

    sim: tuple  # the game's state a rollout plays in
    snap: tuple  # the state at the start of the turn
    mem: tuple  # the players' memories at the decision searched (the generated Memories)
    seats: Seats  # the rollouts' seats: every seat replays, then plays the rollout player
    words: np.ndarray  # (4,) the stream of one rollout


def search_player(name: str, doc: str, rollout: Player, forward: str, roster: str,
                  clairvoyant: bool = False, title: str = "") -> Player:
    """A search player over the forward model `forward` ("module:attribute" of the game's
    ForwardModel) with `rollout` as its rollout player, in the roster `roster`
    ("module:attribute"; resolved when a game is played, since the roster holds this player).
    Its weights are the rollout player's, then its own knobs.

    `clairvoyant`: its rollouts keep the true hidden information instead of resampling it
    (what Hanabi research calls a cheating bot). It is no fair player: it is the upper
    reference that, beside the honest search at the same budget, says what the hidden
    information costs. Its decisions outside the search are the rollout player's, which
    reads nothing hidden."""
    fm = resolve_forward(forward)
    own = search_knobs(fm.searchable)

    def weights(tables, values):
        n = len(rollout.knobs)
        inner = rollout.vector(tables, {k.name: v for k, v in zip(rollout.knobs, values[:n],
                                                                strict=True)})
        return np.concatenate([inner, np.array(values[n:], np.float64)])

    return Player(name, doc, title=title, python=partial(Search, forward=forward, roster=roster,
                                            rollout=rollout, clairvoyant=clairvoyant),
                  knobs=rollout.knobs + own, engine_knobs=len(rollout.knobs), weights=weights,
                  remembers=f"{rollout.name}'s, for its own decisions and its rollouts' "
                  "(copied at each search), and in Python the state at the start of the turn "
                  "and the turn's choices so far")


def resolve_forward(ref: str) -> ForwardModel:
    fm = resolve(ref)
    if not isinstance(fm, ForwardModel):
        raise TypeError(f"{ref} is not a ForwardModel")
    return fm


class Search:
    """The Python side of one engine call with search seats: the callbacks of
    heuristics/external.py land here."""

    def __init__(self, setup, st, *, forward: str, roster: str, rollout: Player,
                 clairvoyant: bool = False):
        self.setup = setup
        self.st = st
        self.resample = 0 if clairvoyant else 1
        fm = resolve_forward(forward)
        players: Roster = resolve(roster)
        dispatch = players.generated()
        kernels = resolve(players.rollouts + ":search_nb")
        self._search_nb = kernels
        self._copy = resolve(fm.copy)
        self._turn = resolve(fm.turn)
        self._pick = dispatch.pick_nb
        self._copy_memories = dispatch.copy_memories_nb
        self.then = players.policies[rollout.name]
        tb, ru = setup.tables, setup.rules
        p = ru.players
        new_state = resolve(fm.new_state)
        seats = Seats(pol=np.full(p, players.replay_policy, np.int64),
                      w=setup.players.w.copy(), rng=np.zeros(4, np.int64),
                      mem=dispatch.new_memories(tb, p))
        self.replay = getattr(seats.mem, REPLAY)
        self.replay[RP_THEN] = self.then
        self.ws = Rollouts(sim=new_state(tb, ru), snap=new_state(tb, ru),
                           mem=dispatch.new_memories(tb, p), seats=seats,
                           words=np.zeros(4, np.int64))
        self.own = len(rollout.vector(tb))  # where a seat's search knobs start in w
        self.turn = -1
        self.history: list[int] = []
        self.rollouts = 0
        # A seat of another player reads 0 for these knobs: it searches nothing.
        self.kinds = [_searched_kinds(fm.searchable, int(self._knob(q, "searched")))
                      for q in range(p)]
        # Turns it searches, counted from 0 as the engine counts them.
        self.turns = [range(int(self._knob(q, "first_turn")) - 1,
                            int(self._knob(q, "last_turn"))) for q in range(p)]

    def _knob(self, p: int, name: str) -> float:
        w = self.setup.players.w
        i = self.own + SEARCH_KNOB_NAMES.index(name)
        return w[p, i] if i < w.shape[1] else 0.0

    def budget(self, p: int) -> int:
        return int(self._knob(p, "budget"))

    def confidence(self, p: int) -> float:
        return float(self._knob(p, "confidence"))

    def turn_start(self, p: int) -> None:
        self._copy(self.ws.snap, self.st)
        self.turn = int(self._turn(self.st))
        self.history = []

    def choose(self, kind: int, n: int, p: int) -> int:
        s, st = self.setup, self.st
        g = int(self._pick(self.then, kind, st, s.tables, s.rules, s.players, n, p))
        in_turn = self.turn == int(self._turn(st))
        k = self._search(n, p, g) if in_turn and kind in self.kinds[p] \
            and self.turn in self.turns[p] else g
        if in_turn:
            self.history.append(k)
        return k

    def seen(self, kind: int, k: int, p: int) -> None:
        """A compiled seat's choice in the turn: the turn's replay needs it too."""
        if self.turn == int(self._turn(self.st)):
            self.history.append(k)

    def _search(self, n: int, p: int, first_choice: int) -> int:
        """Successive halving: the budget is spent in rounds, each over the options still in
        the race, with fresh common worlds; after each round the half whose mean lead over
        the rollout player's choice is lowest drops out (that choice always stays). The
        survivors are then judged on every rollout they played."""
        s, ws = self.setup, self.ws
        m = len(self.history) + 1
        self.replay[RP_AT: RP_AT + m - 1] = self.history
        self._copy_memories(ws.mem, s.players.mem)  # the rollouts go on from here
        ws.seats.w[:] = s.players.w[p]
        alive = list(range(n))
        rounds = max(1, int(np.ceil(np.log2(n))))
        leads: dict[int, list[np.ndarray]] = {i: [] for i in alive}
        for _ in range(rounds):
            per = max(2, self.budget(p) // (rounds * len(alive)))
            opts = np.array(alive, np.int64)
            vals = np.zeros((len(alive), per))
            self._search_nb(ws, s.tables, s.rules, s.players.rng, m, opts, per, p,
                            np.zeros(4 * per, np.int64), vals, self.resample)
            self.rollouts += vals.size
            base = vals[alive.index(first_choice)]
            for j, i in enumerate(alive):
                leads[i].append(vals[j] - base)
            if len(alive) <= 2:
                continue
            mean = {i: np.concatenate(leads[i]).mean() for i in alive}
            keep = sorted(alive, key=lambda i: -mean[i])[: (len(alive) + 1) // 2]
            alive = sorted(set(keep) | {first_choice})
        # Keep the rollout player's choice unless another option's lead, paired world by
        # world, is clear of the noise: the best of many noisy means is mostly luck, and a
        # search that follows luck plays worse than its rollout player.
        best, best_mean = first_choice, 0.0
        for i in alive:
            d = np.concatenate(leads[i])
            if i == first_choice or len(d) < 2:
                continue
            se = d.std(ddof=1) / np.sqrt(len(d))
            if d.mean() - self.confidence(p) * se > 0 and d.mean() > best_mean:
                best, best_mean = i, d.mean()
        return best
