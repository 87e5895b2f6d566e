"""Making a game's compile plan (balance/kernels/compile_plan.py): what a helper process
compiles while the first process compiles the rest.

`python -m balance.compile.planner GAME` records a cold compile of the game's bench
player in a new process with an empty cache and the helper off: each kernel's compile, when
it started and ended, which compiles ran inside it (the callees it met first) and which
kernels its code calls. It then plays the two processes through on those times:
- the first process compiles as Numba does, depth first, and skips (loads) a kernel the
  helper has cached before it gets there;
- the helper, whenever it is free, takes among the kernels whose callees are all cached the
  one the first process will reach soonest that the helper can still finish before it does
  (earliest deadline first; where none can be, the one the first process reaches last), and
  waits for the first process where none is ready.

The helper's steps from that play are the plan, written as `compile_plan.txt` beside the
module of the game's bench case (for the shipped games, their folders under balance/games/).
The times are one machine's; on another the plan is the same kind of help,
the split a little off.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from numba import types
from numba.core import event
from numba.core.registry import CPUDispatcher

from balance.compile.profile import cold_child
from balance.contract import registry
from balance.errors import InputError
from balance.kernels.compile_plan import PLAN_FILE, read_type, type_text
from balance.kernels.sources import module_path
from balance.kernels.unlinked import REACHES

LOAD_S = 0.03  # a kernel loaded from the cache instead of compiled


@dataclass
class Node:
    id: str  # module:qualname(argument types)
    start: float
    end: float = 0.0
    kids: list = field(default_factory=list)  # compiles that ran inside this one
    own: float = 0.0
    callees: tuple = ()  # ids of the kernels its code calls


def _id(kernel: str, args) -> str | None:
    texts = [type_text(a) for a in args]
    return None if None in texts else f"{kernel}({', '.join(texts)})"


def _record_child(game: str) -> None:
    """In the new process: compile the bench player, print the record as JSON."""
    events = []
    with event.install_recorder("numba:compile") as rec:
        registry.get(game).hook("bench")().player()([0])
    for ts, ev in rec.buffer:
        f = ev.data["dispatcher"].py_func
        events.append((ts, ev.is_start, _id(f"{f.__module__}:{f.__qualname__}",
                                            ev.data["args"]) or f"?{id(ev.data['dispatcher'])}"))
    callees = {}
    for d in gc.get_objects():
        if not isinstance(d, CPUDispatcher):
            continue
        name = f"{d.py_func.__module__}:{d.py_func.__qualname__}"
        for args, cres in d.overloads.items():
            key = _id(name, args)
            if key is not None:
                reached = getattr(cres.library, REACHES, ())
                callees[key] = sorted(filter(None, (_id(f"{m}:{q}", a)
                                                    for m, q, a, _s in reached)))
    print(json.dumps({"events": events, "callees": callees}))


def record(game: str) -> dict:
    """A cold compile of the game's bench player, recorded in a new process."""
    code = (f"from balance.compile.planner import _record_child; "
            f"_record_child({game!r})")
    return json.loads(cold_child(code, "compile_planner", "the recorded compile"))


def tree(rec: dict) -> tuple[list[Node], dict[str, Node]]:
    """The compiles as a forest (roots in order) and by id."""
    roots, nodes, stack = [], {}, []
    t0 = rec["events"][0][0] if rec["events"] else 0.0
    for ts, start, key in rec["events"]:
        if start:
            n = Node(key, ts - t0, callees=tuple(rec["callees"].get(key, ())))
            (stack[-1].kids if stack else roots).append(n)
            nodes.setdefault(key, n)
            stack.append(n)
        else:
            n = stack.pop()
            n.end = ts - t0
            n.own = (n.end - n.start) - sum(k.end - k.start for k in n.kids)
    return roots, nodes


def _pick(ready: list[Node], now: float, clock: float, at: float, ordered: list[Node],
          done: dict) -> Node | None:
    """The helper's next kernel among those ready: the one the first process will reach
    soonest among those the helper can finish before it does (the first process, at `clock`,
    is at `at` on the recorded timeline, and compiles before reaching a kernel the own times
    of every kernel recorded to end before it that is not done yet); where none can be
    finished in time, the one it reaches last."""
    if not ready:
        return None

    def arrival(n: Node) -> float:
        return clock + sum(m.own for m in ordered if at <= m.end <= n.start and m.id not in done)

    timely = [n for n in ready if arrival(n) >= now + n.own]
    if timely:
        return min(timely, key=arrival)
    return max(ready, key=lambda n: n.start)


def plannable(key: str) -> bool:
    """Whether the helper may compile (or wait for) this kernel: a module-level kernel of the
    project (Numba's own overloads compile as functions local to its modules, which a plan
    cannot name)."""
    module, _, qual = key.partition("(")[0].partition(":")
    return not key.startswith("?") and "<" not in qual and module_path(module) is not None


@dataclass
class Play:
    first_s: float  # when the first process ends, with the helper
    alone_s: float  # the same compile without it
    steps: list  # (action, id), the helper's


