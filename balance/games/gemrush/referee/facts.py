"""What the box holds, read from the content file in the referee's own terms: physical cards
in file order (copies expanded), room types in file order, doors by placed side."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Facts:
    card_gems: tuple[tuple[str, ...], ...]  # physical card -> its gem names
    power: dict[str, str]  # gem name -> "" (standard) or wild / echo / bonus / warp
    rooms: tuple  # room type -> content Room
    standard: tuple[str, ...]
    skills: tuple = ()  # skill index -> content Skill (its effect, uses)

    @classmethod
    def of(cls, content) -> Facts:
        cards = tuple(c.gems for c in content.cards for _ in range(c.copies))
        power = {g.name: g.power for g in content.gems}
        return cls(cards, power, tuple(content.rooms),
                   tuple(g.name for g in content.gems if g.kind == "standard"),
                   tuple(content.skills))

    def colour(self, seat: int) -> str:
        """A dwarf's colour: the standard gems in content order, seat after seat."""
        return self.standard[seat % len(self.standard)]

    def edge(self, rtype: int, rot: int, side: int):
        """The door (cost, points) a tile turned `rot` quarter turns clockwise shows on `side`,
        or None for a wall: its original side (side - rot) mod 4."""
        return self.rooms[rtype].edges[(side - rot) % 4]

    def tunnel_exit(self, rtype: int, rot: int, entry: int) -> int | None:
        for a, b in self.rooms[rtype].pairs:
            a, b = (a + rot) % 4, (b + rot) % 4
            if entry == a:
                return b
            if entry == b:
                return a
        return None

    def kind(self, rtype: int) -> str:
        return self.rooms[rtype].kind

    def has(self, card: int, power: str) -> bool:
        return any(self.power[g] == power for g in self.card_gems[card])


STEP = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}  # side -> (dx, dy); y grows southwards
