"""Python front of the engine: from names (edition, mode, players, heuristic) to compiled
inputs, and from seeds to per-game records. Everything here can be called from a notebook."""

from __future__ import annotations

import contextlib
import dataclasses
import numbers
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from balance.errors import Problems
from balance.games.gemrush.content import Content, load_content
from balance.games.gemrush.engine.game_nb import R_N, RM_N, play_game_nb, play_games_nb
from balance.games.gemrush.engine.state import END_NAMES, S_EV_N, State, new_state
from balance.games.gemrush.game import ENGINE_VERSION
from balance.games.gemrush.limits import check_variant
from balance.games.gemrush.rules import Profile, load_profile, profile_for
from balance.games.gemrush.tables import Rules, Tables, compile_rules, compile_tables
from balance.kernels.compile_plan import PLAN_FILE, helping
from balance.kernels.rng import seed_state
from balance.kernels.streams import seed_states_with
from balance.running.seeds import first_players
from balance.textfile import short
from heuristics.external import playing
from heuristics.gemrush.registry import PLAYERS
from heuristics.seats import Seats


@dataclass
class Setup:
    """Everything one variant needs to be played."""

    content: Content
    profile: Profile
    tables: Tables
    rules: Rules
    seats: tuple[str, ...]  # the player of each seat, by name
    players: Seats  # the same, as the engine reads it
    mode: str

    @property
    def heuristic(self) -> str:
        """The player's name when every seat has the same one, else the seats in order."""
        return self.seats[0] if len(set(self.seats)) == 1 else ",".join(self.seats)

    def first_players(self, seeds) -> np.ndarray:
        """For each game seed, which listed player (counting from 0) sits in seat 1 and plays
        first: the rules' `first_player`, or one drawn from the seed's own stream."""

        seeds = np.asarray(seeds, dtype=np.int64)
        k = self.rules.first_player
        if k:
            return np.full(len(seeds), k - 1, np.int64)
        return first_players(seeds, self.rules.players)

    def seated(self, first: int) -> Setup:
        """This variant with listed player `first` (counting from 0) in seat 1 and the others
        after it in listed (clockwise) order; its rules then seat them as listed."""
        if first == 0:
            return self if self.rules.first_player == 1 else dataclasses.replace(
                self, rules=self.rules._replace(first_player=1))
        order = np.roll(np.arange(self.rules.players), -first)
        pp = self.players
        return dataclasses.replace(
            self, seats=tuple(self.seats[i] for i in order),
            players=pp._replace(pol=pp.pol[order].copy(), w=pp.w[order].copy()),
            rules=self.rules._replace(first_player=1))

    def seated_for(self, seed: int) -> Setup:
        """This variant as seated for the game of `seed`."""
        return self.seated(int(self.first_players([seed])[0]))

    @property
    def room_names(self) -> list[str]:
        return [r.name for r in self.content.rooms]

    @property
    def skill_names(self) -> list[str]:
        return [k.name for k in self.content.skills]

    @property
    def gem_names(self) -> list[str]:
        return [g.name for g in self.content.gems]


def prepare(edition: str | None = "2e", mode: str = "crisis", players: int = 4,
            heuristic: str = "greedy", *, target: int | str | None = None,
            exhaust: bool = False, rules: dict | None = None,
            content: str | Content | None = None, source: str = "arguments", seats=None,
            knobs: dict | None = None, rules_source: str | None = None) -> Setup:
    """Compile a variant: which rules, mode, seats and player, positionally; the rest by
    name. `target` may be a number or a Crisis difficulty name; `content` a shipped name, a
    path or an already parsed Content (a worker gets it by value). Every seat is played by
    `heuristic`, unless `seats` names a player for each seat; `knobs` sets players' knobs by
    name (`balance players` lists them). Problems name `source`; those of a rule override
    name `rules_source` where it is given (a command's `--set`). An experiment's variant is
    prepared with balance.games.gemrush.experiment.prepare_variant."""
    _check_arguments(source, edition=edition, mode=mode, players=players, heuristic=heuristic,
                     target=target, exhaust=exhaust, rules=rules, content=content, seats=seats,
                     knobs=knobs)
    if content is None:

        content = load_profile(edition or "2e").content
    c = content if isinstance(content, Content) else load_content(content)
    profile = profile_for(c, edition, rules, rules_source or source)
    if isinstance(target, str):
        target = (profile.crisis_target(target) if not target.isdigit() else int(target))
    tables = compile_tables(c, profile)
    ru = compile_rules(profile, mode, players, target, exhaust, source)
    check_variant(c, tables, ru, source)
    names = tuple(seats) if seats is not None else (heuristic,) * players
    if len(names) != players:
        probs = Problems(source)
        probs.add("", "seats", f"names {len(names)} players for {players} seats")
        probs.raise_if_any()
    return Setup(c, profile, tables, ru, names, PLAYERS.seats(names, tables, knobs), mode)


