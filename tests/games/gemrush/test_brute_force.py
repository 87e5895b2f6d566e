"""Brute-force checks where the engine computes a set: the rotations a new tile may take, and
the movement options of a step, against plain enumerations written from the rules with the
referee's own model (balance/games/gemrush/referee/). Payments have theirs in test_payments.py."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from balance.games.gemrush.engine.decisions import (
    D_STEP,
    OPT_ABILITY,
    OPT_CART,
    OPT_DOOR,
    OPT_FREE,
    OPT_SKILL,
    OPT_STOP,
    OPT_WARP_BUILD,
    OPT_WARP_MOVE,
)
from balance.games.gemrush.engine.game_nb import play_game_nb
from balance.games.gemrush.engine.mine_nb import legal_rotations_nb
from balance.games.gemrush.engine.state import (
    PL_ROT,
    PL_TYPE,
    PL_X,
    PL_Y,
    S_DISC_N,
    S_PLACED,
    S_STEPS_LEFT,
    S_TILES_N,
    SK_SLOT0,
    SK_USED0,
    new_state,
)
from balance.games.gemrush.play import prepare
from balance.games.gemrush.referee.facts import STEP, Facts
from balance.games.gemrush.referee.payment import covers
from balance.games.gemrush.skill import SK_MOVE_ANY, SK_RECOVER, SK_STEPS, SK_TURN
from balance.kernels.rng import seed_state
from heuristics.external import playing
from heuristics.gemrush.dispatch_nb import POLICY_GREEDY, POLICY_PYTHON, pick_nb


@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_rotations_are_every_turn_with_a_door_facing_back(edition):
    s = prepare(edition, "crisis", 1)
    f = Facts.of(s.content)
    out = np.zeros(8, np.int64)
    for rtype in range(len(f.rooms)):
        for entry in range(4):
            n = legal_rotations_nb(s.tables, rtype, entry, out)
            expect = [r for r in range(4) if f.edge(rtype, r, entry) is not None]
            assert sorted(out[:n].tolist()) == expect, (rtype, entry)


class StepAuditor:
    """A Python player that plays greedy and, at every step decision, compares the engine's
    options with its own enumeration of the rules."""

    def __init__(self, setup, st):
        self.s, self.st = setup, st
        self.f = Facts.of(setup.content)
        self.echo_own = bool(setup.profile.values["echo_copies_own_card"])
        self.checked = Counter()

    def turn_start(self, p):
        pass

    def choose(self, kind, n, p):
        s, st = self.s, self.st
        if kind == D_STEP:
            got = Counter(tuple(int(v) for v in st.opt[i]) for i in range(n))
            want = self.expected(p, int(st.sc[S_STEPS_LEFT]), got)
            # Ability options depend on whether the ability can be carried out in full;
            # the enumeration checks only that they are offered in the right rooms.
            for row in list(got):
                if row[0] in (OPT_ABILITY, OPT_FREE):
                    kind_here = self.kind(int(st.pos[p]))
                    assert kind_here == ("movement" if row[0] == OPT_ABILITY else "free")
                    del got[row]
            assert got == want, (sorted(got), sorted(want))
            self.checked[len(want)] += 1
        return int(pick_nb(POLICY_GREEDY, kind, st, s.tables, s.rules, s.players, n, p))

    def kind(self, j):
        return self.f.kind(int(self.st.pl[PL_TYPE, j]))

    def trace(self, x, y, side):
        st, passed = self.st, 0
        for _ in range(st.sc[S_PLACED] + 2):
            dx, dy = STEP[side]
            x, y = x + dx, y + dy
            j = int(st.grid[y, x])
            back = (side + 2) % 4
            if j < 0:
                return "empty", passed
            t, r = int(st.pl[PL_TYPE, j]), int(st.pl[PL_ROT, j])
            if self.f.kind(t) != "tunnel":
                return j, passed
            side = self.f.tunnel_exit(t, r, back)
            if side is None:
                return "blocked", passed
            passed += 1
        return "blocked", passed

    def expected(self, p, steps, got):
        st, f, ru = self.st, self.f, self.s.rules
        hand = [int(c) for c in st.hand[p, : st.hand_n[p]]]
        tiles_left = st.sc[S_TILES_N] > 0
        placed = int(st.sc[S_PLACED])
        cur = int(st.pos[p])
        want = Counter([(OPT_STOP, 0, 0, 0)])

        def door_at(j, side):
            return f.edge(int(st.pl[PL_TYPE, j]), int(st.pl[PL_ROT, j]), side)

        # Cards a skill turned this turn show other gems (the referee checks the turning).
        names = self.s.gem_names
        faces = {c: tuple(names[g] for g in st.face[c, :2] if g >= 0) for c in hand
                 if tuple(st.face[c, :2]) != tuple(st.face[c, 2:])}

        def payable(j, side):
            return covers(f, hand, Counter(door_at(j, side).cost), self.echo_own, faces)

        xy = (int(st.pl[PL_X, cur]), int(st.pl[PL_Y, cur]))
        if steps >= 1:
            for side in range(4):
                if door_at(cur, side) is None:
                    continue
                to, passed = self.trace(*xy, side)
                if isinstance(to, int):
                    want[(OPT_DOOR, side, to, passed)] += 1
                elif to == "empty" and tiles_left and payable(cur, side):
                    want[(OPT_DOOR, side, -1, passed)] += 1
        carts = [j for j in range(placed) if self.kind(j) == "minecart"]
        # Rides stop at the free-move cap, and the auditor does not count the rides of this
        # movement phase: where the engine offers rides, they must be to every other cart.
        rides = any(row[0] == OPT_CART for row in got)
        if self.kind(cur) == "minecart" and len(carts) >= 2 and rides:
            for j in carts:
                if j != cur:
                    want[(OPT_CART, j, 0, 0)] += 1
        if ru.special_gems:
            warps = [i for i, c in enumerate(hand)
                     if any(f.power[g] == "warp" for g in faces.get(c, f.card_gems[c]))]
            for i in warps:
                for j in range(placed):
                    if j != cur and self.kind(j) != "tunnel":
                        want[(OPT_WARP_MOVE, i, j, 0)] += 1
            if warps and tiles_left:
                for j in range(placed):
                    if self.kind(j) == "tunnel" and not ru.warp_build_at_tunnels:
                        continue
                    jxy = (int(st.pl[PL_X, j]), int(st.pl[PL_Y, j]))
                    for side in range(4):
                        if door_at(j, side) is not None and self.trace(*jxy, side)[0] == \
                                "empty" and payable(j, side):
                            want[(OPT_WARP_BUILD, j, side, 0)] += 1
        self.skill_rows(p, steps, hand, faces, want)
        return want

    def skill_rows(self, p, steps, hand, faces, want):
        """The movement step's skill uses, from the content's effects (skills_nb.py's rows)."""
        st, f = self.st, self.f
        names = self.s.gem_names
        colour = f.colour(p)
        for slot in range(2):
            s = int(st.sk[p, SK_SLOT0 + slot])
            if s < 0 or st.sk[p, SK_USED0 + slot] >= f.skills[s].uses:
                continue
            e = f.skills[s].effect
            if e.op == SK_STEPS and steps == 0 or e.op == SK_RECOVER and st.sc[S_DISC_N] > 0:
                want[(OPT_SKILL, slot, 0, 0)] += 1
            elif e.op == SK_MOVE_ANY:
                for j in range(int(st.sc[S_PLACED])):
                    if j != int(st.pos[p]) and self.kind(j) != "tunnel":
                        want[(OPT_SKILL, slot, j, 0)] += 1
            elif e.op == SK_TURN:
                cond = colour if e.cond == "own" else e.cond
                ok = [i for i, c in enumerate(hand) if not cond or cond in f.card_gems[c]]
                for i in ok:
                    now = [int(g) for g in st.face[hand[i], :2]]
                    kepts = ([k for k in range(2) if now[k] >= 0 and (k == 0 or now[1] != now[0])]
                             if "kept" in e.out else [-1])
                    for k in kepts:
                        new = [colour if g == "own" else names[now[k]] if g == "kept" else g
                               for g in e.out]
                        shown = [names[g] for g in now if g >= 0]
                        if e.n == 1 and new != shown:
                            want[(OPT_SKILL, slot, i, k)] += 1
                        elif e.n == 2:
                            for j in ok:
                                if j != i:
                                    want[(OPT_SKILL, slot, i + 64 * j, k)] += 1


@pytest.mark.parametrize("edition, mode, players", [("1e", "crisis", 2), ("2e", "crisis", 3),
                                                    ("2e", "rush", 4)])
def test_step_options_are_exactly_the_legal_moves(edition, mode, players):
    s = prepare(edition, mode, players, "greedy", exhaust=(mode == "crisis"))
    s.players.pol[:] = POLICY_PYTHON
    st = new_state(s.tables, s.rules)
    auditor = StepAuditor(s, st)
    with playing(auditor):
        for seed in range(8):
            play_game_nb(st, s.tables, s.rules, s.players, seed_state(seed), 0, 0)
    assert sum(auditor.checked.values()) > 200
    assert max(auditor.checked) > 3  # listings with several options were compared
