"""How a Gem Mountain playthrough says its options and events (KitGame.view): a tile by its
colour and value ("sapphire 3") or its action ("Steal"), an arrow position by its compass
point, a seat from 1, as the rest of the trace counts them. The declaration's formats
(game.py) write the compiled codes; this view is what a person reads in a golden."""

from __future__ import annotations

from balance.games.gem_mountain.codes import (
    BLAST_AT,
    BOMBED,
    DIVIDED0,
    DROP,
    FLASHED,
    FLIP_DOWN,
    FLIP_UP,
    GRAB_SIDE,
    JOIN,
    JOINED,
    LAID,
    LAY,
    LIFT,
    LIGHT_LINE,
    LIT,
    LOOK_AT,
    LOOKED,
    RAID_AT,
    RANSACKED,
    REFILLED,
    REVEALED,
    ROTATE_CELL,
    ROTATE_GRABBED,
    ROTATE_HELD,
    ROTATED,
    RUMBLED,
    SECOND,
    TURNED2,
    TURNED_TILE,
    UNSEEN,
    USE_X,
    WILD,
)
from balance.games.gem_mountain.rules import (
    ACTION_WORDS,
    COLOUR_NAMES,
    DARK_WORDS,
    X_ACTION_WORDS,
)
from balance.games.gem_mountain.rules_nb import (
    ACT0,
    EMPTY,
    GRAB,
    GRABBED,
    LOCKED,
    MOVED,
    PICK_UP,
    POINT,
    PUT_DOWN,
    START_AT,
    STOLE,
    TAKE,
    TURNED,
    USE,
    USED,
    VALUES,
)
from balance.kit.view import View

# The eight positions, then Teleport Arrow's eight between them (8 + j between j and j + 1).
POSITION_WORDS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW",
                  "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW", "NNW")
# A tile's code - ACT0 (USE's and USE_X's a): the base game's actions from 0, then Dark
# Tunnels' actions and its two gems, then Gemshards' and Golden Actions' from ROTATE_GRABBED
# (codes.py).
ACTION_NAMES = {**dict(enumerate((*ACTION_WORDS.values(), *DARK_WORDS.values()))),
                **dict(enumerate(X_ACTION_WORDS.values(), ROTATE_GRABBED))}
LINES = ("row", "column")


def tile_words(code: int) -> str:
    """A tile as a person names it: "ruby 2", "Steal", or "empty" for no tile."""
    if code == EMPTY:
        return "empty"
    if code == UNSEEN:
        return "face-down tile"
    if code == WILD:
        return "Wildcard"
    if code >= DIVIDED0:
        return f"divided tile #{code - DIVIDED0}"
    if code >= ACT0:
        return ACTION_NAMES[code - ACT0]
    return f"{COLOUR_NAMES[code // VALUES]} {code % VALUES + 1}"


