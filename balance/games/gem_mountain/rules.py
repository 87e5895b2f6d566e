"""Gem Mountain's settings: the rules' (data/rules.toml) and the box's (data/box.toml, every
tile count a lever), each a Setting with its type and range, and the compiled Rules they make
(rules_nb.py). Every open reading of the rulebook is a setting here; the guide's Gem Mountain
page (balance/docs/guide/games/gem-mountain.md) says which reading each default takes and why."""

from __future__ import annotations

from pathlib import Path

from balance.contract.game import Setting
from balance.errors import InputError, Problem
from balance.games.gem_mountain.codes import (
    MAX_COLOURS,
    X_COUNTS,
    Rules,
    pack_expansions,
)
from balance.kit.defaults import read_defaults

DATA = Path(__file__).parent / "data"
RULES_FILE = DATA / "rules.toml"
BOX_FILE = DATA / "box.toml"
MAX_SIDE = 10

COLOUR_NAMES = ("ruby", "sapphire", "emerald", "topaz", "amethyst", "onyx")
ACTION_WORDS = {"move_arrow": "Move the Arrow", "arrow_lock": "Arrow Lock", "swap": "Swap",
                "double": "Double", "steal": "Steal"}
# Dark Tunnels' tiles (dark_nb.py): in the box only with the expansion on.
DARK_WORDS = {"lightbulb": "Lightbulb", "bomb": "Bomb", "second_arrow": "Second Arrow",
              "ransack": "Ransack", "trash": "Trash", "multiplier": "Multiplier"}
# Gemshards' and Golden Actions' actions, and the expansion each belongs to.
X_ACTION_WORDS = {"rotate_grabbed": "Rotate Grabbed", "rotate_board": "Rotate Board",
                  "teleport_arrow": "Teleport Arrow", "rumble": "Rumble",
                  "flashlight": "Flashlight"}
X_EXPANSION = {"rotate_grabbed": "Gemshards", "rotate_board": "Gemshards",
               "teleport_arrow": "Gemshards", "rumble": "Golden Actions",
               "flashlight": "Golden Actions"}

