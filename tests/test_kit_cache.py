"""The kit's per-thread cache of prepared variants (balance.kit.hooks.ThreadCache), which the
kit's play hook and Gem Rush's share: each thread builds its own, the least recently used goes
first."""

from __future__ import annotations

import threading

from balance.kit.hooks import ThreadCache


def test_a_kept_value_is_built_once_and_the_least_recently_used_goes_first():
    built = []
    cache = ThreadCache(size=2)

    def get(key):
        return cache.get(key, lambda: built.append(key) or [key])

    first = get("a")
    get("b")
    assert get("a") is first  # kept, and now the most recently used
    get("c")  # past the size: "b" goes, not "a"
    assert get("a") is first
    get("b")
    assert built == ["a", "b", "c", "b"]


def test_each_thread_builds_its_own():
    cache = ThreadCache()
    here = cache.get("k", object)
    there = []
    worker = threading.Thread(target=lambda: there.append(cache.get("k", object)))
    worker.start()
    worker.join()
    assert there[0] is not here
    assert cache.get("k", object) is here
