"""Gem Mountain's players, by name: the only list of them (heuristics/player.py). The engine
reaches them through the dispatch generated from this list (heuristics/gem_mountain/dispatch_nb.py):
run `python -m balance.kit.generate balance.games.gem_mountain.game:KIT` after an edit here."""

from __future__ import annotations

import numpy as np

from heuristics.gem_mountain.players import STEAL_AT
from heuristics.knobs import Knob
from heuristics.player import Memory, Player, Roster
from heuristics.search import search_player

MAJORITY = Player(
    "majority", "values a tile by the change it makes to its colour's standings (its own "
    "points against the others'), and uses each action when that value says it pays",
    choose="heuristics.gem_mountain.players:majority_choose_nb",
    args=("kind", "st", "tb", "ru", "w", "n", "p", "mem"),
    memory=Memory("heuristics.gem_mountain.players:new_values",
                  "heuristics.gem_mountain.players:forget_nb"),
    remembers="nothing between decisions: a decision's tile values, each computed once "
              "(Seats.mem.majority)",
    knobs=(Knob("rival", 0.5, 0.0, 2.0, "weight of the others' points against its own",
                label="weight of the others' points"),
           Knob("potential", 0.3, 0.0, 2.0, "points per gem value for what a gem may swing "
                "later", label="worth of a gem's value"),
           Knob("action", 1.5, 0.0, 10.0, "what an action tile is worth to grab",
                label="worth of an action tile"),
           Knob("arrow_gain", 2.0, 0.0, 20.0, "how much better a tile must be to move the "
                "arrow for it", label="gain to move the arrow"),
           Knob("swap_gain", 2.0, 0.0, 20.0, "how much better a tile must be to swap it to "
                "the top", label="gain to swap"),
           Knob("steal_at", 2.0, 0.0, 20.0, "what a theft must be worth to steal",
                label="worth of a theft to steal"),
           Knob("lock_at", 2.0, 0.0, 20.0, "how much the arrow's turn must favour the next "
                "player to lock it", label="next player's gain to lock")),
    title="Majority")



def never_steals(tables, values: list[float]) -> np.ndarray:
    """The majority player's weights with no theft worth stealing for: the honest player's
    (its knobs are majority's less steal_at, which this puts back as infinity)."""
    return np.insert(np.asarray(values, np.float64), STEAL_AT, np.inf)


# The majority player that never uses Steal: seated once among majority players on the same
# seeds, it says which games a seat's steals decide (the report's Actions section). Its own
# knobs, not a knob of majority's, since a run's knobs reach every seat alike.
HONEST = Player(
    "honest", "the majority player, except that it never uses Steal (it still grabs Steal "
    "tiles, and others may steal from it)",
    choose=MAJORITY.choose, args=MAJORITY.args, memory=MAJORITY.memory,
    remembers="nothing between decisions: a decision's tile values, each computed once "
              "(Seats.mem.honest)",
    knobs=tuple(k for k in MAJORITY.knobs if k.name != "steal_at"), weights=never_steals,
    title="Honest")

PLAYERS = Roster((
    MAJORITY,
    Player("random", "grabs, acts and targets at random (rule coverage, not strategy)",
           choose="heuristics.random_player:random_choose_nb", args=("rng", "n"),
           remembers="nothing; it draws from the players' stream (Seats.rng)", title="Random"),
    HONEST,
    search_player("search", "determinized flat Monte Carlo over every decision, with majority "
                  "rollouts", MAJORITY, "balance.games.gem_mountain.game:KIT.forward_hooks",
                  "heuristics.gem_mountain.registry:PLAYERS", title="Search"),
    # A measuring stick, not a player: beside the search on the same seeds, what not seeing
    # Dark Tunnels' face-down tiles costs it (the guide's games/gem-mountain.md).
    search_player("clairvoyant", "CHEATS: the search, but its rollouts play on the true "
                  "face-down tiles and deck instead of redrawing what its seat has not seen; "
                  "a reference for what hidden tiles cost the search, never a fair player",
                  MAJORITY, "balance.games.gem_mountain.game:KIT.forward_hooks",
                  "heuristics.gem_mountain.registry:PLAYERS", clairvoyant=True,
                  title="Clairvoyant (cheats)"),
    Player("scripted", "replays a list of choices, then takes the first option (tests)",
           choose="heuristics.scripted:scripted_choose_nb", args=("mem",),
           memory=Memory("heuristics.scripted:new_script", "heuristics.scripted:reset_script_nb"),
           remembers="the list and its place in it (Seats.mem.scripted)", title="Scripted"),
), "heuristics.gem_mountain.dispatch_nb", "heuristics.gem_mountain.rollout_nb")
