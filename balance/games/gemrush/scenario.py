"""Hand-built game situations, for tests and for a designer asking "what happens if...".

    sc = Scenario("1e", players=1)
    vein = sc.place("Fire Ruby Vein", 0, 0)            # x east, y south; (0, 0) is the centre
    sc.hand(0, ["Obsidian", "Star Tear"], ["Fire Ruby", "Raw Hope"], ["Fire Ruby", "Soulstone"])
    sc.tiles("Diamond Vein")                          # the room deck, top first
    sc.stand(0, vein)
    sc.script(...)                                     # choices for the scripted player
    sc.build(0, vein, "east")                          # run the engine's construction

Every card not placed in a hand, the deck or the discard pile is set aside (burnt), so the
scenario holds only what it names.
"""

from __future__ import annotations

from balance.games.gemrush.content import SIDES
from balance.games.gemrush.engine.ability_nb import run_ability_nb
from balance.games.gemrush.engine.game_nb import reset_nb
from balance.games.gemrush.engine.mine_nb import place_nb
from balance.games.gemrush.engine.payment_nb import list_payments_nb
from balance.games.gemrush.engine.state import (
    S_BURNT_N,
    S_CARD_VER,
    S_CHECK,
    S_DECK_N,
    S_DISC_N,
    S_ORIGIN,
    S_PLACED,
    S_STEPS_LEFT,
    S_TILES_N,
    S_TRACE,
    SK_DEALT0,
    SK_SLOT0,
    SK_USED0,
    new_state,
)
from balance.games.gemrush.engine.turn_nb import (
    action_nb,
    build_nb,
    discard_to_limit_nb,
    list_steps_nb,
    movement_nb,
)
from balance.games.gemrush.play import prepare
from balance.kernels.rng import seed_state
from heuristics.scripted import set_script


