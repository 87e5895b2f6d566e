"""Issue 25, items 9, 10 and 17: the same games never count twice, a handful of games never
claims certainty, and a lost Dask scheduler is a failed run, not a traceback.

- Item 9: two run folders that hold the same games (a copy, a partial copy, the same
  experiment run into another folder) are refused by `balance report`, naming both folders,
  before anything is written (CASES); runs of other seeds are still reported together.
- Item 10: below balance.stats.paired.MIN_PAIRS games in common, every comparison says "too few
  games to compare" and finds nothing; a constant difference gets the exact sign test's
  p-value, so that six games are weighed as six games (ordinary tests).
- Item 17: a Dask scheduler closed while a run plays ends in exit 1 with one message, and the
  resume gives the same shards, byte for byte, as a run never interrupted.
"""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from balance.errors import InputError
from balance.running import runner, store
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from balance.running.store.write import write_shard
from balance.stats import paired
from reports.compare import compare_text
from reports.compare.compare import compare
from tests.fuzz import (
    BASE,
    EXPERIMENT,
    Case,
    assert_refused_cleanly,
    copy_run,
    make_base_runs,
)
from tests.local_cluster import local_cluster

# -- item 9: the same games twice ------------------------------------------------------------


def _copy(tmp: Path, where: str = "copy/fz") -> Path:
    dest = tmp / where
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(BASE["run"], dest, symlinks=True)
    return dest


def _report(*dirs: str, out: bool = True):
    """argv of `balance report` over folders under tmp ("run" is the base run's copy at
    tmp/runs/fz, "other" one of another seed)."""
    def make(tmp: Path) -> list[str]:
        paths = []
        for d in dirs:
            if d == "run":
                paths.append(copy_run(tmp))
            elif d == "other":
                paths.append(shutil.copytree(BASE["other"], tmp / "other" / "fz"))
            else:
                paths.append(_copy(tmp, d))
        return ["report", *map(str, paths)] + (["--out", str(tmp / "report")] if out else [])
    return make


def _drop_second_shard(tmp: Path) -> list[str]:
    copy_run(tmp)
    part = _copy(tmp)
    for sub in ("games", "rooms"):
        (part / sub / "v00000-g000000000005-000000000010.parquet").unlink()
    return ["report", str(tmp / "runs" / "fz"), str(part), "--out", str(tmp / "report")]


def _more_games(tmp: Path) -> list[str]:
    """The same experiment run into another folder with more games: its first 10 games are
    the base run's."""
    copy_run(tmp)
    path = tmp / "fz.toml"
    path.write_text(EXPERIMENT, encoding="utf-8")
    run_experiment(load_experiment(path), tmp / "bigger", games=15, jobs=1)
    return ["report", str(tmp / "bigger" / "fz"), str(tmp / "runs" / "fz"), "--out",
            str(tmp / "report")]


SAME = ("holds the same games as", "runs/fz", "count twice")

CASES: dict[str, Case] = {
    "report-run-and-copy": Case("run folder", _report("run", "copy/fz"), ("copy/fz", *SAME)),
    "report-copy-first": Case("run folder", _report("copy/fz", "run"),
                              ("copy/fz", "holds the same games as", "count twice")),
    "report-copy-renamed": Case("run folder", _report("run", "elsewhere/renamed"),
                                ("elsewhere/renamed", *SAME)),
    "report-copy-beside-other": Case("run folder", _report("run", "other", "copy/fz"),
                                     ("copy/fz", *SAME)),
    "report-copy-default-out": Case("run folder", _report("run", "copy/fz", out=False),
                                    ("copy/fz", *SAME)),
    "report-partial-copy": Case("run folder", _drop_second_shard,
                                ("copy/fz", *SAME, "game 0 of variant 0")),
    "report-same-experiment-more-games": Case("run folder", _more_games,
                                              ("bigger/fz", "holds the same games as",
                                               "game 0 of variant 0")),
}


@pytest.fixture(scope="module", autouse=True)
def base_runs(tmp_path_factory):
    make_base_runs(tmp_path_factory.mktemp("fuzz-stats-base"))


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_the_same_games_twice_are_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)


def test_build_report_refuses_a_copy_and_names_both_folders(tmp_path):
    from reports.page.build import build_report

    run, copy = copy_run(tmp_path), _copy(tmp_path)
    with pytest.raises(InputError) as e:
        build_report([run, copy], tmp_path / "report")
    assert f"{copy}: holds the same games as {run}" in str(e.value)
    assert not (tmp_path / "report").exists()


