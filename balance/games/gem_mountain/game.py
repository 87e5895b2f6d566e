"""Gem Mountain, declared on the engine kit (balance/kit/; the guide's developers/kit.md): a
tile grab on a diamond mountain, gems scored by majority per colour. The kit makes its Game
from this declaration, its rules (rules_nb.py), their settings (rules.py) and their defaults
(data/rules.toml, and data/box.toml for the reconstructed box). Its players are in
heuristics/gem_mountain/, its report in reports/gem_mountain/, its rulings in the guide's
games/gem-mountain.md.

The rulebook names no game "gem-mountain" can be a Python package: the game's name is
`gem_mountain` (a lower-case identifier, as the registry and `balance new-game` ask) and its
title "Gem Mountain".

After an edit of the declaration or of the rules' names, write the generated files again:
`python -m balance.kit.generate balance.games.gem_mountain.game:KIT`; after a change of the
rules, the goldens: `python -m balance.kit.playthrough balance.games.gem_mountain.game:KIT`."""

from __future__ import annotations

from balance.contract.game import Label, Measure
from balance.games.gem_mountain.codes import (
    DARK_DECISIONS,
    DECISIONS,
    END_REASONS,
    LEAST_DECIDES,
    MARGIN,
    RECORD,
    ROTATE_GRABBED,
    SPLITS,
    STEALS,
    TIED_COLOURS,
    X_DECISIONS,
    X_END_REASONS,
)
from balance.games.gem_mountain.rules import (
    ACTION_WORDS,
    ALL_ACTION_WORDS,
    BOX_FILE,
    COLOUR_NAMES,
    DEFAULTS,
    RULES_FILE,
    SETTINGS,
    X_ACTION_WORDS,
)
from balance.kit.declare import Event, Golden, Hidden, KitGame, OptionKind

# Bumped by hand whenever the same seeds would play differently.
VERSION = "1"
__all__ = ("BOX_FILE", "GAME", "KIT", "RULES_FILE", "SETTINGS")


def values(records, setup) -> dict:
    """The games table's own columns (KIT.columns), from the records of a batch of games."""
    rec = records.rec
    return {"first_won": records.winner == 0, "margin": rec[:, MARGIN],
            "least_decides": rec[:, LEAST_DECIDES] == 1, "tied_colours": rec[:, TIED_COLOURS],
            "actions_used": rec[:, RECORD.index("actions_used")], "steals": rec[:, STEALS],
            "splits": rec[:, SPLITS]}


# What `balance ablate` takes out (experiment.py reads `[experiment] ablate = "actions"`), and
# the ablate key's values in words ("none", the unchanged box, is every game's own): the base
# game's actions, and those of the expansions switched on.
ABLATIONS = (("actions", "each action's tiles taken out of the box, one action at a time "
              "(the expansions' too, those switched on)"),)
ABLATE_WORDS = Label("ablate", "without", tuple((name, f"without {word}")
                                                for name, word in ALL_ACTION_WORDS.items()))
# The grid's `expansion` key (experiment.py): the base game, one expansion switched on by its
# switch's name, or several, their names joined by "+" ("all": the three), in the box's words.
EXPANSION_KEY = "expansion"
EXPANSIONS = {"none": "the base game", "dark_tunnels": "Dark Tunnels",
              "gemshards": "Gemshards", "golden_actions": "Golden Actions"}
_SWITCHES = ("dark_tunnels", "gemshards", "golden_actions")
EXPANSION_SETS = {"none": (), **{k: (k,) for k in _SWITCHES},
                  **{f"{a}+{b}": (a, b) for j, a in enumerate(_SWITCHES)
                     for b in _SWITCHES[j + 1:]}, "all": _SWITCHES}
EXPANSION_WORDS = Label(EXPANSION_KEY, "expansion {}", tuple(
    (k, "the base game" if not on else "with all three expansions" if k == "all" else
     "with " + " and ".join(EXPANSIONS[x] for x in on)) for k, on in EXPANSION_SETS.items()))
