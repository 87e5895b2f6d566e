"""Gem Mountain's codes and the shapes of its compiled state (rules_nb.py holds the rules that
use them; its docstring says what each code means). Apart from the rules so that the game's
declaration (game.py) and settings (rules.py) read them without compiling anything: `balance
--help` and reading a run import no engine."""

from typing import NamedTuple

import numpy as np

END_REASONS = ("gems", "barred")  # then X_END_REASONS (Gemshards' "stuck")
GEMS_GONE, BARRED = 0, 1  # BARRED: Dark Tunnels' stalled mountain (dark_nb.py)
MAX_COLOURS, VALUES = 6, 3
ACTIONS = ("move_arrow", "arrow_lock", "swap", "double", "steal")
MOVE_ARROW, ARROW_LOCK, SWAP, DOUBLE, STEAL = range(5)
ACT0 = MAX_COLOURS * VALUES
CODES = ACT0 + len(ACTIONS)
EMPTY = -1
POSITIONS = 8  # N, NE, E, SE, S, SW, W, NW

# The decisions, and the option kinds they offer.
TURN, ARROW, SWAP_FROM, SWAP_TO, STEAL_FROM, PLACE = range(6)
DECISIONS = ("turn", "arrow", "swap from", "swap to", "steal from", "place arrow")
GRAB, USE, END, POINT, PICK_UP, PUT_DOWN, TAKE, START_AT = range(8)
# Events.
GRABBED, TURNED, USED, MOVED, LOCKED, SWAPPED, STOLE, COLLECTED, SCORED = range(9)
# The record: the game's own values (KitGame.record).
MARGIN, LEAST_DECIDES, TIED_COLOURS, ACTIONS_USED, STEALS, SPLITS = range(6)
RECORD = ("margin", "least_decides", "tied_colours", "actions_used", "steals", "splits")
# Tallies: each seat's tiles of each colour at the end, then the actions it used.
TALLY_ACTIONS = MAX_COLOURS

# State.ph: the decision at hand and the turn's progress.
(PHASE, GRABS_DUE, GRABBED_NOW, ACTED_BEFORE, ACTED_AFTER, ACTED, SWAP_CELL, GEMS_LEFT,
 TILES_LEFT, EXPECT_ARROW, BAD_GRAB, DISCARDED, PH_SLOTS) = range(13)
# Rules.actions: how many actions a turn allows.
BEFORE_AND_AFTER, ONE_A_TURN, ANY_NUMBER = 0, 1, 2
# Rules.start_tiles and Rules.start_arrow.
NO_START_TILE, ACTION_START_TILE, ANY_START_TILE = 0, 1, 2
RANDOM_CORNER, CHOSEN_CORNER = 0, 1
# Rules.all_tie: every seat (of those counted) level on a colour.
TIE_MOST, TIE_NEITHER, TIE_BOTH = 0, 1, 2

# -- Dark Tunnels (dark_nb.py, Rules.dark_tunnels) ---------------------------------------------
# Its four actions follow the base game's (USE's a, the tile code ACT0 + a), then its two gems,
# all past CODES: the base game's codes keep their values and its loops their lengths.
DARK_ACTIONS = ("lightbulb", "bomb", "second_arrow", "ransack")
LIGHTBULB, BOMB, SECOND_ARROW, RANSACK = range(len(ACTIONS), len(ACTIONS) + len(DARK_ACTIONS))
TRASH = ACT0 + RANSACK + 1
MULTIPLIER = TRASH + 1
ALL_CODES = MULTIPLIER + 1  # a hand's width
UNSEEN = -2  # a face-down tile the deciding seat has not seen, as its options show it
# Its decisions, option kinds and events, after the base game's.
LOOK, REVEAL, LIGHT, BLAST, HIDE, RAID = range(len(DECISIONS), len(DECISIONS) + 6)
DARK_DECISIONS = ("look", "reveal", "light", "blast", "hide", "raid")
LOOK_AT, FLIP_UP, LIGHT_LINE, BLAST_AT, FLIP_DOWN, RAID_AT, LAY = range(8, 15)
LOOKED, REVEALED, LIT, BOMBED, REFILLED, SECOND, RANSACKED, LAID, TURNED2 = range(9, 18)
# State.dk: the expansion's part of the turn.
INFO_TAKEN, ARROW2, FLIPPED, HOLES, EXPECT_ARROW2, BAD_RAID, IDLE, DK_SLOTS = range(8)
OVER = -1  # State.ph[PHASE] of a game a refill ended