def test_combine_refuses_runs_read_whole_that_share_games(tmp_path):
    """Tables in memory (read_run without lazy_games) are told apart by their games."""
    from reports.tables.combine import combine

    run, copy = copy_run(tmp_path), _copy(tmp_path)
    with pytest.raises(InputError, match="both played game 0 of variant 0"):
        combine([store.read_run(run), store.read_run(copy)], [str(run), str(copy)])


def test_runs_of_other_seeds_and_hand_made_runs_are_combined(tmp_path):
    """Accepted: two seeds of one experiment are different games; hand-made tables whose
    manifests record no identity are never taken for one another."""
    from reports.tables.combine import combine

    both = combine([store.read_run(copy_run(tmp_path)), store.read_run(BASE["other"])])
    assert both.games.height == 20 and both.games["variant"].n_unique() == 2

    class Made:
        def __init__(self):
            self.games = pl.DataFrame({"variant": [0, 0], "game": [0, 1]})
            self.rooms = None
            self.manifest = {"experiment": "made", "variants": [{"variant": 0}]}

    assert combine([Made(), Made()]).games.height == 4


# -- item 10: statistics from a handful of games ----------------------------------------------

def test_two_paired_games_are_too_few_for_every_method():
    """Before: the bootstrap gave the median difference "(2 to 4)" from two games, found,
    with p = 0.0005; the t test and McNemar gave intervals too."""
    base, variant = [10, 20], [12, 24]
    for r in (paired.median_difference(base, variant), paired.mean_difference(base, variant),
              paired.proportion_difference([False, False], [True, True])):
        assert r.too_few and not r.found and r.n == 2
        assert np.isnan(r.low) and np.isnan(r.high) and np.isnan(r.p_value)
    assert paired.median_difference(base, variant).estimate == 3.0  # the estimate is kept
    assert paired.mean_difference([], []) is None


def test_equal_differences_over_three_games_are_not_certain():
    """Before: three games one point apart gave the interval (1 to 1) with p = 0."""
    r = paired.mean_difference([30, 40, 50], [31, 41, 51])
    assert r.too_few and not r.found and np.isnan(r.p_value)


def test_a_constant_difference_gets_the_exact_sign_test_p_value():
    """Six games all one point apart: [1, 1], p = 2 / 2**6, which Holm over ten differences
    does not keep; forty games: p = 2 / 2**40, kept. Before: p = 0 at any count."""
    for method in (paired.mean_difference, paired.median_difference):
        six = method(np.arange(6) * 7, np.arange(6) * 7 + 1)
        assert (six.low, six.high, six.estimate) == (1.0, 1.0, 1.0) and six.found
        assert six.p_value == pytest.approx(2 / 2**6)
        survives, _ = paired.holm([six.p_value] + [0.5] * 9)
        assert not survives[0]
        forty = method(np.arange(40), np.arange(40) + 1)
        assert forty.p_value == pytest.approx(2 / 2**40)
        assert paired.holm([forty.p_value] + [0.5] * 9)[0][0]
        same = method(np.arange(6), np.arange(6))  # a rule no game touched
        assert same.p_value == 1.0 and not same.found


MANIFEST = {"experiment": "tiny", "text": "[experiment]\nname = \"tiny\"\n",
            "variants": [{"variant": v, "mode": "crisis", "exhaust": True, "target": None,
                          "players": 2, "difficulties": {"Apprentice": 11, "Master": 22}}
                         for v in range(2)]}


def _games(base: list[int], variant: list[int]) -> pl.DataFrame:
    return pl.concat([pl.DataFrame({"variant": np.full(len(s), v, np.int32),
                                    "game": np.arange(len(s), dtype=np.int64),
                                    "score": np.asarray(s, np.int16),
                                    "won": pl.Series([None] * len(s), dtype=pl.Boolean)})
                      for v, s in enumerate((base, variant))])


def test_a_comparison_of_two_games_says_too_few_and_finds_nothing():
    """Before: the median team score's "+3 (2 to 4)" survived Holm on two games."""
    cmp = compare(_games([10, 20], [12, 24]), MANIFEST)
    d = cmp.differences
    assert d.height and not d["found"].any() and not d["holm"].any()
    assert d["p_value"].is_nan().all() and cmp.family == 0
    assert not cmp.tables["curve_differences"]["found"].any()
    assert cmp.tables["curve_differences"]["ci_low"].is_nan().all()
    full = compare_text.full_table(cmp)
    assert "too few games to compare (2 in common, 6 needed)" in full
    assert "(2 to 4)" not in full and " yes" not in full
    assert "fewer than 6 games in common" in full.replace("\n", " ")
    short = compare_text.short_table(cmp)
    assert "too few games" in short and "*" not in short.split("Against", 1)[1].split("\n")[2]
    assert cmp.to_dict()["min_pairs"] == paired.MIN_PAIRS


