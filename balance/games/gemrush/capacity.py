"""What the engine's arrays and the tables' columns can hold, and the check of a content file
against them (limits.py says why each bound is what it is, and checks a compiled variant).

This module imports nothing of the game, so that everything can import it: the content
parser (a box too big for the engine is refused when it is read), the engine's state (which
allocates MAX_OPTS option rows) and the variant checks of limits.py.
"""

from __future__ import annotations

from balance.errors import Problems

MAX_OPTS = 4096  # a decision lists at most this many options (the state's option table)
COLUMN_MAX = 2**15 - 1  # Int16 columns: turns, score, scores, score_by_turn, room points
COUNT_MAX = 2**31 - 1  # Int32 columns: a tile's ability uses and cards gained


def max_cards() -> int:
    # X may take every value 0..cards: one option more than there are cards.
    return MAX_OPTS - 1


def max_tiles() -> int:
    # "move this room" lists up to 4 cells per placed tile, plus a margin of 8 the movement
    # options keep free (turn_nb.list_steps_nb).
    return (MAX_OPTS - 8) // 4


def content_problems(probs: Problems, n_cards: int, n_tiles: int, rooms) -> None:
    """Bounds on a content file's totals and ability counts; `rooms` are parsed Rooms."""
    cards_cap, tiles_cap = max_cards(), max_tiles()
    if n_cards > cards_cap:
        probs.add("[box]", "gem_cards", f"the cards' copies add up to {n_cards:,}, more than "
                  f"the engine's bound of {cards_cap:,} gem cards (a hand or a reveal could "
                  "hold them all, and a decision lists at most "
                  f"{MAX_OPTS:,} options)")
    if n_tiles > tiles_cap:
        probs.add("[box]", "room_tiles", f"the rooms' copies add up to {n_tiles:,}, more than "
                  f"the engine's bound of {tiles_cap:,} room tiles")
    for room in rooms:
        for step in room.ability:
            if step.n > cards_cap:
                probs.add(f'room "{room.name}"', "ability",
                          f"'{step}' counts {step.n:,} cards, more than the engine's bound of "
                          f"{cards_cap:,} (a decision lists at most {MAX_OPTS:,} options)")
        for side, door in zip(("north", "east", "south", "west"), room.edges, strict=True):
            if door is not None and door.points > COLUMN_MAX:
                probs.add(f'room "{room.name}"', f"{side}.points",
                          f"{door.points:,} points is more than a score column holds "
                          f"({COLUMN_MAX:,})")
