"""A game of Rusship told turn by turn, from the engine's events (engine/state.py, EV_*):
the roll-off, each turn's roll, every decision with its options and the pick, moves,
captures, attacks, powers, lost dice and the end, and the track drawn at each turn's end.

The trace replays the events onto its own copy of the track, so what it draws is what the
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
    EV_END,
    EV_LOST,
    EV_MOVE,
    EV_OPTION,
    EV_PICK,
    EV_PLUS,
    EV_POWER,
    EV_REROLL,
    EV_ROLL,
    EV_START,
    EV_TURN,
    M_BACK,
    M_ENTER,
    M_MOTHERSHIP,
    M_PASS,
    MAX_EVENTS,
    POWER_NAMES,
)
from balance.games.rusship.play import Setup
from balance.games.rusship.rules import DEFAULTS

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


def option_text(kind: int, row, dice: list[int], track: Track, s: int) -> str:
    """One option of a decision of side s, in words: row is (die, kind, from, to) as the
    engine lists it (state.O_*); dice are the values the turn moves with."""
    die, what, a, t = (int(x) for x in row)
    if kind == D_POWER:
        return POWER_NAMES[what]
    if kind == D_DICE:
        return "two dice" if what == 2 else "one die"
    if kind == D_REROLL:
        return "keep" if what < 0 else f"reroll die {what + 1}"
    if kind == D_PLUS:
        return "+1" if what else "no +1"
    if what == M_PASS:
        return "pass"
    v = dice[die]
    if what == M_ENTER:
        return f"{v}: enter {_space(s, t, track)}"
    if what == M_MOTHERSHIP:
        return f"{v}: {MOTHERSHIP_MARK[s]} {a}>{t}"
    back = "back " if what == M_BACK else ""
    return f"{v}: {back}{a}>{_space(s, t, track)}"


def format_game(setup: Setup, events: np.ndarray) -> str:
    """The game as text, one line per event that matters and the track after each turn."""
    v = setup.values
    track = Track(int(v["length"]), int(v["hits_to_lose"]), int(v["tokens"]))
    changed = [f"{k}={v[k]}".lower() for k in v if v[k] != DEFAULTS.get(k)]
    out = [f"Rusship: Humanity (seat 1, {setup.seats[0]}) against the Alien Empire (seat 2, "
           f"{setup.seats[1]}); {track.length} spaces between the planets, "
           f"{track.hits_to_lose} attacks destroy a planet",
           "rules: " + (", ".join(changed) if changed else "the defaults"),
           f"track: spaces 1 to {track.length} from Earth to the Alien planet; H ship, "
           f"A UFO, M Mothership, V Alien Vortex; Earth 1/{track.hits_to_lose}: attacked "
           f"once, {track.hits_to_lose} attacks destroy it"]
    options: list = []
    faces = [0, 0]
    dice = [0, 0]
    turn_open = False
    for row in events:
        turn, s, code, a, b, c, d = (int(x) for x in row)
        me = SIDES[s]
        if code == EV_START:
            if a < 0:
                out.append(f"roll-off: Humanity {b}, Alien {c}: a tie, both roll again")
            else:
                out.append(f"roll-off: Humanity {b}, Alien {c}: {SIDES[a]} plays first")
                out.append(track.header())
        elif code == EV_TURN:
            if turn_open:
                out.append(track.line())
            elif turn == 0:
                out.append(track.line())  # the track as the game starts
            turn_open = True
            out.append(f"Turn {turn + 1} - {me}")
        elif code == EV_ROLL:
            faces = [a, b]
            dice = [a, b]
            out.append(f"  {me} rolls {a} {b}" if b else f"  {me} rolls {a} (one die)")
        elif code == EV_REROLL:
            faces[a] = b
            dice[a] = b
            out.append(f"  {me} rerolls die {a + 1}: {b}")
        elif code == EV_PLUS:
            out.append(f"  {me} adds +1 to the dice" if a else f"  {me} declines the +1")
        elif code == EV_DICE:
            dice = [a, b]
            if dice != faces:
                shown = " ".join(str(x) for x in dice if x)
                out.append(f"  {me} moves with {shown}")
        elif code == EV_OPTION:
            options.append(row[3:7])
        elif code == EV_PICK:
            shown = " | ".join(f"{j}: {option_text(a, r, dice, track, s)}"
                               for j, r in enumerate(options))
            out.append(f"  ? {TOKEN_MARK[s]} {DECISION_NAMES[a]}: {shown}  -> {b}")
            options = []
        elif code == EV_MOVE:
            out.append("  " + _move(track, s, a, b, c, d))
        elif code == EV_CAPTURE:
            track.occ[a, b] -= 1
            out.append(f"  {me} captures the {TOKEN[a]} on {b}: back to {SIDES[a]}'s supply")
        elif code == EV_ATTACK:
            track.hits[a] = b
            out.append(f"  {me} attacks {PLANET[a]} ({b} of {track.hits_to_lose}); the "
                       f"{TOKEN[s]} goes back to supply")
        elif code == EV_POWER:
            name = POWER_NAMES[a]
            track.powers[s].append(name)
            out.append(f"  {me} takes the power {name}: {POWER_WORDS[name]}")
        elif code == EV_LOST:
            if c:
                out.append(f"  {me}'s die {b} has no move: the {MOTHERSHIP[s]} moves "
                           f"{track.ms[s]}>{track.ms[s] + (1 if s == 0 else -1)}")
                track.ms[s] += 1 if s == 0 else -1
            else:
                out.append(f"  {me}'s die {b} is lost")
        elif code == EV_END:
            if turn_open:
                out.append(track.line())
            out.append(_end(a, b, turn, track))
    if len(events) >= MAX_EVENTS:
        out.append(f"(the trace stops here: the engine keeps the first {MAX_EVENTS:,} events)")
    return "\n".join(out)


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
    hits = f"attacks suffered: Earth {track.hits[0]}, Alien {track.hits[1]}"
    if winner < 0:
        return f"End: {END_NAMES[end]} after {turn} turns, no winner; {hits}"
    return f"End: {SIDES[winner]} wins ({END_NAMES[end]}) in turn {turn}; {hits}"
