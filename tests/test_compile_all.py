"""`python -m balance.compile.all` (make test's first step) compiles the games in lanes, two at
once, balanced by each game's compiled source (its cold compile grows with it). The two
processes at once are timed in results/performance.md (a fresh clone); here, what goes in which
lane."""

from __future__ import annotations

import dataclasses

from balance.compile import all as compile_all
from balance.contract import registry


def test_every_game_is_in_one_of_two_lanes_balanced_by_its_compiled_lines():
    games = [g for g in registry.games() if g.bench]
    lanes = compile_all.lanes(games)
    assert len(lanes) == 2
    assert sorted(g.name for lane in lanes for g in lane) == sorted(g.name for g in games)
    load = [sum(compile_all.compiled_lines(g) for g in lane) for lane in lanes]
    assert load[0] >= load[1]  # the heaviest lane starts first
    # Largest first to the lightest lane: the lanes differ by no more than one game's lines.
    assert load[0] - load[1] <= max(compile_all.compiled_lines(g) for g in games)
    # The two engines that cost most compile at once, not one after the other.
    largest = sorted(games, key=compile_all.compiled_lines)[-2:]
    assert not any(all(g in lane for g in largest) for lane in lanes)


def test_a_game_s_compiled_lines_are_its_engine_s_and_its_players():
    by_name = {g.name: compile_all.compiled_lines(g) for g in registry.games() if g.bench}
    assert by_name["gemrush"] > by_name["rusship"] > by_name["dice"] > 1
    other = dataclasses.replace(registry.get("dice"), bench="elsewhere.pkg.game:KIT.bench_case",
                                name="not_here")
    assert compile_all.compiled_lines(other) == 1  # a game of another package: found nowhere


def test_one_lane_where_one_job_is_asked():
    lanes = compile_all.lanes(registry.games(), count=1)
    assert len(lanes) == 1


def test_a_game_without_a_bench_case_is_in_no_lane():
    games = [dataclasses.replace(g, bench="") if g.kit else g for g in registry.games()]
    lanes = compile_all.lanes(games)
    assert all(not g.kit for lane in lanes for g in lane)


def test_one_job_compiles_every_lane_in_this_process(monkeypatch):
    done = []
    monkeypatch.setattr(compile_all, "_compile", lambda names: done.append(tuple(names)))
    assert compile_all.main(jobs=1) == 0
    assert sorted(done) == sorted(tuple(g.name for g in lane)
                                  for lane in compile_all.lanes(registry.games(), 1))
