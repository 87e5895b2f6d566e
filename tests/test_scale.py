"""Issue 12, scale: the report aggregates the rooms table shard by shard, to the same numbers
as from the whole table; scan_run gives lazy frames; bench --report replicates shards into a
valid, larger run."""

from __future__ import annotations

import polars as pl
import pytest

from balance.running import store
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from balance.running.shard_table import ShardTable
from balance.running.store.layout import GAMES
from balance.running.store.manifest import read_manifest, write_manifest
from balance.running.store.write import write_parquet
from reports.gemrush import frame, rooms
from tests.report_data import synthetic_run

EXPERIMENT = """\
[experiment]
name = "scale"
description = "two variants, three shards each"
edition = "2e"
mode = "crisis"
games = 30
seed = 9
shard_size = 10
exhaust = true

[grid]
players = [2, 3]
"""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("scale")
    path = tmp / "scale.toml"
    path.write_text(EXPERIMENT, encoding="utf-8")
    run_experiment(load_experiment(path), tmp / "runs", jobs=1)
    return tmp / "runs" / "scale"


def _value(games, room_table, manifest):
    g = frame.with_variant_info(games, manifest)
    return rooms.room_value(g, room_table, frame.difficulties(manifest, g))


def test_room_value_by_shards_equals_the_whole_table(run_dir):
    whole = store.read_run(run_dir)
    pieces = store.read_run(run_dir, lazy_tables=True)
    assert isinstance(pieces.rooms, ShardTable) and len(pieces.rooms) == 6
    assert pieces.rooms.height == whole.rooms.height
    a = _value(whole.games, whole.rooms, whole.manifest)
    b = _value(pieces.games, pieces.rooms, pieces.manifest)
    assert a.height > 0 and a.equals(b)


def test_room_value_of_pieces_of_a_synthetic_run_equals_the_whole(tmp_path):
    run = synthetic_run(games_per_variant=60, first_edition=False)
    manifest = run.manifest
    cut = [run.rooms.filter(pl.col("game") % 3 == k) for k in range(3)]  # whole games each
    table = ShardTable([lambda c=c: c for c in cut], run.rooms.height, run.rooms.columns)
    a = _value(run.games, run.rooms, manifest)
    b = _value(run.games, table, manifest)
    assert a.height > 0 and a.equals(b)


def test_compact_reading_keeps_the_values(run_dir):
    plain = store.read_run(run_dir).games
    compact = store.read_run(run_dir, compact=True).games
    assert compact.schema["mode"] == pl.Categorical and plain.schema["mode"] == pl.String
    assert compact.with_columns(pl.col(pl.Categorical).cast(pl.String)).equals(plain)


def test_scan_run_is_lazy_and_equals_read_run(run_dir):
    scan = store.scan_run(run_dir)
    assert isinstance(scan.games, pl.LazyFrame) and isinstance(scan.rooms, pl.LazyFrame)
    whole = store.read_run(run_dir)
    assert scan.games.collect().equals(whole.games)
    per_room = scan.rooms.group_by("room").len().sort("room").collect()
    assert per_room.equals(whole.rooms.group_by("room").len().sort("room"))


def test_scan_run_refuses_a_manifest_its_shards_disagree_with(run_dir, tmp_path):
    """Every shard says seed 9: the edited manifest is named, in one line (issue 25)."""
    import shutil

    copy = tmp_path / "scale"
    shutil.copytree(run_dir, copy)
    m = read_manifest(copy)
    write_manifest(copy, dict(m, seed=10))
    from balance.errors import InputError

    with pytest.raises(InputError, match="says seed 10, but all 6 shards were played with "
                                         "seed 9") as e:
        store.scan_run(copy)
    assert len(e.value.problems) == 1


def test_replicated_runs_are_valid_runs(run_dir, tmp_path):
    from balance.bench.report import replicate

    # a one-variant base: the experiment's first variant alone
    base = tmp_path / "base" / "scale"
    shutil_copy_variant(run_dir, base, variant=0)
    big = replicate(base, tmp_path / "big" / "scale", 90)
    data = store.read_run(big)
    assert data.complete and data.games.height == 90
    assert data.games["game"].to_list() == list(range(90))
    assert data.games.slice(30, 30).drop("game").equals(data.games.slice(0, 30).drop("game"))


def shutil_copy_variant(src, dest, variant: int) -> None:
    import shutil

    m = read_manifest(src)
    for sub in (GAMES, "rooms"):
        (dest / sub).mkdir(parents=True)
        for f in (src / sub).glob(f"v{variant:05d}-*.parquet"):
            shutil.copy(f, dest / sub / f.name)
    write_manifest(dest, dict(m, variants=[m["variants"][variant]]))


def test_rooms_shards_of_int16_counts_read_with_the_new_ones(run_dir, tmp_path):
    """Rooms shards written before uses and gained were widened to Int32 read as Int32, with
    the same values, beside shards written since: a run resumed across the change is one run,
    not a damaged one."""
    import shutil

    import pyarrow as pa
    import pyarrow.parquet as pq

    copy = tmp_path / "scale"
    shutil.copytree(run_dir, copy)
    old = sorted((copy / "rooms").glob("*.parquet"))[0]
    t = pq.read_table(old)
    assert t.schema.field("uses").type == pa.int32()
    for name in ("uses", "gained"):
        t = t.set_column(t.schema.get_field_index(name), name,
                         t.column(name).cast(pa.int16()))
    write_parquet(t, old)
    want = store.read_run(run_dir).rooms
    eager = store.read_run(copy).rooms
    assert eager.schema["uses"] == pl.Int32 and eager.equals(want)
    lazy = store.read_run(copy, lazy_tables=True).rooms
    assert pl.concat(list(lazy)).equals(want)
    scanned = store.scan_run(copy).rooms.collect()
    assert scanned["gained"].dtype == pl.Int32 and scanned.equals(want)
