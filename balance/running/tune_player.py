"""Tune a player's knobs: CMA-ES (the `cma` package) over the knobs' declared ranges, every
candidate played on the same game seeds (common random numbers), then the winner checked
against the defaults on fresh seeds with a paired interval, so that a designer who changed a
game's content or rules can re-tune its baseline player and see what it gained.

The game says what a candidate is scored on (its objective: per game, a number that more is
better of) and which knobs are tuned. Given several player counts, a candidate plays the same
games at each, and the objective is the mean over the counts: one set of knobs for the game,
not one that helps at 4 players and loses at 1."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import stats

from balance import files
from balance.contract.tuning import MAX_SEED
from balance.errors import InputError, Problem, Problems
from balance.running.seeds import game_seeds
from balance.stats.distributions import t_quantile
from balance.stats.intervals import CONFIDENCE, UPPER
from balance.textfile import read_toml

# (player count, knob values or None for the defaults, seeds) -> one objective value a game
Objective = Callable[[int, dict | None, np.ndarray], np.ndarray]
SIGMA = 0.2  # CMA-ES's first step, as a share of each knob's range


@dataclass
class Check:
    """Tuned against default knobs at one player count, on the validation seeds."""
    players: int
    tuned: float
    default: float
    diff_low: float  # 95% paired interval of tuned - default
    diff_high: float


@dataclass
class TuneResult:
    player: str
    knobs: dict[str, float]
    defaults: dict[str, float]
    objective: str
    tuned: float  # on the validation seeds
    default: float
    tuned_on_tuning_seeds: float
    default_on_tuning_seeds: float
    diff_low: float  # 95% paired interval of tuned - default
    diff_high: float
    games: int  # per candidate and player count
    validation_games: int
    evaluations: int
    players: tuple[int, ...] = ()
    by_players: tuple[Check, ...] = ()  # one per count, in the order of `players`


def tune_player(name: str, knobs, objective: Objective, objective_name: str,
                players: int | list[int], games: int, evaluations: int, seed: int = 0,
                validation_games: int | None = None, progress=None) -> TuneResult:
    """Tune `knobs` (heuristics.knobs.Knob, each with its range and default) of player `name`
    for `objective` at each player count of `players`."""
    import cma  # lazy: read_knobs (`balance play --knobs`) needs no optimiser

    counts = [players] if isinstance(players, int) else list(dict.fromkeys(players))
    probs = Problems("tune-player")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        probs.add("", "seed", f"must be a whole number from 0 to {MAX_SEED} (the fresh games "
                  f"that check the result are seeded seed + 1), got {seed!r}")
    if not knobs:
        probs.add("", "player", f"player {name!r} has no knobs to tune")
    if not counts:
        probs.add("", "players", "name at least one player count")
    probs.raise_if_any()

    def score(values: dict | None, seeds) -> float:
        """The objective: the mean over the player counts, each on the same seeds."""
        return float(np.mean([objective(n, values, seeds).mean() for n in counts]))

    lo = np.array([k.lo for k in knobs])
    hi = np.array([k.hi for k in knobs])

    def decode(x) -> dict[str, float]:
        v = lo + np.clip(x[: len(knobs)], 0, 1) * (hi - lo)
        return {k.name: (float(round(val)) if k.integer else float(val))
                for k, val in zip(knobs, v, strict=True)}

    tune_seeds = game_seeds(seed, 0, games)
    x0 = (np.array([k.default for k in knobs]) - lo) / np.where(hi > lo, hi - lo, 1)
    if len(knobs) == 1:
        # pycma does not search one dimension (its issues #86 and #302): a second coordinate,
        # which no knob reads, gives it two.
        x0 = np.append(x0, 0.5)
    # A fifth of each knob's range is the first step, or the knob's own step where it names
    # one (pycma scales sigma per coordinate by CMA_stds).
    stds = [k.step / (k.hi - k.lo) / SIGMA if k.step and k.hi > k.lo else 1.0 for k in knobs]
    stds += [1.0] * (len(x0) - len(stds))
    es = cma.CMAEvolutionStrategy(list(x0), SIGMA, {"bounds": [0, 1], "seed": seed % 2**31 + 1,
                                                     "maxfevals": evaluations, "verbose": -9,
                                                     "CMA_stds": stds})
    # The defaults are the first candidate: the tuned knobs never do worse on these seeds.
    # (Exactly the defaults: decode(x0) can differ in the last bit, and so in a game.)
    defaults = {k.name: float(k.default) for k in knobs}
    best, done = defaults, 1
    best_f = default_f = score(defaults, tune_seeds)
    if progress:
        progress(1)
    while not es.stop() and done < evaluations:
        # A generation is CMA-ES's population, 4 + 3 ln(knobs) candidates (12 for greedy's
        # 15 knobs): the last is cut to what the budget leaves, and not told back (the
        # search ends there), so --evaluations is the number of candidates played.
        xs = es.ask()[: evaluations - done]
        fs = []
        for x in xs:
            values = decode(x)
            f = score(values, tune_seeds)
            fs.append(-f)
            done += 1
            if f > best_f:
                best, best_f = values, f
            if progress:
                progress(1)
        if done < evaluations:
            es.tell(xs, fs)
    n_val = validation_games or games
    val_seeds = game_seeds(seed + 1, 0, n_val)  # fresh seeds: the tuning seeds flatter
    checks, diffs = _validated(objective, counts, best, val_seeds)
    low, high = _overall(checks, diffs)
    return TuneResult(name, best, defaults, objective_name,
                      float(np.mean([c.tuned for c in checks])),
                      float(np.mean([c.default for c in checks])), best_f, default_f,
                      low, high, games, n_val, done, tuple(counts), tuple(checks))


def _validated(objective: Objective, counts: list[int], tuned: dict, seeds):
    """The tuned knobs against the defaults at each count on fresh seeds: (checks, per-game
    differences at each count)."""
    checks, diffs = [], []
    for n in counts:
        a = objective(n, tuned, seeds)
        b = objective(n, None, seeds)
        ci = stats.ttest_1samp(a - b, 0.0).confidence_interval(CONFIDENCE)
        checks.append(Check(n, float(a.mean()), float(b.mean()), float(ci.low), float(ci.high)))
        diffs.append(a - b)
    return checks, diffs


def _overall(checks: list[Check], diffs: list[np.ndarray]) -> tuple[float, float]:
    """The paired 95% interval of tuned - default over every count: the mean over the counts
    of the per-game differences; the counts' games are independent, so the variances of
    their means add."""
    if len(checks) == 1:
        return checks[0].diff_low, checks[0].diff_high
    d = np.mean([x.mean() for x in diffs])
    se = np.sqrt(sum(x.var(ddof=1) / len(x) for x in diffs)) / len(diffs)
    dof = sum(len(x) - 1 for x in diffs)
    half = t_quantile(dof, UPPER) * se if np.isfinite(se) else float("nan")
    return float(d - half), float(d + half)


def write_knobs(result: TuneResult, path: Path, how: str) -> None:
    """The tuned knobs as a TOML file that `balance play --knobs` reads (knobs_text), at
    `path`, which must not exist yet (files.write_new: InputError naming it if it does)."""
    files.write_new(path, knobs_text(result, how).encode("utf-8"), "--out")


def knobs_text(result: TuneResult, how: str) -> str:
    """The tuned knobs as the text of a knob file, headed by `how` they were tuned."""
    lines = [f"# Knobs of {result.player!r} tuned by `{how}`.",
             f"# {result.objective}: {result.tuned:.3f} against {result.default:.3f} with the "
             f"defaults on {result.validation_games} fresh games (paired 95% interval of the "
             f"difference {result.diff_low:+.3f} to {result.diff_high:+.3f})"
             + (f", the mean over {', '.join(map(str, result.players))} players." if
                len(result.players) > 1 else "."),
             f"player = {result.player!r}".replace("'", '"')]
    if len(result.by_players) > 1:
        lines[2:2] = [f"#   {c.players} players: {c.tuned:.3f} against {c.default:.3f} "
                      f"({c.diff_low:+.3f} to {c.diff_high:+.3f})" for c in result.by_players]
    lines += [f"{k} = {v!r}" for k, v in result.knobs.items()]  # repr: read back exactly
    return "\n".join(lines) + "\n"


def knobs_player(path: str | Path, default: str) -> str:
    """The player a knob file names (`player = "..."`), else `default` (the caller's game's
    player whose knobs a file without `player` holds)."""
    p = Path(path)
    name = read_toml(p, "knob file").get("player", default)
    if not isinstance(name, str):
        raise InputError([Problem(str(p), "", "player", f"must be a player's name, got "
                                  f"{name!r}")])
    return name


def read_knobs(path: str | Path) -> dict[str, float]:
    """Knob values from a file written by `balance tune-player` (or by hand): NAME = VALUE
    lines, with an optional `player` naming whose knobs they are."""
    p = Path(path)
    probs = Problems(str(p))
    data = read_toml(p, "knob file")  # the one reader: a pipe or /dev/zero is refused
    data.pop("player", None)
    for k, v in data.items():
        if isinstance(v, bool) or not isinstance(v, int | float):
            probs.add("", k, f"must be a number, got {v!r}")
    probs.raise_if_any()
    return {k: float(v) for k, v in data.items()}
