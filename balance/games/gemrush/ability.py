"""The room-ability language: a short program of the rulebook's symbols, run left to right.

Grammar (steps separated by ';'):
    draw N | reveal N | dig N FILTER | keep all FILTER | keep N [FILTER]
    discard N [FILTER] | name N
    move to any room | swap with a player | move this room      (special moves, alone)
N is a positive integer or X (one value per use, shared by every X; X must appear in a
discard step, which is what bounds it). FILTER is gem names joined by ' or ', 'named' or 'any'.
"""

from __future__ import annotations

from dataclasses import dataclass

# Opcodes shared with the engine (see balance/games/gemrush/tables.py for the compiled layout).
END, DRAW, REVEAL, DIG, KEEP_ALL, KEEP_N, DISCARD, NAME, MOVE_ANY, SWAP, MOVE_ROOM = range(11)
OP_NAMES = {
    DRAW: "draw", REVEAL: "reveal", DIG: "dig", KEEP_ALL: "keep all", KEEP_N: "keep",
    DISCARD: "discard", NAME: "name", MOVE_ANY: "move to any room",
    SWAP: "swap with a player", MOVE_ROOM: "move this room",
}
SPECIAL_MOVES = {"move to any room": MOVE_ANY, "swap with a player": SWAP,
                 "move this room": MOVE_ROOM}

# Filter kinds.
F_ANY, F_GEMS, F_NAMED = 0, 1, 2

MAX_STEPS = 8
MAX_TEXT = 500  # characters: eight steps fit many times over
X = -1  # the count value that stands for X


@dataclass(frozen=True)
class Step:
    op: int
    n: int = 0  # count; X (-1) for the chosen value
    filter_kind: int = F_ANY
    gems: tuple[str, ...] = ()

    def __str__(self) -> str:
        name = OP_NAMES[self.op]
        if self.op in (MOVE_ANY, SWAP, MOVE_ROOM):
            return name
        parts = [name]
        if self.op != KEEP_ALL:
            parts.append("X" if self.n == X else str(self.n))
        if self.filter_kind == F_GEMS:
            parts.append(" or ".join(self.gems))
        elif self.filter_kind == F_NAMED:
            parts.append("named")
        elif self.op in (DIG, KEEP_ALL):
            parts.append("any")
        return " ".join(parts)


class AbilityError(ValueError):
    pass


def _count(word: str, text: str) -> int:
    if word.upper() == "X":
        return X
    if not (word.isascii() and word.isdigit()) or int(word) < 1:
        raise AbilityError(f"expected a positive count or X in '{text}', got '{word}'")
    return int(word)


def _filter(words: list[str], gem_names: set[str], text: str) -> tuple[int, tuple[str, ...]]:
    rest = " ".join(words).strip()
    if rest in ("", "any"):
        return F_ANY, ()
    if rest == "named":
        return F_NAMED, ()
    gems = tuple(g.strip() for g in rest.split(" or "))
    unknown = [g for g in gems if g not in gem_names]
    if unknown:
        raise AbilityError(f"unknown gem {unknown[0]!r} in '{text}'")
    if len(set(gems)) != len(gems):
        raise AbilityError(f"a gem is named twice in '{text}'")
    return F_GEMS, gems


def parse_ability(program: str, gem_names: set[str]) -> tuple[Step, ...]:
    """Parse a program; raise AbilityError naming the offending step."""
    if len(program) > MAX_TEXT:
        raise AbilityError(f"is {len(program):,} characters long; an ability is a few short "
                           f"steps (at most {MAX_TEXT})")
    text = program.strip()
    if not text:
        return ()
    steps: list[Step] = []
    for raw in text.split(";"):
        part = " ".join(raw.split())
        if not part:
            raise AbilityError(f"empty step in '{program}'")
        if part in SPECIAL_MOVES:
            steps.append(Step(SPECIAL_MOVES[part]))
            continue
        words = part.split(" ")
        verb = words[0]
        if verb in ("draw", "reveal", "name"):
            if len(words) != 2:
                raise AbilityError(f"'{verb}' takes one count, in '{part}'")
            op = {"draw": DRAW, "reveal": REVEAL, "name": NAME}[verb]
            steps.append(Step(op, _count(words[1], part)))
        elif verb == "dig":
            if len(words) < 3:
                raise AbilityError(f"'dig' needs a count and a filter, in '{part}'")
            fk, gems = _filter(words[2:], gem_names, part)
            steps.append(Step(DIG, _count(words[1], part), fk, gems))
        elif verb == "keep":
            if len(words) >= 2 and words[1] == "all":
                if len(words) < 3:
                    raise AbilityError(f"'keep all' needs a filter, in '{part}'")
                fk, gems = _filter(words[2:], gem_names, part)
                steps.append(Step(KEEP_ALL, 0, fk, gems))
            else:
                if len(words) < 2:
                    raise AbilityError(f"'keep' needs a count or 'all', in '{part}'")
                fk, gems = _filter(words[2:], gem_names, part)
                steps.append(Step(KEEP_N, _count(words[1], part), fk, gems))
        elif verb == "discard":
            if len(words) < 2:
                raise AbilityError(f"'discard' needs a count, in '{part}'")
            fk, gems = _filter(words[2:], gem_names, part)
            steps.append(Step(DISCARD, _count(words[1], part), fk, gems))
        else:
            raise AbilityError(f"unknown step '{part}' (expected draw, reveal, dig, keep, "
                               "discard, name or a special move)")
    _check_program(steps, program)
    return tuple(steps)


def _check_program(steps: list[Step], program: str) -> None:
    if len(steps) > MAX_STEPS:
        raise AbilityError(f"at most {MAX_STEPS} steps, got {len(steps)} in '{program}'")
    if any(s.op in (MOVE_ANY, SWAP, MOVE_ROOM) for s in steps) and len(steps) > 1:
        raise AbilityError(f"a special move must stand alone, in '{program}'")
    seen_pool = False
    seen_name = False
    x_steps = [s for s in steps if s.n == X]
    for s in steps:
        if s.filter_kind == F_NAMED and not seen_name:
            raise AbilityError(f"'{s}' uses 'named' before any 'name' step, in '{program}'")
        if s.op in (KEEP_ALL, KEEP_N) and not seen_pool:
            raise AbilityError(f"'{s}' keeps from nothing: no reveal or dig before it, "
                               f"in '{program}'")
        if s.op in (REVEAL, DIG):
            seen_pool = True
        if s.op == NAME:
            if seen_name:
                raise AbilityError(f"only one 'name' step per program, in '{program}'")
            seen_name = True
    if x_steps and not any(s.op == DISCARD and s.n == X for s in steps):
        raise AbilityError(f"X is unbounded: it must appear in a 'discard' step, in '{program}'")


def format_ability(steps: tuple[Step, ...]) -> str:
    return "; ".join(str(s) for s in steps)
