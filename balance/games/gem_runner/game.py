"""Gem runner, declared on the engine kit (balance/kit/; the guide's developers/kit.md): the kit
makes its Game from this declaration, its rules (rules_nb.py) and their defaults
(data/rules.toml). Its players are in heuristics/gem_runner/, its report in reports/gem_runner/.

After an edit of the declaration or of the rules' names, write the generated files again:
`python -m balance.kit.generate balance.games.gem_runner.game:KIT`; after a change of the
rules, the goldens: `python -m balance.kit.playthrough balance.games.gem_runner.game:KIT`."""

from __future__ import annotations

from pathlib import Path

from balance.contract.game import Measure, Setting
from balance.games.gem_runner.rules_nb import END_REASONS
from balance.kit.declare import Event, Golden, KitGame, OptionKind
from balance.kit.defaults import read_defaults

# Bumped by hand whenever the same seeds would play differently.
VERSION = "1"
RULES_FILE = Path(__file__).parent / "data" / "rules.toml"

# Each setting's label is what the rulebook calls it: the reports and the terminal write it,
# not the setting's name ("track length 12", not goal=12).
SETTINGS = (
    Setting("goal", int, "spaces to the goal", 1, 1000, label="track length"),
    Setting("rerolls", int, "rerolls a seat may take each turn", 0, 10,
            label="rerolls a turn"),
    Setting("max_turns", int, "turns after which the game stops undecided", 1, 100_000,
            label="turn cap"),
)


def values(records, setup) -> dict:
    """The games table's own columns (KIT.columns), from the records of a batch of games."""
    return {"first_won": records.winner == 0}


KIT = KitGame(
    name="gem_runner", ref="balance.games.gem_runner.game:KIT",
    rules="balance.games.gem_runner.rules_nb", loop="balance.games.gem_runner.loop_nb",
    players="heuristics.gem_runner.registry:PLAYERS",
    settings=SETTINGS, defaults=read_defaults(RULES_FILE, SETTINGS),
    decisions=("move or reroll",),
    options=(OptionKind("move", "move {a}"), OptionKind("reroll", "reroll {a} ({b} left)")),
    events=(Event("rolled", ("roll",), part="{roll}"),
            Event("moved", ("roll", "space"), line="turn {turn}, seat {seat}: rolls {parts}: "
                  "moves {roll} to {space}")),
    end_reasons=END_REASONS, undecided_ends=("cap",), tallies=("rerolls",),
    invariants=("a seat at the goal while the game goes on, or a winner short of it",
                "more rerolls than the turns played allow"),
    columns={"first_won": "bool"}, values="balance.games.gem_runner.game:values",
    header="gem_runner, seed {seed}: {players}; first to {goal}, rerolls a turn: {rerolls}",
    closing="end: {reason} after {turns} turns; {outcome}; spaces {scores}, "
            "rerolls {rerolls}",
    goldens=(Golden("2p-random-seed1", ("random", "random"), 1, {"goal": 12}),
             Golden("3p-threshold-seed4", ("threshold", "random", "threshold"), 4)),
    bench_title="2 threshold players", bench_experiment={"players": 2,
                                                         "heuristic": "threshold"},
    describe="first to {goal}, {rerolls} rerolls a turn")

GAME = KIT.declare(
    title="Gem runner", version=VERSION, player_counts=(2, 3, 4), cooperative=False,
    measures=(Measure("first", "Seat 1's wins", "rate", "first_won"),
              Measure("turns", "Length", "mean", "turns")),
    default_player="threshold", report="reports.gem_runner.report:REPORT",
    # The modules of the rules: with this declaration, they import no player but through the
    # generated dispatch (the layer contracts, tests/layers.py).
    rule_modules=("rules_nb",),
    # The game's own words (its pieces, its cards), once it has them: no neutral module may
    # write one (tests/test_neutral.py).
    words=())
