"""Gem Runner's players, by name: the only list of them (heuristics/player.py). The engine
reaches them through the dispatch generated from this list (heuristics/gem_runner/dispatch_nb.py):
run `python -m balance.kit.generate balance.games.gem_runner.game:KIT` after an edit here."""

from __future__ import annotations

from heuristics.knobs import Knob
from heuristics.player import Memory, Player, Roster
from heuristics.search import search_player

RUNNER = Player(
    "runner", "builds the longest, hardest Challenge its hand can lay and runs to the Gem "
    "when its hand can (with a Bug where only a Chain wins the Gem), else wins a Gem card on a "
    "Hazard; discards its Bug cards",
    choose="heuristics.gem_runner.players:runner_choose_nb",
    args=("kind", "st", "tb", "ru", "w"),
    knobs=(Knob("hazard", 15.0, 0.0, 20.0, "worth of a Hazard laid in a Challenge",
                label="worth of a Hazard"),
           Knob("super", 0.0, 0.0, 20.0, "worth of a Hazard's Super Need",
                label="worth of a Super Need"),
           Knob("repeat", 5.5, 0.0, 20.0, "worth of a Need repeating the Gem's Element",
                label="worth of a repeated Element"),
           Knob("chain_cost", 1.0, 0.0, 20.0, "what a Chain spent on a Challenge costs",
                label="cost of a Chain laid"),
           Knob("pool_first", 1, 0, 1, "ends a Challenge with a Pool Gem before its own",
                integer=True, label="Pool Gem first"),
           Knob("gem_on_gem", 1, 0, 1, "beats the Gem with a Gem card when it can (wins both)",
                integer=True, label="Gem card on the Gem"),
           Knob("hard", 10.0, 0.0, 40.0, "worth of a Hazard's or a Gem's Need that no card of "
                "the game meets (times the share that does not)", label="worth of a hard Need"),
           Knob("bug_way", 1, 0, 1, "runs the Hazards toward a Gem only a Chain under a Bug "
                "can win (0: stops there, as before)", integer=True, label="Bug way"),
           Knob("drop_bug", 2, 0, 2, "discards a Bug: 0 never, 1 while it holds no Chain or "
                "the Computer holds a Bug Fix, 2 always (with Bugs off, always)", integer=True,
                label="drops a Bug"),
           Knob("drop_fix", 3, 0, 3, "discards a Bug Fix: 0 never, 1 while every Bug of the "
                "game lies in its hand or face up on a discard pile, 2 unless the Computer "
                "holds a Bug face up, 3 always (with Bugs off, always)", integer=True,
                label="drops a Bug Fix")),
    title="Runner")

PLAYERS = Roster((
    RUNNER,
    Player("random", "builds, runs and discards at random (rule coverage, not strategy)",
           choose="heuristics.random_player:random_choose_nb", args=("rng", "n"),
           remembers="nothing; it draws from the players' stream (Seats.rng)", title="Random"),
    search_player("search", "determinized flat Monte Carlo over every decision, the other "
                  "hands and the decks redrawn from its seat's view, with runner rollouts",
                  RUNNER, "balance.games.gem_runner.game:KIT.forward_hooks",
                  "heuristics.gem_runner.registry:PLAYERS", title="Search"),
    Player("scripted", "replays a list of choices, then takes the first option (tests)",
           choose="heuristics.scripted:scripted_choose_nb", args=("mem",),
           memory=Memory("heuristics.scripted:new_script", "heuristics.scripted:reset_script_nb"),
           remembers="the list and its place in it (Seats.mem.scripted)", title="Scripted"),
), "heuristics.gem_runner.dispatch_nb", "heuristics.gem_runner.rollout_nb")