ACTIONS_TEXT = ", ".join(f"{i} {w}" for i, w in enumerate(ACTION_WORDS.values()))
# Dark Tunnels' option kinds (dark_nb.py): offered only with the expansion on, the Bomb's and
# the Lightbulb's with enough of their tiles in the box that random play meets them.
DARK = {"dark_tunnels": True}
DARK_OPTIONS = (
    OptionKind("look at", "look at cell {a}", rules=DARK),
    OptionKind("flip up", "turn cell {a} face up (tile {b}, -2 unseen)", rules=DARK),
    OptionKind("light", "light line {a} ({b}: 0 a row, 1 a column), {c} face down",
               rules={**DARK, "lightbulb": 6}),
    OptionKind("blast", "bomb the square from cell {a}, {b} tiles",
               rules={**DARK, "bomb": 6}),
    OptionKind("flip down", "turn cell {a} face down (tile {b})",
               rules={**DARK, "ransack": 6}),
    OptionKind("raid", "ransack cell {a} (tile {b}, -2 unseen)", rules={**DARK, "ransack": 6}),
    OptionKind("lay", "lay a Multiplier on colour {a} ({b} held)",
               rules={**DARK, "multiplier": 6}))
DARK_EVENTS = (
    Event("looked", ("cell", "tile"), line="turn {turn}, seat {seat}: looks at cell {cell}"),
    Event("revealed", ("cell", "tile"), line="turn {turn}, seat {seat}: turns cell {cell} "
          "face up: tile {tile}"),
    Event("lit", ("line", "across", "tiles"), line="turn {turn}, seat {seat}: lights line "
          "{line} ({across}), {tiles} tiles face up"),
    Event("bombed", ("cell", "tiles"), line="turn {turn}, seat {seat}: bombs the square from "
          "cell {cell}, {tiles} tiles out"),
    Event("refilled", ("tiles",), line="turn {turn}, seat {seat}: skips the turn to refill "
          "{tiles} cells"),
    Event("second", ("position",), line="turn {turn}: the second arrow is at {position}"),
    Event("ransacked", ("down", "cell", "tile"), line="turn {turn}, seat {seat}: ransacks "
          "from cell {down}: cell {cell}, tile {tile}"),
    Event("laid", ("colour",), line="turn {turn}, seat {seat}: lays a Multiplier on colour "
          "{colour}"),
    Event("turned2", ("position",), line="turn {turn}: the second arrow turns to {position}"))
X_ACTIONS_TEXT = ", ".join(f"{i} {w}" for i, w in enumerate(X_ACTION_WORDS.values(),
                                                              ROTATE_GRABBED))
# The kinds of option Gemshards and Golden Actions add, offered only with their switch on.
SHARDS_ON, GOLDEN_ON = {"gemshards": True}, {"golden_actions": True}
X_OPTIONS = (OptionKind("grab side", "grab cell {a} as tile {b}, layer {c}", rules=SHARDS_ON),
             OptionKind("use extra", f"use action {{a}} ({X_ACTIONS_TEXT}), {{b}} held",
                        rules=SHARDS_ON),
             OptionKind("rotate held", "turn held tile {a} to section {c} (tile {b})",
                        rules=SHARDS_ON),
             OptionKind("rotate cell", "turn the tile at cell {a} {b} quarters",
                        rules=SHARDS_ON),
             OptionKind("join", "the Wildcard joins colour {a} (tile {b})", rules=SHARDS_ON),
             OptionKind("lift", "rumble from cell {a} (tile {b})", rules=GOLDEN_ON),
             OptionKind("drop", "rumble to cell {a}", rules=GOLDEN_ON))
X_EVENTS = (Event("rotated", ("held", "tile"), line="turn {turn}, seat {seat}: turns held "
                  "tile {held} to tile {tile}"),
            Event("turned tile", ("cell", "quarters"), line="turn {turn}: the tile at cell "
                  "{cell} turns {quarters} quarters"),
            Event("joined", ("colour", "tile"), line="turn {turn}, seat {seat}: the Wildcard "
                  "joins colour {colour} as tile {tile}"),
            Event("rumbled", ("a", "b"), line="turn {turn}: the tile at cell {a} rumbles to "
                  "cell {b}"),
            Event("flashed", ("lit",), line="turn {turn}, seat {seat}: the Flashlight reaches a "
                  "layer deeper"))