def play(roots: list[Node], nodes: dict[str, Node]) -> Play:
    """The two processes played through (the module's docstring)."""
    done: dict[str, float] = {}
    started: set[str] = set()
    by_helper: set[str] = set()
    todo = sorted((n for n in nodes.values() if plannable(n.id)),
                  key=lambda n: -n.start)
    steps: list = []
    helper = {"t": 0.0, "busy": None}  # busy: (node, end)

    def ready(n: Node, t: float) -> bool:
        return all(c in done and done[c] <= t for c in n.callees if c in nodes and c != n.id)

    def helper_until(t: float) -> None:
        while True:
            if helper["busy"] is not None:
                n, end = helper["busy"]
                if end > t:
                    return
                if n.id not in done:
                    done[n.id] = end
                    by_helper.add(n.id)
                helper["busy"], helper["t"] = None, end
            todo[:] = [n for n in todo if n.id not in done and n.id not in started]
            now = helper["t"]
            pick = _pick([n for n in todo if ready(n, now)], now, clock["t"], serial["t"],
                         ordered, done)
            if pick is None:
                helper["t"] = max(now, t)
                return
            todo.remove(pick)
            for c in pick.callees:
                if (c in nodes and c != pick.id and ("compile", c) not in steps
                        and plannable(c)):
                    steps.append(("wait", c))
            steps.append(("compile", pick.id))
            helper["busy"] = (pick, now + pick.own + LOAD_S * len(pick.callees))

    clock = {"t": 0.0}
    serial = {"t": 0.0}  # where the first process is on the recorded timeline
    ordered = sorted(nodes.values(), key=lambda n: n.end)

    def first(n: Node) -> None:
        serial["t"] = n.start
        helper_until(clock["t"])
        if n.id in done and done[n.id] <= clock["t"]:
            clock["t"] += LOAD_S
            serial["t"] = n.end
            return
        started.add(n.id)
        for k in n.kids:
            first(k)
        clock["t"] += n.own
        serial["t"] = n.end
        helper_until(clock["t"])
        done.setdefault(n.id, clock["t"])

    for r in roots:
        first(r)
    # Waits only where the helper compiles something after them.
    out, needed = [], set()
    for action, key in reversed(steps):
        if action == "compile" and key in by_helper:
            out.append((action, key))
            needed |= set(nodes[key].callees)
        elif action == "wait" and key in needed and key not in by_helper:
            out.append((action, key))
            needed.discard(key)
    out.reverse()
    waited: set = set()  # a kernel once cached stays cached: one wait for it is enough
    out = [s for s in out if s[0] == "compile" or (s[1] not in waited and not waited.add(s[1]))]
    return Play(clock["t"], sum(n.own for n in nodes.values()), out)


def plan_text(game: str, result: Play) -> str:
    """The plan file: named tuple types once each (`type Tn = ...`), then the steps."""
    aliases: dict = {}
    lines = []

    def name_types(t) -> None:
        if isinstance(t, types.BaseTuple):
            for x in t.types:
                name_types(x)
            if isinstance(t, types.BaseNamedTuple) and t not in aliases:
                text = type_text(t, aliases)
                aliases[t] = f"T{len(aliases) + 1}"
                lines.append(f"type {aliases[t]} = {text}")

    out = []
    for action, key in result.steps:
        kernel, _, args = key.partition("(")
        sig = read_type(f"({args}")
        for a in sig.types:
            name_types(a)
        out.append(f"{action} {kernel}({', '.join(type_text(a, aliases) for a in sig.types)})")
    head = [f"# The compile plan of {game}: what a helper process compiles while the first "
            "process compiles the rest",
            "# (balance/kernels/compile_plan.py). Made by `python -m "
            f"balance.compile.planner {game}`; do not edit.",
            f"# Recorded: a cold compile of {result.alone_s:.1f} s; played through with "
            f"the helper, the first process ends at {result.first_s:.1f} s."]
    return "\n".join(head + lines + out) + "\n"


def plan_path(game: str) -> Path:
    """Where the game's helper reads its plan: beside the module of its bench case."""
    module = registry.get(game).bench.partition(":")[0]
    return Path(importlib.import_module(module).__file__).with_name(PLAN_FILE)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m balance.compile.planner",
                                 description="Record a cold compile of a game's bench player "
                                 "and write the plan its helper process follows.")
    ap.add_argument("game")
    ap.add_argument("--out", type=Path, default=None,
                    help="the plan file (default: compile_plan.txt beside the module of the "
                    "game's bench case)")
    a = ap.parse_args(argv)
    if a.game not in registry.names():
        print(f"error: no game {a.game!r} (registered: {', '.join(registry.names())})",
              file=sys.stderr)
        return 2
    print(f"recording a cold compile of {a.game}'s bench player (a minute or more)...",
          file=sys.stderr)
    try:
        rec = record(a.game)
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    roots, nodes = tree(rec)
    result = play(roots, nodes)
    out = a.out or plan_path(a.game)
    out.write_text(plan_text(a.game, result))
    n = sum(1 for s in result.steps if s[0] == "compile")
    print(f"{out}: {n} kernels for the helper; the recorded compile took {result.alone_s:.1f} "
          f"s, and with the helper the first process would end at {result.first_s:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
