"""Gem runner's players, by name: the only list of them (heuristics/player.py). The engine reaches
them through the dispatch generated from this list (heuristics/gem_runner/dispatch_nb.py): run
`python -m balance.kit.generate balance.games.gem_runner.game:KIT` after an edit here."""

from __future__ import annotations

from heuristics.knobs import Knob
from heuristics.player import Memory, Player, Roster

PLAYERS = Roster((
    Player("threshold", "moves with a roll of at_least or more, rerolls a lower one while it "
           "may", choose="heuristics.gem_runner.players:threshold_choose_nb", args=("st", "w"),
           knobs=(Knob("at_least", 4, 1, 6, "the lowest roll it moves with", integer=True,
                       label="moves from a roll of"),),
           title="Threshold"),
    Player("random", "moves or rerolls on a coin flip (rule coverage, not strategy)",
           choose="heuristics.random_player:random_choose_nb", args=("rng", "n"),
           remembers="nothing; it draws from the players' stream (Seats.rng)", title="Random"),
    Player("scripted", "replays a list of choices, then takes the first option (tests)",
           choose="heuristics.scripted:scripted_choose_nb", args=("mem",),
           memory=Memory("heuristics.scripted:new_script", "heuristics.scripted:reset_script_nb"),
           remembers="the list and its place in it (Seats.mem.scripted)", title="Scripted"),
), "heuristics.gem_runner.dispatch_nb")
