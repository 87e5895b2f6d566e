"""Gem Rush's headline quantities of a variant (balance/contract/game.py, Game.quantities): what
`balance run` prints and `balance run --precision` makes precise.

- Rush: each seat's share of the wins (seat 1 plays first).
- Crisis played to exhaustion: the win rate at each named difficulty. A game wins at a target
  when its final team score reached it: the score never falls, so one game answers for every
  target.
- Crisis played to a target: the win rate at it.
"""

from __future__ import annotations

import polars as pl

from balance.stats.measures import RATE, Quantity, seats


def competitive(variant: dict) -> bool:
    """Gem Rush's kind_of (balance/contract/game.py): a seat wins a Rush game, the team a
    Crisis one."""
    return variant.get("mode") == "rush"


def quantities(variant: dict) -> list[Quantity]:
    if variant.get("mode") == "rush":
        return seats(int(variant.get("players") or 0))
    if variant.get("exhaust"):
        named = sorted(((str(k), int(t)) for k, t in (variant.get("difficulties") or {}).items()),
                       key=lambda kv: kv[1])
        return [Quantity(f"win:{name}", f"{name} ({t})", RATE, pl.col("score") >= t)
                for name, t in named]
    return [Quantity("win", "won", RATE, pl.col("won"))]
