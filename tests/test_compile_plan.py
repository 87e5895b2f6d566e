"""The compile helper (balance/kernels/compile_plan.py) and the plans it follows
(balance/compile/planner.py): the plan's text reads back as the very types Numba
compiled, every game's plan names what its bench case compiles, the helper compiles into the
cache the first process reads and stops with the call it helps, and the planner's play of the
two processes."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap

import numba
import pytest
from numba import types
from numba.core.registry import CPUDispatcher

from balance.compile.planner import Node, plan_path, play
from balance.compile.planner import main as planner_main
from balance.contract import registry
from balance.kernels import compile_plan
from balance.kernels.compile_plan import PlanError, read_plan, read_type, resolve, type_text
from balance.kernels.sources import ROOT


def _overloads(prefixes: tuple[str, ...]):
    for d in gc.get_objects():
        if isinstance(d, CPUDispatcher) and d.py_func.__module__.startswith(prefixes):
            yield from d.overloads


def test_the_text_of_every_signature_reads_back_as_the_same_types():
    registry.get("gemrush").hook("bench")().player()([0])
    seen = 0
    for args in _overloads(("balance.games.gemrush", "heuristics")):
        for t in args:
            text = type_text(t)
            if text is not None:
                assert read_type(text) == t, text
                seen += 1
    assert seen > 300
    state = [a for args in _overloads(("balance.games.gemrush.engine.game_nb",))
             for a in args if isinstance(a, types.BaseNamedTuple)]
    assert state and all(type_text(t) is not None for t in state)  # State, Tables, Seats...
    with pytest.raises(PlanError, match="unknown type"):
        read_type("nosuchtype")


@pytest.mark.parametrize("game", [g.name for g in registry.games()
                                  if plan_path(g.name).is_file()])
def test_every_game_s_plan_names_what_its_bench_case_compiles(game):
    registry.get(game).hook("bench")().player()([0])
    steps = read_plan(plan_path(game))
    assert sum(s.action == "compile" for s in steps) >= 5
    stale = [f"{s.kernel}{s.args}" for s in steps
             if s.args not in resolve(s.kernel).overloads]
    assert not stale, (f"{plan_path(game)} is stale: run `python -m "
                       f"balance.compile.planner {game}` ({stale[:2]})")


def test_a_plan_line_that_does_not_read_names_its_file_and_line(tmp_path):
    p = tmp_path / "plan.txt"
    p.write_text("# a plan\ncompile balance.kernels.rng:next32_nb(array(int64, 1d, C))\n"
                 "compile balance.kernels.rng:next32_nb(array(int64, 1d, Q))\n")
    with pytest.raises(PlanError, match=r"plan\.txt, line 3: unknown type .array."):
        read_plan(p)
    p.write_text("type T1 = balance.nowhere:State(int64)\n")
    with pytest.raises(PlanError, match="line 1: No module"):
        read_plan(p)


HELPED = textwrap.dedent("""\
    import os, sys, time
    from pathlib import Path
    import numpy as np
    from numba import types
    from balance.kernels.compile_plan import cached, helping
    from balance.kernels.copy_nb import copy_array_nb
    from balance.kernels.rng import next32_nb, shuffle_nb

    def children():
        return [c for t in os.listdir('/proc/self/task')
                for c in open(f'/proc/self/task/{t}/children').read().split()]

    s = np.ones(4, np.int64)
    arr = types.Array(types.int64, 1, 'C')
    shuffle = (arr, arr, types.int64)
    with helping(Path(sys.argv[1]), next32_nb, (s,)):
        assert children(), 'no helper started'
        deadline = time.monotonic() + 120
        while not cached(shuffle_nb, shuffle) and time.monotonic() < deadline:
            time.sleep(0.05)
        print('helped', cached(shuffle_nb, shuffle))
    print('children after', children())
    next32_nb(s)  # now compiled here: a later first call needs no helper
    with helping(Path(sys.argv[1]), next32_nb, (s,)):
        print('children of a compiled kernel', children())
    a3 = types.Array(types.float32, 3, 'C')
    print('past the wait', cached(copy_array_nb, (a3, a3)))
