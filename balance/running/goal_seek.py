"""Goal seeking: the value of one whole-number lever that meets a goal, with an interval on
that value (`balance tune`).

A goal names one of the game's measures (balance/contract/game.py, Game.measures) and the
value it should take: `score=40` a mean, `win=50%` a rate (a percentage). The game may read
other names as a measure with an argument (its `goals` hook: `seat1=19%` as one seat's share
of the wins, a named level of a measure).

The outcome is taken to move one way with the lever (more cost, fewer wins). Every value is
played on the same games 0..n-1 (common seeds), so two values differ by the lever alone:

1. bisection over the lever's range with a first batch of games per value;
2. the two neighbouring values that bracket the goal get more games, doubling, until each
   one's 95% interval clears the goal on its own side, or the game budget is spent;
3. the answer: the whole value whose outcome is closest to the goal (`nearest`), the value
   where the outcome crosses the goal (`interpolate`d between the two), and an interval on
   the crossing from where the outcome's interval bands cross the goal (`band_crossings`,
   inverting the test at each value played).

A report that reads such an answer off a curve of every lever value (the lever's value for
chosen win rates) uses the same three functions: on the same games the report and
`balance tune` print the same value.

A rate is a share of the decided games (balance/stats/measures.py): a game that stopped
undecided (one of the game's undecided_ends), or whose value is unknown, has no outcome (NaN)
and counts in no estimate; each value's table row says how many games it counted. A lever
value where no game counts has no estimate: the search stops there and says so
(`SeekResult.unmeasured`) rather than read an undecided game as a loss.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from balance.contract.experiment import KNOB_PREFIX, VARIANT_KEYS
from balance.contract.game import Game, resolve
from balance.errors import InputError, Problem
from balance.running.experiment import parse_experiment, resolve_experiment_path
from balance.running.runner import _collect, jobs_for  # a lost worker: RunFailed, as a run's
from balance.running.store.layout import Shard
from balance.stats.intervals import wilson
from balance.stats.paired import mean_difference, too_few

FIRST_GAMES = 400
MAX_GAMES = 20_000  # per lever value, unless the caller says otherwise


@dataclass(frozen=True)
class Goal:
    measure: str  # the name of one of the game's measures
    at: str | int | None  # what the goal's name adds to the measure (the game's goals hook)
    value: float  # a rate from 0 to 1, or a mean
    text: str
    binary: bool = False  # the measure is a rate

    def show(self, x: float) -> str:
        if not math.isfinite(x):
            return "–"
        return f"{100 * x:.1f}%" if self.binary else f"{x:.2f}"


_GOAL = re.compile(r"^\s*([A-Za-z][\w ]*?|\d+)\s*=\s*([0-9.]+)\s*(%?)\s*$")


def parse_goal(text: str, game: Game, where: str = "--goal") -> Goal:
    """NAME=VALUE, or NAME=VALUE% for a rate: NAME a measure of the game's, or a name its
    goals hook reads as one."""
    from balance.stats import course  # lazy: its measures are polars expressions

    m = _GOAL.match(text or "")
    names = ", ".join(f"{x.name}={'50%' if x.kind == 'rate' else 'X'}"
                      for x in (*game.measures, *course.of_game(game)))
    bad = InputError([Problem(where, "", "", f"{text!r} is not a goal: write MEASURE=VALUE, "
                              f"a rate as a percentage ({names})")])
    if not m:
        raise bad
    name, number, pct = m.group(1).strip(), m.group(2), m.group(3)
    try:
        value = float(number)
    except ValueError:
        raise bad from None
    measure, at = _measure(game, name, text, where)
    if measure is None:
        raise bad
    if measure.kind == "mean":
        if pct:
            what = f"; it is {measure.help}" if measure.help else ""
            raise InputError([Problem(where, "", "", f"{text!r}: {name} is a mean, not a rate: "
                                      f"write its value as a number, without %{what}")])
        if not math.isfinite(value):
            raise bad
        return Goal(measure.name, at, value, text.strip())
    if not pct or not 0 < value < 100:
        raise InputError([Problem(where, "", "", f"{text!r}: a rate goal is a percentage "
                                  f"strictly between 0% and 100%, e.g. {name}=50%")])
    return Goal(measure.name, at, value / 100, text.strip(), True)


def _measure(game: Game, name: str, text: str, where: str):
    """(Measure or None, at) for a goal's name."""
    from balance.stats import course  # lazy: its measures are polars expressions

    found = course.find(game, name)
    if found is not None:
        return found, None
    kind = course.kind_of(name)
    if kind is not None:
        # A course measure of the other kind of game: no run of this game could measure it.
        which = ("a cooperative game's, its team against a goal" if kind == "team" else
                 "a race's, where one seat wins")
        raise InputError([Problem(where, "", "", f"{text!r}: {name} is {which}; "
                                  f"{game.title} has no games of that kind")])
    if not game.goals:
        return None, None
    try:
        found = game.hook("goals")(name)
    except ValueError as e:
        raise InputError([Problem(where, "", "", f"{text!r}: {e}")]) from None
    if found is None:
        return None, None
    return game.measure(found[0]), found[1]