RULE_SETTINGS = (
    Setting("rows", int, "the mountain's rows (the rulebook's 6x6, turned to a diamond)", 2,
            MAX_SIDE, label="map rows"),
    Setting("cols", int, "the mountain's columns", 2, MAX_SIDE, label="map columns"),
    Setting("actions", str, "actions a turn: one before and one after the grab, one in all "
            "(the harder game), or any number", choices=("before_and_after", "one", "any"),
            label="actions a turn",
            values=(("before_and_after", "an action before and one after the grab"),
                    ("one", "one action a turn (the harder game)"),
                    ("any", "any number of actions a turn"))),
    Setting("majority_by", str, "most and least by the tiles of a colour counted, or by "
            "their values summed", choices=("tiles", "value"), label="majority by",
            values=(("tiles", "majority by tiles"), ("value", "majority by value"))),
    Setting("none_is_least", bool, "a player holding none of a colour counts for the least",
            label="none counts as least",
            values=((True, "holding none counts as the least"),
                    (False, "the least is among the holders"))),
    Setting("all_tie", str, "every player counted level on a colour: all have the most, "
            "neither, or both (adding and subtracting)", choices=("most", "neither", "both"),
            label="all level on a colour",
            values=(("most", "all level: all have the most"),
                    ("neither", "all level: neither most nor least"),
                    ("both", "all level: most and least"))),
    Setting("split", str, "the mountain split by a grab: ignored, or the grabber collects "
            "every group but the largest (the rulebook's draft rule)",
            choices=("ignore", "smaller"), label="a split mountain",
            values=(("ignore", "a split is ignored"),
                    ("smaller", "a split hands the smaller groups to the grabber"))),
    Setting("steal_actions", bool, "Steal may take an action tile", label="Steal takes actions",
            values=((True, "Steal may take an action tile"),
                    (False, "Steal takes gems only"))),
    Setting("stolen_now", bool, "a stolen action tile may be used in the same turn",
            label="stolen actions at once",
            values=((True, "a stolen action may be used at once"),
                    (False, "a stolen action waits a turn"))),
    Setting("start_tiles", str, "the quicker start: no tile, an action tile or any tile for "
            "each player before the game", choices=("none", "action", "any"),
            label="start tile",
            values=(("none", "no start tile"), ("action", "an action tile each to start"),
                    ("any", "a random tile each to start"))),
    Setting("start_arrow", str, "the arrow starts at a random corner, or the start player "
            "places it (and gets no start tile)", choices=("corner", "chosen"),
            label="the arrow's start",
            values=(("corner", "the arrow starts at a random corner"),
                    ("chosen", "the start player places the arrow"))),
    # Dark Tunnels (dark_nb.py): its switch and its reading of "multiply".
    Setting("dark_tunnels", bool, "the Dark Tunnels expansion: tiles face down, the "
            "information step, its four actions and its two gems", label="Dark Tunnels",
            values=((True, "with Dark Tunnels"), (False, "without Dark Tunnels"))),
    Setting("multiply_by", int, "a Multiplier's factor on the points of the pile it is laid "
            "on (Dark Tunnels)", 1, 5, label="Multiplier's factor"),
    Setting("trash_points", int, "what each Trash tile held scores at the end (Dark Tunnels)",
            -10, 0, label="Trash's points"),
    # Gemshards and Golden Actions (shards_nb.py, golden_nb.py): their tiles enter the box
    # only when their switch is on.
    Setting("gemshards", bool, "the Gemshards expansion: divided tiles, the Wildcard, Rotate "
            "Grabbed, Rotate Board and Teleport Arrow", label="Gemshards",
            values=((True, "with Gemshards"), (False, "without Gemshards"))),
    Setting("golden_actions", bool, "the Golden Actions expansion: Rumble (and the "
            "reconstructed Flashlight, none in the default box)", label="Golden Actions",
            values=((True, "with Golden Actions"), (False, "without Golden Actions"))),
    Setting("rumble_connected", bool, "Rumble may not leave the mountain in more groups, as "
            "Swap may not", label="Rumble keeps it connected",
            values=((True, "Rumble keeps the mountain connected"),
                    (False, "Rumble may split the mountain"))),
    Setting("wild_joins", str, "a Wildcard joins one of its holder's piles when grabbed (the "
            "rulebook's \"immediately\"), or waits in the hand and joins at the end the pile "
            "that scores its holder most (Gemshards)", choices=("grabbed", "end"),
            label="a Wildcard joins",
            values=(("grabbed", "a Wildcard joins a pile when grabbed"),
                    ("end", "a Wildcard joins its best pile at the end"))),
)

BOX_SETTINGS = (
    Setting("colours", int, "gem colours in the box", 1, MAX_COLOURS, label="gem colours"),
    Setting("ones", int, "gems of value 1 of each colour", 0, 30, label="1-point gems a colour"),
    Setting("twos", int, "gems of value 2 of each colour", 0, 30, label="2-point gems a colour"),
    Setting("threes", int, "gems of value 3 of each colour", 0, 30,
            label="3-point gems a colour"),
    *(Setting(name, int, f"{word} tiles in the box", 0, 30, label=f"{word} tiles")
      for name, word in ACTION_WORDS.items()),
    *(Setting(name, int, f"{word} tiles in the box (Dark Tunnels)", 0, 30,
              label=f"{word} tiles") for name, word in DARK_WORDS.items()),
    # Gemshards' and Golden Actions' tiles, in the box only with their switch on.
    Setting("halved", int, "Gemshards: divided tiles of two halves", 0, 30,
            label="tiles in halves"),
    Setting("quartered", int, "Gemshards: divided tiles of four quarters", 0, 30,
            label="tiles in quarters"),
    Setting("wildcard", int, "Gemshards: Wildcard gems", 0, 30, label="Wildcards"),
    Setting("wild_value", int, "Gemshards: a Wildcard's points", 1, 3, label="Wildcard points"),
    *(Setting(name, int, f"{word} tiles in the box ({X_EXPANSION[name]})", 0, 30,
              label=f"{word} tiles")
      for name, word in X_ACTION_WORDS.items()),
)
SETTINGS = RULE_SETTINGS + BOX_SETTINGS
SWITCH = {"Gemshards": "gemshards", "Golden Actions": "golden_actions"}
# Every action tile a box may hold, in words: the base game's, then Dark Tunnels' (its Trash
# and Multiplier are gems, not actions), then Gemshards' and Golden Actions'.
DARK_ACTION_WORDS = {k: DARK_WORDS[k] for k in ("lightbulb", "bomb", "second_arrow", "ransack")}
ALL_ACTION_WORDS = {**ACTION_WORDS, **DARK_ACTION_WORDS, **X_ACTION_WORDS}