def test_six_games_in_common_are_compared():
    cmp = compare(_games([10, 12, 14, 16, 18, 20], [11, 13, 15, 17, 19, 21]), MANIFEST)
    mean = cmp.differences.filter(pl.col("quantity") == "score:mean").row(0, named=True)
    assert mean["found"] and mean["p_value"] == pytest.approx(2 / 2**6)
    assert "too few" not in compare_text.full_table(cmp)


def test_ablation_and_skill_texts_say_too_few():
    from reports.gemrush import ablation, skills
    from reports.gemrush.skills_page import _effect

    manifest = {**MANIFEST, "variants": [dict(v, label=lb) for v, lb in
                                         zip(MANIFEST["variants"], ["none", "ablate=Vein"],
                                             strict=True)]}
    cmp = compare(_games([10, 20, 30], [9, 19, 29]), manifest)
    assert paired.TOO_FEW in ablation.ranking_text(cmp, "out")
    row = cmp.differences.filter(pl.col("quantity") == "score:mean").row(0, named=True)
    assert _effect(row) == paired.TOO_FEW
    shifts = pl.DataFrame([{"variant_name": "none", **{k: row[k] for k in (
        "pairs", "difference", "ci_low", "ci_high")}}])
    assert paired.TOO_FEW in skills.rulebook_sentences(shifts, "normal")[0]


def test_findings_leave_out_a_seat_share_of_two_games():
    """Before: a seat that won both of two games (Wilson 34% to 100%) was a key finding."""
    from reports.outcomes.findings import seat_verdicts

    difficulty = pl.DataFrame(schema={"setting": pl.Utf8, "players": pl.Int64,
                                      "difficulty": pl.Utf8, "target": pl.Int64,
                                      "win_rate": pl.Float64, "ci_low": pl.Float64,
                                      "ci_high": pl.Float64})
    seats = pl.DataFrame({"setting": ["2e"] * 4, "players": [4] * 4, "seat": [1, 2, 3, 4],
                          "games": [2] * 4, "wins": [2, 0, 0, 0], "win_rate": [1.0, 0, 0, 0],
                          "ci_low": [0.34, 0, 0, 0], "ci_high": [1.0, 0.66, 0.66, 0.66],
                          "fair_share": [0.25] * 4})
    assert difficulty.height == 0 and seat_verdicts(seats, {}, {}) == []


def test_goal_seek_gives_no_interval_on_too_few_games():
    """Before: three games of the same outcome gave the point interval (12, 12, 12)."""
    from balance.running.goal_seek import Point

    est, lo, hi = Point(5, np.full(3, 12.0)).estimate(binary=False)
    assert est == 12.0 and np.isnan(lo) and np.isnan(hi)
    assert np.isnan(Point(5, np.ones(3)).estimate(binary=True)[1])
    assert Point(5, np.full(6, 12.0)).estimate(binary=False) == (12.0, 12.0, 12.0)


def test_precision_is_never_reached_on_fewer_games_than_the_minimum(tmp_path):
    """Before: one game a variant met --precision 50 (a Wilson half-width under 50 points)."""
    from balance.running.precision import run_to_precision

    path = tmp_path / "fz.toml"
    path.write_text(EXPERIMENT.replace("shard_size = 5", "shard_size = 1"), encoding="utf-8")
    report = run_to_precision(load_experiment(path), tmp_path / "runs", 50.0, cap=10, jobs=1)
    assert report.reached and report.games >= paired.MIN_PAIRS


GRID = EXPERIMENT.replace("games = 10", "games = 3").replace("shard_size = 5", "shard_size = 3") \
    + "\n[grid]\nhand_limit = [6, 4]\n"


