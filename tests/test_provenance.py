"""Issue 12, silent corruption 3 and 4: a run's identity includes its code, and every shard
carries its provenance, checked on resume and on read."""

from __future__ import annotations

import json

import polars as pl
import pyarrow.parquet as pq
import pytest

from balance.errors import InputError
from balance.running import store
from balance.running.experiment import load_experiment
from balance.running.provenance import source_hash
from balance.running.runner import run_experiment
from balance.running.store.layout import SHARD_META
from balance.running.store.manifest import read_manifest, write_manifest

EXPERIMENT = """\
[experiment]
name = "prov"
description = "two shards per variant"
edition = "2e"
mode = "crisis"
games = 20
seed = 5
shard_size = 10
exhaust = true

[grid]
players = [2, 3]
"""


def _run(tmp_path, text=EXPERIMENT, name="prov.toml", out="runs"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    run_experiment(load_experiment(path), tmp_path / out, jobs=1)
    return path, tmp_path / out / "prov"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("prov")
    path, run = _run(tmp)
    _, other = _run(tmp, EXPERIMENT.replace("seed = 5", "seed = 6"), "other.toml", "other")
    return tmp, path, run, other


def _files(run):
    return {p: p.read_bytes() for p in run.rglob("*") if p.is_file() and p.name != ".lock"}


def _copy_run(src, dst):
    for p, data in _files(src).items():
        q = dst / p.relative_to(src)
        q.parent.mkdir(parents=True, exist_ok=True)
        q.write_bytes(data)
    return dst


def test_the_source_hash_is_in_the_manifest_and_the_games_table(played):
    _, _, run, _ = played
    m = read_manifest(run)
    assert m["source_hash"] == source_hash("gemrush")
    assert "heuristics/gemrush/greedy.py" in m["sources"]
    assert "balance/games/gemrush/engine/turn_nb.py" in m["sources"]
    games = store.read_run(run).games
    assert games["source_hash"].unique().to_list() == [source_hash("gemrush")]


def test_resume_after_a_source_change_is_refused_naming_the_sources(played, tmp_path, cli):
    """Before: a resumed run accepted new shards after greedy.py changed."""
    _, path, run, _ = played
    copy = _copy_run(run, tmp_path / "runs" / "prov")
    m = read_manifest(copy)
    m["sources"]["heuristics/gemrush/greedy.py"] = "0" * 16
    m["source_hash"] = "f" * 16
    write_manifest(copy, m)
    before = _files(copy)
    r = cli("run", path, "--out", tmp_path / "runs", "--games", "30", "--jobs", "1")
    assert r.exit_code == 2
    assert "other engine or player code" in r.stderr
    assert "changed: heuristics/gemrush/greedy.py" in r.stderr and "--out" in r.stderr
    assert _files(copy) == before


def test_comment_and_whitespace_edits_do_not_block_a_resume(played, tmp_path, cli):
    """Before: any byte changed in the experiment file refused the resume."""
    _, _, run, _ = played
    copy = _copy_run(run, tmp_path / "runs" / "prov")
    edited = tmp_path / "prov.toml"
    edited.write_text("# tuned on Monday\n" + EXPERIMENT.replace("seed = 5", "seed   =   5  # same")
                      .replace('description = "two shards per variant"',
                               'description = "two shards per variant, resumed"'),
                      encoding="utf-8")
    r = cli("run", edited, "--out", tmp_path / "runs", "--jobs", "1")
    assert r.exit_code == 0, r.stderr
    assert "nothing to play" in r.stdout
    # the manifest keeps the text the games were played with
    assert read_manifest(copy)["text"] == EXPERIMENT


def test_a_meaningful_edit_is_still_refused(played, tmp_path, cli):
    _, _, run, _ = played
    _copy_run(run, tmp_path / "runs" / "prov")
    edited = tmp_path / "prov.toml"
    edited.write_text(EXPERIMENT.replace("players = [2, 3]", "players = [3, 2]"),
                      encoding="utf-8")
    r = cli("run", edited, "--out", tmp_path / "runs", "--jobs", "1")
    assert r.exit_code == 2 and "different experiment file" in r.stderr


def test_a_shard_copied_from_another_run_is_refused(played, tmp_path, cli):
    """Before: a shard of another seed was read as part of this run, and reported."""
    _, path, run, other = played
    copy = _copy_run(run, tmp_path / "runs" / "prov")
    name = "v00001-g000000000000-000000000010.parquet"
    for sub in ("games", "rooms"):
        (copy / sub / name).write_bytes((other / sub / name).read_bytes())
    with pytest.raises(InputError, match=r"not a shard of this run at this name: its seed 6 "
                                         r"\(this run: 5\)"):
        store.read_run(copy)
    before = _files(copy)
    r = cli("run", path, "--out", tmp_path / "runs", "--games", "30", "--jobs", "1")
    assert r.exit_code == 2 and name in r.stderr and "seed 6" in r.stderr
    assert _files(copy) == before


def test_a_shard_moved_to_another_name_is_refused(played, tmp_path):
    _, _, run, _ = played
    copy = _copy_run(run, tmp_path / "runs" / "prov")
    a, b = "v00000-g000000000000-000000000010", "v00001-g000000000000-000000000010"
    for sub in ("games", "rooms"):
        (copy / sub / f"{b}.parquet").write_bytes((copy / sub / f"{a}.parquet").read_bytes())
    with pytest.raises(InputError, match="its variant 0 \\(this run: 1\\)"):
        store.read_run(copy)


def test_a_rooms_shard_that_lost_rows_is_named(played, tmp_path, cli):
    """Before: a rooms footer that lost rows was read silently, and the resume said
    'nothing to play'."""
    _, path, run, _ = played
    copy = _copy_run(run, tmp_path / "runs" / "prov")
    f = copy / "rooms" / "v00000-g000000000000-000000000010.parquet"
    t = pq.read_table(f)
    pq.write_table(t.slice(0, t.num_rows // 2), f)  # the schema keeps the written metadata
    with pytest.raises(InputError, match=r"damaged shard: \d+ rows where \d+ were written"):
        store.read_run(copy)
    r = cli("run", path, "--out", tmp_path / "runs", "--jobs", "1")
    assert r.exit_code == 2 and f.name in r.stderr and "were written" in r.stderr


def test_a_polars_panic_on_a_damaged_file_is_named(played, monkeypatch):
    _, _, run, _ = played

    def panic(*a, **k):
        raise pl.exceptions.PanicException("index out of bounds")

    monkeypatch.setattr(pl, "from_arrow", panic)
    with pytest.raises(InputError, match="damaged shard, cannot be read \\(index out of bounds"):
        store.read_run(run)


def test_each_shard_records_its_provenance(played):
    _, _, run, _ = played
    f = run / "games" / "v00001-g000000000010-000000000020.parquet"
    meta = json.loads(pq.read_schema(f).metadata[SHARD_META])
    m = read_manifest(run)
    assert meta == {"experiment": "prov", "seed": 5, "experiment_hash": m["experiment_hash"],
                    "source_hash": source_hash("gemrush"), "variant": 1, "start": 10, "stop": 20,
                    "games_rows": 10, "rooms_rows": meta["rooms_rows"], "table": "games"}
    assert meta["rooms_rows"] == pq.read_metadata(run / "rooms" / f.name).num_rows