# What each argument of prepare must be, in a message's words: a notebook's
# prepare(rules="hand_limit=5") raised Python's own error, not the toolkit's.
_ARGUMENTS = {
    "edition": (lambda v: v is None or isinstance(v, str), 'an edition\'s name, e.g. "2e"'),
    "mode": (lambda v: isinstance(v, str), '"crisis" or "rush"'),
    "players": (lambda v: _whole(v) and v >= 1, "a whole number of players >= 1"),
    "heuristic": (lambda v: isinstance(v, str), 'a player\'s name, e.g. "greedy"'),
    "target": (lambda v: v is None or _whole(v) or isinstance(v, str),
               "points or a Crisis difficulty name"),
    "exhaust": (lambda v: isinstance(v, bool | np.bool_), "True or False"),
    "rules": (lambda v: v is None or isinstance(v, dict),
              'a dict of rule overrides, e.g. {"hand_limit": 5}'),
    "content": (lambda v: v is None or isinstance(v, str | os.PathLike | Content),
                "a shipped content's name, a path or a Content"),
    "seats": (lambda v: v is None or (isinstance(v, list | tuple)
                                      and all(isinstance(x, str) for x in v)),
              "a list of players' names, one for each seat"),
    "knobs": (lambda v: v is None or isinstance(v, dict), "a dict of knobs, NAME: number"),
}


def _whole(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool | np.bool_)


def _check_arguments(source: str, **values) -> None:

    probs = Problems(source)
    for name, value in values.items():
        ok, what = _ARGUMENTS[name]
        if not ok(value):
            probs.add("", name, f"must be {what}, got {short(repr(value))}")
    probs.raise_if_any()


@dataclass
class Batch:
    """Per-game records of one call: see balance/games/gemrush/engine/game_nb.py for the column
    layout."""

    seeds: np.ndarray
    out: np.ndarray
    scores: np.ndarray
    score_by_turn: np.ndarray
    rooms: np.ndarray
    skills: np.ndarray  # (games, players, 2) each seat's skills as dealt, -1 for none
    # (games,) which listed player (counting from 0) sat in seat 1: listed player i sat in
    # seat (i - first) % players
    first: np.ndarray | None = None


def _python_players(setup: Setup, st: State):
    """Where a seat is played by a Python player, reach it from the engine (external.py)."""
    game = PLAYERS.python_player(setup, st)
    return playing(game) if game is not None else contextlib.nullcontext()


def play_batch(setup: Setup, seeds, check: bool = False, state: State | None = None,
               streams: int = 0) -> Batch:
    """Play one game per seed. Games whose first player differs (first_player = random) are
    played in groups, one per seating, and returned in the order of `seeds`. A `streams`
    other than 0 draws the players' stream anew, the game's kept
    (balance/kernels/streams.py)."""

    seeds = np.asarray(seeds, dtype=np.int64)
    st = state if state is not None else new_state(setup.tables, setup.rules)
    n = len(seeds)
    first = setup.first_players(seeds)
    out = np.zeros((n, R_N), np.int64)
    scores = np.zeros((n, setup.rules.players), np.int64)
    sbt = np.zeros((n, st.score_by_turn.shape[0]), np.int16)
    rooms = np.zeros((n, len(setup.tables.room_deck), RM_N), np.int16)
    skills = np.full((n, setup.rules.players, 2), -1, np.int16)
    batch = Batch(seeds, out, scores, sbt, rooms, skills, first)
    words = seed_states_with(seeds, streams)
    for k in np.unique(first):
        games = np.flatnonzero(first == k)
        if len(games) == n:
            _play(setup.seated(int(k)), st, words, check, batch)
            continue
        part = Batch(seeds[games], out[games], scores[games], sbt[games], rooms[games],
                     skills[games])
        _play(setup.seated(int(k)), st, words[games], check, part)
        for name in ("out", "scores", "score_by_turn", "rooms", "skills"):
            getattr(batch, name)[games] = getattr(part, name)
    return batch


# What a helper process compiles while a first call compiles the rest (compile_plan.py).
COMPILE_PLAN = Path(__file__).with_name(PLAN_FILE)


def _play(setup: Setup, st: State, words: np.ndarray, check: bool, batch: Batch) -> None:
    args = (st, setup.tables, setup.rules, setup.players, words, int(check), batch.out,
            batch.scores, batch.score_by_turn, batch.rooms, batch.skills)
    with _python_players(setup, st), helping(COMPILE_PLAN, play_games_nb, args):
        play_games_nb(*args)


def play_traced(setup: Setup, seed: int, check: bool = True):
    """One game with its event log: (state, events array). The seats are those of
    `setup.seated_for(seed)`: tell the game with that Setup."""

    setup = setup.seated_for(seed)
    st = new_state(setup.tables, setup.rules, ev_max=200_000)
    args = (st, setup.tables, setup.rules, setup.players, seed_state(seed), 1, int(check))
    with _python_players(setup, st), helping(COMPILE_PLAN, play_game_nb, args):
        play_game_nb(*args)

    return st, st.ev[: st.sc[S_EV_N]].copy()


__all__ = ["prepare", "play_batch", "play_traced", "Setup", "Batch", "END_NAMES",
           "ENGINE_VERSION"]