""")


def test_the_helper_compiles_its_steps_into_the_cache_and_ends_with_the_call(tmp_path):
    plan = tmp_path / "plan.txt"
    # A stale step is passed over; the last waits for a kernel nobody compiles, so the helper
    # is still waiting when the call ends, and must be stopped.
    plan.write_text("compile balance.kernels.rng:gone_nb(int64)\n"
                    "compile balance.kernels.rng:shuffle_nb(array(int64, 1d, C), "
                    "array(int64, 1d, C), int64)\n"
                    "wait balance.kernels.copy_nb:copy_array_nb(array(float64, 2d, C), "
                    "array(float64, 2d, C))\n"
                    "compile balance.kernels.copy_nb:copy_array_nb(array(float32, 3d, C), "
                    "array(float32, 3d, C))\n")
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT),
           "PATH": "/usr/bin:/bin", "BALANCE_COMPILE_HELPER": "1"}
    out = subprocess.run([sys.executable, "-c", HELPED, str(plan)], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["helped True", "children after []",
                                       "children of a compiled kernel []", "past the wait False"]


K = "balance.kernels.rng:"  # a module of the project: the planner plans only for those


def _node(key, start, own, callees=(), kids=()):
    return Node(key, start, start + own + sum(k.end - k.start for k in kids), list(kids), own,
                tuple(callees))


def test_the_planner_gives_the_helper_what_the_first_process_reaches_last():
    # loop -> player (8 s), then two kernels that call it (6 s and 5 s), then a leaf (4 s).
    # The helper takes the leaf at once, waits for the player, then takes the kernel the first
    # process reaches last while it compiles the other.
    player = _node(K + "player()", 1, 8)
    rules = _node(K + "rules()", 9, 6, callees=[K + "player()"])
    late = _node(K + "late()", 15, 5, callees=[K + "player()"])
    leaf = _node(K + "leaf()", 20, 4)
    loop = _node(K + "loop()", 0, 1, callees=[n.id for n in (player, rules, late, leaf)],
                 kids=[player, rules, late, leaf])
    nodes = {n.id: n for n in (loop, player, rules, late, leaf)}
    result = play([loop], nodes)
    assert result.alone_s == pytest.approx(24)
    assert result.steps == [("compile", K + "leaf()"), ("wait", K + "player()"),
                            ("compile", K + "late()")]
    assert result.first_s == pytest.approx(8 + 6 + 2 * 0.03 + 1)  # two kernels loaded



def test_no_helper_starts_for_a_kernel_without_a_cache_on_disk(tmp_path, monkeypatch):
    plan = tmp_path / "plan.txt"
    plan.write_text("compile balance.kernels.rng:next32_nb(array(int64, 1d, C))\n")
    started = []
    monkeypatch.setattr(compile_plan.subprocess, "Popen", lambda *a, **k: started.append(a))
    monkeypatch.setenv(compile_plan.SWITCH, "1")

    @numba.njit  # Numba's own: compiled in memory, nothing on disk for a helper to fill
    def plain(x):
        return x + 1

    with compile_plan.helping(plan, plain, (1,)):
        assert plain(1) == 2
    assert started == []


def test_with_the_jit_off_the_kernel_is_a_plain_function_and_no_helper_starts(tmp_path,
                                                                            monkeypatch):
    plan = tmp_path / "plan.txt"
    plan.write_text("compile balance.kernels.rng:next32_nb(array(int64, 1d, C))\n")
    started = []
    monkeypatch.setattr(compile_plan.subprocess, "Popen", lambda *a, **k: started.append(a))
    monkeypatch.setenv(compile_plan.SWITCH, "1")

    def plain(x):  # what every kernel is under NUMBA_DISABLE_JIT=1: no overloads, no cache
        return x + 1

    with compile_plan.helping(plan, plain, (1,)):
        assert plain(1) == 2
    assert started == []


def test_the_planner_refuses_a_game_it_does_not_know(capsys):
    assert planner_main(["nosuch"]) == 2
    assert "no game 'nosuch' (registered: " in capsys.readouterr().err


def test_the_helper_first_takes_what_the_first_process_reaches_soonest_in_time():
    # Three leaves, reached in order a, b, c. The first process starts on a at once; of the
    # rest the helper takes b, which it can finish before the first process gets there,
    # rather than c, which it reaches last.
    a, b, c = _node(K + "a()", 1, 3), _node(K + "b()", 4, 2), _node(K + "c()", 6, 2)
    loop = _node(K + "loop()", 0, 1, callees=[a.id, b.id, c.id], kids=[a, b, c])
    result = play([loop], {n.id: n for n in (loop, a, b, c)})
    assert result.steps[0] == ("compile", b.id)
    assert result.first_s < result.alone_s - 2 + 0.1  # b loaded, not compiled
