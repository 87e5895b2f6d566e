"""`balance train-player`: the `learned` player's weights, learned from the search's judgement.

1. Labels. Crisis games to exhaustion are played from `seed` onwards. At every tile rotation
   and every movement step with two options or more (the kinds asked for, KINDS), each
   option gets `rollouts` rollouts. These are the
   reference's rollouts (heuristics/search.py): the turn is replayed, the deck and room
   tiles the seat cannot see are resampled, the rollout player plays every seat to the end,
   and rollout r of every option shares one resampled world. An option's label is its mean
   final team score. The game goes on with the rollout player's own choice, so the labels
   describe the positions that player reaches.
2. Fit, one model per kind. Options are compared only within their decision, so features
   and labels are centred per decision, and a ridge regression (scikit-learn) finds the
   linear weights. The
   rollouts are split in halves: the fit reads the first half, and the held-out check the
   second. The games are split too: the last `holdout` share of them is never fitted.
3. Check. On the held-out games, each decision's pick by the weights is valued on the other
   half of the rollouts, against the rollout player's pick. A kind whose linear model gains
   nothing there gets weights of 0: learned then takes greedy's choices for it. The same
   check is made for a small two-layer network (scikit-learn's MLPRegressor) fitted to the
   same rows, and for the best option by the first half (the most any scorer could find in
   these labels). This says what each step of complexity bought.
4. The weights are written as a knob file of `learned` (NAME = VALUE lines), headed by the
   command, the data and the check. `--knobs FILE` and `[knobs]` read it. The shipped
   defaults are heuristics/gemrush/learned.knobs.toml.

With `--rollout learned` the rollouts (and the game's own choices) are the learned player's
with the weights given by `--knobs`. This is expert iteration: a better rollout policy gives
better labels.
"""

from __future__ import annotations

import dataclasses
import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from balance.games.gemrush.capacity import MAX_OPTS
from balance.games.gemrush.engine.decisions import D_ROTATION, D_STEP
from balance.games.gemrush.engine.game_nb import play_game_nb
from balance.games.gemrush.engine.state import new_state
from balance.games.gemrush.play import Setup, prepare
from balance.kernels.rng import seed_state
from balance.stats import paired
from heuristics.external import playing
from heuristics.gemrush.learned import PREFIX, STEP_PREFIX
from heuristics.gemrush.learned_nb import (
    FEATURES,
    N_FEATURES,
    N_STEP_FEATURES,
    STEP_FEATURES,
    greedy_step_nb,
    rotation_features_nb,
    step_features_nb,
)
from heuristics.gemrush.memory import copy_memory_nb, new_memory
from heuristics.gemrush.registry import PLAYERS
from heuristics.search import Search
from heuristics.search_nb import RP_AT

FORWARD_REF = "balance.games.gemrush.engine.forward:FORWARD"
ROSTER_REF = "heuristics.gemrush.registry:PLAYERS"
ROLLOUT_PLAYERS = ("greedy", "learned")


@dataclass(frozen=True)
class Kind:
    """A kind of decision the learned player scores: its engine kind, its features and the
    prefix of its weights' knobs."""

    name: str
    decision: int
    features: tuple[tuple[str, str], ...]
    prefix: str


KINDS = (Kind("rotations", D_ROTATION, FEATURES, PREFIX),
         Kind("steps", D_STEP, STEP_FEATURES, STEP_PREFIX))
BY_NAME = {k.name: k for k in KINDS}
BY_DECISION = {k.decision: k for k in KINDS}


@dataclass
class Labels:
    """One row per option of every labelled decision of one kind."""

    game: np.ndarray  # (rows,) the seed of the game
    decision: np.ndarray  # (rows,) the decision's number, from 0
    x: np.ndarray  # (rows, features)
    y_fit: np.ndarray  # (rows,) mean final team score, first half of the rollouts
    y_check: np.ndarray  # (rows,) the same, second half
    chosen: np.ndarray  # (rows,) bool: the rollout player's own pick
    games: int = 0
    seconds: float = 0.0

    @property
    def decisions(self) -> int:
        return int(self.decision.max()) + 1 if len(self.decision) else 0


def _labels(rows: list, width: int, games: int, seconds: float) -> Labels:
    size = [len(r[1]) for r in rows]
    return Labels(game=np.repeat([r[0] for r in rows], size).astype(np.int64),
                  decision=np.repeat(np.arange(len(rows)), size).astype(np.int64),
                  x=np.concatenate([r[1] for r in rows]) if rows else np.zeros((0, width)),
                  y_fit=np.concatenate([r[2] for r in rows]) if rows else np.zeros(0),
                  y_check=np.concatenate([r[3] for r in rows]) if rows else np.zeros(0),
                  chosen=np.concatenate([r[4] for r in rows]) if rows else np.zeros(0, bool),
                  games=games, seconds=seconds)