KIT = KitGame(
    name="gem_mountain", ref="balance.games.gem_mountain.game:KIT",
    rules="balance.games.gem_mountain.rules_nb", loop="balance.games.gem_mountain.loop_nb",
    players="heuristics.gem_mountain.registry:PLAYERS",
    settings=SETTINGS, defaults=DEFAULTS, compile="balance.games.gem_mountain.rules:kit_rules",
    decisions=DECISIONS + DARK_DECISIONS + X_DECISIONS,
    options=(OptionKind("grab", "grab cell {a}: tile {b}, layer {c}"),
             OptionKind("use", f"use action {{a}} ({ACTIONS_TEXT}), {{b}} held"),
             OptionKind("end", "end the turn"),
             OptionKind("point", "arrow to position {a}"),
             OptionKind("pick up", "swap from cell {a} (tile {b})"),
             OptionKind("put down", "swap to cell {a} (tile {b}, -1 empty)"),
             OptionKind("take", "steal tile {b} from seat {a}"),
             OptionKind("start at", "arrow starts at position {a}",
                        rules={"start_arrow": "chosen"}),
             *DARK_OPTIONS, *X_OPTIONS),
    events=(Event("grabbed", ("cell", "tile", "layer"),
                  line="turn {turn}, seat {seat}: grabs tile {tile} at cell {cell} (layer "
                  "{layer})"),
            Event("turned", ("position",), line="turn {turn}: the arrow turns to {position}"),
            Event("used", ("action",), line="turn {turn}, seat {seat}: uses action {action}"),
            Event("moved", ("position",), line="turn {turn}: the arrow moves to {position}"),
            Event("locked", ("locked",), line="turn {turn}: the arrow lock is {locked}"),
            Event("swapped", ("a", "b"), line="turn {turn}: cells {a} and {b} swapped"),
            Event("stole", ("victim", "tile"), line="turn {turn}, seat {seat}: steals tile "
                  "{tile} from seat {victim}"),
            Event("collected", ("tiles",), line="turn {turn}, seat {seat}: the mountain split, "
                  "collects {tiles} tiles"),
            Event("scored", ("of", "score", "without_least"),
                  line="seat {of} scores {score} ({without_least} without the least's "
                  "penalty)"),
            *DARK_EVENTS, *X_EVENTS),
    end_reasons=END_REASONS + X_END_REASONS, tallies=(*COLOUR_NAMES, "actions"), record=RECORD,
    forward="balance.games.gem_mountain.forward_nb",
    # Dark Tunnels' face-down tiles a seat has not looked at, and the deck (which the base
    # game never draws from again, and the expansion's Bomb refills from).
    hidden=(Hidden("grid", "seen", masked=True), Hidden("deck", "deck_n")),
    view="balance.games.gem_mountain.view:MountainView",
    invariants=("a tile made or lost (mountain, hands, discards and deck against the box)",
                "a grab not from the top layer (or the Flashlight's, or not of a side "
                "facing the arrow)",
                "the arrow did not turn a quarter at a turn's end (or turned while locked)",
                "the mountain's gem and tile counts disagree with it",
                "a seat does not know an empty or face-up cell (Dark Tunnels)",
                "a Trash left a hand (Dark Tunnels)",
                "the second arrow did not turn with the first (Dark Tunnels)",
                "Ransack collected a tile not next to the one it turned down (Dark Tunnels)",
                "a divided tile held counts as another section than its true side (Gemshards)"),
    columns={"first_won": "bool", "margin": "int16", "least_decides": "bool",
             "tied_colours": "int8", "actions_used": "int16", "steals": "int16",
             "splits": "int16"},
    values="balance.games.gem_mountain.game:values",
    header="gem_mountain, seed {seed}: {players}; {rows}x{cols} mountain, {colours} colours, "
           "actions {actions}, majority by {majority_by}",
    closing="end: {reason} after {turns} turns; {outcome}; scores {scores}; ruby {ruby}, "
            "sapphire {sapphire}, emerald {emerald}, topaz {topaz}, amethyst {amethyst}, "
            "actions {actions}",
    goldens=(Golden("2p-random-seed1", ("random", "random"), 1),
             Golden("3p-majority-seed4", ("majority", "random", "majority"), 4),
             Golden("4p-switches-seed7", ("majority",) * 4, 7,
                    {"rows": 5, "cols": 5, "actions": "any", "split": "smaller",
                     "majority_by": "value", "none_is_least": True, "all_tie": "both",
                     "start_tiles": "action", "start_arrow": "chosen",
                     "steal_actions": False, "stolen_now": False}),
             Golden("3p-dark-tunnels-seed11", ("majority", "random", "majority"), 11,
                    {"dark_tunnels": True}),
             Golden("3p-gemshards-seed5", ("majority", "random", "majority"), 5,
                    {"gemshards": True}),
             Golden("3p-golden-actions-seed6", ("majority", "random", "majority"), 6,
                    {"golden_actions": True, "flashlight": 2}),
             # Where the expansions meet (mix_nb.py), and the other Wildcard reading.
             Golden("3p-dark-gemshards-seed8", ("majority", "random", "majority"), 8,
                    {"dark_tunnels": True, "gemshards": True}),
             Golden("3p-dark-golden-seed9", ("majority", "random", "majority"), 9,
                    {"dark_tunnels": True, "golden_actions": True, "flashlight": 2}),
             Golden("4p-all-three-seed10", ("majority", "random", "majority", "random"), 10,
                    {"dark_tunnels": True, "gemshards": True, "golden_actions": True,
                     "flashlight": 2, "rows": 7, "cols": 7}),
             Golden("3p-wild-at-end-seed12", ("majority", "random", "majority"), 12,
                    {"gemshards": True, "wild_joins": "end", "wildcard": 4})),
    bench_title="4 majority players, the default rules",
    bench_experiment={"players": 4, "heuristic": "majority"},
    describe="a {rows}x{cols} mountain of {colours} colours",
    max_options=128)

