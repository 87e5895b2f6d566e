"""A game of Rusship told turn by turn (the kit's playthrough, balance/kit/playthrough.py, with
this view): the roll-off, each turn's roll, every decision with its options and the pick,
moves, captures, attacks, powers, lost dice and the end, and the track drawn as each turn
begins and at the end.

The view replays the events onto its own copy of the track, so what it draws is what the
events say happened, not the final state: `balance rusship play`, the rule goldens and the
tests read it."""

from __future__ import annotations

import numpy as np

from balance.games.rusship.engine.state import (
    D_DICE,
    D_PLUS,
    D_POWER,
    D_REROLL,
    DECISION_NAMES,
    END_NAMES,
    EV_ATTACK,
    EV_CAPTURE,
    EV_DICE,
    EV_LOST,
    EV_MOVE,
    EV_PLUS,
    EV_POWER,
    EV_REROLL,
    EV_ROLL,
    EV_START,
    M_BACK,
    M_ENTER,
    M_MOTHERSHIP,
    M_PASS,
    POWER_NAMES,
)
from balance.games.rusship.rules import DEFAULTS
from balance.kit.state import END_EVENT, TURN_EVENT
from balance.kit.view import View

SIDES = ("Humanity", "Alien")
TOKEN = ("ship", "UFO")
MOTHERSHIP = ("Mothership", "Alien Vortex")
PLANET = ("Earth", "the Alien planet")
# On the drawn track: a side's tokens, and its mothership.
TOKEN_MARK = ("H", "A")
MOTHERSHIP_MARK = ("M", "V")
CELL = 5  # characters a space takes on the drawn track: both motherships and a pair fit
POWER_WORDS = {
    "reroll": "reroll one die each turn",
    "plus_one": "+1 to both dice",
    "one_die": "roll one die only, capturing every token jumped over",
    "move_back": "tokens may move back",
    "share": "two tokens may share a space, and cannot be captured there",
}


class Track:
    """The track as the events leave it: tokens per side and space, motherships, supplies,
    attacks suffered, powers held."""

    def __init__(self, length: int, hits_to_lose: int, tokens: int):
        self.length = length
        self.hits_to_lose = hits_to_lose
        self.tokens = tokens
        self.occ = np.zeros((2, length + 2), np.int64)
        self.ms = [1, length]
        self.hits = [0, 0]
        self.powers: list[list[str]] = [[], []]

    def supply(self, s: int) -> int:
        return self.tokens - int(self.occ[s].sum())

    def on_planet(self, s: int, t: int) -> bool:
        """Space t is side s's enemy planet, or past it: an attack."""
        return t >= self.length + 1 if s == 0 else t <= 0

    def cell(self, x: int) -> str:
        marks = "".join(MOTHERSHIP_MARK[s] for s in range(2) if self.ms[s] == x)
        marks += "".join(TOKEN_MARK[s] * int(self.occ[s, x]) for s in range(2))
        return marks or "."

    def header(self) -> str:
        return " " * len(self._left()) + "".join(f"{x:<{CELL}}" for x in
                                                 range(1, self.length + 1)).rstrip()

    def _left(self) -> str:
        return f"  Earth {self.hits[0]}/{self.hits_to_lose} | "

    def line(self) -> str:
        cells = "".join(f"{self.cell(x):<{CELL}}" for x in range(1, self.length + 1))
        powers = "; ".join(f"{TOKEN_MARK[s]}: {', '.join(self.powers[s])}" for s in range(2)
                           if self.powers[s])
        return (f"{self._left()}{cells}| Alien {self.hits[1]}/{self.hits_to_lose}   "
                f"supply H{self.supply(0)} A{self.supply(1)}"
                + (f"   powers {powers}" if powers else ""))


def _space(s: int, t: int, track: Track) -> str:
    return "planet" if track.on_planet(s, t) else str(t)