class _Labeler(Search):
    """A Python player that plays the rollout player's choices, and at each decision of the
    kinds asked for records every option's features and rollout values. Its seats carry the
    rollout player's weights; the search's own knobs read 0, and are not used."""

    def __init__(self, setup: Setup, st, rollouts: int, rollout_name: str, rows: dict,
                 game: int):
        super().__init__(setup, st, forward=FORWARD_REF, roster=ROSTER_REF,
                         rollout=PLAYERS.player(rollout_name))
        self.per = rollouts
        self.rows = rows  # kind -> rows, shared by every game: (game, features, ...) each
        # as many rows as any decision has options: the kernels write n rows unchecked
        self.feats = np.zeros((MAX_OPTS, max(N_FEATURES, N_STEP_FEATURES)), np.float64)
        self.game = game
        # greedy's memory as the rollout player keeps it (learned keeps greedy's too), and a
        # copy to compute features on (the step features ask greedy, whose plan must not see
        # the question twice)
        self.greedy = setup.players.mem.greedy
        self.scratch = new_memory(setup.tables, setup.rules.players)

    def choose(self, kind: int, n: int, p: int) -> int:
        s, st = self.setup, self.st
        in_turn = self.turn == int(self._turn(st))
        k = BY_DECISION.get(kind)
        wanted = in_turn and n >= 2 and k is not None and k.name in self.rows
        if wanted:
            tb, ru = s.tables, s.rules
            if kind == D_ROTATION:
                rotation_features_nb(st, tb, ru, s.players.w[p], n, p, self.feats)
            else:
                # As learned does it: greedy decides, then the features read its memory.
                copy_memory_nb(self.scratch, self.greedy)
                g0 = greedy_step_nb(st, tb, ru, s.players, self.scratch, n, p)
                step_features_nb(st, tb, ru, s.players.w[p], self.scratch, n, p, g0,
                                 self.feats)
        g = int(self._pick(self.then, kind, st, s.tables, s.rules, s.players, n, p))
        if wanted:
            self._label(k, n, p, g)
        if in_turn:
            self.history.append(g)
        return g

    def _label(self, kind: Kind, n: int, p: int, g: int) -> None:
        s, ws = self.setup, self.ws
        m = len(self.history) + 1
        self.replay[RP_AT: RP_AT + m - 1] = self.history
        self._copy_memories(ws.mem, s.players.mem)
        ws.seats.w[:] = s.players.w[p]
        vals = np.zeros((n, self.per))
        self._search_nb(ws, s.tables, s.rules, s.players.rng, m, np.arange(n, dtype=np.int64),
                        self.per, p, np.zeros(4 * self.per, np.int64), vals, 1)
        half = self.per // 2
        self.rows[kind.name].append((self.game, self.feats[:n, :len(kind.features)].copy(),
                                     vals[:, :half].mean(axis=1), vals[:, half:].mean(axis=1),
                                     np.arange(n) == g))


def label(setup: Setup, seeds, rollouts: int, rollout: str = "greedy",
          kinds: tuple[str, ...] = ("rotations", "steps"),
          progress: Callable[[int], None] | None = None) -> dict[str, Labels]:
    """Play one game per seed and label its decisions of `kinds` (the module's step 1).
    `setup` seats the rollout player; its seats are handed to the labeler here."""
    rows: dict = {k: [] for k in kinds}
    st = new_state(setup.tables, setup.rules)
    t = time.process_time()
    seeds = [int(x) for x in seeds]
    for seed in seeds:
        seated = setup.seated_for(seed)
        pp = seated.players._replace(pol=np.full_like(seated.players.pol, PLAYERS.python_policy))
        seated = dataclasses.replace(seated, players=pp)
        with playing(_Labeler(seated, st, rollouts, rollout, rows, seed)):
            play_game_nb(st, seated.tables, seated.rules, seated.players, seed_state(seed), 0,
                         0)
        if progress is not None:
            progress(1)
    dt = time.process_time() - t
    return {k: _labels(rows[k], len(BY_NAME[k].features), len(seeds), dt) for k in kinds}


def merge(parts: list[Labels]) -> Labels:
    """Labels of several batches of games as one, decisions numbered anew."""
    offset, decisions = 0, []
    for part in parts:
        decisions.append(part.decision + offset)
        offset += part.decisions
    return Labels(np.concatenate([p.game for p in parts]), np.concatenate(decisions),
                  np.concatenate([p.x for p in parts]), np.concatenate([p.y_fit for p in parts]),
                  np.concatenate([p.y_check for p in parts]),
                  np.concatenate([p.chosen for p in parts]), sum(p.games for p in parts),
                  sum(p.seconds for p in parts))


