"""Gem Rush's players, by name: the only list of them (heuristics/player.py). Each entry names
its decision function, its memory, its knobs (declared in the player's module,
heuristics/knobs.py) and how its weights are laid out. The engine reaches them through the
dispatch generated from this list (heuristics/gemrush/dispatch_nb.py, and the search's
rollouts in heuristics/gemrush/rollout_nb.py: run `python -m heuristics.generate` after an
edit here)."""

from __future__ import annotations

from heuristics.gemrush import greedy, learned
from heuristics.player import Memory, Player, Roster
from heuristics.search import search_player

DISPATCH = "heuristics.gemrush.dispatch_nb"
ROLLOUTS = "heuristics.gemrush.rollout_nb"

GREEDY = Player(
    "greedy", "builds the best door it can afford, else uses the best ability, else draws; "
    "pays with the least waste",
    choose="heuristics.gemrush.greedy:greedy_choose_nb",
    args=("kind", "st", "tb", "ru", "pp", "mem", "n", "p"),
    memory=Memory("heuristics.gemrush.memory:new_memory",
                  "heuristics.gemrush.memory:reset_memory_nb",
                  "heuristics.gemrush.memory:copy_memory_nb"),
    knobs=greedy.KNOBS, weights=greedy.weights,
    remembers="Seats.mem.greedy (heuristics/gemrush/memory.py): the frontier doors, its "
    "estimates per gem, a breadth-first search from its room and this turn's plan, each "
    "stamped with the engine counters it was computed from; one memory for every greedy seat",
    title="Greedy")

LEARNED = Player(
    "learned", "greedy, but it turns new tiles (and takes steps, where a trained model earns "
    "it) by linear models learned from the search's rollouts (balance train-player)",
    choose="heuristics.gemrush.learned_nb:learned_choose_nb",
    args=("kind", "st", "tb", "ru", "pp", "mem", "n", "p"),
    memory=Memory("heuristics.gemrush.learned:new_learned",
                  "heuristics.gemrush.learned_nb:reset_learned_nb"),
    knobs=learned.KNOBS, weights=learned.weights,
    remembers="greedy's memory (Seats.mem.greedy, heuristics/gemrush/memory.py), shared "
    "with greedy's seats as greedy's seats share it; in Seats.mem.learned a copy of it for the "
    "step features and room for one decision's features", title="Learned")

PLAYERS = Roster((
    GREEDY,
    LEARNED,
    search_player("reference", "determinized flat Monte Carlo over steps, action, payments, "
                  "discards, rotations and skill uses (its `searched` knob), with greedy "
                  "rollouts (slow: for measuring)", GREEDY,
                  "balance.games.gemrush.engine.forward:FORWARD",
                  "heuristics.gemrush.registry:PLAYERS", title="Reference"),
    search_player("clairvoyant", "the reference's search, but its rollouts play the true "
                  "deck and room tiles instead of a resampled order: a cheating upper bound "
                  "on what a team could score, not a fair player (slow: for measuring)",
                  GREEDY, "balance.games.gemrush.engine.forward:FORWARD",
                  "heuristics.gemrush.registry:PLAYERS", clairvoyant=True,
                  title="Clairvoyant"),
    Player("random", "uniform among legal options (rule coverage, not strategy)",
           choose="heuristics.random_player:random_choose_nb", args=("rng", "n"),
           remembers="nothing; it draws from the players' stream (Seats.rng)", title="Random"),
    Player("scripted", "replays a list of choices, then takes the first option (tests)",
           choose="heuristics.scripted:scripted_choose_nb", args=("mem",),
           memory=Memory("heuristics.scripted:new_script", "heuristics.scripted:reset_script_nb"),
           remembers="the list and its place in it (Seats.mem.scripted)", title="Scripted"),
), DISPATCH, ROLLOUTS)
