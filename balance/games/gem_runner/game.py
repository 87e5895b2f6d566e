"""Gem Runner, declared on the engine kit (balance/kit/; the guide's developers/kit.md): a
card challenge game, head to head or against the rule-driven Computer. The kit makes its Game
from this declaration, its rules (rules_nb.py, cards_nb.py and the plans of plans_nb.py), their
settings (rules.py, defaults in data/rules.toml) and the heroes' decks (decks.py, the
reconstructed cards in data/decks/). Its players are in heuristics/gem_runner/, its rulings in
the guide's games/gem-runner.md.

The rulebook's name cannot be a Python package: the game's name is `gem_runner` (a lower-case
identifier, as the registry and `balance new-game` ask) and its title "Gem Runner".

After an edit of the declaration or of the rules' names, write the generated files again:
`python -m balance.kit.generate balance.games.gem_runner.game:KIT`; after a change of the
rules, the goldens: `python -m balance.kit.playthrough balance.games.gem_runner.game:KIT`."""

from __future__ import annotations

import numpy as np

from balance.contract.game import Measure
from balance.games.gem_runner.codes import (
    CARD_RECORD,
    DECISIONS,
    DRAWN,
    END_REASONS,
    PLAYED,
    RECORD,
    TALLIES,
)
from balance.games.gem_runner.rules import DEFAULTS, RULES_FILE, SETTINGS
from balance.kit.declare import Event, Golden, Hidden, KitGame, OptionKind

# Bumped by hand whenever the same seeds would play differently.
VERSION = "1"
__all__ = ("GAME", "KIT", "RULES_FILE", "SETTINGS")


def values(records, setup) -> dict:
    """The games table's own columns (KIT.columns), from the records of a batch of games."""
    rec = records.rec
    own = {name: rec[:, RECORD.index(name)] for name in RECORD}
    seats = records.scores.shape[1]
    return {"first_won": records.winner == 0, **own,
            "cards_drawn": seat_lists(rec[:, DRAWN: DRAWN + seats]),
            "cards_played": seat_lists(rec[:, PLAYED: PLAYED + seats])}


def seat_lists(bits: np.ndarray):
    """(games, seats) of the card record as one list a game, seat 1 first."""
    import pyarrow as pa  # lazy: listing the games imports no Arrow (as Table.arrow_schema)

    n, seats = bits.shape
    offsets = np.arange(0, n * seats + 1, max(seats, 1), dtype=np.int32)[: n + 1]
    return pa.ListArray.from_arrays(offsets, pa.array(bits.ravel(), pa.int64()))


# What `balance ablate` takes out (experiment.py reads `[experiment] ablate = "cards"`).
ABLATIONS = (("cards", "each card of the decks in play taken out, one name at a time (every "
              "copy of it)"),)