GAME = KIT.declare(
    title="Gem Mountain", version=VERSION, player_counts=(2, 3, 4, 5), cooperative=False,
    measures=(Measure("first", "First player's wins", "rate", "first_won",
                      "the start player's (seat 1's) share of the games one player won",
                      of="games one player won",
                      outcome="balance.games.gem_mountain.goals:first"),
              Measure("turns", "Length", "mean", "turns", "turns, every player's counted"),
              Measure("margin", "Margin", "mean", "margin",
                      "the winner's points over the second's", unit="points"),
              Measure("least_decides", "Games the least decides", "rate", "least_decides",
                      "the share of games the least's penalty gave another winner"),
              Measure("tied_colours", "Shared majorities", "mean", "tied_colours",
                      "colours whose most two or more players share", unit="colours"),
              Measure("actions_used", "Actions used", "mean", "actions_used",
                      "action tiles played a game", unit="actions")),
    default_player="majority", ablations=ABLATIONS, labels=(ABLATE_WORDS, EXPANSION_WORDS),
    variants="balance.games.gem_mountain.experiment:variants",
    report="reports.gem_mountain.report:REPORT",
    length_unit="turns", score_unit="points",
    # The modules of the rules: with this declaration, they import no player but through the
    # generated dispatch (the layer contracts, tests/layers.py).
    rule_modules=("rules_nb", "rules", "experiment"),
    # Its pieces and its gems: no neutral module may write one (tests/test_neutral.py). Not
    # "arrow" (Apache Arrow, pyarrow) nor "ruby" (Gem Rush's Fire Ruby), which neutral code
    # rightly writes.
    words=("mountain", "gemstone", "sapphire", "emerald", "topaz", "amethyst", "onyx"))