class Scenario:
    def __init__(self, edition: str = "2e", mode: str = "crisis", players: int = 1,
                 heuristic: str = "scripted", content: str | None = None, rules=None,
                 seed: int = 1, **kw):
        self.setup = prepare(edition, mode, players, heuristic, content=content, rules=rules,
                             **kw)
        s = self.setup
        self.tb, self.ru = s.tables, s.rules
        self.st = new_state(s.tables, s.rules, ev_max=5000)
        reset_nb(self.st, s.tables, s.rules, s.players, seed_state(seed), 1, 1)
        st = self.st
        st.sc[S_TILES_N] = 0
        st.sc[S_DECK_N] = 0
        st.sc[S_DISC_N] = 0
        self._free = list(range(len(s.tables.card_deck)))
        self._sync_burnt()
        st.sc[S_TRACE] = 1
        st.sc[S_CHECK] = 1

    # -- names -> ids -------------------------------------------------------------------
    def room_type(self, name: str) -> int:
        return self.setup.room_names.index(name)

    def gem(self, name: str) -> int:
        return self.setup.gem_names.index(name)

    def take_card(self, gems) -> int:
        """A physical card showing exactly these gems (any order), not yet used."""
        want = sorted(self.gem(g) for g in ([gems] if isinstance(gems, str) else gems))
        for c in self._free:
            ct = self.tb.card_deck[c]
            have = sorted(int(g) for g in self.tb.card_gems[ct] if g >= 0)
            if have == want:
                self._free.remove(c)
                self._sync_burnt()
                return c
        raise ValueError(f"no unused card showing {gems}")

    def _sync_burnt(self) -> None:
        st = self.st
        st.burnt[: len(self._free)] = self._free
        st.sc[S_BURNT_N] = len(self._free)

    # -- building the situation ---------------------------------------------------------
    def place(self, name: str, x: int, y: int, rot: int = 0) -> int:
        o = int(self.st.sc[S_ORIGIN])
        return int(place_nb(self.st, self.tb, self.room_type(name), rot, o + x, o + y, -1, -1))

    def hand(self, p: int, *cards) -> list[int]:
        ids = [self.take_card(c) for c in cards]
        self.st.hand[p, : len(ids)] = ids
        self.st.hand_n[p] = len(ids)
        self.st.sc[S_CARD_VER] += 1  # as the engine's own hand changes do (hand_supply_nb)
        return ids

    def deck(self, *cards) -> list[int]:
        """The gem deck, top card first."""
        ids = [self.take_card(c) for c in cards]
        self.st.deck[: len(ids)] = ids[::-1]
        self.st.sc[S_DECK_N] = len(ids)
        return ids

    def discards(self, *cards) -> list[int]:
        ids = [self.take_card(c) for c in cards]
        self.st.disc[: len(ids)] = ids
        self.st.sc[S_DISC_N] = len(ids)
        return ids

    def tiles(self, *names: str) -> None:
        """The room deck, top tile first."""
        types = [self.room_type(n) for n in names]
        self.st.tiles[: len(types)] = types[::-1]
        self.st.sc[S_TILES_N] = len(types)

    def stand(self, p: int, placed: int) -> None:
        self.st.pos[p] = placed

    def skills(self, p: int, *names: str) -> None:
        """Seat p holds these skills (one, or two as in Magic Circle), none used yet."""
        ids = [self.setup.skill_names.index(n) for n in names]
        for slot in range(2):
            s = ids[slot] if slot < len(ids) else -1
            self.st.sk[p, SK_SLOT0 + slot] = s
            self.st.sk[p, SK_DEALT0 + slot] = s
            self.st.sk[p, SK_USED0 + slot] = 0

    def skill_uses(self, p: int) -> list[int]:
        return [int(self.st.sk[p, SK_USED0 + slot]) for slot in range(2)]

    def script(self, *choices: int) -> None:
        """The choices the scripted player makes next (its memory, Seats.mem.scripted)."""
        set_script(self.setup.players.mem.scripted, choices)

    # -- running engine rules -----------------------------------------------------------
    def build(self, p: int, placed: int, side: str | int, warp: bool = False) -> None:
        s = SIDES.index(side) if isinstance(side, str) else side
        build_nb(self.st, self.tb, self.ru, self.setup.players, p, placed,
                 s, warp)

    def payments(self, p: int, placed: int, side: str | int, warp: bool = False):
        """The legal payments for a door: list of (cards, gems wasted)."""
        s = SIDES.index(side) if isinstance(side, str) else side
        st = self.st
        cost = self.tb.door_cost[st.pl_type[placed], st.pl_rot[placed], s]
        n = list_payments_nb(st, self.tb, p, cost, warp, st.work1, st.work2)
        out = []
        for i in range(n):
            mask = int(st.opt[i, 0])
            cards = [int(st.hand[p, k]) for k in range(int(st.hand_n[p])) if (mask >> k) & 1]
            out.append((cards, int(st.opt[i, 3])))
        return out

    def steps(self, p: int, steps: int = 3) -> list[tuple[int, int, int, int]]:
        """The movement options on offer: rows (kind, a, b, c), see decisions.py."""
        self.st.sc[S_STEPS_LEFT] = steps  # as movement_nb sets it before each listing
        n = list_steps_nb(self.st, self.tb, self.ru, p, steps, 0)
        return [tuple(int(v) for v in self.st.opt[i]) for i in range(n)]

    def movement(self, p: int) -> None:
        movement_nb(self.st, self.tb, self.ru, self.setup.players, p)

    def discard_to_limit(self, p: int) -> None:
        discard_to_limit_nb(self.st, self.tb, self.ru, self.setup.players, p)

    def action(self, p: int) -> None:
        action_nb(self.st, self.tb, self.ru, self.setup.players, p)

    def use_ability(self, p: int, placed: int) -> int:
        return int(run_ability_nb(self.st, self.tb, self.ru, self.setup.players, p, placed))

    # -- reading the result -------------------------------------------------------------
    def hand_cards(self, p: int) -> list[tuple[str, ...]]:
        return [self.card_gems(int(c)) for c in self.st.hand[p, : self.st.hand_n[p]]]

    def face(self, c: int) -> tuple[str, ...]:
        """The gems card c shows now (a skill may have turned it)."""
        return tuple(self.setup.gem_names[g] for g in self.st.face[c, :2] if g >= 0)

    def card_gems(self, c: int) -> tuple[str, ...]:
        ct = self.tb.card_deck[c]
        return tuple(self.setup.gem_names[g] for g in self.tb.card_gems[ct] if g >= 0)

    def discard_pile(self) -> list[tuple[str, ...]]:
        return [self.card_gems(int(c)) for c in self.st.disc[: self.st.sc[S_DISC_N]]]

    def room_at(self, x: int, y: int) -> str | None:
        o = int(self.st.sc[S_ORIGIN])
        i = int(self.st.grid[o + y, o + x])
        return None if i < 0 else self.setup.room_names[int(self.st.pl_type[i])]

    def placed_at(self, x: int, y: int) -> int:
        o = int(self.st.sc[S_ORIGIN])
        return int(self.st.grid[o + y, o + x])

    @property
    def placed(self) -> int:
        return int(self.st.sc[S_PLACED])

    def score(self, p: int) -> int:
        return int(self.st.score[p])

    def doors(self, placed: int) -> list[str]:
        st = self.st
        return [SIDES[s] for s in range(4)
                if self.tb.door[st.pl_type[placed], st.pl_rot[placed], s]]