def box_actions(values: dict) -> list[str]:
    """The action tiles these rules put in the box, by setting name: the base game's, and
    those of each expansion switched on, each with a count above 0."""
    names = [*ACTION_WORDS, *(DARK_ACTION_WORDS if values["dark_tunnels"] else ()),
             *(k for k in X_ACTION_WORDS if values[SWITCH[X_EXPANSION[k]]])]
    return [k for k in names if values[k] > 0]


def extra_tiles(values: dict) -> tuple[int, int]:
    """The expansions' tiles in the box (those on): (gems and divided tiles, action tiles)."""
    tiles, actions = 0, 0
    if values["gemshards"]:
        tiles += values["halved"] + values["quartered"] + values["wildcard"]
    for name in X_ACTION_WORDS:
        if values[SWITCH[X_EXPANSION[name]]]:
            actions += values[name]
    return tiles, actions


def box_problem(values: dict, seats: int, source: str = str(BOX_FILE)) -> Problem | None:
    """What makes the box unplayable with these rules and seats (no single range can say it),
    or None."""
    gems = values["colours"] * (values["ones"] + values["twos"] + values["threes"])
    actions = sum(values[name] for name in ACTION_WORDS) + dark_tiles(values)
    extra, extra_actions = extra_tiles(values)
    actions += extra_actions
    cells = values["rows"] * values["cols"]
    starters = 0 if values["start_tiles"] == "none" else \
        seats - (1 if values["start_arrow"] == "chosen" else 0)
    if gems == 0:
        return Problem(source, "", "ones", "the box holds no gem (colours x (ones + twos + "
                       "threes) is 0): a game needs one")
    if values["start_tiles"] == "action" and actions < starters:
        return Problem(source, "", "start_tiles", f"an action tile each needs {starters} "
                       f"action tiles, the box holds {actions}")
    if gems + extra + actions - starters < cells:
        return Problem(source, "", "box", f"holds {gems + extra + actions} tiles ({gems} gems, "
                       + (f"{extra} Gemshards tiles, " if extra else "")
                       + f"{actions} actions), fewer than the {cells} cells of a "
                       f"{values['rows']}x{values['cols']} mountain"
                       + (f" and {starters} start tiles" if starters else "")
                       + ": add tiles or make the map smaller")
    return None


def dark_tiles(values: dict) -> int:
    """Dark Tunnels' tiles in the box: none with the expansion off. They count with the
    actions (neither is a colour's gem)."""
    return sum(values[name] for name in DARK_WORDS) if values["dark_tunnels"] else 0


def read_all(rules_file: Path = RULES_FILE, box_file: Path = BOX_FILE) -> dict:
    """Every setting's default: the rules' file and the box's, each checked, then the box
    against the map (for the most seats the game takes)."""
    values = {**read_defaults(rules_file, RULE_SETTINGS), **read_defaults(box_file, BOX_SETTINGS)}
    if (bad := box_problem(values, 2, str(box_file))) is not None:
        raise InputError([bad])
    return values


DEFAULTS = read_all()


def kit_rules(values: dict, seats: int) -> Rules:
    """The kit's way to the Rules (KitGame.compile): each setting by name, a word as its index
    among its choices; a box these rules and seats cannot play is one message."""
    if (bad := box_problem(values, seats, "rules")) is not None:
        raise InputError([bad])
    out = {"players": seats}
    packed = set(X_COUNTS) | {"rumble_connected", "wild_joins"}
    for s in SETTINGS:
        if s.name not in packed:
            v = values[s.name]
            out[s.name] = s.choices.index(v) if s.choices else int(v)
    return Rules(**out, expansions=pack_expansions(values))