class MountainView(View):
    def option(self, seat: int, decision: int, row) -> str | None:
        kind, a, b, c = (int(x) for x in row)
        if kind == GRAB:
            return f"grab the {tile_words(b)} at cell {a} (layer {c})"
        if kind == USE or kind == USE_X:
            return f"use {ACTION_NAMES[a]} ({b} held)"
        if kind == GRAB_SIDE:
            return f"grab cell {a} as the {tile_words(b)} (layer {c})"
        if kind == ROTATE_HELD:
            return f"turn its divided tile #{a} to the {tile_words(b)}"
        if kind == ROTATE_CELL:
            return f"turn the tile at cell {a} {b} quarter{'s' if b > 1 else ''} clockwise"
        if kind == JOIN:
            return f"the Wildcard joins the {COLOUR_NAMES[a]} pile"
        if kind == LIFT:
            return f"rumble from cell {a} ({tile_words(b)})"
        if kind == DROP:
            return f"rumble to cell {a}"
        if kind == POINT:
            return f"point the arrow {POSITION_WORDS[a]}"
        if kind == START_AT:
            return f"start the arrow at {POSITION_WORDS[a]}"
        if kind == PICK_UP:
            return f"swap from cell {a} ({tile_words(b)})"
        if kind == PUT_DOWN:
            return f"swap to cell {a} ({tile_words(b)})"
        if kind == TAKE:
            return f"steal the {tile_words(b)} from seat {a + 1}"
        return self.dark_option(kind, a, b, c)

    def dark_option(self, kind: int, a: int, b: int, c: int) -> str | None:
        if kind == LOOK_AT:
            return f"look at cell {a}"
        if kind == FLIP_UP:
            return f"turn up cell {a} ({tile_words(b)})"
        if kind == LIGHT_LINE:
            return f"light {LINES[b]} {a} ({c} face down)"
        if kind == BLAST_AT:
            return f"bomb the square from cell {a} ({b} tiles)"
        if kind == FLIP_DOWN:
            return f"turn down cell {a} ({tile_words(b)})"
        if kind == RAID_AT:
            return f"ransack cell {a} ({tile_words(b)})"
        if kind == LAY:
            return f"lay a Multiplier on the {COLOUR_NAMES[a]} ({b} held)"
        return None  # "end the turn"

    def event(self, row) -> str | None:
        turn, seat, code = int(row[0]) + 1, int(row[1]) + 1, int(row[2])
        a, b, c = (int(x) for x in row[3:6])
        if code == GRABBED:
            return f"turn {turn}, seat {seat}: grabs the {tile_words(b)} at cell {a} (layer {c})"
        if code == TURNED:
            return f"turn {turn}: the arrow turns to {POSITION_WORDS[a]}"
        if code == MOVED:
            return f"turn {turn}: the arrow moves to {POSITION_WORDS[a]}"
        if code == USED:
            return f"turn {turn}, seat {seat}: uses {ACTION_NAMES[a]}"
        if code == LOCKED:
            return f"turn {turn}: the arrow is {'locked' if a else 'unlocked'}"
        if code == STOLE:
            return f"turn {turn}, seat {seat}: steals the {tile_words(b)} from seat {a + 1}"
        if code == ROTATED:
            return f"turn {turn}, seat {seat}: turns its divided tile #{a} to the {tile_words(b)}"
        if code == TURNED_TILE:
            return f"turn {turn}: the tile at cell {a} turns {b} quarter{'s' if b > 1 else ''}"
        if code == JOINED:
            return f"turn {turn}, seat {seat}: the Wildcard joins the {COLOUR_NAMES[a]} pile"
        if code == RUMBLED:
            return f"turn {turn}: the tile at cell {a} rumbles to cell {b}"
        if code == FLASHED:
            return f"turn {turn}, seat {seat}: the Flashlight reaches a layer deeper"
        return self.dark_event(turn, seat, code, a, b, c)

    def dark_event(self, turn: int, seat: int, code: int, a: int, b: int, c: int) -> str | None:
        if code == LOOKED:
            return f"turn {turn}, seat {seat}: looks at cell {a} (secretly: {tile_words(b)})"
        if code == REVEALED:
            return f"turn {turn}, seat {seat}: turns up cell {a}: the {tile_words(b)}"
        if code == LIT:
            return f"turn {turn}, seat {seat}: lights {LINES[b]} {a}, {c} tiles turned up"
        if code == BOMBED:
            return f"turn {turn}, seat {seat}: bombs the square from cell {a}, {b} tiles out"
        if code == REFILLED:
            return f"turn {turn}, seat {seat}: skips the turn, refills {a} cells face down"
        if code == SECOND:
            where = POSITION_WORDS[a] if a >= 0 else "removed"
            return f"turn {turn}, seat {seat}: the second arrow: {where}"
        if code == TURNED2:
            return f"turn {turn}: the second arrow turns to {POSITION_WORDS[a]}"
        if code == RANSACKED:
            if b < 0:
                return f"turn {turn}, seat {seat}: ransacks, turning down cell {a}"
            return f"turn {turn}, seat {seat}: ransacks the {tile_words(c)} at cell {b}"
        if code == LAID:
            return f"turn {turn}, seat {seat}: lays a Multiplier on the {COLOUR_NAMES[a]}"
        return None  # the declaration's line (swapped, collected, scored) or the kit's own
