"""The Numba cache keeps folders of older sources only while they may still be wanted."""

import os
import time

from balance.kernels.jit import STALE_DAYS, prune_cache


def _folder(base, name, days_ago, now):
    d = base / name
    d.mkdir()
    (d / "kernel.nbi").write_text("x")
    mark = d / ".last_used"
    mark.touch()
    t = now - days_ago * 86400
    os.utime(mark, (t, t))
    return d


def test_prune_removes_folders_unused_for_a_week_of_use(tmp_path):
    now = time.time()
    used_today = _folder(tmp_path, "a" * 16, 0, now)
    this_week = _folder(tmp_path, "d" * 16, STALE_DAYS - 1, now)
    old = [_folder(tmp_path, "e" * 16, STALE_DAYS + 1, now),
           _folder(tmp_path, "f" * 16, STALE_DAYS + 20, now)]
    other = tmp_path / "notes"  # not a cache folder: never touched
    other.mkdir()
    assert prune_cache(tmp_path) == [old[1], old[0]]  # oldest first
    assert not any(d.exists() for d in old)
    assert all(d.exists() for d in [used_today, this_week, other])


def test_after_a_month_away_the_last_week_of_work_is_kept(tmp_path):
    now = time.time()
    last_day = _folder(tmp_path, "a" * 16, 30, now)
    that_week = _folder(tmp_path, "b" * 16, 30 + STALE_DAYS - 1, now)
    before = _folder(tmp_path, "c" * 16, 30 + STALE_DAYS + 1, now)
    assert prune_cache(tmp_path) == [before]
    assert last_day.exists() and that_week.exists()


def test_prune_of_a_missing_folder_does_nothing(tmp_path):
    assert prune_cache(tmp_path / "none") == []