class Rules(NamedTuple):
    players: int
    rows: int
    cols: int
    colours: int
    ones: int  # gems of value 1 of each colour
    twos: int
    threes: int
    move_arrow: int  # action tiles of each kind in the box
    arrow_lock: int
    swap: int
    double: int
    steal: int
    actions: int  # BEFORE_AND_AFTER, ONE_A_TURN, ANY_NUMBER
    majority_by: int  # 0: tiles counted, 1: values summed
    none_is_least: int  # a seat holding none of a colour counts for the least
    all_tie: int  # TIE_MOST, TIE_NEITHER, TIE_BOTH
    split: int  # 0: ignored, 1: the grabber collects every group but the largest
    steal_actions: int  # Steal may take an action tile
    stolen_now: int  # a stolen action tile may be used in the same turn
    start_tiles: int  # NO_START_TILE, ACTION_START_TILE, ANY_START_TILE
    start_arrow: int  # RANDOM_CORNER, CHOSEN_CORNER (the start player then gets no tile)
    dark_tunnels: int  # the expansion (dark_nb.py)
    multiply_by: int  # a Multiplier's factor on its pile's points
    trash_points: int  # what each Trash held scores at the end
    lightbulb: int  # the expansion's tiles in the box
    bomb: int
    second_arrow: int
    ransack: int
    trash: int
    multiplier: int
    gemshards: int  # the Gemshards expansion (shards_nb.py) is on
    golden_actions: int  # the Golden Actions expansion (golden_nb.py) is on
    expansions: int  # their settings, the switches too, in one number (pack_expansions)


class Tables(NamedTuple):
    layer: np.ndarray  # (POSITIONS, cells): each cell's layer seen from each arrow position
    box: np.ndarray  # (tiles,): every tile of the box, by code
    census: np.ndarray  # (ALL_CODES or more,): the box's tiles of each code (its largest + 1)
    # (POSITIONS, cells): the cells seen from each arrow position, nearest layer first (a
    # layer's cells in grid order): the top is the first one that holds a tile, found without
    # reading the whole mountain.
    order: np.ndarray


class State(NamedTuple):
    kit: tuple
    grid: np.ndarray  # (cells,): a code, or EMPTY
    hand: np.ndarray  # (seats, ALL_CODES, or X_CODES with Gemshards or Golden Actions on): the
    #                   tiles each seat collected, by code
    fresh: np.ndarray  # (seats, the hand's width - ACT0): action tiles stolen this turn
    #                    (stolen_now off)
    cnt: np.ndarray  # (seats, MAX_COLOURS): gem tiles held, by colour
    vsum: np.ndarray  # (seats, MAX_COLOURS): their values summed
    arrow: np.ndarray  # (2,): position, locked
    ph: np.ndarray  # (PH_SLOTS,)
    deck: np.ndarray  # (tiles,): the box shuffled; what is not dealt stays in it
    deck_n: np.ndarray  # (1,): the tiles left in the deck, deck[:deck_n[0]]
    work: np.ndarray  # (cells,): scratch for the mountain's groups
    label: np.ndarray  # (cells,): each cell's group, -1 for none
    pts: np.ndarray  # (seats,): scratch for scoring (and for the players' values)
    plain: np.ndarray  # (seats,): the scores without the least's penalty, at the end
    # Dark Tunnels (dark_nb.py); with it off, dark stays 0 and seen 1.
    dark: np.ndarray  # (cells,): 1 where the tile lies face down
    seen: np.ndarray  # (seats, cells): 1 where the seat knows the cell (empty, face up, seen)
    dk: np.ndarray  # (DK_SLOTS,)
    hole: np.ndarray  # (4,): the cells a Bomb emptied, dk[HOLES] of them, to refill
    mult: np.ndarray  # (seats, MAX_COLOURS): the Multipliers laid on each seat's piles
    gone: np.ndarray  # (the hand's width,): tiles out of the game (actions used, tiles bombed)
    trash: np.ndarray  # (seats,): Trash each seat ever collected (none may leave a hand)
    sh: np.ndarray  # (divided tiles + 1, SH_COLS): Gemshards' and Golden Actions' (codes above)