def label_chunk(edition, players, rules, content, knobs, seeds, rollouts, rollout,
                kinds) -> dict[str, Labels]:
    """label() in a worker process, from plain arguments."""
    s = prepare(edition, "crisis", players, rollout, exhaust=True, rules=rules,
                content=content, knobs=knobs)
    return label(s, seeds, rollouts, rollout, kinds)


def label_parallel(edition, players: int, seeds: np.ndarray, rollouts: int, rollout: str,
                   jobs: int, rules: dict | None = None, content=None, knobs: dict | None = None,
                   kinds: tuple[str, ...] = ("rotations", "steps"),
                   progress: Callable[[int], None] | None = None,
                   chunk: int = 8) -> dict[str, Labels]:
    """label() over `jobs` worker processes, `chunk` games a task."""
    # lazy: joblib's workers start only when labels are made
    from joblib import Parallel, delayed

    chunks = [seeds[i: i + chunk] for i in range(0, len(seeds), chunk)]
    tasks = (delayed(label_chunk)(edition, players, rules, content, knobs, c, rollouts,
                                  rollout, kinds) for c in chunks)
    parts = []
    for part in Parallel(n_jobs=jobs, return_as="generator")(tasks):
        parts.append(part)
        if progress is not None:
            progress(next(iter(part.values())).games)
    return {k: merge([part[k] for part in parts]) for k in kinds}


@dataclass
class Check:
    """Points a game that a scorer's picks gain over the rollout player's, on held-out games,
    each pick valued on the half of the rollouts no fit read (step 3)."""

    name: str
    per_decision: float
    low: float  # its 95% interval, per decision
    high: float
    per_game: float  # per_decision times the held-out games' decisions per game


@dataclass
class Fit:
    weights: dict[str, float]  # by feature name
    checks: list[Check] = field(default_factory=list)
    train_decisions: int = 0
    check_decisions: int = 0
    # False: the held-out check found the linear model no better than the rollout player's
    # picks, so its weights were set to 0 (the learned player then takes greedy's choices)
    kept: bool = True