def test_balance_run_and_compare_on_three_games_say_too_few(tmp_path, cli):
    path = tmp_path / "fz.toml"
    path.write_text(GRID, encoding="utf-8")
    r = cli("run", path, "--out", tmp_path / "runs", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "too few games" in r.stdout and "fewer than 6 games in common" in \
        r.stdout.replace("\n", " ")
    c = cli("compare", tmp_path / "runs" / "fz")
    assert c.exit_code == 0, c.output
    assert "too few games to compare (3 in common, 6 needed)" in c.stdout
    assert "no difference found (" not in c.stdout


# -- item 17: a lost Dask scheduler ------------------------------------------------------------

DASK = EXPERIMENT.replace("games = 10", "games = 40")  # 8 shards of 5

# Set once the scheduler is closed. Module-level, so that the held play_shard below travels to
# the cluster's workers by reference: they are threads of this process (processes=False).
_SCHEDULER_LOST = threading.Event()
_REAL_PLAY_SHARD = runner.play_shard


def _held_play_shard(job):
    """Every shard but the first waits for the scheduler to be closed: otherwise, on a busy
    machine, all eight shards could be played and received before the first is written, and
    the run would end well (CI, stop 38)."""
    if job.shard.start > 0:
        _SCHEDULER_LOST.wait(timeout=60)
    return _REAL_PLAY_SHARD(job)


def test_a_lost_scheduler_fails_the_run_and_the_resume_is_identical(tmp_path, cli,
                                                                    monkeypatch):
    """The scheduler is closed as the first shard is saved. Before: three chained tracebacks
    (FutureCancelledError was not among the failures the runner names)."""
    import dask

    path = tmp_path / "fz.toml"
    path.write_text(DASK, encoding="utf-8")
    # Two worker threads: joblib plays a one-thread cluster's shards in this process.
    with local_cluster(n_workers=1, threads_per_worker=2, processes=False,
                       protocol="tcp://", host="127.0.0.1") as cluster:
        real = write_shard

        def write_then_lose_the_scheduler(*args, **kw):
            real(*args, **kw)
            if cluster.scheduler.status.name == "running":
                cluster.sync(cluster.scheduler.close)
                _SCHEDULER_LOST.set()

        _SCHEDULER_LOST.clear()
        monkeypatch.setattr(runner, "write_shard", write_then_lose_the_scheduler)
        monkeypatch.setattr(runner, "play_shard", _held_play_shard)
        r = cli("run", path, "--out", tmp_path / "runs", "--scheduler",
                cluster.scheduler_address)
        monkeypatch.undo()
        # The cluster's own close would wait 30 s to reach the scheduler it has lost.
        with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
            cluster.close()
    assert isinstance(r.exception, SystemExit), f"traceback: {r.exception!r}"
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output
    errors = [x for x in r.stderr.splitlines() if x.startswith("error:")]
    assert len(errors) == 1
    assert f"the connection to the Dask scheduler at {cluster.scheduler_address} was lost " \
        "(FutureCancelledError" in errors[0]
    assert "Every finished shard is saved; run the same command again to resume" in errors[0]
    games = tmp_path / "runs" / "fz" / "games"
    assert 1 <= len(list(games.glob("*.parquet"))) < 8

    assert cli("run", path, "--out", tmp_path / "runs", "--jobs", "1").exit_code == 0
    assert cli("run", path, "--out", tmp_path / "whole", "--jobs", "1").exit_code == 0
    for sub in ("games", "rooms"):
        resumed = sorted((tmp_path / "runs" / "fz" / sub).glob("*.parquet"))
        whole = sorted((tmp_path / "whole" / "fz" / sub).glob("*.parquet"))
        assert [p.name for p in resumed] == [p.name for p in whole] and len(whole) == 8
        assert all(a.read_bytes() == b.read_bytes() for a, b in zip(resumed, whole,
                                                                    strict=True))


def test_only_the_backend_s_failures_become_a_failed_run(monkeypatch):
    """By class, through the chain of causes: a lost connection or a broken pool is the
    backend's (RunFailed); an error of the game code stays a traceback."""
    from concurrent.futures.process import BrokenProcessPool

    from balance.running.runner import RunFailed, _collect

    def failing(error):
        def execute(jobs, n_jobs=1, scheduler=None, warm=None, dask_workers=None):
            raise error
            yield
        return execute

    try:
        raise ConnectionResetError("peer gone")
    except ConnectionResetError as cause:
        wrapped = RuntimeError("gather failed")
        wrapped.__cause__ = cause
    for error, scheduler, said in (
            (wrapped, "tcp://127.0.0.1:1", "connection to the Dask scheduler at "
                                           "tcp://127.0.0.1:1 was lost (ConnectionResetError"),
            (BrokenProcessPool("pool broke"), None, "a worker process died (BrokenProcessPool"),
            (ConnectionResetError("peer gone"), None, "a worker process died")):
        monkeypatch.setattr(runner, "execute", failing(error))
        with pytest.raises(RunFailed, match=said.replace("(", r"\(")):
            list(_collect([], 2, scheduler))
    monkeypatch.setattr(runner, "execute", failing(ValueError("a bug in the engine")))
    with pytest.raises(ValueError, match="a bug in the engine"):
        list(_collect([], 2, None))