KIT = KitGame(
    name="gem_runner", ref="balance.games.gem_runner.game:KIT",
    rules="balance.games.gem_runner.rules_nb", loop="balance.games.gem_runner.loop_nb",
    players="heuristics.gem_runner.registry:PLAYERS",
    settings=SETTINGS, defaults=DEFAULTS, compile="balance.games.gem_runner.rules:kit_rules",
    decisions=DECISIONS,
    options=(OptionKind("hazard", "lay Hazard card {a}"),
             OptionKind("chain", "lay Chain card {a}"),
             OptionKind("hand gem", "end with Gem card {a} from the hand"),
             OptionKind("pool gem", "end with Gem card {a} from the Pool"),
             OptionKind("stack gem", "end with Gem card {a} from the Stack"),
             OptionKind("dig", "discard card {a} and draw"),
             OptionKind("keep", "discard nothing"),
             OptionKind("throw", "discard card {a}"),
             OptionKind("beat", "beat place {c} with card {a}"),
             OptionKind("stop", "stop at place {a}"),
             OptionKind("bug", "play Bug card {a}"),
             # A seat's Bug Fix answers a Bug played on its Challenge: rare with one Bug and
             # one Bug Fix a deck, and rarer where the Computer, not a seat, plays Bugs.
             OptionKind("fix", "answer with Bug Fix card {a}",
                        rules={"play": "head_to_head", "bugs": 3, "bug_fixes": 6}),
             OptionKind("allow", "let the Bug be")),
    events=(Event("placed", ("card", "length"), line="turn {turn}, seat {seat}: lays card "
                  "{card} ({length} in the Challenge)"),
            Event("finished", ("card", "source", "hazards", "chains"),
                  line="turn {turn}, seat {seat}: ends the Challenge with Gem {card} (from "
                  "0 hand, 1 Pool, 2 Stack, 3 deck: {source}), {hazards} Hazards, {chains} "
                  "Chains"),
            Event("dug", ("gone", "drawn"), line="turn {turn}, seat {seat}: discards {gone}, "
                  "draws {drawn}"),
            Event("beaten", ("card", "target", "place"), line="turn {turn}, seat {seat}: "
                  "beats card {target} at place {place} with card {card}"),
            Event("stopped", ("place",), line="turn {turn}, seat {seat}: stops at place "
                  "{place}"),
            Event("won", ("gems", "pool", "stack"), line="turn {turn}, seat {seat}: wins "
                  "{gems} Gems ({pool} from the Pool), {stack} in its Stack"),
            Event("pooled", ("card", "pool"), line="turn {turn}: Gem {card} goes to the Pool "
                  "({pool} there)"),
            Event("thrown", ("card",), line="turn {turn}, seat {seat}: discards card {card}"),
            Event("bugged", ("card",), line="turn {turn}, seat {seat}: plays Bug {card}"),
            Event("fixed", ("card",), line="turn {turn}, seat {seat}: answers with Bug Fix "
                  "{card}"),
            Event("reshuffled", ("deck", "cards"), line="turn {turn}: deck {deck}'s discard "
                  "pile shuffled into it ({cards} cards)"),
            Event("dealt", ("cards", "kept"), line="turn {turn}: the Computer is dealt "
                  "{cards} cards face up ({kept} kept)")),
    end_reasons=END_REASONS, undecided_ends=("cap", "no gem"), tallies=TALLIES,
    record=RECORD + CARD_RECORD,
    automa="the Computer",
    automa_settings=("computer_hand", "computer_gem", "computer_supers", "computer_repeats"),
    hidden=(Hidden("hand", "hand_n", private=True), Hidden("deck0", "deck0_n"),
            Hidden("deck1", "deck1_n"), Hidden("deck2", "deck2_n"),
            Hidden("deck3", "deck3_n")),
    forward="balance.games.gem_runner.forward_nb",
    view="balance.games.gem_runner.view:RunnerView",
    invariants=("a card made or lost (decks, discards, hands, the Computer's, Stacks, Pool "
                "and Challenge against the game's cards)",
                "a card beating what it does not beat",
                "a Chain on a Gem without its Bug",
                "a Challenge laid against its rules (an edge, the Hazards its Chains allow, "
                "its Gem not last)",
                "a seat's score is not its Stack"),
    # cards_drawn, cards_played: each seat's cards drawn and played (codes.CARD_RECORD), one
    # bit per name of its deck's file (decks.card_names), a list a game, seat 1 first.
    columns={"first_won": "bool", **{name: "int16" for name in RECORD},
             "cards_drawn": "list<int64>", "cards_played": "list<int64>"},
    values="balance.games.gem_runner.game:values",
    header="gem_runner, seed {seed}: {players}; {play}, {decks} decks ({hero1} first), "
           "first to {target} Gems, hands of {hand}, Bugs {bug_rule}",
    closing="end: {reason} after {turns} turns; {outcome}; Gems {scores}; runs {runs}, won "
            "{runs_won}, Pool Gems {pool_taken}, Gems on Hazards {gems_on_hazards}",
    goldens=(Golden("2p-random-seed1", ("random", "random"), 1, {"play": "head_to_head"}),
             Golden("2p-runner-seed3", ("runner", "runner"), 3, {"play": "head_to_head"}),
             Golden("solo-computer-2decks-seed5", ("runner",), 5,
                    {"decks": 2, "hero2": "data_dog"}),
             Golden("pair-computer-stronger-seed7", ("runner", "random"), 7,
                    {"decks": 3, "stronger_beats": True}),
             Golden("4p-2decks-bugs-off-seed9", ("runner", "random") * 2, 9,
                    {"play": "head_to_head", "decks": 2, "bug_rule": "off"})),
    bench_title="2 runners against the Computer, one deck",
    bench_experiment={"players": 2, "heuristic": "runner"},
    describe="first to {target} Gems, hands of {hand}, {play}")

GAME = KIT.declare(
    title="Gem Runner", version=VERSION, player_counts=tuple(range(1, 9)), cooperative=False,
    measures=(Measure("first", "First player's wins", "rate", "first_won",
                      "the share of games seat 1 won"),
              Measure("turns", "Length", "mean", "turns", "turns, every run counted"),
              Measure("pool_gems", "Pool Gems collected", "mean", "pool_gems",
                      "Gems won from the Pool a game", unit="Gems"),
              Measure("hazards", "Hazards laid", "mean", "hazards",
                      "Hazards laid in Challenges a game", unit="Hazards"),
              Measure("computer_gems", "The Computer's Gems", "mean", "computer_gems",
                      "Gems in the Computer's Stack at the end", unit="Gems"),
              Measure("won", "Wins against the Computer", "rate", "winner",
                      "the share of games the seats won against the Computer (tune: won=50%)",
                      outcome="balance.games.gem_runner.goals:won")),
    default_player="runner", report="reports.gem_runner.report:REPORT",
    ablations=ABLATIONS, variants="balance.games.gem_runner.experiment:variants",
    length_unit="turns", score_unit="Gems",
    # The modules of the rules: with this declaration, they import no player but through the
    # generated dispatch (the layer contracts, tests/layers.py).
    rule_modules=("rules_nb", "rules", "cards_nb", "plans_nb", "decks", "codes"),
    # Its cards and heroes: no neutral module may write one (tests/test_neutral.py).
    words=("hazard", "hazards"))
