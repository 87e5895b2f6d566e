"""The skill-effect language: what a skill card lets its holder do, in one line.

Every skill breaks one rule. The effect says which, and `uses` how often per turn:

    extra steps N                       once the movement step's steps are spent, N more
    hand limit +N                       discard down to the hand limit plus N
    draw N after ability                after a room ability of theirs draws, reveals or digs
    ability again                       use the action's room ability a second time
    recover N                           in the movement step: the top N cards of the discard
                                        pile into their hand
    move to any room                    in the movement step: to any room, for no step and no
                                        card (as a Warpstone moves)
    turn 1 card [showing G] into A [B]  in the movement step: a card of their hand shows A (and
                                        B) instead of its gems until the turn ends
    turn 2 cards showing G into A [B]   the same, paid for with a second card showing G, which
                                        is discarded

G is a gem or `own`, the holder's dwarf colour. A and B are gems, `own`, or `kept`: one of the
card's own gems, the player picks which. A card shows at most two gems, so "an extra gem"
replaces the card's other gem (the guide's reference/skills.md says how each named skill reads).
A condition (`showing G`) reads the card's printed gems, never what a skill made it show: one
skill's gems never meet another skill's condition (the rulebook's Magic Circle examples).
Every use is a decision the engine offers; nothing happens on a player's behalf.
"""

from __future__ import annotations

from dataclasses import dataclass

# Opcodes shared with the engine (tables.skill_op).
(SK_STEPS, SK_HAND, SK_DRAW, SK_AGAIN, SK_RECOVER, SK_MOVE_ANY, SK_TURN) = range(7)
# Gem codes beyond the gem indices.
G_NONE, G_OWN, G_KEPT = -1, -2, -3
# Columns of tables.skill_op.
(SKC_OP, SKC_N, SKC_COND, SKC_OUT0, SKC_OUT1, SKC_USES, SKC_N_COLS) = range(7)

MAX_TEXT = 200
MAX_N = 9  # steps, cards or hand places a skill can give: more is no longer one rule's break


class SkillError(ValueError):
    pass


@dataclass(frozen=True)
class Effect:
    op: int
    n: int = 0
    cond: str = ""  # the gem a card must print ("own" allowed), "" for any card
    out: tuple[str, ...] = ()  # what the turned card shows: gems, "own", "kept"

    def __str__(self) -> str:
        if self.op == SK_STEPS:
            return f"extra steps {self.n}"
        if self.op == SK_HAND:
            return f"hand limit +{self.n}"
        if self.op == SK_DRAW:
            return f"draw {self.n} after ability"
        if self.op == SK_AGAIN:
            return "ability again"
        if self.op == SK_RECOVER:
            return f"recover {self.n}"
        if self.op == SK_MOVE_ANY:
            return "move to any room"
        cards = "1 card" if self.n == 1 else f"{self.n} cards"
        showing = f" showing {self.cond}" if self.cond else ""
        return f"turn {cards}{showing} into {' '.join(self.out)}"


def _count(word: str, text: str, lo: int = 1) -> int:
    if not (word.isascii() and word.isdigit()) or not lo <= int(word) <= MAX_N:
        raise SkillError(f"expected a count from {lo} to {MAX_N} in '{text}', got '{word}'")
    return int(word)


def _gem(word: str, gem_names: set[str], text: str, kept: bool) -> str:
    if word == "own" or (kept and word == "kept"):
        return word
    if word not in gem_names:
        allowed = "a gem, own or kept" if kept else "a gem or own"
        raise SkillError(f"unknown gem {word!r} in '{text}' (expected {allowed})")
    return word


def _gems(words: str, gem_names: set[str], text: str, kept: bool) -> list[str]:
    """Gem names may hold spaces ('Fire Ruby'): match the longest known name first."""
    names = sorted(gem_names | {"own", "kept"}, key=len, reverse=True)
    out = []
    rest = words.strip()
    while rest:
        hit = next((n for n in names if rest == n or rest.startswith(n + " ")), None)
        if hit is None:
            hit = rest.split(" ")[0]
        out.append(_gem(hit, gem_names, text, kept))
        rest = rest[len(hit):].strip()
    return out


def parse_effect(text: str, gem_names: set[str]) -> Effect:
    """Parse one effect; raise SkillError saying what is wrong."""
    if len(text) > MAX_TEXT:
        raise SkillError(f"is {len(text):,} characters long; an effect is one short line "
                         f"(at most {MAX_TEXT})")
    t = " ".join(text.split())
    if not t:
        raise SkillError("is empty: a skill needs an effect (see the guide, "
                         "balance/docs/guide/reference/skills.md)")
    w = t.split(" ")
    if t == "ability again":
        return Effect(SK_AGAIN)
    if t == "move to any room":
        return Effect(SK_MOVE_ANY)
    if w[:2] == ["extra", "steps"] and len(w) == 3:
        return Effect(SK_STEPS, _count(w[2], t))
    if w[:2] == ["hand", "limit"] and len(w) == 3 and w[2].startswith("+"):
        return Effect(SK_HAND, _count(w[2][1:], t))
    if w[0] == "draw" and len(w) == 4 and w[2:] == ["after", "ability"]:
        return Effect(SK_DRAW, _count(w[1], t))
    if w[0] == "recover" and len(w) == 2:
        return Effect(SK_RECOVER, _count(w[1], t))
    if w[0] == "turn" and len(w) >= 5:
        n = _count(w[1], t)
        if n > 2 or w[2] != ("card" if n == 1 else "cards"):
            raise SkillError(f"expected 'turn 1 card' or 'turn 2 cards' in '{t}'")
        head, sep, tail = t.partition(" into ")
        if not sep:
            raise SkillError(f"'turn' needs 'into' and what the card shows, in '{t}'")
        cond = ""
        hw = head.split(" ")
        if len(hw) > 3:
            if hw[3] != "showing" or len(hw) < 5:
                raise SkillError(f"expected 'showing GEM' after '{' '.join(hw[:3])}', in '{t}'")
            cond = _gem(" ".join(hw[4:]), gem_names, t, False)
        if n == 2 and not cond:
            raise SkillError(f"a second card pays for the turn: say what it shows "
                             f"('turn 2 cards showing GEM into ...'), in '{t}'")
        out = _gems(tail, gem_names, t, True)
        if not 1 <= len(out) <= 2:
            raise SkillError(f"a card shows one or two gems, got {len(out)} in '{t}'")
        if out.count("kept") > 1:
            raise SkillError(f"'kept' is one of the card's gems: name it once, in '{t}'")
        return Effect(SK_TURN, n, cond, tuple(out))
    raise SkillError(f"unknown effect '{t}' (expected extra steps N, hand limit +N, draw N "
                     "after ability, ability again, recover N, move to any room, or turn 1 "
                     "card [showing GEM] into GEM [GEM])")


def effect_row(e: Effect, gem_index: dict[str, int], uses: int) -> list[int]:
    """The effect as the engine's integer row (columns SKC_*)."""

    def code(name: str) -> int:
        return {"": G_NONE, "own": G_OWN, "kept": G_KEPT}.get(name, gem_index.get(name, G_NONE))

    out = list(e.out) + [""] * (2 - len(e.out))
    return [e.op, e.n, code(e.cond), code(out[0]), code(out[1]), uses]