def _centred(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """values less their mean over each decision's rows (rows of a decision are adjacent)."""
    _, start, count = np.unique(groups, return_index=True, return_counts=True)
    means = np.add.reduceat(values, start, axis=0) / (count[:, None] if values.ndim > 1
                                                      else count)
    return values - np.repeat(means, count, axis=0)


def _gain(scores: np.ndarray, lab: Labels, rows: np.ndarray, name: str, games: int) -> Check:
    """Step 3 for one scorer: each held-out decision's best-scoring option (the rollout
    player's pick on ties) valued on the second half of the rollouts, less that pick's: the
    paired difference over the decisions (balance/stats/paired.py)."""
    theirs, mine = [], []
    dec = lab.decision[rows]
    for d in np.unique(dec):
        r = rows[dec == d]
        s = scores[np.searchsorted(rows, r)]
        chosen = int(np.flatnonzero(lab.chosen[r])[0])
        best = int(np.argmax(s))
        if s[best] <= s[chosen] + 1e-9:
            best = chosen
        theirs.append(lab.y_check[r[chosen]])
        mine.append(lab.y_check[r[best]])
    g = paired.mean_difference(theirs, mine)
    per_game = len(mine) / max(games, 1)
    return Check(name, g.estimate, g.low, g.high, g.estimate * per_game)


def fit(lab: Labels, features: tuple[tuple[str, str], ...] = FEATURES, holdout: float = 0.25,
        alpha: float = 1.0, network: bool = True) -> Fit:
    """Steps 2 and 3: the ridge weights on the games before the held-out share, and the
    check of them, of a two-layer network and of the labels' own best, on the rest."""
    # lazy: scikit-learn loads only when a model is fitted
    from sklearn.linear_model import Ridge
    from sklearn.neural_network import MLPRegressor

    seeds = np.unique(lab.game)
    cut = seeds[int(np.floor(len(seeds) * (1 - holdout)))] if len(seeds) > 1 else seeds[-1] + 1
    train = np.flatnonzero(lab.game < cut)
    held = np.flatnonzero(lab.game >= cut)
    xc = _centred(lab.x, lab.decision)
    yc = _centred(lab.y_fit, lab.decision)
    # Within a decision a constant feature says nothing: the greedy column carries the rollout
    # player's own judgement, the rest what each option leaves the team.
    linear = Ridge(alpha=alpha, fit_intercept=False).fit(xc[train], yc[train])
    out = Fit({name: float(w) for (name, _doc), w in zip(features, linear.coef_, strict=True)},
              train_decisions=len(np.unique(lab.decision[train])),
              check_decisions=len(np.unique(lab.decision[held])))
    if len(held) == 0:
        return out
    n_held = len(np.unique(lab.game[held]))
    out.checks.append(_gain(lab.y_fit[held], lab, held, "the labels' own best (a ceiling)",
                            n_held))
    linear_check = _gain(lab.x[held] @ linear.coef_, lab, held, "linear (ridge)", n_held)
    out.checks.append(linear_check)
    if linear_check.per_decision <= 0:
        # A model that loses to the rollout player on decisions it never saw is not shipped.
        out.weights = dict.fromkeys(out.weights, 0.0)
        out.kept = False
    if network:
        mlp = MLPRegressor(hidden_layer_sizes=(32,), alpha=1e-2, max_iter=600,
                           random_state=0, early_stopping=True)
        mlp.fit(lab.x[train], yc[train])
        out.checks.append(_gain(mlp.predict(lab.x[held]), lab, held,
                                "two-layer network (32 hidden units)", n_held))
    return out


def knob_text(fits: dict[str, tuple[Fit, Labels]], how: str, rollouts: int,
              rollout: str, own: dict[str, float] | None = None) -> str:
    """The weights of each kind as one knob file of `learned`, headed by how they were made.

    `own`: the rollout player's own weights, when it is `learned` (a round of expert
    iteration). A kind whose new fit lost to the rollout player's picks, or that was not
    fitted, keeps them: dropping them would play greedy there, which the last round beat.
    Without them such a kind's weights are written as 0 (greedy's choices): a kind the file
    left out would play the shipped weights where it is read (a knob's default)."""
    own = own or {}
    lines = [f"# The learned player's weights, written by `{how}`.",
             f"# {rollouts} {rollout} rollouts an option; each kind fitted on the first "
             "games and checked on held-out games, each pick valued on rollouts the fit "
             "never read."]
    weights: dict[str, float] = {}
    for kind in KINDS:
        previous = {k: v for k, v in own.items() if k.startswith(kind.prefix)}
        if kind.name not in fits:
            if previous:
                lines.append(f"# {kind.name}: not fitted; the rollout player's weights are "
                             "kept.")
                weights.update(previous)
            else:
                lines.append(f"# {kind.name}: not fitted; its weights are 0, and learned "
                             "takes greedy's choices here.")
                weights.update(dict.fromkeys((kind.prefix + name for name, _ in kind.features),
                                             0.0))
            continue
        result, lab = fits[kind.name]
        lines.append(f"# {kind.name}: {lab.games:,} games, {lab.decisions:,} decisions, "
                     f"{len(lab.x):,} options ({lab.seconds:,.0f} CPU-s, all kinds); fitted "
                     f"on {result.train_decisions:,} decisions, checked on "
                     f"{result.check_decisions:,}:")
        lines += [f"#   {c.name}: {c.per_game:+.3f} points a game over {rollout}'s picks "
                  f"({c.per_decision:+.4f} a decision, {c.low:+.4f} to {c.high:+.4f})"
                  for c in result.checks]
        fitted = {f"{kind.prefix}{name}": w for name, w in result.weights.items()}
        if result.kept:
            weights.update(fitted)
        elif previous:
            lines.append(f"#   The linear model did not beat {rollout}'s picks: the rollout "
                         "player's weights are kept here.")
            weights.update(dict.fromkeys(fitted, 0.0) | previous)
        else:
            lines.append(f"#   The linear model did not beat {rollout}'s picks: its weights "
                         "are 0, and learned takes greedy's choices here.")
            weights.update(fitted)
    lines.append('player = "learned"')
    lines += [f"{name} = {round(w, 6)!r}" for name, w in weights.items()]
    return "\n".join(lines) + "\n"


def label_bytes(labels: dict[str, Labels]) -> bytes:
    """The labels as a NumPy archive, for a fit of one's own: for each kind, <kind>_game,
    _decision, _x, _y_fit, _y_check, _chosen and _features."""
    arrays = {}
    for kind in KINDS:
        if kind.name not in labels:
            continue
        lab = labels[kind.name]
        arrays.update({f"{kind.name}_game": lab.game, f"{kind.name}_decision": lab.decision,
                       f"{kind.name}_x": lab.x.astype(np.float32),
                       f"{kind.name}_y_fit": lab.y_fit, f"{kind.name}_y_check": lab.y_check,
                       f"{kind.name}_chosen": lab.chosen,
                       f"{kind.name}_features": np.array([n for n, _doc in kind.features])})
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()


__all__ = ["KINDS", "Kind", "Labels", "Fit", "Check", "label", "label_parallel", "merge", "fit",
           "knob_text", "label_bytes", "ROLLOUT_PLAYERS"]
