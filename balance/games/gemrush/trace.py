"""A game told in plain words, from the engine's event log
(balance/games/gemrush/engine/events.py)."""

from __future__ import annotations

import numpy as np

from balance.games.gemrush.content import SIDES
from balance.games.gemrush.engine import events as E
from balance.games.gemrush.engine.state import END_NAMES, S_ORIGIN, S_PLACED
from balance.games.gemrush.play import Setup
from balance.games.gemrush.skill import SK_AGAIN, SK_MOVE_ANY, SK_STEPS, SK_TURN, SKC_N, SKC_OP
from balance.games.gemrush.tables import SEAT_DEAL, SEAT_VP


class Namer:
    def __init__(self, setup: Setup, st):
        self.s = setup
        self.st = st
        self.rooms = setup.room_names
        self.gems = setup.gem_names
        # Placed tiles are named by type; tiles built later in the game are known from the log.
        self.placed: dict[int, int] = {}

    def card(self, c: int) -> str:
        if c < 0:
            return "nothing"
        ct = self.s.tables.card_deck[c]
        gems = [self.gems[g] for g in self.s.tables.card_gems[ct] if g >= 0]
        return "(" + " + ".join(gems) + ")"

    def skill(self, s: int) -> str:
        return self.s.skill_names[s]

    def skill_option(self, s: int, a: int, b: int) -> str:
        """What an OPT_SKILL row (skill s, a, b) does, in words (skills_nb.py's rows)."""
        op = int(self.s.tables.skill_op[s, SKC_OP])
        if op == SK_MOVE_ANY:
            return f" to {self.room(a)}"
        if op == SK_TURN:
            out = f" on hand card {a % 64 + 1}"
            if self.s.tables.skill_op[s, SKC_N] == 2:
                out += f", discarding hand card {a // 64 + 1}"
            return out + (f" keeping its gem {b + 1}" if b >= 0 else "")
        return ""

    def skill_use(self, op: int, a: int, b: int) -> str:
        if op == SK_MOVE_ANY:
            return f": moves to {self.room(a)}"
        if op == SK_AGAIN:
            return f": {self.room(a)} again"
        if op == SK_STEPS:
            return ": more steps"
        if op == SK_TURN:
            return f" on {self.card(a)}" + (f", discarding {self.card(b)}" if b >= 0 else "")
        return ""

    def room(self, i: int) -> str:
        t = self.placed.get(i, int(self.st.pl_type[i]) if i < self.st.sc[S_PLACED] else -1)
        return f"{self.rooms[t]} #{i}" if t >= 0 else f"room #{i}"

    def cost(self, room_type: int, rot: int, side: int) -> str:
        cost = self.s.tables.door_cost[room_type, rot, side]
        parts = [f"{n} {self.gems[g]}" for g, n in enumerate(cost) if n]
        return ", ".join(parts) if parts else "free"


