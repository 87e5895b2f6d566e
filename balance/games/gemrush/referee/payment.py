"""Paying for a door, by brute force over what each spent symbol pays (RULINGS 3 and 4):
a standard gem pays itself; Diamond Dust one unit of any standard gem, or a Diamond Dust cost;
Echoglass one unit of a standard gem that another spent card shows (its own card's other gem
too, with echo_copies_own_card), or an Echoglass cost; Orichalcum and Warpstone pay nothing
(but a Warpstone cost needs one). A legal payment covers the cost (and, for a Warpstone build,
holds a Warpstone) and has no card that could be left out while the rest still does."""

from __future__ import annotations

from collections import Counter
from itertools import product


def covers(facts, cards: list[int], cost: Counter, echo_own: bool, faces=None) -> bool:
    """`faces`: the gems a skill made some cards show this turn (card -> gems)."""
    faces = faces or {}

    def shown(c):
        return faces.get(c, facts.card_gems[c])

    natural = Counter()
    choices = []  # per wild/echo symbol: what it may pay
    for i, c in enumerate(cards):
        gems = shown(c)
        for k, g in enumerate(gems):
            p = facts.power[g]
            if p in ("", "bonus", "warp"):
                natural[g] += 1
            elif p == "wild":
                choices.append([g, *facts.standard])
            elif p == "echo":
                others = {h for j, d in enumerate(cards) if j != i for h in shown(d)
                          if facts.power[h] == ""}
                if echo_own:
                    others |= {h for kk, h in enumerate(gems) if kk != k and facts.power[h] == ""}
                choices.append([g, *sorted(others)])
    # What the natural gems leave unpaid must come from the wild and echo symbols' picks.
    short = {g: n - natural[g] for g, n in cost.items() if natural[g] < n}
    if not short:
        return True
    if sum(short.values()) > len(choices):
        return False
    for pick in product(*choices):
        got = Counter(pick)
        if all(got[g] >= n for g, n in short.items()):
            return True
    return False


def pays(facts, cards, cost, warp, echo_own, faces=None) -> bool:
    faces = faces or {}
    if warp and not any(facts.power[g] == "warp" for c in cards
                        for g in faces.get(c, facts.card_gems[c])):
        return False
    return covers(facts, list(cards), cost, echo_own, faces)


def legal(facts, cards: list[int], cost: Counter, warp: bool, echo_own: bool,
          faces=None) -> str | None:
    """None for a legal payment, else what is wrong with it."""
    if not pays(facts, cards, cost, warp, echo_own, faces):
        return "the cards do not cover the door" + (" with a Warpstone" if warp else "")
    for c in cards:
        rest = [d for d in cards if d != c]
        if pays(facts, rest, cost, warp, echo_own, faces):
            return f"card {c} {facts.card_gems[c]} could have been left out"
    return None


def bonus(facts, cards, faces=None) -> int:
    faces = faces or {}
    return sum(facts.power[g] == "bonus" for c in cards
               for g in faces.get(c, facts.card_gems[c]))
