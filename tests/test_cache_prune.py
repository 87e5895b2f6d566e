"""The Numba cache keeps folders of older engine sources only while they may still be wanted."""

import os
import time

from balance.kernels.jit import KEEP_FOLDERS, STALE_DAYS, prune_cache


def _folder(base, name, days_ago, now):
    d = base / name
    d.mkdir()
    (d / "kernel.nbi").write_text("x")
    mark = d / ".last_used"
    mark.touch()
    t = now - days_ago * 86400
    os.utime(mark, (t, t))
    return d


def test_prune_removes_old_folders_beyond_the_most_recent(tmp_path):
    now = time.time()
    current = _folder(tmp_path, "c" * 16, STALE_DAYS + 30, now)  # in use, however old
    kept = [_folder(tmp_path, f"{i:016x}", i, now) for i in range(1, KEEP_FOLDERS + 1)]
    this_week = _folder(tmp_path, "d" * 16, STALE_DAYS - 1, now)  # beyond the few, but recent
    old = [_folder(tmp_path, "e" * 16, STALE_DAYS + 1, now),
           _folder(tmp_path, "f" * 16, STALE_DAYS + 20, now)]
    other = tmp_path / "notes"  # not a cache folder: never touched
    other.mkdir()
    assert prune_cache(tmp_path, current, now) == old
    assert not any(d.exists() for d in old)
    assert all(d.exists() for d in [current, *kept, this_week, other])
    # The few most recently used are kept however old they are.
    later = now + 365 * 86400
    assert prune_cache(tmp_path, current, later) == [this_week]
    assert all(d.exists() for d in kept)


def test_prune_of_a_missing_folder_does_nothing(tmp_path):
    assert prune_cache(tmp_path / "none", tmp_path / "none" / ("a" * 16)) == []