def format_game(setup: Setup, st, events: np.ndarray, decisions=None) -> str:
    """The game in words. `decisions` ({event index: [lines]}) puts lines before the event at
    that index: a narrated game's options and picks (balance/games/gemrush/narrate.py)."""
    decisions = decisions or {}
    nm = Namer(setup, st)
    ru = setup.rules
    lines: list[str] = []
    mode = "Crisis" if ru.mode == 0 else "Rush"
    goal = (f"target {ru.target}" + (" (playing to exhaustion)" if ru.exhaust else "")
            if ru.mode == 0 else f"race to {ru.target}")
    lines.append(f"{setup.profile.title}: {mode}, {ru.players} players, {goal}, "
                 f"player: {setup.heuristic}")
    deal, vp = ru.seat[SEAT_DEAL], ru.seat[SEAT_VP]
    if len(set(deal.tolist())) > 1 or len(set(vp.tolist())) > 1:
        lines.append("Seats start with: " + "; ".join(
            f"P{q + 1} {deal[q]} cards, {vp[q]} points" for q in range(ru.players)))
    pay: list[str] = []
    # Only the player whose turn it is can score, so each turn's end carries that seat's score.
    seat_score = [int(v) for v in ru.seat[SEAT_VP]]
    for i, row in enumerate(events):
        lines += decisions.get(i, [])
        turn, seat, code, a, b, c, d, e = (int(v) for v in row)
        who = f"P{seat + 1}"
        if code == E.EV_SETUP:
            nm.placed[a] = b
            lines.append(f"Setup: start tile {nm.room(a)}")
        elif code == E.EV_DEAL:
            pass
        elif code == E.EV_SKILL_DEAL:
            lines.append(f"  P{a + 1} holds the skill {nm.skill(c)}")
        elif code == E.EV_SKILL:
            lines.append(f"  {who} uses the skill {nm.skill(a)}{nm.skill_use(b, c, d)}")
        elif code == E.EV_FACE:
            lines.append(f"    {nm.card(a)} now shows "
                         + " and ".join(nm.gems[g] for g in (b, c) if g >= 0))
        elif code == E.EV_RECOVER:
            lines.append(f"    takes {nm.card(a)} back from the discard pile")
        elif code == E.EV_SKILL_REDRAW:
            lines.append(f"  {who} draws a new skill, {nm.skill(b)}, for {nm.skill(a)}")
        elif code == E.EV_TURN:
            lines.append(f"Turn {turn + 1} - {who} in {nm.room(b)}")
        elif code == E.EV_DISCARD:
            why = "for the ability" if b else "down to the hand limit"
            lines.append(f"  {who} discards {nm.card(a)} {why}")
        elif code == E.EV_VOL_DISCARD:
            lines.append(f"  P{b + 1} discards {nm.card(a)} at will")
        elif code == E.EV_MOVE:
            via = f" through {d} tunnel(s)" if d else ""
            lines.append(f"  {who} moves {SIDES[c]} from {nm.room(a)} to {nm.room(b)}{via}")
        elif code == E.EV_PAY:
            pay.append(nm.card(a))
        elif code == E.EV_BUILD:
            t = nm.placed.get(a, int(st.pl_type[a]))
            rot = int(st.pl_rot[a])
            how = "with a Warpstone, " if e else ""
            lines.append(f"  {who} builds {how}through the {SIDES[b]} door of {nm.room(a)} "
                         f"(cost: {nm.cost(t, rot, b)}; paid {' '.join(pay) or 'nothing'}) "
                         f"for {c} point(s)")
            pay = []
        elif code == E.EV_BONUS:
            lines.append(f"    Orichalcum adds {a} point(s)")
        elif code == E.EV_PLACE:
            nm.placed[a] = b
            o = int(st.sc[S_ORIGIN])
            lines.append(f"    places {setup.room_names[b]} #{a} (rotation {c}) at "
                         f"({d - o}, {o - e})")
        elif code == E.EV_STOP_BACK:
            lines.append(f"    the room deck ran out inside a tunnel: back in {nm.room(a)}")
        elif code == E.EV_CART:
            lines.append(f"  {who} rides the mine cart from {nm.room(a)} to {nm.room(b)}")
        elif code == E.EV_WARP_MOVE:
            lines.append(f"  {who} discards {nm.card(c)} (Warpstone) to move to {nm.room(b)}")
        elif code == E.EV_ABILITY:
            lines.append(f"  {who} uses {nm.room(a)}: {setup.content.rooms[b].ability_text}")
        elif code == E.EV_CHOOSE_X:
            lines.append(f"    chooses X = {a}")
        elif code == E.EV_NAME:
            lines.append(f"    names {nm.gems[a]}")
        elif code == E.EV_DRAW:
            lines.append(f"  {who} draws {nm.card(a)}")
        elif code == E.EV_REVEAL:
            lines.append(f"    reveals {nm.card(a)}")
        elif code == E.EV_PASS_OVER:
            lines.append(f"    digs past {nm.card(a)} (discarded)")
        elif code == E.EV_KEEP:
            verb = "digs up" if b else "keeps"
            lines.append(f"    {verb} {nm.card(a)}")
        elif code == E.EV_TELEPORT:
            lines.append(f"    moves from {nm.room(a)} to {nm.room(b)}")
        elif code == E.EV_SWAP:
            lines.append(f"    swaps places with P{a + 1}")
        elif code == E.EV_MOVE_ROOM:
            o = int(st.sc[S_ORIGIN])
            lines.append(f"    moves {nm.room(a)} (and everyone in it) to ({b - o}, {o - c})")
        elif code == E.EV_RESHUFFLE:
            lines.append(f"    the gem deck is empty: {a} discards reshuffled")
        elif code == E.EV_BURN:
            src = "the deck" if b < 0 else f"P{b + 1}'s hand"
            lines.append(f"  burns {nm.card(a)} from {src}")
        elif code == E.EV_TURN_END:
            seat_score[seat] = e
            score = ("team score " + str(a)) if ru.mode == 0 else "scores " + " ".join(
                f"P{q + 1}:{v}" for q, v in enumerate(seat_score))
            lines.append(f"  end of turn: {score}; deck {b}, discards {c}, burnt {d}")
        elif code == E.EV_END:
            lines.append(f"Game over: {END_NAMES[a]}. Team score {b}; "
                         + " ".join(f"P{q + 1}: {int(v)}" for q, v in enumerate(st.score)))
    return "\n".join(lines)