@dataclass
class Point:
    """One lever value and the outcome of games 0..n-1 at it."""

    value: int
    outcomes: np.ndarray  # one per game, in game order; NaN: the game has none (undecided)

    @property
    def n(self) -> int:
        return len(self.outcomes)

    @property
    def counted(self) -> int:
        """The games with an outcome: for a rate, the decided games its value is known for."""
        return int(np.isfinite(self.outcomes).sum())

    def estimate(self, binary: bool) -> tuple[float, float, float]:
        """(estimate, 95% low, 95% high) over the games with an outcome: Wilson for a rate,
        Student's t for a mean. With too few of them (balance.stats.paired.MIN_PAIRS) the
        bounds are NaN: they clear no goal; with none, the estimate is NaN too."""
        x = self.outcomes[np.isfinite(self.outcomes)]
        if len(x) == 0:
            return math.nan, math.nan, math.nan
        m = float(x.mean())
        if too_few(len(x)):
            return m, math.nan, math.nan
        if binary:
            lo, hi = wilson(int(x.sum()), len(x))
            return m, lo, hi
        r = mean_difference(np.zeros(len(x)), x)  # the mean's t interval
        return m, r.low, r.high


@dataclass
class SeekResult:
    goal: Goal
    lever: str
    lo: int
    hi: int
    reached: bool  # the goal lies within the outcomes over [lo, hi]
    crossing: float | None  # the interpolated value where the outcome meets the goal
    closest: int | None  # the whole value whose outcome is closest to the goal
    low: float | None  # 95% interval on the crossing
    high: float | None
    sure: bool  # the bracketing values' intervals each clear the goal
    points: dict[int, Point] = field(default_factory=dict)
    # Lever values where no game had an outcome (every game undecided): the search stopped.
    unmeasured: list[int] = field(default_factory=list)

    def table(self) -> list[tuple[int, int, int, float, float, float]]:
        """(value, games, games counted, estimate, low, high) for every value played, in
        value order."""
        return [(v, p.n, p.counted, *p.estimate(self.goal.binary))
                for v, p in sorted(self.points.items())]


Evaluate = Callable[[int, int, int], np.ndarray]  # (value, start, stop) -> outcomes


def seek(evaluate: Evaluate, lo: int, hi: int, goal: Goal, lever: str = "lever",
         first: int = FIRST_GAMES, most: int = MAX_GAMES) -> SeekResult:
    """Find where the outcome, monotone in the lever over whole values lo..hi, meets the goal.
    `evaluate(value, start, stop)` plays games start..stop-1 at `value`."""
    points: dict[int, Point] = {}

    def play(v: int, n: int) -> Point:
        p = points.get(v)
        have = 0 if p is None else p.n
        if n > have:
            more = np.asarray(evaluate(v, have, n), dtype=float)
            p = Point(v, more if p is None else np.concatenate([p.outcomes, more]))
            points[v] = p
        return points[v]

    def est(v: int) -> float:
        return points[v].estimate(goal.binary)[0]

    play(lo, first)
    play(hi, first)
    result = SeekResult(goal, lever, lo, hi, False, None, None, None, None, False, points)
    result.unmeasured = [v for v in (lo, hi) if not math.isfinite(est(v))]
    if result.unmeasured:
        return result
    sign = 1.0 if est(hi) >= est(lo) else -1.0

    def above(v: int) -> bool:  # the outcome at v is past the goal, in the lever's direction
        return sign * (est(v) - goal.value) >= 0

    if above(lo) == above(hi):
        # The goal is outside what the range gives: say which end comes closest.
        result.closest = min((lo, hi), key=lambda v: abs(est(v) - goal.value))
        return result
    result.reached = True
    a, b = lo, hi  # invariant: a below the goal, b past it
    while b - a > 1:
        mid = (a + b) // 2
        play(mid, first)
        if not math.isfinite(est(mid)):
            result.reached, result.unmeasured = False, [mid]
            return result
        a, b = (a, mid) if above(mid) else (mid, b)
    # Refine the bracket: double the games at both ends until each interval clears the goal
    # on its own side; noise can move the bracket to a neighbour as the games grow.
    n = first
    while True:
        pa, pb = play(a, n), play(b, n)
        _, alo, ahi = pa.estimate(goal.binary)
        _, blo, bhi = pb.estimate(goal.binary)
        clear_a = (ahi < goal.value) if sign > 0 else (alo > goal.value)
        clear_b = (blo > goal.value) if sign > 0 else (bhi < goal.value)
        if not above(b) and b < hi:
            a, b = b, b + 1
            continue
        if above(a) and a > lo:
            a, b = a - 1, a
            continue
        if (clear_a and clear_b) or n >= most:
            result.sure = clear_a and clear_b
            break
        n = min(most, 2 * n)
    result.crossing = interpolate(a, est(a), b, est(b), goal.value)
    # The interval is read between neighbouring values played on the bracket's n games, as
    # a report reads it off a curve of every value: play outwards from the bracket until
    # each band has crossed the goal (or the range ends).
    block = _band_block(play, a, b, n, goal, sign, lo, hi)
    rows = [points[v].estimate(goal.binary) for v in block]
    result.closest = nearest(block, [r[0] for r in rows], goal.value)
    result.low, result.high = band_crossings(block, rows, goal.value, sign, lo, hi)
    return result