class RusshipView(View):
    """The track as the events leave it, drawn as each turn begins; options in words that
    read it (a move "onto the planet") and the dice the turn moves with."""

    def __init__(self, setup):
        super().__init__(setup)
        v = setup.values
        self.track = Track(int(v["length"]), int(v["hits_to_lose"]), int(v["tokens"]))
        self.faces = [0, 0]
        self.dice = [0, 0]

    def header(self) -> str:
        v, track, seats = self.setup.values, self.track, self.setup.seats
        changed = [f"{k}={v[k]}".lower() for k in v if v[k] != DEFAULTS.get(k)]
        return "\n".join([
            f"Rusship: Humanity (seat 1, {seats[0]}) against the Alien Empire (seat 2, "
            f"{seats[1]}); {track.length} spaces between the planets, "
            f"{track.hits_to_lose} attacks destroy a planet",
            "rules: " + (", ".join(changed) if changed else "the defaults"),
            f"track: spaces 1 to {track.length} from Earth to the Alien planet; H ship, "
            f"A UFO, M Mothership, V Alien Vortex; Earth 1/{track.hits_to_lose}: attacked "
            f"once, {track.hits_to_lose} attacks destroy it"])

    def text(self) -> str:
        return self.track.line()

    def option(self, seat: int, decision: int, row) -> str:
        """One option of a decision of side `seat`, in words: row is (kind, die or value,
        from, to) as the engine offers it (state.O_*)."""
        what, value, a, t = (int(x) for x in row)
        s = seat
        if decision == D_POWER:
            return POWER_NAMES[value]
        if decision == D_DICE:
            return "two dice" if value == 2 else "one die"
        if decision == D_REROLL:
            return "keep" if value < 0 else f"reroll die {value + 1}"
        if decision == D_PLUS:
            return "+1" if value else "no +1"
        if what == M_PASS:
            return "pass"
        v = self.dice[value]
        if what == M_ENTER:
            return f"{v}: enter {_space(s, t, self.track)}"
        if what == M_MOTHERSHIP:
            return f"{v}: {MOTHERSHIP_MARK[s]} {a}>{t}"
        back = "back " if what == M_BACK else ""
        return f"{v}: {back}{a}>{_space(s, t, self.track)}"

    def decision(self, seat: int, decision: int, shown: str, pick: int) -> str:
        return f"  ? {TOKEN_MARK[seat]} {DECISION_NAMES[decision]}: {shown}  -> {pick}"

    def event(self, row) -> str | None:
        turn, s, code, a, b, c, d = (int(x) for x in row)
        track, me = self.track, SIDES[s]
        if code == TURN_EVENT:
            return f"Turn {turn + 1} - {me}"
        if code == END_EVENT:
            return _end(b, c, turn + 1, track)
        if code == EV_START:
            if a < 0:
                return f"roll-off: Humanity {b}, Alien {c}: a tie, both roll again"
            return f"roll-off: Humanity {b}, Alien {c}: {SIDES[a]} plays first\n" + \
                track.header()
        if code == EV_ROLL:
            self.faces = [a, b]
            self.dice = [a, b]
            return f"  {me} rolls {a} {b}" if b else f"  {me} rolls {a} (one die)"
        if code == EV_REROLL:
            self.faces[a] = b
            self.dice[a] = b
            return f"  {me} rerolls die {a + 1}: {b}"
        if code == EV_PLUS:
            return f"  {me} adds +1 to the dice" if a else f"  {me} declines the +1"
        if code == EV_DICE:
            self.dice = [a, b]
            if self.dice != self.faces:
                return f"  {me} moves with {' '.join(str(x) for x in self.dice if x)}"
            return ""
        if code == EV_MOVE:
            return "  " + _move(track, s, a, b, c, d)
        if code == EV_CAPTURE:
            track.occ[a, b] -= 1
            return f"  {me} captures the {TOKEN[a]} on {b}: back to {SIDES[a]}'s supply"
        if code == EV_ATTACK:
            track.hits[a] = b
            return (f"  {me} attacks {PLANET[a]} ({b} of {track.hits_to_lose}); the "
                    f"{TOKEN[s]} goes back to supply")
        if code == EV_POWER:
            name = POWER_NAMES[a]
            track.powers[s].append(name)
            return f"  {me} takes the power {name}: {POWER_WORDS[name]}"
        if code == EV_LOST:
            if c:
                line = (f"  {me}'s die {b} has no move: the {MOTHERSHIP[s]} moves "
                        f"{track.ms[s]}>{track.ms[s] + (1 if s == 0 else -1)}")
                track.ms[s] += 1 if s == 0 else -1
                return line
            return f"  {me}'s die {b} is lost"
        return ""


def _move(track: Track, s: int, kind: int, a: int, t: int, value: int) -> str:
    """Apply a move to the track; the line that tells it."""
    me, tok = SIDES[s], TOKEN[s]
    if kind == M_MOTHERSHIP:
        track.ms[s] = t
        return f"{me} moves the {MOTHERSHIP[s]} {a}>{t} (die {value})"
    if kind != M_ENTER:
        track.occ[s, a] -= 1
    attack = track.on_planet(s, t)
    if not attack:
        track.occ[s, t] += 1
    if value == 0:  # placed before the game (second_tokens)
        return f"{me} starts with a {tok} on {t}"
    where = "onto " + PLANET[1 - s] if attack else f"on {t}"
    if kind == M_ENTER:
        return f"{me} enters a {tok} {where} (die {value})"
    way = "back " if kind == M_BACK else ""
    return f"{me} moves a {tok} {way}{a}>{_space(s, t, track)} (die {value})"


def _end(winner: int, end: int, turn: int, track: Track) -> str:
    """The end: the winning side (-1 none), the end reason (state.END_NAMES), the turns."""
    hits = f"attacks suffered: Earth {track.hits[0]}, Alien {track.hits[1]}"
    if winner < 0:
        return f"End: {END_NAMES[end]} after {turn} turns, no winner; {hits}"
    return f"End: {SIDES[winner]} wins ({END_NAMES[end]}) in turn {turn}; {hits}"
