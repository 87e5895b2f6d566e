"""Rusship's players, by name: the only list of them (heuristics/player.py). The engine
reaches them through the dispatch generated from this list (heuristics/rusship/dispatch_nb.py
and the search's rollouts in heuristics/rusship/rollout_nb.py: run `python -m
heuristics.generate` after an edit here)."""

from __future__ import annotations

from heuristics.player import Memory, Player, Roster
from heuristics.rusship import racer
from heuristics.search import search_player

DISPATCH = "heuristics.rusship.dispatch_nb"
ROLLOUTS = "heuristics.rusship.rollout_nb"

RACER = Player(
    "racer", "attacks and captures when it can, keeps tokens out of the enemy's reach, "
    "plans its two dice together, values rerolls, +1 and one die by the same scores; ranks "
    "the powers by the comebacks they give",
    choose="heuristics.rusship.racer:racer_choose_nb",
    args=("kind", "st", "tb", "ru", "w", "mem", "n", "p"),
    memory=Memory("heuristics.rusship.racer:new_memory",
                  "heuristics.rusship.racer:reset_memory_nb"),
    knobs=racer.KNOBS,
    remembers="nothing between decisions; Seats.mem.racer is its threat map, redrawn at each "
    "decision", title="Racer")

PLAYERS = Roster((
    RACER,
    search_player("reference", "determinized flat Monte Carlo over every decision (its "
                  "`searched` knob), the dice to come resampled, with racer rollouts (slow: "
                  "for measuring)", RACER, "balance.games.rusship.engine.forward:FORWARD",
                  "heuristics.rusship.registry:PLAYERS", title="Reference"),
    Player("random", "uniform among legal options (rule coverage, not strategy)",
           choose="heuristics.random_player:random_choose_nb", args=("rng", "n"),
           remembers="nothing; it draws from the players' stream (Seats.rng)", title="Random"),
    Player("scripted", "replays a list of choices, then takes the first option (tests)",
           choose="heuristics.scripted:scripted_choose_nb", args=("mem",),
           memory=Memory("heuristics.scripted:new_script", "heuristics.scripted:reset_script_nb"),
           remembers="the list and its place in it (Seats.mem.scripted)", title="Scripted"),
), DISPATCH, ROLLOUTS)
