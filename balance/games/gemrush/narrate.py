"""A game told with every decision's options and the pick, as OpenSpiel's playthroughs do: the
rule goldens (tests/games/gemrush/golden/) are such games, played by a uniformly random chooser, so
that they pin the rules (what is offered) and not a strategy.

The chooser is a Python player (heuristics/external.py) that picks uniformly among the options
with its own generator, seeded by the game's seed."""

from __future__ import annotations

import numpy as np

from balance.games.gemrush.content import SIDES
from balance.games.gemrush.engine import decisions as D
from balance.games.gemrush.engine.game_nb import play_game_nb
from balance.games.gemrush.engine.state import S_EV_N, new_state
from balance.games.gemrush.trace import Namer
from balance.kernels.rng import seed_state
from heuristics.external import playing
from heuristics.gemrush.registry import PLAYERS


class Narrator:
    def __init__(self, setup, st, seed: int):
        self.s, self.st = setup, st
        self.rng = np.random.default_rng(seed)
        # (event index, kind, seat, options, pick) of every decision
        self.log: list[tuple[int, int, int, list, int]] = []

    def turn_start(self, p: int) -> None:
        pass

    def choose(self, kind: int, n: int, p: int) -> int:
        st = self.st
        rows = [tuple(int(v) for v in st.opt[i]) for i in range(n)]
        if kind == D.D_PAYMENT:  # hand positions mean nothing later: keep the cards
            rows = [tuple(int(st.hand[p, b]) for b in range(int(st.hand_n[p]))
                          if (r[0] >> b) & 1) for r in rows]
        elif kind == D.D_DISCARD_LIMIT or kind == D.D_ABILITY_DISCARD or kind == D.D_KEEP:
            rows = [(r[1],) if r[0] >= 0 else (-1, int(st.sk[p, r[1]])) for r in rows]
        elif kind == D.D_STEP:  # a skill's slot means nothing later: keep the skill
            rows = [(r[0], int(st.sk[p, r[1]]), r[2], r[3]) if r[0] == D.OPT_SKILL else r
                    for r in rows]
        k = int(self.rng.integers(n))
        self.log.append((int(st.sc[S_EV_N]), kind, p, rows, k))
        return k


def play_narrated(setup, seed: int):
    """(state, events, {event index: decision lines}) of one game with narrated decisions."""
    st = new_state(setup.tables, setup.rules, ev_max=200_000)
    pp = setup.players._replace(pol=np.full(setup.rules.players, PLAYERS.python_policy,
                                            np.int64))
    narrator = Narrator(setup, st, seed)
    with playing(narrator):
        play_game_nb(st, setup.tables, setup.rules, pp, seed_state(seed), 1, 1)
    events = st.ev[: st.sc[S_EV_N]].copy()
    return st, events, narrator


def decision_lines(setup, st, narrator) -> dict[int, list[str]]:
    nm = Namer(setup, st)
    out: dict[int, list[str]] = {}
    for at, kind, p, rows, k in narrator.log:
        opts = [_option(nm, kind, r) for r in rows]
        text = " | ".join(f"{i}: {o}" for i, o in enumerate(opts))
        out.setdefault(at, []).append(f"  ? P{p + 1} {D.DECISION_NAMES[kind]}: {text}  -> {k}")
    return out


def _option(nm, kind: int, r: tuple) -> str:
    if kind == D.D_STEP:
        op, a, b, c = r
        return {D.OPT_STOP: lambda: "stop",
                D.OPT_DOOR: lambda: (f"{SIDES[a]} to {nm.room(b)}" if b >= 0
                                     else f"build {SIDES[a]}"),
                D.OPT_CART: lambda: f"cart to {nm.room(a)}",
                D.OPT_WARP_MOVE: lambda: f"Warpstone to {nm.room(b)}",
                D.OPT_WARP_BUILD: lambda: f"Warpstone build {SIDES[b]} of {nm.room(a)}",
                D.OPT_ABILITY: lambda: "use this room (a step)",
                D.OPT_FREE: lambda: "use this room (free)",
                D.OPT_SKILL: lambda: nm.skill(a) + nm.skill_option(a, b, c)}[op]()
    if kind == D.D_DISCARD_LIMIT and r[0] < 0:
        return f"keep the rest ({nm.skill(r[1])})"
    if kind == D.D_PAYMENT:
        return " ".join(nm.card(c) for c in r)
    if kind in (D.D_DISCARD_LIMIT, D.D_ABILITY_DISCARD, D.D_KEEP):
        return nm.card(r[0])
    if kind in (D.D_VOL_DISCARD, D.D_BURN):
        if r[0] < 0:
            return "no more" if kind == D.D_VOL_DISCARD else "the deck"
        return f"P{r[0] + 1} {nm.card(r[2])}"
    if kind == D.D_ACTION:
        return "draw" if r[0] == D.ACT_DRAW else "ability"
    if kind == D.D_ROTATION:
        return f"rotation {r[0]}"
    if kind == D.D_NAME:
        return nm.gems[r[0]]
    if kind == D.D_SWAP:
        return f"P{r[0] + 1}"
    if kind == D.D_MOVE_ANY:
        return nm.room(r[0])
    if kind == D.D_SKILL:
        return "no" if r[0] < 0 else ("redraw " if r[2] else "") + nm.skill(r[1])
    if kind == D.D_SKILL_PICK:
        return nm.skill(r[0])
    return str(r[0])  # X, a cell