def _band_block(play: Callable[[int, int], Point], a: int, b: int, n: int, goal: Goal,
                sign: float, lo: int, hi: int) -> list[int]:
    """The whole values from where the band nearer the lever's low end crosses the goal to
    where the other does, each played on n games; a and b are the bracket."""
    def past(v: int, band: int) -> bool:  # band 1: the low end of the interval, 2: the high
        y = play(v, n).estimate(goal.binary)[band]
        return math.isfinite(y) and sign * (y - goal.value) >= 0

    if too_few(n):
        return [a, b]  # no bands to follow
    first_band, last_band = (2, 1) if sign > 0 else (1, 2)
    start, stop = a, b
    while start > lo and past(start, first_band):
        start -= 1
    while stop < hi and not past(stop, last_band):
        stop += 1
    return list(range(start, stop + 1))


def interpolate(a: int, ea: float, b: int, eb: float, goal: float) -> float:
    """Where the line through (a, ea) and (b, eb) meets the goal: the crossing of the outcome
    between two neighbouring values that bracket it."""
    return a + (goal - ea) / (eb - ea) * (b - a) if eb != ea else (a + b) / 2


def nearest(values: list[int], estimates: list[float], goal: float) -> int:
    """The value whose outcome is closest to the goal; of two as close, one whose outcome is
    at least the goal, the largest such (a flat stretch of a curve, where no game ended on
    the values between, names its largest value)."""
    gaps = [abs(e - goal) if math.isfinite(e) else math.inf for e in estimates]
    best = min(gaps)
    tied = [i for i, g in enumerate(gaps) if math.isclose(g, best, rel_tol=1e-9, abs_tol=1e-12)]
    at_least = [i for i in tied if estimates[i] >= goal]
    return int(values[max(at_least or tied, key=lambda i: values[i])])


def band_crossings(values: list[int], rows: list[tuple[float, float, float]], goal: float,
                   sign: float, lo: float, hi: float) -> tuple[float, float]:
    """Where the outcome's 95% bands cross the goal: the values the test at each lever value
    cannot tell from the crossing. `rows` are (estimate, low, high) per value, in value
    order; `sign` is +1 when the outcome grows with the value. Linear between the values
    given; a band that never crosses leaves the range's end (lo, hi)."""
    # In the lever's direction the upper band reaches the goal first (the lower end of the
    # interval), the lower band last.
    near = [r[2] if sign > 0 else r[1] for r in rows]
    far = [r[1] if sign > 0 else r[2] for r in rows]

    def first_past(band: list[float], default: float) -> float:
        # A value with no band (too few games counted there) is passed over.
        known = [(v, y) for v, y in zip(values, band, strict=True) if math.isfinite(y)]
        for i, (v, y) in enumerate(known):
            if sign * (y - goal) >= 0:
                if i == 0:
                    return float(v)
                v0, y0 = known[i - 1]
                return v0 + (goal - y0) / (y - y0) * (v - v0) if y != y0 else float(v)
        return default

    return first_past(near, float(lo)), first_past(far, float(hi))


# -- the lever, on an experiment ------------------------------------------------------------

def lever_data(data: dict, lever: str, value: int, game: Game) -> dict:
    """The experiment's parsed file with the lever set to `value`: a number in one of the
    game's own tables (an entry's field, NAME.FIELD, in one of Game.experiment_tables), a
    variant key in [experiment] (players, or one of the game's experiment keys), a player's
    knob (knob.NAME) in [knobs], anything else a rule setting in [rules]."""
    out = copy.deepcopy(data)
    name, _, fld = lever.partition(".")
    own = [t for t in game.experiment_tables
           if fld and isinstance(out.get(t), dict) and name in out[t]]
    if own:
        out[own[0]][name][fld] = value
    elif lever in VARIANT_KEYS or lever in game.experiment_keys:
        out.setdefault("experiment", {})[lever] = value
    elif lever.startswith(KNOB_PREFIX):
        out.setdefault("knobs", {})[lever[len(KNOB_PREFIX):]] = value
    else:
        out.setdefault("rules", {})[lever] = value
    return out


