"""`python -m balance.compile.all` (make test's first step) compiles the games in lanes: the
kit's games in one process (they share the kit's kernels, compiled once), every game with an
engine of its own in a process of its own, two at once. The two processes at once are
timed in results/performance.md (a fresh clone); here, what goes in which lane."""

from __future__ import annotations

import dataclasses

from balance.compile import all as compile_all
from balance.contract import registry


def test_the_kit_s_games_share_a_lane_and_an_engine_of_its_own_has_one():
    games = registry.games()
    lanes = [[g.name for g in lane] for lane in compile_all.lanes(games)]
    on_kit = sorted(g.name for g in games if g.kit and g.bench)
    own = sorted(g.name for g in games if not g.kit and g.bench)
    assert on_kit and own  # the suite registers both kinds
    assert sorted(on_kit) in [sorted(lane) for lane in lanes]
    for name in own:
        assert [name] in lanes
    assert sorted(n for lane in lanes for n in lane) == sorted(on_kit + own)
    assert len(lanes[0]) == max(len(lane) for lane in lanes)  # the longest starts first


def test_a_game_without_a_bench_case_is_in_no_lane():
    games = [dataclasses.replace(g, bench="") if g.kit else g for g in registry.games()]
    lanes = compile_all.lanes(games)
    assert all(not g.kit for lane in lanes for g in lane)


def test_one_job_compiles_every_lane_in_this_process(monkeypatch):
    done = []
    monkeypatch.setattr(compile_all, "_compile", lambda names: done.append(tuple(names)))
    assert compile_all.main(jobs=1) == 0
    assert sorted(done) == sorted(tuple(g.name for g in lane)
                                  for lane in compile_all.lanes(registry.games()))
