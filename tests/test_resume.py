"""Issue 50, point 2: a run asked for more games plays only the games it does not hold,
whatever the shard sizes its games were played in, reads as the same run played in one go,
and says what it reused. Before, a run of 30 games in shards of 50 (one short shard) asked
for 60 replaced the short shard: it played 60 games, and said nothing of the 30 it had."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from balance.bench.speed import bench_experiment
from balance.contract import registry
from balance.errors import InputError
from balance.running import runner, store
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from balance.running.seeds import game_seeds
from balance.running.store.layout import Shard
from balance.running.store.manifest import read_manifest
from tests.fuzz import EXPERIMENT


@pytest.fixture
def played(monkeypatch) -> list:
    """Every shard a run plays (jobs=1 plays them in this process, through play_shard)."""
    shards, real = [], runner.play_shard

    def spy(job):
        shards.append(job.shard)
        return real(job)

    monkeypatch.setattr(runner, "play_shard", spy)
    return shards


def _games(shards) -> int:
    return sum(s.games for s in shards)


def _same_tables(run: Path, whole: Path) -> None:
    """Every table of `run` holds the rows of `whole`, in the same order."""
    a, b = store.read_run(run), store.read_run(whole)
    assert a.complete and b.complete
    assert a.games.equals(b.games)
    assert set(a.tables) == set(b.tables)
    for name, frame in b.tables.items():
        assert (frame is None) == (a.tables[name] is None), name
        assert frame is None or a.tables[name].equals(frame), name


@pytest.mark.parametrize("name", registry.names())
def test_a_doubled_run_plays_only_the_new_games(name, tmp_path, played):
    game = registry.get(name)
    exp = bench_experiment(game, 60, 5, shard_size=50)
    first = run_experiment(exp, tmp_path / "doubled", games=30, jobs=1)
    assert _games(played) == 30
    played.clear()
    second = run_experiment(exp, tmp_path / "doubled", games=60, jobs=1)
    assert _games(played) == 30 and min(s.start for s in played) == 30
    assert (first.reused, second.reused, second.games) == (0, 30, 30)
    played.clear()
    run_experiment(exp, tmp_path / "whole", games=60, jobs=1)
    assert _games(played) == 60
    _same_tables(tmp_path / "doubled" / "bench", tmp_path / "whole" / "bench")


@pytest.mark.parametrize("name", registry.names())
def test_a_run_continued_in_other_shard_sizes_plays_only_the_new_games(name, tmp_path,
                                                                       played):
    """Each extension in a size of its own, none a multiple of the last; the folder is then
    resumed once more with nothing to play."""
    game = registry.get(name)
    exp, out = bench_experiment(game, 40, 5, shard_size=5), tmp_path / "runs"
    for games, size in ((7, None), (20, 3), (33, 50), (40, 4)):
        played.clear()
        before = _games(_on_disk(out / "bench"))
        report = run_experiment(exp, out, games, jobs=1, shard_size=size)
        assert _games(played) == games - before and report.reused == before
        assert all(s.games <= (size or 5) and s.start >= before for s in played)
    played.clear()
    again = run_experiment(exp, out, jobs=1, shard_size=9)
    assert (played, again.played, again.reused) == ([], 0, 40)
    run_experiment(exp, tmp_path / "whole", jobs=1, shard_size=40)
    _same_tables(out / "bench", tmp_path / "whole" / "bench")
    assert store.read_run(out / "bench").games["seed"].to_list() == \
        game_seeds(5, 0, 40).tolist()


def _on_disk(run: Path) -> list[Shard]:
    """The games shards of a run folder (none before its first run)."""
    return [Shard.parse(p.stem) for p in sorted((run / "games").glob("*.parquet"))]


def test_a_run_stopped_while_extended_resumes_the_extension(tmp_path, played, monkeypatch):
    """A run asked for more games, stopped before it finished, and resumed with yet
    another shard size: the stretch begun keeps its shards, and nothing is played twice."""
    path = tmp_path / "fz.toml"
    path.write_text(EXPERIMENT + "[grid]\nhand_limit = [4, 5]\n", encoding="utf-8")
    exp = load_experiment(path)
    out = tmp_path / "runs"
    run_experiment(exp, out, games=7, jobs=1)
    played.clear()

    def stop_after_one(jobs, n_jobs=1, scheduler=None, warm=None, dask_workers=None):
        yield runner.play_shard(next(iter(jobs)))
        raise KeyboardInterrupt

    real = runner.execute
    monkeypatch.setattr(runner, "execute", stop_after_one)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(exp, out, games=16, jobs=1)
    monkeypatch.setattr(runner, "execute", real)
    assert _games(played) == 5  # the first new shard, of variant 0: games 7 to 12
    kept = store.read_run(out / "fz")
    assert kept.games.height == 19 and len(kept.missing) == 3
    played.clear()
    report = run_experiment(exp, out, games=16, jobs=1, shard_size=2)
    assert _games(played) == 13 and report.reused == 19
    # The stretch begun (games 7 to 16, in shards of 5) keeps its shards.
    assert sorted(s.games for s in played) == [4, 4, 5]
    run_experiment(exp, tmp_path / "whole", games=16, jobs=1)
    _same_tables(out / "fz", tmp_path / "whole" / "fz")
    assert read_manifest(out / "fz")["games_per_variant"] == 16


def test_the_terminal_says_what_a_run_reused(tmp_path, cli):
    path = tmp_path / "fz.toml"
    path.write_text(EXPERIMENT.replace("games = 10", "games = 4"), encoding="utf-8")
    out = tmp_path / "runs"
    r = cli("run", path, "--out", out, "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "reused" not in r.stdout and "played 4 games" in r.stdout
    r = cli("run", path, "--out", out, "--jobs", "1", "--games", "9")
    assert r.exit_code == 0, r.output
    assert "resuming: 4 of the 9 games are already in" in r.stdout, r.stdout
    assert "reused 4 games already in" in r.stdout and "played 5 more" in r.stdout, r.stdout
    r = cli("run", path, "--out", out, "--jobs", "1", "--games", "12", "--shard-size", "2")
    assert r.exit_code == 0, r.output
    assert "reused 9 games" in r.stdout and "played 3 more in 2 shards" in r.stdout, r.stdout
    r = cli("run", path, "--out", out, "--jobs", "1", "--games", "12")
    assert r.exit_code == 0, r.output
    assert "nothing to play: all 12 games are already" in r.stdout, r.stdout
    assert "resuming" not in r.stdout


def test_a_reader_of_a_run_being_grown_reads_it_as_it_was(tmp_path):
    """A resume replaces no shard: what a report listed before it is still there to read."""
    path = tmp_path / "fz.toml"
    path.write_text(EXPERIMENT.replace("games = 10", "games = 7"), encoding="utf-8")
    exp, run = load_experiment(path), tmp_path / "runs" / "fz"
    run_experiment(exp, tmp_path / "runs", jobs=1)
    want = store.read_run(run)
    lazy = store.read_run(run, lazy_tables=True, lazy_games=True)
    run_experiment(exp, tmp_path / "runs", games=10, jobs=1)
    assert pl.concat(list(lazy.games)).equals(want.games)
    assert pl.concat(list(lazy.rooms)).equals(want.rooms)
    assert store.read_run(run).games.head(7).equals(want.games)


def test_growing_a_run_past_the_most_shards_is_refused_before_anything_changes(tmp_path):
    """Its old shards are smaller than those asked for now, so the new games alone fit in
    the most shards a run can have and the grown run does not."""
    path = tmp_path / "fz.toml"
    path.write_text(EXPERIMENT.replace("games = 10", "games = 4")
                    .replace("shard_size = 5", "shard_size = 1"), encoding="utf-8")
    exp, run = load_experiment(path), tmp_path / "runs" / "fz"
    run_experiment(exp, tmp_path / "runs", jobs=1)
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    with pytest.raises(InputError, match="it would hold 500,002 shards, more than a run can "
                                         r"have \(500,000\): ask for larger shards"):
        run_experiment(exp, tmp_path / "runs", games=1_000_000, jobs=1, shard_size=2)
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before


def test_an_ablation_asked_for_more_games_says_what_it_reused(tmp_path, cli):
    path = tmp_path / "race.toml"
    path.write_text('[experiment]\nname = "race"\ndescription = "three stoppers"\n'
                    'game = "dice"\ngames = 10\nseed = 3\nplayers = 3\n'
                    'heuristic = "stopper"\nshard_size = 20\n', encoding="utf-8")
    argv = ("ablate", path, "--out", tmp_path / "runs", "--jobs", 1)
    r = cli(*argv)
    assert r.exit_code == 0, r.output
    assert "reused" not in r.stdout
    r = cli(*argv, "--games", 25)
    assert r.exit_code == 0, r.output
    assert "reused 40 games already in" in r.stdout and "played 60 more in 4 shards" \
        in r.stdout, r.stdout