# -- Gemshards and Golden Actions (shards_nb.py, golden_nb.py): their own codes, after every
# other's so that those keep their numbers (and the goldens their text). The anchors: the first
# tile code, decision, option kind and event past all others (with another expansion's codes,
# past its).
X_CODE0 = ALL_CODES
X_DECISION0 = len(DECISIONS) + len(DARK_DECISIONS)
X_KIND0 = LAY + 1
X_EVENT0 = TURNED2 + 1
# Tiles: their action tiles (USE_X's a, the code ACT0 + a), then the Wildcard, then each
# divided tile d as DIVIDED0 + d (its sections in State.sh). The hand and `fresh` are this wide
# only when an expansion is on.
X_ACTIONS = ("rotate_grabbed", "rotate_board", "teleport_arrow", "rumble", "flashlight")
ROTATE_GRABBED, ROTATE_BOARD, TELEPORT_ARROW, RUMBLE, FLASHLIGHT = range(
    X_CODE0 - ACT0, X_CODE0 - ACT0 + len(X_ACTIONS))
WILD = X_CODE0 + len(X_ACTIONS)
X_CODES = WILD + 1  # the hand's width with an expansion on (a Wildcard waits there for its pile)
DIVIDED0 = X_CODES
SIDES = 4  # a divided tile's edges, clockwise from the grid's up: up, right, down, left
TELEPORTS = 16  # Teleport Arrow's positions: the eight, then the eight between them (8 + j
#                 between j and j + 1)
X_DECISIONS = ("rotate grabbed", "rotate board", "teleport", "wildcard", "rumble from",
               "rumble to")
ROTATE_HELD_AT, ROTATE_CELL_AT, TELEPORT_AT, WILD_AT, RUMBLE_FROM, RUMBLE_TO = range(
    X_DECISION0, X_DECISION0 + len(X_DECISIONS))
X_OPTIONS = ("grab side", "use extra", "rotate held", "rotate cell", "join", "lift", "drop")
GRAB_SIDE, USE_X, ROTATE_HELD, ROTATE_CELL, JOIN, LIFT, DROP = range(
    X_KIND0, X_KIND0 + len(X_OPTIONS))
X_EVENTS = ("rotated", "turned tile", "joined", "rumbled", "flashed")
ROTATED, TURNED_TILE, JOINED, RUMBLED, FLASHED = range(X_EVENT0, X_EVENT0 + len(X_EVENTS))
X_END_REASONS = ("stuck",)  # a round with no tile any player may grab (only Wildcards left)
STUCK = len(END_REASONS)
# State.sh: a row per divided tile (its four sections, then who holds it, the side that counts
# and the code it counts as), then one row of the turn's expansion slots.
OWNER, TRUE_SIDE, CREDIT = SIDES, SIDES + 1, SIDES + 2
SH_COLS = 10
(LIFTS_LEFT, LIFTED, LANDED, LIT_TURN, GRABLESS, PENDING) = range(6)  # reset each game
HALVED_SLOT, WILD_SLOT, CONNECTED_SLOT, WILD_END_SLOT = range(6, 10)  # the rules', set with
#                                                                   the state
# Rules.expansions: Gemshards' and Golden Actions' settings as one number, the switches as bits,
# then each count in X_BITS bits. The compiled rules read none of them but the two switches
# (their own fields): the box is made from them in Python (new_tables), and the few a game reads
# are set in State.sh (new_sh); every field of Rules is passed at each compiled call.
GEMSHARDS_ON, GOLDEN_ON, CONNECTED_ON = 1, 2, 4
X_SWITCHES = (("gemshards", GEMSHARDS_ON), ("golden_actions", GOLDEN_ON),
              ("rumble_connected", CONNECTED_ON))
X_COUNTS = ("wild_value", "halved", "quartered", "wildcard", "rotate_grabbed", "rotate_board",
            "teleport_arrow", "rumble", "flashlight")
X_BITS = 5
# `wild_joins = "end"`: past every count's bits (3 + X_BITS * len(X_COUNTS) of them).
WILD_END_ON = 1 << 56


def pack_expansions(values: dict) -> int:
    """Rules.expansions from the settings' values (each count below 2 ** X_BITS)."""
    n = sum(bit for name, bit in X_SWITCHES if values[name])
    n |= WILD_END_ON if values["wild_joins"] == "end" else 0
    for j, name in enumerate(X_COUNTS):
        n |= int(values[name]) << (3 + X_BITS * j)
    return n


def expansions(rules) -> dict:
    """The expansions' settings of compiled Rules, by name (0 or 1 for a switch)."""
    out = {name: int(rules.expansions & bit != 0) for name, bit in X_SWITCHES}
    out["wild_joins"] = int(rules.expansions & WILD_END_ON != 0)
    for j, name in enumerate(X_COUNTS):
        out[name] = (rules.expansions >> (3 + X_BITS * j)) & (2 ** X_BITS - 1)
    return out