def outcomes(games, goal: Goal, variant: dict, game: Game) -> np.ndarray:
    """Each game's outcome for the goal, from a games table (polars) of one variant, which
    `variant` describes as the manifest records it (Variant.describe). A rate's outcome is
    NaN in a game that stopped undecided or whose value is unknown (null): it counts in no
    estimate."""
    import polars as pl  # lazy: goal seeking's search itself needs no DataFrame

    from balance.stats import course  # lazy: as polars
    from balance.stats.measures import undecided_of  # lazy: as polars

    m = course.find(game, goal.measure)
    if course.is_course(m):
        x = course.values(games, m.name, game)
    elif m.outcome:
        x = np.asarray(resolve(m.outcome)(games, variant, goal), dtype=float)
    else:
        x = games[m.column].cast(pl.Float64).fill_null(math.nan).to_numpy().astype(float)
    if m.kind == "rate":
        x = np.where(undecided_of(games, game.undecided_ends), math.nan, x)
    return x


MAX_RANGE = 100_000


def experiment_evaluator(exp, lever: str, goal: Goal, jobs: int = 1,
                         on_games: Callable[[int], None] | None = None):
    """evaluate(value, start, stop) for seek(): plays games start..stop-1 of the experiment
    with the lever at `value` (in memory, nothing written), and `check(value)` that compiles
    that variant or raises InputError naming the lever and value."""
    import polars as pl  # lazy: goal seeking's search itself needs no DataFrame
    import pyarrow as pa

    untunable(exp.game, lever)
    if lever in exp.grid:
        raise InputError([Problem(exp.file, "[grid]", lever, "is the lever `balance tune` "
                                  "sets: take it out of [grid]")])
    if exp.variants[0].control:
        raise InputError([Problem(exp.file, "[experiment]", "control", "adds the unchanged "
                                  "variant as one of its own; `balance tune` seeks one lever "
                                  "in one variant: leave control out")])
    if len(exp.variants) != 1:
        raise InputError([Problem(exp.file, "[grid]", "", f"makes {len(exp.variants)} "
                                  "variants; `balance tune` seeks one lever in one variant: "
                                  "fix the other grid keys in [experiment] or [rules]")])
    base_dir = resolve_experiment_path(exp.file).parent
    compiled: dict[int, object] = {}

    def check(value: int):
        if value not in compiled:
            try:
                compiled[value] = parse_experiment(lever_data(exp.data, lever, value, exp.game),
                                                   exp.text, exp.file, base_dir)
            except InputError as e:
                raise InputError([Problem(p.file, p.where, p.field,
                                          f"with {lever} = {value}: {p.message}")
                                  for p in e.problems]) from None
        return compiled[value]

    def evaluate(value: int, start: int, stop: int) -> np.ndarray:
        e = check(value)
        size = max(100, math.ceil((stop - start) / max(1, jobs)))
        shards = [Shard(0, a, min(a + size, stop)) for a in range(start, stop, size)]
        parts = []
        for r in _collect(jobs_for(e, shards), jobs, None):
            parts.append(r)
            if on_games:
                on_games(r.shard.games)
        parts.sort(key=lambda r: r.shard.start)
        games = pl.from_arrow(pa.concat_tables([r.tables["games"] for r in parts]))
        return outcomes(games, goal, e.variants[0].describe(), exp.game)

    return evaluate, check


def untunable(game: Game, lever: str) -> None:
    """A rule setting of words or a switch has no whole values to bisect: one message that
    says so and what compares its values instead, before anything is compiled or played."""
    setting = next((s for s in game.settings if s.name == lever), None)
    if setting is None or setting.kind not in (str, bool):
        return
    values = ", ".join(setting.choices) if setting.kind is str else "true, false"
    raise InputError([Problem("--lever", "", lever, f"is a setting of {values}, not a whole "
                              "number: `balance tune` seeks a whole-number lever; compare its "
                              "values in an experiment's [grid] (`balance run`, then "
                              "`balance compare`)")])


def check_range(lo: int, hi: int, where: str = "--range") -> None:
    if not hi > lo or hi - lo > MAX_RANGE:
        raise InputError([Problem(where, "", "", f"needs LOW:HIGH with LOW < HIGH and at most "
                                  f"{MAX_RANGE:,} apart, got {lo}:{hi}")])
