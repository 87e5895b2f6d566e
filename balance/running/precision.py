"""Play to a precision: `balance run --precision 0.5` plays rounds of whole shards until every
headline interval (reports/headline.py) is at most 0.5 percentage points either side, or the
game cap is reached.

Each round is an ordinary run of the experiment with more games per variant: game i has the
same seed whatever the run's size (balance/running/seeds.py), and a rerun with more games only adds
shards. So the games played are exactly games 0..n-1, and the result is the fixed run of
that size, file for file. Rounds end on a shard boundary (no shard is played twice), except
the last one at the cap.

A headline rate is a share of the decided games (balance/stats/measures.py). A rate that
counts no game (every game of a variant stopped undecided) has no interval, so it is never
precise: the rounds go on to the cap and the report names it (`Round.unmeasured`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from balance.errors import InputError, Problem
from balance.running.experiment import Experiment, check_game_count
from balance.running.runner import run_experiment
from balance.running.store.layout import MANIFEST
from balance.running.store.manifest import read_manifest
from balance.running.store.read import scan_run
from balance.stats.measures import headline_rates, unmeasured, widest_half_width

# Half-widths shrink as 1/sqrt(n): the next round aims at the games the widest interval
# needs, but grows at least by this much (a round has a fixed cost) and at most by GROW_MAX
# (an estimate from few games can be far off).
GROW_MIN = 1.25
GROW_MAX = 4.0
MIN_PRECISION = 0.01  # percentage points: finer needs more games than MAX_GAMES


@dataclass
class Round:
    games: int  # per variant, after the round
    widest: float  # widest headline half-width, in percentage points
    # The headline rates that count no game yet (every game undecided, say), in words
    unmeasured: list[str] = field(default_factory=list)


@dataclass
class PrecisionReport:
    run_dir: Path
    precision: float
    reached: bool
    rounds: list[Round] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.rounds[-1].games if self.rounds else 0


def check_precision(precision: float, where: str = "--precision") -> None:
    if not (isinstance(precision, int | float) and math.isfinite(precision)
            and MIN_PRECISION <= precision <= 50):
        raise InputError([Problem(where, "", "", f"must be between {MIN_PRECISION} and 50 "
                                  f"percentage points, got {precision}")])


def next_games(games: int, widest_pp: float, precision: float, shard_size: int,
               cap: int) -> int:
    """Games per variant for the next round: what the widest interval needs at 1/sqrt(n),
    held between GROW_MIN and GROW_MAX times the current count, rounded up to whole shards
    and capped."""
    need = games * (widest_pp / precision) ** 2
    want = min(max(need, games * GROW_MIN), games * GROW_MAX)
    return min(cap, math.ceil(want / shard_size) * shard_size)


def _games_on_disk(run_dir: Path) -> int:
    if not (run_dir / MANIFEST).is_file():
        return 0
    try:
        return int(read_manifest(run_dir)["games_per_variant"])
    except (InputError, KeyError, TypeError, ValueError):
        return 0  # run_experiment names what is wrong with the folder


def widest_now(run_dir: Path) -> tuple[float, list[str]]:
    """The widest headline half-width of the run as it is on disk, in percentage points (100
    while a rate counts no game), and the rates that count none."""
    scan = scan_run(run_dir)
    rates = headline_rates(scan.games, read_manifest(run_dir))
    missing = [f"variant {v}: {name}, a share of {of}, has none ({u:,} games stopped "
               "undecided)" for v, name, u, of in
               unmeasured(rates).select("variant", "measure", "undecided", "of").rows()]
    return 100 * widest_half_width(rates), missing


def run_to_precision(exp: Experiment, out: str | Path, precision: float, cap: int | None = None,
                     jobs: int | None = None, scheduler: str | None = None,
                     on_round: Callable[[int, int], None] | None = None,
                     on_shard: Callable[[int], None] | None = None) -> PrecisionReport:
    """Rounds of run_experiment until the headline is precise enough or `cap` games per
    variant (default: the file's `games`) are played. on_round(round_games_total,
    already_done) is called as each round starts (for a progress bar)."""
    from balance.stats.paired import too_few  # lazy: scipy, which `balance run` alone spares

    check_precision(precision)
    cap = exp.games if cap is None else cap
    check_game_count(cap, len(exp.variants), exp.shard_size, "--games", "")
    report = PrecisionReport(Path(out) / exp.name, precision, False)
    games = min(cap, exp.shard_size)
    done = _games_on_disk(report.run_dir)
    if done > games:  # a rerun goes on from what is there (a run never shrinks)
        games = done
    while True:
        run_experiment(exp, out, games, jobs, scheduler, on_start=on_round, on_shard=on_shard)
        widest, missing = widest_now(report.run_dir)
        report.rounds.append(Round(games, widest, missing))
        # A narrow interval from a handful of games is no precision (balance.stats.paired's rule).
        if widest <= precision and not too_few(games):
            report.reached = True
            return report
        if games >= cap:
            return report
        games = next_games(games, widest, precision, exp.shard_size, cap)
