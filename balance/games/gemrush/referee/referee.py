"""The referee: replay a game's event trace in an independent model and check each event.

The model: the gem deck as a set (its order is hidden, and a reshuffle's is random), the
discard pile, hands, the revealed pool, cards a dig passed by, burnt cards; placed tiles on a
grid with their rotations; each seat's position and score; the turn and its phase. Each event
is checked against the rules before the model applies it. The engine's trace format is the
only thing shared: event codes (balance/games/gemrush/engine/events.py) and end names.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from balance.games.gemrush.ability import MOVE_ROOM
from balance.games.gemrush.engine import events as E
from balance.games.gemrush.engine.state import END_NAMES
from balance.games.gemrush.play import play_traced
from balance.games.gemrush.referee.facts import STEP, Facts
from balance.games.gemrush.referee.payment import bonus, legal
from balance.games.gemrush.skill import (
    SK_AGAIN,
    SK_HAND,
    SK_MOVE_ANY,
    SK_RECOVER,
    SK_STEPS,
    SK_TURN,
)

CARD_EVENTS = {E.EV_DRAW, E.EV_REVEAL, E.EV_KEEP, E.EV_PASS_OVER, E.EV_NAME, E.EV_CHOOSE_X,
               E.EV_RESHUFFLE}
NAMES = {v: k for k, v in vars(E).items() if k.startswith("EV_")}


@dataclass
class Violation:
    index: int  # event row in the trace
    turn: int
    event: str
    what: str

    def __str__(self) -> str:
        return f"event {self.index} (turn {self.turn + 1}, {self.event}): {self.what}"


@dataclass
class Report:
    games: int = 0
    events: int = 0
    kinds: Counter = field(default_factory=Counter)
    violations: list = field(default_factory=list)  # (seed, Violation)

    def add(self, other: Report) -> None:
        self.games += other.games
        self.events += other.events
        self.kinds.update(other.kinds)
        self.violations += other.violations


class Game:
    """The referee's model of one game under one rule profile."""

    def __init__(self, setup):
        self.f = Facts.of(setup.content)
        self.rules = setup.profile.values
        ru = setup.rules
        self.crisis = ru.mode == 0
        self.players = ru.players
        self.target = ru.target
        self.exhaust = bool(ru.exhaust)
        self.deck = set(range(len(self.f.card_gems)))
        self.disc: list[int] = []
        # The discard pile's order is known card by card, except within an ability's leftovers
        # (revealed cards nobody kept, cards a dig passed by), whose order the trace does not
        # give: each card carries the number of the discard that put it there.
        self.disc_gid: list[int] = []
        self.gid = 0
        self.hands = [set() for _ in range(self.players)]
        self.pool: set[int] = set()
        self.rej: set[int] = set()
        self.burnt: list[int] = []
        self.tiles: list[tuple[int, int, int, int]] = []  # (type, rot, x, y) by placed index
        self.grid: dict[tuple[int, int], int] = {}
        self.pos = [0] * self.players
        # A seat's own deal and starting points (deal.seat3, start_vp.seat3: seats count from
        # 1 there), else the profile's.
        self.deal = [self.per_seat("deal", q) for q in range(self.players)]
        self.score = [self.per_seat("start_vp", q) for q in range(self.players)]
        self.dealt = [0] * self.players
        self.turn = -1
        self.cur = 0
        self.paid: list[int] = []
        self.steps = 0
        self.burns = 0
        self.limit_checked = True
        self.pending: tuple | None = None  # a build waiting for its tiles: (x, y, entry, room)
        self.ended = False
        self.turn_ended = True
        self.last_burns = -1  # burns of the turn before, checked when the next one begins
        self.room_tiles = setup.content.room_tiles
        self.v: list[Violation] = []
        self.i = 0
        self.code = 0
        # Skills: each seat's two slots, this turn's uses of each, what they changed.
        self.skills = [[None, None] for _ in range(self.players)]
        self.uses = [0, 0]
        self.extra_steps = 0
        self.hand_bonus = 0
        self.faces: dict[int, tuple[str, ...]] = {}  # cards a skill turned this turn
        self.face_due = None  # (card, the faces the effect allows)
        self.used_skill = False
        self.redraw_due = False
        self.redrew = False
        self.deal_checked = False
        self.s_gems = setup.gem_names

    # -- helpers ---------------------------------------------------------------------------
    def per_seat(self, name: str, q: int) -> int:
        return self.rules.get(f"{name}.seat{q + 1}", self.rules[name])

    def bad(self, what: str) -> None:
        self.v.append(Violation(self.i, self.turn, NAMES.get(self.code, str(self.code)), what))

    def take(self, pile, card, where: str) -> None:
        if card in pile:
            pile.remove(card)
        else:
            self.bad(f"card {card} is not in {where}")

    def kind_at(self, j: int) -> str:
        return self.f.kind(self.tiles[j][0])

    def door(self, j: int, side: int):
        t, r, _, _ = self.tiles[j]
        return self.f.edge(t, r, side)

    def trace(self, x: int, y: int, side: int):
        """Leave cell (x, y) through `side`, through any tunnels: ('empty', x, y, entry side),
        ('room', tile) or ('blocked',), and the tunnels passed."""
        passed = 0
        for _ in range(len(self.tiles) + 2):
            dx, dy = STEP[side]
            x, y = x + dx, y + dy
            back = (side + 2) % 4
            j = self.grid.get((x, y))
            if j is None:
                return ("empty", x, y, back), passed
            t, r, _, _ = self.tiles[j]
            if self.f.kind(t) != "tunnel":
                return ("room", j), passed
            ex = self.f.tunnel_exit(t, r, back)
            if ex is None:
                return ("blocked",), passed
            passed += 1
            side = ex
        return ("blocked",), passed

    def flush_ability(self) -> None:
        self.to_disc(*sorted(self.pool), *sorted(self.rej))
        self.pool.clear()
        self.rej.clear()

    def place(self, j, t, r, x, y) -> None:
        if j != len(self.tiles):
            self.bad(f"placed index {j}, expected {len(self.tiles)}")
        if (x, y) in self.grid:
            self.bad(f"cell ({x}, {y}) is already built")
        self.tiles.append((t, r, x, y))
        self.grid[(x, y)] = j

    # -- the events ------------------------------------------------------------------------
    def event(self, i, row) -> None:
        """One event: `row` is its trace row as Python ints (referee_events reads them so)."""
        turn, seat, code, a, b, c, d, e = row
        self.i, self.code = i, code
        if self.ended:
            self.bad("an event after the end of the game")
        if code not in CARD_EVENTS and code not in (E.EV_DISCARD,) and (self.pool or self.rej):
            self.flush_ability()
        if self.pending is not None and code not in (E.EV_PLACE, E.EV_BONUS):
            self.end_chain_without_tile()
        handler = HANDLERS.get(code)
        if handler is None:
            self.bad("an event the referee does not know")
            return
        handler(self, a, b, c, d, e, seat)

    def on_setup(self, j, t, r, x, y, seat):
        self.place(j, t, r, x, y)
        if self.f.kind(t) == "tunnel":
            # A tunnel start chains northwards through its exits until a room.
            res, _ = self.trace(x, y, 0)
            self.pending = (res[1], res[2], res[3], None) if res[0] == "empty" else None
        for q in range(self.players):
            self.pos[q] = j

    def on_place(self, j, t, r, x, y, seat):
        if self.pending is None:
            self.bad("a tile placed with no construction leading to it")
            self.place(j, t, r, x, y)
            return
        px, py, entry, room = self.pending
        if (x, y) != (px, py):
            self.bad(f"tile placed at ({x}, {y}), the door leads to ({px}, {py})")
        if self.f.edge(t, r, entry) is None:
            self.bad(f"the new tile has no door on side {entry}, facing the room left")
        self.place(j, t, r, x, y)
        if self.f.kind(t) != "tunnel":
            self.pending = None
            for q in range(self.players) if room is None else [self.cur]:
                self.pos[q] = j
            return
        res, _ = self.trace(x, y, self.f.tunnel_exit(t, r, entry))
        if res[0] == "empty":
            self.pending = (res[1], res[2], res[3], room)
            return
        self.pending = None
        if room is None:
            for q in range(self.players):
                self.pos[q] = res[1] if res[0] == "room" else j
        elif res[0] == "room":
            self.pos[self.cur] = res[1]
        elif self.kind_at(room) != "tunnel":
            self.pos[self.cur] = room

    def end_chain_without_tile(self):
        # Only an empty room deck stops a chain before its tile (EV_STOP_BACK follows).
        if self.code != E.EV_STOP_BACK:
            self.bad("a construction placed no tile")
        self.pending = None

    def on_deal(self, card, q, *_):
        if self.turn >= 0:
            self.bad("a card dealt after the game began")
        self.take(self.deck, card, "the deck")
        self.hands[q].add(card)
        self.dealt[q] += 1

    def on_turn(self, p, pos, *_):
        if self.turn >= 0 and not self.turn_ended:
            self.bad("a turn began before the last one ended")
        if self.turn < 0 and self.dealt != self.deal:
            self.bad(f"seats were dealt {self.dealt} cards, the rules deal {self.deal}")
        if not self.deal_checked:
            self.check_skill_deal()
        if self.redraw_due:
            self.bad("Chaos Magic: a skill used last turn was not redrawn")
        self.uses = [0, 0]
        self.extra_steps = 0
        self.hand_bonus = 0
        self.faces = {}
        self.used_skill = False
        self.redrew = False
        if self.crisis and self.last_burns == 0:
            self.bad("a Crisis turn that burnt nothing, and the game went on")
        self.turn += 1
        self.turn_ended = False
        self.cur = p
        if p != self.turn % self.players:
            self.bad(f"seat {p} plays turn {self.turn + 1}")
        if pos != self.pos[p]:
            self.bad(f"seat {p} starts in room {pos}, the referee has it in {self.pos[p]}")
        if not self.crisis and p == 0:
            top = max(self.score)
            if top >= self.target:
                self.bad(f"a score of {top} reached the target {self.target}: the game should "
                         "have ended")
        self.steps = 0
        self.burns = 0
        self.limit_checked = False
        self.paid = []

    def check_limit(self):
        if not self.limit_checked:
            self.limit_checked = True
            if len(self.hands[self.cur]) > self.rules["hand_limit"] + self.hand_bonus:
                self.bad(f"seat {self.cur} holds {len(self.hands[self.cur])} cards after the "
                         "discard phase")

    def on_discard(self, card, for_ability, *_):
        if not for_ability:
            if self.limit_checked or len(self.hands[self.cur]) <= self.rules["hand_limit"]:
                self.bad("a discard to the hand limit with no card over it")
        else:
            self.check_limit()
        self.take(self.hands[self.cur], card, f"seat {self.cur}'s hand")
        self.to_disc(card)
        self.leave_hand(card)

    def on_vol_discard(self, card, q, *_):
        self.check_limit()
        ok = (self.rules["crisis_voluntary_discard"] if self.crisis
              else self.rules["rush_voluntary_discard"] and q == self.cur)
        if not ok:
            self.bad("a discard at will where the rules allow none")
        self.take(self.hands[q], card, f"seat {q}'s hand")
        self.to_disc(card)
        self.leave_hand(card)

    def on_move(self, frm, to, side, passed, _e, seat):
        self.check_limit()
        if frm != self.pos[self.cur]:
            self.bad(f"moves from room {frm}, the referee has seat {self.cur} in "
                     f"{self.pos[self.cur]}")
        if self.door(frm, side) is None:
            self.bad(f"no door on side {side} of room {frm}")
        _, _, x, y = self.tiles[frm]
        res, n = self.trace(x, y, side)
        if res[0] != "room" or res[1] != to or n != passed:
            self.bad(f"the door leads to {res} through {n} tunnel(s), not room {to}")
        self.steps += 1
        self.step_limit()
        self.pos[self.cur] = to

    def step_limit(self):
        if self.steps > self.rules["steps"] + self.extra_steps:
            self.bad(f"{self.steps} steps in a turn, the rules allow {self.rules['steps']}"
                     + (f" and a skill {self.extra_steps} more" if self.extra_steps else ""))

    def on_pay(self, card, *_):
        self.check_limit()
        self.take(self.hands[self.cur], card, f"seat {self.cur}'s hand")
        self.to_disc(card)
        self.paid.append(card)

    def to_disc(self, *cards):
        self.gid += 1
        self.disc += cards
        self.disc_gid += [self.gid] * len(cards)

    def leave_hand(self, card):
        self.faces.pop(card, None)

    def on_build(self, room, side, points, bon, warp, seat):
        self.check_limit()
        cost_door = self.door(room, side)
        if cost_door is None:
            self.bad(f"no door on side {side} of room {room}")
            self.paid = []
            return
        if not warp and room != self.pos[self.cur]:
            self.bad(f"builds from room {room}, away from seat {self.cur}")
        if warp:
            if not self.rules["special_gems"]:
                self.bad("a Warpstone build with special gems off")
            if self.kind_at(room) == "tunnel" and not self.rules.get("warp_build_at_tunnels", 0):
                self.bad("a Warpstone build at a tunnel's door")
        else:
            self.steps += 1
            self.step_limit()
        if points != cost_door.points:
            self.bad(f"scores {points} for a door worth {cost_door.points}")
        why = legal(self.f, self.paid, Counter(cost_door.cost), bool(warp),
                    bool(self.rules.get("echo_copies_own_card", 0)), self.faces)
        if why:
            self.bad(f"payment {self.paid} for {list(cost_door.cost)}: {why}")
        expect = bonus(self.f, self.paid, self.faces) if self.rules["special_gems"] else 0
        for c in self.paid:
            self.leave_hand(c)
        if bon != expect:
            self.bad(f"Orichalcum bonus {bon}, the cards give {expect}")
        self.score[self.cur] += points + bon
        self.paid = []
        _, _, x, y = self.tiles[room]
        res, _ = self.trace(x, y, side)
        if res[0] != "empty":
            self.bad(f"the door leads to {res}, not an empty space")
            return
        self.pending = (res[1], res[2], res[3], room)

    def on_bonus(self, *_):
        pass  # announced with the build, checked there

    def on_stop_back(self, pos, *_):
        self.pending = None
        self.pos[self.cur] = pos
        if self.kind_at(pos) == "tunnel":
            self.bad("back in a tunnel after the room deck ran out")

    def on_cart(self, frm, to, *_):
        self.check_limit()
        carts = sum(self.f.kind(t) == "minecart" for t, *_ in self.tiles)
        if not self.rules["mine_carts"] or carts < 2:
            self.bad("a cart ride without two mine carts")
        if frm != self.pos[self.cur] or self.kind_at(frm) != "minecart" \
                or self.kind_at(to) != "minecart":
            self.bad(f"a cart ride from {frm} to {to} that is not between mine carts")
        self.pos[self.cur] = to

    def on_warp_move(self, frm, to, card, *_):
        self.check_limit()
        shown = self.faces.pop(card, self.f.card_gems[card])
        if not any(self.f.power[g] == "warp" for g in shown):
            self.bad(f"card {card} shows no Warpstone")
        if frm != self.pos[self.cur] or self.kind_at(to) == "tunnel":
            self.bad(f"a Warpstone move from {frm} to {to}")
        self.take(self.hands[self.cur], card, f"seat {self.cur}'s hand")
        self.to_disc(card)
        self.pos[self.cur] = to

    def on_ability(self, room, rtype, *_):
        self.check_limit()
        if room != self.pos[self.cur]:
            self.bad(f"uses room {room}, away from seat {self.cur}")
        if self.tiles[room][0] != rtype or self.f.kind(rtype) == "tunnel":
            self.bad(f"uses room {room} as a room of type {rtype}")
        self.ability = self.f.rooms[rtype].ability

    def on_choose_x(self, x, *_):
        if x < 0 or x > len(self.hands[self.cur]):
            self.bad(f"X = {x} with {len(self.hands[self.cur])} cards in hand")

    def on_name(self, g, *_):
        pass  # a gem type index: any one not yet named is legal

    def from_deck(self, card):
        if not self.deck and self.disc:
            self.bad("took from an empty deck without reshuffling the discards")
        self.take(self.deck, card, "the deck")

    def on_draw(self, card, *_):
        self.check_limit()
        self.from_deck(card)
        self.hands[self.cur].add(card)

    def on_reveal(self, card, *_):
        self.from_deck(card)
        self.pool.add(card)

    def on_pass_over(self, card, *_):
        self.from_deck(card)
        self.rej.add(card)

    def on_keep(self, card, dug, *_):
        if dug:
            self.from_deck(card)
        else:
            self.take(self.pool, card, "the revealed cards")
        self.hands[self.cur].add(card)

    def on_reshuffle(self, n, *_):
        if self.deck:
            self.bad("a reshuffle with cards still in the deck")
        # A dig's passed-by cards are discarded when that dig ends, the revealed cards nobody
        # kept when the ability ends: a reshuffle later in the ability, or after it (the
        # burn's), takes them with the rest. The trace does not mark where a step ends, so
        # the count says which have been discarded.
        if n != len(self.disc):
            for extra in (self.rej, self.pool, self.rej | self.pool):
                if extra and n == len(self.disc) + len(extra):
                    self.to_disc(*sorted(extra))
                    self.rej -= extra
                    self.pool -= extra
                    break
        if n != len(self.disc):
            self.bad(f"reshuffled {n} cards, the discard pile holds {len(self.disc)}")
        self.deck |= set(self.disc)
        self.disc = []
        self.disc_gid = []

    def on_teleport(self, frm, to, *_):
        if frm != self.pos[self.cur] or self.kind_at(to) == "tunnel":
            self.bad(f"a special move from {frm} to {to}")
        self.pos[self.cur] = to

    def on_swap(self, q, mine, theirs, *_):
        if q == self.cur or mine != self.pos[q] or theirs != self.pos[self.cur]:
            self.bad(f"a swap with seat {q} that does not exchange their rooms")
        self.pos[self.cur], self.pos[q] = mine, theirs

    def on_move_room(self, room, x, y, *_):
        if (x, y) in self.grid:
            self.bad(f"a room moved onto built cell ({x}, {y})")
        t, r, ox, oy = self.tiles[room]
        del self.grid[(ox, oy)]
        if not any((x + dx, y + dy) in self.grid for dx, dy in STEP.values()):
            self.bad("a room moved away from every other tile")
        self.tiles[room] = (t, r, x, y)
        self.grid[(x, y)] = room

    def on_burn(self, card, src, *_):
        self.check_limit()
        if not self.crisis:
            self.bad("a burn in Rush")
        self.burns += 1
        if src < 0:
            self.from_deck(card)
        else:
            if not self.rules["burn_from_hands"]:
                self.bad("a burn from a hand where burns come from the deck only")
            self.take(self.hands[src], card, f"seat {src}'s hand")
            self.leave_hand(card)
        self.burnt.append(card)

    def on_turn_end(self, team, deck_n, disc_n, burnt_n, score_p, seat):
        self.check_limit()
        self.turn_ended = True
        self.faces = {}  # a skill's gems last until the turn ends
        self.redraw_due = (self.rules.get("skills") == "chaos" and self.used_skill
                           and not self.redrew)
        self.last_burns = self.burns
        if self.crisis and self.burns not in (0, self.rules["burn_per_turn"]):
            left = len(self.deck) + len(self.disc)
            if self.rules["burn_from_hands"]:
                left += sum(len(h) for h in self.hands)
            if left > 0:
                self.bad(f"{self.burns} cards burnt, the rules ask {self.rules['burn_per_turn']}")
        if (deck_n, disc_n, burnt_n) != (len(self.deck), len(self.disc), len(self.burnt)):
            self.bad(f"piles deck/discards/burnt {deck_n}/{disc_n}/{burnt_n}, the referee "
                     f"counts {len(self.deck)}/{len(self.disc)}/{len(self.burnt)}")
        if team != sum(self.score) or score_p != self.score[self.cur]:
            self.bad(f"scores team {team}, seat {score_p}; the referee has {sum(self.score)}, "
                     f"{self.score[self.cur]}")

    # -- skills ----------------------------------------------------------------------------
    def check_skill_deal(self):
        """The variant's deal (the skill variants: the guide's reference/skills.md)."""
        self.deal_checked = True
        variant = self.rules.get("skills", "none")
        first = [s[0] for s in self.skills]
        second = [s[1] for s in self.skills]
        if variant == "none":
            if any(s is not None for s in first + second):
                self.bad("skills dealt in the No Skills variant")
            return
        if any(s is None for s in first):
            self.bad("a seat was dealt no skill")
            return
        if variant == "shared":
            named = self.rules.get("shared_skill", "")
            if len(set(first)) != 1 or (named and self.f.skills[first[0]].name != named):
                self.bad(f"Shared Skill dealt {first}")
        elif any(first.count(k) > self.f.skills[k].copies for k in set(first)):
            self.bad(f"more seats hold a skill than the box has cards of it: {first}")
        if variant == "circle":
            want = [first[(q - 1) % self.players] if self.players > 1 else None
                    for q in range(self.players)]
            if second != want:
                self.bad(f"Magic Circle: second skills {second}, the neighbours' cards {want}")
        elif any(s is not None for s in second):
            self.bad("a second skill outside Magic Circle")

    def on_skill_deal(self, q, slot, skill, *_):
        if self.turn >= 0:
            self.bad("a skill dealt after the game began")
        self.skills[q][slot] = skill

    def on_skill(self, s, op, a, b, slot, seat):
        if self.skills[self.cur][slot] != s:
            self.bad(f"uses skill {s}, which seat {self.cur} does not hold in slot {slot}")
            return
        skill = self.f.skills[s]
        e = skill.effect
        self.uses[slot] += 1
        self.used_skill = True
        if self.uses[slot] > skill.uses:
            self.bad(f"{skill.name} used {self.uses[slot]} times in a turn, its card allows "
                     f"{skill.uses}")
        if e.op != op:
            self.bad(f"{skill.name} used as effect {op}, its card says '{e}'")
        elif op == SK_STEPS:
            # The trace does not tell a movement room's step from the action's use of it, so
            # only the total is checked (step_limit), not that the steps were spent first.
            self.extra_steps += e.n
        elif op == SK_HAND:
            self.hand_bonus = e.n
            if len(self.hands[self.cur]) > self.rules["hand_limit"] + e.n:
                self.bad(f"{skill.name} keeps {len(self.hands[self.cur])} cards, above the "
                         f"limit and its {e.n} more")
        elif op == SK_MOVE_ANY:
            self.check_limit()
            if a == self.pos[self.cur] or self.kind_at(a) == "tunnel":
                self.bad(f"{skill.name}: a move from {self.pos[self.cur]} to {a}")
            self.pos[self.cur] = a
        elif op == SK_AGAIN:
            if a != self.pos[self.cur]:
                self.bad(f"{skill.name} used on room {a}, away from seat {self.cur}")
        elif op == SK_RECOVER:
            self.check_limit()
        elif op == SK_TURN:
            self.check_limit()
            self.turn_card(skill, a, b)

    def turn_card(self, skill, card, other):
        e = skill.effect
        colour = self.f.colour(self.cur)
        cond = colour if e.cond == "own" else e.cond
        for c in (card, other) if other >= 0 else (card,):
            if c not in self.hands[self.cur]:
                self.bad(f"{skill.name} on card {c}, not in seat {self.cur}'s hand")
                return
            if cond and cond not in self.f.card_gems[c]:  # printed gems, never a skill's
                self.bad(f"{skill.name} on card {c} {self.f.card_gems[c]}, which does not "
                         f"show {cond}")
        if (e.n == 2) != (other >= 0):
            self.bad(f"{skill.name} turned {1 + (other >= 0)} cards, its card says {e.n}")
        now = self.faces.get(card, self.f.card_gems[card])
        allowed = set()
        for kept in (now if "kept" in e.out else (None,)):
            gems = tuple(colour if g == "own" else kept if g == "kept" else g for g in e.out)
            allowed.add(tuple(sorted(gems)))
        self.face_due = (card, allowed)
        if other >= 0:
            self.hands[self.cur].discard(other)
            self.leave_hand(other)
            self.to_disc(other)

    def on_face(self, card, g0, g1, *_):
        names = self.s_gems
        shown = tuple(sorted(names[g] for g in (g0, g1) if g >= 0))
        if self.face_due is None or self.face_due[0] != card:
            self.bad(f"card {card} shows new gems with no skill turning it")
        elif shown not in self.face_due[1]:
            self.bad(f"card {card} shows {shown}; the skill allows {sorted(self.face_due[1])}")
        self.face_due = None
        self.faces[card] = shown

    def on_recover(self, card, *_):
        top = [i for i, g in enumerate(self.disc_gid) if g == self.disc_gid[-1]] \
            if self.disc else []
        at = next((i for i in top if self.disc[i] == card), None)
        if at is None:
            self.bad(f"recovers card {card}, not the top of the discard pile")
        else:
            del self.disc[at], self.disc_gid[at]
        self.hands[self.cur].add(card)

    def on_skill_redraw(self, old, new, *_):
        if self.rules.get("skills") != "chaos":
            self.bad("a skill redrawn outside Chaos Magic")
        if self.skills[self.cur][0] != old:
            self.bad(f"redraws skill {old}, seat {self.cur} holds {self.skills[self.cur][0]}")
        held = sum(s[0] == new for q, s in enumerate(self.skills) if q != self.cur)
        if held >= self.f.skills[new].copies - (new == old):
            self.bad(f"redraws skill {new}, whose every card is held")
        self.skills[self.cur][0] = new
        self.redrew = True

    def on_end(self, reason, team, *_):
        name = END_NAMES[reason]
        self.ended = True
        left = len(self.deck) + len(self.disc)
        burn = self.rules["burn_per_turn"]
        if team != sum(self.score):
            self.bad(f"final team score {team}, the referee has {sum(self.score)}")
        if self.crisis:
            if name == "target":
                if self.exhaust or sum(self.score) < self.target:
                    self.bad("a Crisis won below its target, or played to exhaustion")
            elif name == "cannot_burn":
                if not self.rules["cannot_burn_loses"] or left >= burn or self.burns:
                    self.bad(f"lost for want of a burn with {left} cards to burn from")
            elif name == "exhausted":
                hands = sum(len(h) for h in self.hands) if self.rules["burn_from_hands"] else 0
                if self.rules["cannot_burn_loses"] or left + hands > 0:
                    self.bad(f"the clock ended with {left + hands} cards left to burn")
            elif name != "turn_cap":
                self.bad(f"a Crisis cannot end as {name}")
        else:
            top = max(self.score)
            reached = top >= self.target
            tiles_left = self.room_tiles - len(self.tiles)
            if name == "rush_target":
                if not reached:
                    self.bad(f"ended at the target with a top score of {top}")
            elif reached:
                self.bad(f"ended as {name} with a score of {top} at the target")
            elif name == "rooms_out":
                if tiles_left:
                    self.bad(f"ended as rooms_out with {tiles_left} tiles left")
            elif name == "sealed":
                if self.open_door():
                    self.bad("ended as sealed with a door open onto an empty space")
            elif name != "turn_cap":
                self.bad(f"a Rush game cannot end as {name}")

    def open_door(self) -> bool:
        movers = any(s.op == MOVE_ROOM for t, *_ in self.tiles for s in self.f.rooms[t].ability)
        if movers:
            return True
        for t, r, x, y in self.tiles:
            if self.f.kind(t) == "tunnel":
                continue
            for side in range(4):
                if self.f.edge(t, r, side) is not None and self.trace(x, y, side)[0][0] == "empty":
                    return True
        return False


# Each event code's handler (Game.on_<name>), looked up once: by name at every event, the
# lookup was a fifth of the referee's own time.
HANDLERS = {code: handler for code, name in NAMES.items()
            if (handler := getattr(Game, "on_" + name[3:].lower(), None)) is not None}


def referee_events(setup, events) -> tuple[list[Violation], Counter]:
    """Check one game's trace; returns the violations and the count of each event kind."""
    g = Game(setup)
    # Python ints row by row: reading a NumPy row element by element was a fifth of the time
    rows = events.tolist()
    for i, row in enumerate(rows):
        g.event(i, row)
    codes = Counter(row[2] for row in rows)
    kinds = Counter({NAMES.get(code, str(code)): n for code, n in codes.items()})
    if not g.ended:
        g.i = len(events)
        g.bad("the trace has no end")
    return g.v, kinds


def referee_game(setup, seed: int) -> Report:
    _st, events = play_traced(setup, seed, check=False)
    v, kinds = referee_events(setup, events)
    return Report(1, len(events), kinds, [(seed, x) for x in v])
