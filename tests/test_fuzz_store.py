"""Issue 25, the run folder: a damaged, edited or hostile run folder is refused cleanly (exit
2, one message naming the file or the manifest, nothing written anywhere under the test
folder), and a resume never deletes games nor writes through a link. The cases whose right
outcome is not a refusal (a resume that keeps its games, a report racing a resume) are the
ordinary tests at the end. The harness is tests/fuzz.py."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from balance.errors import InputError
from balance.running import runner, store
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from balance.running.store.layout import MANIFEST_LIMIT
from balance.running.store.manifest import read_manifest, write_manifest
from tests.fuzz import (
    EXPERIMENT,
    SHARD,
    Case,
    assert_refused_cleanly,
    copy_run,
    make_base_runs,
)

SHARD2 = "v00000-g000000000005-000000000010"
V1 = "v00001-g000000000000-000000000005"
# Two variants of one shard each: for what a single-variant run cannot show.
GRID = EXPERIMENT.replace("games = 10", "games = 5") + "[grid]\nhand_limit = [4, 5]\n"
GRID_BASE: dict[str, Path] = {}
VICTIM = b"precious: not the toolkit's"


@pytest.fixture(scope="module", autouse=True)
def base_runs(tmp_path_factory):
    make_base_runs(tmp_path_factory.mktemp("fuzz-base"))
    tmp = tmp_path_factory.mktemp("fuzz-grid")
    (tmp / "fz.toml").write_text(GRID, encoding="utf-8")
    run_experiment(load_experiment(tmp / "fz.toml"), tmp / "runs", jobs=1)
    GRID_BASE["run"] = tmp / "runs" / "fz"
    (GRID_BASE["run"] / ".lock").unlink()


def on(damage, command: str = "report", *extra: str, grid: bool = False):
    """A copy of a base run (the grid's with `grid`), damaged by damage(run, tmp), and the
    command that reads it: report, compare, or the rerun of its experiment (run)."""
    def make(tmp: Path) -> list[str]:
        run = tmp / "runs" / "fz"
        if grid:
            shutil.copytree(GRID_BASE["run"], run, symlinks=True)
        else:
            copy_run(tmp)
        damage(run, tmp)
        if command == "report":
            return ["report", str(run), "--out", str(tmp / "report")]
        if command == "compare":
            return ["compare", str(run)]
        (tmp / "fz.toml").write_text(GRID if grid else EXPERIMENT, encoding="utf-8")
        return ["run", str(tmp / "fz.toml"), "--out", str(tmp / "runs"), "--jobs", "1", *extra]
    return make


def manifest(**changes):
    def damage(run, tmp):
        m = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
        m.update(changes)
        (run / "manifest.json").write_text(json.dumps(m), encoding="utf-8")
    return damage


def variants(keep):
    def damage(run, tmp):
        m = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
        m["variants"] = [m["variants"][i] for i in keep]
        (run / "manifest.json").write_text(json.dumps(m), encoding="utf-8")
    return damage


def victim(tmp: Path) -> Path:
    path = tmp / "victim.txt"
    path.write_bytes(VICTIM)
    return path


def link(rel: str, to_victim: bool = True):
    """`rel` in the run replaced by a link: to a victim file outside the run, or (a folder)
    to a copy of it outside the run."""
    def damage(run, tmp):
        path = run / rel
        if path.is_dir():
            shutil.move(path, tmp / "elsewhere")
            os.symlink(tmp / "elsewhere", path)
        else:
            path.unlink(missing_ok=True)
            os.symlink(victim(tmp) if to_victim else tmp / "nowhere", path)
    return damage


def only(*names: str):
    """The run folder emptied but for `names` (a new run's leftovers), each a link out."""
    def damage(run, tmp):
        shutil.rmtree(run)
        run.mkdir()
        for name in names:
            if name == ".lock":
                os.symlink(victim(tmp), run / name)
            else:
                (tmp / "elsewhere").mkdir()
                os.symlink(tmp / "elsewhere", run / name)
    return damage


def fifo(rel: str):
    def damage(run, tmp):
        (run / rel).unlink()
        os.mkfifo(run / rel)
    return damage


def dev_zero(rel: str):
    def damage(run, tmp):
        (run / rel).unlink()
        os.symlink("/dev/zero", run / rel)
    return damage


def grown(rel: str, size: int | None = None):
    """`rel` made `size` bytes long (a byte more than a manifest can be), sparse: no disk is
    used."""
    def damage(run, tmp):
        os.truncate(run / rel, size or MANIFEST_LIMIT + 1)
    return damage


def gone(rel: str):
    return lambda run, tmp: (run / rel).unlink()


def other_rows(keep_digest: bool):
    """Variant 0's games shard rewritten with variant 1's rows under its own metadata: its
    schema's (provenance), or every key of its footer (the digest of its rows too)."""
    def damage(run, tmp):
        mine, theirs = run / "games" / f"{SHARD}.parquet", run / "games" / f"{V1}.parquet"
        meta = (pq.read_metadata(mine).metadata if keep_digest
                else pq.read_schema(mine).metadata)
        meta = {k: v for k, v in meta.items() if k != b"ARROW:schema"}
        pq.write_table(pq.read_table(theirs).replace_schema_metadata(meta), mine)
    return damage


def knobs(make_file):
    def make(tmp):
        path = tmp / "k.toml"
        make_file(path)
        return ["play", "--players", "2", "--knobs", str(path)]
    return make


LINK = "symbolic link"
DAMAGED = "the manifest is the damaged file"

CASES: dict[str, Case] = {
    # -- item 2: links planted in a run folder are never written through -----------------
    "lock-link": Case("run folder", on(link(".lock"), "run"), (".lock", LINK)),
    "lock-dangling-link": Case("run folder", on(link(".lock", to_victim=False), "run"),
                               (".lock", LINK)),
    "games-link": Case("run folder", on(link("games"), "run", "--games", "15"),
                       ("fz/games", LINK)),
    "rooms-link": Case("run folder", on(link("rooms"), "run", "--games", "15"),
                       ("fz/rooms", LINK)),
    "games-a-file": Case("run folder", on(lambda run, tmp: (shutil.rmtree(run / "games"),
                                                        (run / "games").write_bytes(b"x")),
                                          "run", "--games", "15"),
                         ("fz", "its games is a file")),
    "new-run-games-link": Case("run folder", on(only("games"), "run"), ("fz/games", LINK)),
    "new-run-lock-link": Case("run folder", on(only(".lock"), "run"), (".lock", LINK)),
    # -- item 3: a manifest edited to fewer games never makes a resume delete shards -------
    "fewer-games-resume": Case("run folder", on(manifest(games_per_variant=5), "run",
                                                "--games", "5"),
                               ("manifest.json: games_per_variant", SHARD2, DAMAGED)),
    "fewer-games-report": Case("run folder", on(manifest(games_per_variant=5)),
                               ("manifest.json: games_per_variant", SHARD2, DAMAGED)),
    # -- item 7: a manifest that disagrees with its shards is named ----------------------
    "smaller-shards-report": Case("run folder", on(manifest(shard_size=3)),
                                  ("manifest.json: shard_size", SHARD, DAMAGED)),
    "larger-shards-report": Case("run folder", on(manifest(shard_size=10)),
                                 ("manifest.json: shard_size", SHARD2, DAMAGED)),
    "smaller-shards-compare": Case("run folder", on(manifest(shard_size=2), "compare",
                                                    grid=True),
                                   ("manifest.json: shard_size", DAMAGED)),
    # -- issue 50: the layout of a run grown in other shard sizes is checked as strictly --
    "layout-gap-report": Case("run folder", on(manifest(layout=[[0, 5, 5], [6, 10, 5]])),
                              ("manifest.json: layout", "holds [6, 10, 5]", "damaged")),
    "layout-ends-short-report": Case("run folder", on(manifest(layout=[[0, 5, 5], [5, 8, 5]])),
                                     ("manifest.json: layout", "ends at game 8", "damaged")),
    "layout-one-stretch-report": Case("run folder", on(manifest(layout=[[0, 10, 5]])),
                                      ("manifest.json: layout", "two or more", "damaged")),
    "layout-other-sizes-report": Case("run folder", on(manifest(
        layout=[[0, 5, 5], [5, 10, 3]], shard_size=3)), ("manifest.json: layout", SHARD2,
                                                          DAMAGED)),
    "layout-other-sizes-resume": Case("run folder", on(manifest(
        layout=[[0, 5, 5], [5, 10, 3]], shard_size=3), "run", "--games", "15"),
        ("manifest.json: layout", SHARD2, DAMAGED)),
    "no-variants-report": Case("run folder", on(manifest(variants=[])),
                               ("manifest.json: variants", "lists 0 variants")),
    "no-variants-compare": Case("run folder", on(manifest(variants=[]), "compare", grid=True),
                                ("manifest.json: variants", "lists 0 variants")),
    "last-variant-dropped-report": Case("run folder", on(variants([0]), grid=True),
                                        ("manifest.json: variants", V1, DAMAGED)),
    "first-variant-dropped-report": Case("run folder", on(variants([1]), grid=True),
                                         ("manifest.json: variants", "entry 0 is variant 1")),
    "variants-swapped-report": Case("run folder", on(variants([1, 0]), grid=True),
                                    ("manifest.json: variants", "entry 0 is variant 1")),
    # -- item 21: every shard disagreeing the same way names the manifest, once ----------
    "seed-edited-report": Case("run folder", on(manifest(seed=7)),
                               ("manifest.json: seed", "says seed 7", "seed 3", DAMAGED)),
    "seed-edited-compare": Case("run folder", on(manifest(seed=7), "compare", grid=True),
                                ("manifest.json: seed", "says seed 7", "seed 3", DAMAGED)),
    "code-edited-report": Case("run folder", on(manifest(source_hash="0" * 16)),
                               ("manifest.json: source_hash", "'0000000000000000'", DAMAGED)),
    "experiment-hash-edited-report": Case("run folder", on(manifest(experiment_hash="x")),
                                          ("manifest.json: experiment_hash", DAMAGED)),
    # -- item 20: a missing rooms shard is missing, and its games shard is the one to delete
    "missing-rooms-resume": Case("run folder", on(gone(f"rooms/{SHARD}.parquet"), "run"),
                                 (f"rooms/{SHARD}.parquet", "missing", "rooms shard does not",
                                  "delete ", f"games/{SHARD}.parquet and rerun")),
    # -- item 12: every file of a run goes through the one reader ------------------------
    "games-fifo-report": Case("run folder", on(fifo(f"games/{SHARD}.parquet")),
                              (SHARD, "not a regular file")),
    "rooms-fifo-report": Case("run folder", on(fifo(f"rooms/{SHARD}.parquet")),
                              (SHARD, "not a regular file")),
    "games-fifo-resume": Case("run folder", on(fifo(f"games/{SHARD}.parquet"), "run"),
                              (SHARD, "not a regular file")),
    "rooms-fifo-compare": Case("run folder", on(fifo(f"rooms/{SHARD}.parquet"), "compare",
                                                grid=True), (SHARD, "not a regular file")),
    "manifest-fifo-report": Case("run folder", on(fifo("manifest.json")),
                                 ("manifest.json", "not a regular file")),
    "manifest-fifo-resume": Case("run folder", on(fifo("manifest.json"), "run"),
                                 ("manifest.json", "not a regular file")),
    "manifest-fifo-compare": Case("run folder", on(fifo("manifest.json"), "compare",
                                                   grid=True),
                                  ("manifest.json", "not a regular file")),
    "manifest-dev-zero-report": Case("run folder", on(dev_zero("manifest.json")),
                                     ("manifest.json", "not a regular file")),
    "manifest-dev-zero-resume": Case("run folder", on(dev_zero("manifest.json"), "run"),
                                     ("manifest.json", "not a regular file")),
    "games-dev-zero-report": Case("run folder", on(dev_zero(f"games/{SHARD}.parquet")),
                                  (SHARD, "not a regular file")),
    "manifest-too-large-report": Case("run folder", on(grown("manifest.json")),
                                      ("manifest.json", "more than a run manifest can be")),
    "games-too-large-report": Case("run folder", on(grown(f"games/{SHARD}.parquet", 2**31)),
                                   (SHARD, "more than a games shard can be")),
    "rooms-too-large-resume": Case("run folder", on(grown(f"rooms/{SHARD}.parquet", 2**31),
                                                    "run"),
                                   (SHARD, "more than a rooms shard can be")),
    "knobs-fifo": Case("cli", knobs(os.mkfifo), ("k.toml", "not a regular file")),
    "knobs-dev-zero": Case("cli", knobs(lambda p: os.symlink("/dev/zero", p)),
                           ("k.toml", "not a regular file")),
    # -- item 13: a manifest's game count is bounded as an experiment file's is ---------
    "games-1e15-report": Case("run folder", on(manifest(games_per_variant=10**15)),
                              ("manifest.json: games_per_variant", "more than a run can have")),
    "games-1e10-compare": Case("run folder", on(manifest(games_per_variant=10**10), "compare",
                                                grid=True),
                               ("manifest.json: games_per_variant", "shards, more than")),
    "shard-size-1e12-report": Case("run folder", on(manifest(shard_size=10**12)),
                                   ("manifest.json: shard_size", "more than a run can have")),
    # -- item 6: a shard's rows are part of its provenance --------------------------------
    "other-rows-report": Case("run folder", on(other_rows(False), grid=True),
                              (SHARD, "carries no digest of its rows")),
    "other-rows-same-footer-report": Case("run folder", on(other_rows(True), grid=True),
                                          (SHARD, "digest differs")),
    "other-rows-same-footer-compare": Case("run folder", on(other_rows(True), "compare",
                                                            grid=True),
                                           (SHARD, "digest differs")),
    "other-rows-same-footer-resume": Case("run folder", on(other_rows(True), "run",
                                                           grid=True),
                                          (SHARD, "digest differs")),
}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_run_folder_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)


# -- outcomes other than a refusal --------------------------------------------------------

SHORT = "v00000-g000000000005-000000000007"
LATER = "v00000-g000000000007-000000000010"  # the games a run of 7 asked for 10 adds


def _short_run(tmp: Path):
    """A run of 7 games in shards of 5 (its last shard short), and its experiment."""
    path = tmp / "fz.toml"
    path.write_text(EXPERIMENT.replace("games = 10", "games = 7"), encoding="utf-8")
    exp = load_experiment(path)
    run_experiment(exp, tmp / "runs", jobs=1)
    return exp, tmp / "runs" / "fz"


def _names(run: Path) -> set[str]:
    return {p.stem for p in (run / "games").glob("*.parquet")}


def _stopped_mid_extension(run: Path) -> None:
    """The run as a resume before issue 50 left it when stopped after it asked for 10 games
    and before it played them: its manifest says 10 games in shards of 5, and its short last
    shard is still there, to be replaced by the longer one from the same start."""
    write_manifest(run, dict(read_manifest(run), games_per_variant=10))


def test_a_resume_to_more_games_deletes_no_game_it_has_not_replayed(tmp_path, monkeypatch):
    """Before: the resume deleted the short last shard before it played the longer one, so
    a resume stopped in between had lost those games. Since issue 50 the short shard stays:
    only the new games are played, in a shard of their own."""
    exp, run = _short_run(tmp_path)

    def stopped(jobs, n_jobs=1, scheduler=None, warm=None, dask_workers=None):
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(runner, "execute", stopped)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(exp, tmp_path / "runs", games=10, jobs=1)
    kept = store.read_run(run)
    assert kept.games.height == 7 and kept.missing == [LATER]
    monkeypatch.undo()
    run_experiment(exp, tmp_path / "runs", games=10, jobs=1)
    assert _names(run) == {SHARD, SHORT, LATER}
    whole = store.read_run(run)
    assert whole.complete and whole.games["game"].to_list() == list(range(10))
    assert whole.games.head(7).equals(kept.games.with_columns(
        pl.col(c).cast(whole.games.schema[c]) for c in kept.games.columns))


def test_a_short_shard_left_by_a_resume_before_issue_50_is_replaced_without_loss(tmp_path):
    """A run stopped mid-extension by the code before issue 50: the resume plays the longer
    shard its manifest plans, and only then removes the short one."""
    exp, run = _short_run(tmp_path)
    want = store.read_run(run)
    _stopped_mid_extension(run)
    assert store.read_run(run).missing == [SHARD2]
    run_experiment(exp, tmp_path / "runs", games=10, jobs=1)
    assert _names(run) == {SHARD, SHARD2}
    whole = store.read_run(run)
    assert whole.complete and whole.games.head(7).equals(want.games)


def test_a_report_reading_a_run_that_a_resume_extends_meanwhile(tmp_path):
    """Before: a report that had listed the short last shard called it damaged once the
    resume had replaced it by the longer one. Its games are read from the longer one (a
    run left by a resume before issue 50; since, a resume replaces no shard)."""
    exp, run = _short_run(tmp_path)
    want = store.read_run(run)
    _stopped_mid_extension(run)
    lazy = store.read_run(run, lazy_tables=True, lazy_games=True)
    run_experiment(exp, tmp_path / "runs", games=10, jobs=1)
    assert SHORT not in _names(run)
    assert pl.concat(list(lazy.games)).equals(want.games)
    assert pl.concat(list(lazy.rooms)).equals(want.rooms)


def test_a_run_listed_just_before_a_resume_extends_it_is_read_as_it_now_is(tmp_path,
                                                                           monkeypatch):
    """The resume runs between the reader's listing of the shards and its reading of them
    (a run left by a resume before issue 50, whose short shard the resume replaces).
    Before: the short shard it had listed was 'damaged, cannot be read'."""
    exp, run = _short_run(tmp_path)
    _stopped_mid_extension(run)
    real, fired = Path.glob, []

    def glob(self, pattern):
        found = list(real(self, pattern))
        if self == run / "games" and not fired:
            fired.append(pattern)
            run_experiment(exp, tmp_path / "runs", games=10, jobs=1)
        return iter(found)

    monkeypatch.setattr(Path, "glob", glob)
    data = store.read_run(run)
    assert fired and data.complete and data.games["game"].to_list() == list(range(10))


def test_a_manifest_read_just_before_a_resume_extends_the_run(tmp_path, monkeypatch):
    """The resume runs between the reader's reading of the manifest (7 games) and its listing
    of the shards (10 games). Before: the 10 games were read with 'missing' naming a shard
    that the longer one had replaced."""
    exp, run = _short_run(tmp_path)
    from balance.running.store import read as reader

    real, fired = reader.read_manifest, []

    def read_manifest(run_dir):
        m = real(run_dir)
        if not fired:
            fired.append(1)
            run_experiment(exp, tmp_path / "runs", games=10, jobs=1)
        return m

    monkeypatch.setattr(reader, "read_manifest", read_manifest)
    data = store.read_run(run)
    assert data.complete and data.games.height == 10


def test_writes_never_follow_links_planted_at_temporary_names(tmp_path):
    """Before: shards and the manifest were written to `.NAME.tmp<pid>`, through a link
    planted there, over the file it points to."""
    path = tmp_path / "fz.toml"
    path.write_text(EXPERIMENT, encoding="utf-8")
    exp = load_experiment(path)
    run_experiment(exp, tmp_path / "runs", jobs=1)
    run = tmp_path / "runs" / "fz"
    for sub in ("games", "rooms"):
        (run / sub / f"{SHARD2}.parquet").unlink()
        os.symlink(victim(tmp_path), run / sub / f".{SHARD2}.parquet.tmp{os.getpid()}")
    os.symlink(victim(tmp_path), run / f".manifest.json.tmp{os.getpid()}")
    run_experiment(exp, tmp_path / "runs", games=15, jobs=1)
    assert (tmp_path / "victim.txt").read_bytes() == VICTIM
    for rel in ("manifest.json", f"games/{SHARD2}.parquet", f"rooms/{SHARD2}.parquet"):
        assert not (run / rel).is_symlink()
    assert store.read_run(run).complete


def test_rewritten_rows_are_refused_and_runs_without_digests_still_read(tmp_path):
    """Every shard carries the digest of its rows, checked on read: before, a shard
    rewritten with other rows under its own metadata was read as the run's. A run written
    before shards carried a digest (its manifest says none) is read as before."""
    run = tmp_path / "runs" / "fz"
    shutil.copytree(GRID_BASE["run"], run)
    want = store.read_run(run)
    mine, theirs = run / "games" / f"{SHARD}.parquet", run / "games" / f"{V1}.parquet"
    footer = {k: v for k, v in pq.read_metadata(mine).metadata.items()
              if k != b"ARROW:schema"}
    good = mine.read_bytes()
    pq.write_table(pq.read_table(theirs).replace_schema_metadata(footer), mine)
    with pytest.raises(InputError, match=f"{SHARD}.parquet: damaged shard: its rows are not "
                                         "those written"):
        store.read_run(run)
    mine.write_bytes(good)
    m = read_manifest(run)
    m.pop("shard_digests")
    write_manifest(run, m)
    for sub in ("games", "rooms"):
        for f in (run / sub).glob("*.parquet"):
            t = pq.read_table(f)
            pq.write_table(t, f)  # as written before: the schema's metadata, no digest
    old = store.read_run(run)
    assert old.games.equals(want.games) and old.rooms.equals(want.rooms)
