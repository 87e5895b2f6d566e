"""Gem Mountain's codes and the shapes of its compiled state (rules_nb.py holds the rules that
use them; its docstring says what each code means). Apart from the rules so that the game's
declaration (game.py) and settings (rules.py) read them without compiling anything: `balance
--help` and reading a run import no engine."""

from typing import NamedTuple

import numpy as np

END_REASONS = ("gems", "barred")
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
TRASH_POINTS = -2
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
    lightbulb: int  # the expansion's tiles in the box
    bomb: int
    second_arrow: int
    ransack: int
    trash: int
    multiplier: int


class Tables(NamedTuple):
    layer: np.ndarray  # (POSITIONS, cells): each cell's layer seen from each arrow position
    box: np.ndarray  # (tiles,): every tile of the box, by code
    census: np.ndarray  # (ALL_CODES,): the box's tiles of each code


class State(NamedTuple):
    kit: tuple
    grid: np.ndarray  # (cells,): a code, or EMPTY
    hand: np.ndarray  # (seats, CODES): the tiles each seat collected, by code
    fresh: np.ndarray  # (seats, len(ACTIONS)): action tiles stolen this turn (stolen_now off)
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
    gone: np.ndarray  # (ALL_CODES,): tiles out of the game (actions used, tiles bombed)
    trash: np.ndarray  # (seats,): Trash each seat ever collected (none may leave a hand)
