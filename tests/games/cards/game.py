"""A card race against the Computer, written on the engine kit (balance/kit/) to prove the
contract for the next games: an automa (the Computer, whose play the rules fix), per-seat
tallies (cards played by colour, scored by majority), hidden information (the hands, the
deck, which its search player redraws through the kit's forward model) and 1 to 8 seats.
tests/conftest.py registers it for the whole suite."""

from __future__ import annotations

from balance.contract.game import Measure, Setting
from balance.kit.declare import Event, Golden, Hidden, KitGame, OptionKind
from heuristics.knobs import Knob
from heuristics.player import Memory, Player, Roster
from heuristics.search import search_player
from tests.games.cards.rules_nb import COMPUTER, END_REASONS


def values(records, setup) -> dict:
    return {"computer": records.rec[:, COMPUTER]}


KIT = KitGame(
    name="cards", ref="tests.games.cards.game:KIT", rules="tests.games.cards.rules_nb",
    loop="tests.games.cards.loop_nb", players="tests.games.cards.game:PLAYERS",
    settings=(Setting("hand", int, "cards in each hand", 1, 5, label="hand size"),
              Setting("rounds", int, "rounds played", 1, 30, label="rounds"),
              Setting("majority", int, "points for the most cards of a colour", 0, 20,
                      label="majority bonus"),
              Setting("computer_pace", int, "points the Computer adds to each card it takes",
                      0, 10, label="the Computer's pace"),
              Setting("computer_takes", str, "the Computer's rule: the highest card of the "
                      "market or the lowest", choices=("highest", "lowest"),
                      label="the Computer takes",
                      values=(("highest", "the Computer takes the highest card"),
                              ("lowest", "the Computer takes the lowest card")))),
    defaults={"hand": 3, "rounds": 6, "majority": 3, "computer_pace": 1,
              "computer_takes": "highest"},
    decisions=("plays", "takes"),
    options=(OptionKind("play", "colour {a}"), OptionKind("take", "colour {a}")),
    events=(Event("played", ("colour", "worth", "score"), line="turn {turn}, seat {seat}: "
                  "plays colour {colour} for {worth}, score {score}"),
            Event("took", ("worth", "total"), line="turn {turn}, the Computer takes {worth}, "
                  "score {total}"),
            Event("majority", ("colour", "holder", "points"), line="colour {colour}: seat "
                  "{holder} has the most, +{points}")),
    end_reasons=END_REASONS, tallies=("red", "green", "blue"), record=("computer", "taken"),
    automa="the Computer", automa_settings=("computer_pace", "computer_takes"),
    hidden=(Hidden("hand", "hand_n", private=True), Hidden("deck", "deck_n")),
    forward="tests.games.cards.forward_nb", searchable=("plays",),
    invariants=("cards made or lost",),
    columns={"computer": "int16"}, values="tests.games.cards.game:values",
    header="cards, seed {seed}: {players}; {rounds} rounds, hands of {hand}, the Computer "
           "takes the {computer_takes} card",
    closing="end: {reason} after {turns} turns; {outcome}; scores {scores}, the Computer "
            "{computer}; red {red}, green {green}, blue {blue}",
    goldens=(Golden("2p-random-seed2", ("random", "random"), 2),
             Golden("solo-collector-seed5", ("collector",), 5, {"computer_pace": 0})),
    bench_title="4 collectors against the Computer",
    bench_experiment={"players": 4, "heuristic": "collector"},
    describe="{rounds} rounds against the Computer")

COLLECTOR = Player("collector", "plays its card worth most, chasing the colours it has played",
                   choose="tests.games.cards.players:collector_choose_nb", args=("st", "w"),
                   knobs=(Knob("chase", 1.0, 0.0, 10.0,
                               "points a played card of its colour adds",
                               label="points per card of a colour played"),),
                   title="Collector")

# The search player over the kit's forward model of the game (KitGame.forward): its rollouts
# see the other hands and the deck only as redrawn from its seat's view.
PLAYERS = Roster((
    Player("random", "plays a card of its hand at random",
           choose="heuristics.random_player:random_choose_nb", args=("rng", "n"),
           title="Random"),
    COLLECTOR,
    search_player("search", "determinized flat Monte Carlo over its plays, the other hands "
                  "and the deck redrawn from its seat's view, with collector rollouts",
                  COLLECTOR, "tests.games.cards.game:KIT.forward_hooks",
                  "tests.games.cards.game:PLAYERS", title="Search"),
    Player("scripted", "replays a list of choices, then takes the first option (tests)",
           choose="heuristics.scripted:scripted_choose_nb", args=("mem",),
           memory=Memory("heuristics.scripted:new_script", "heuristics.scripted:reset_script_nb"),
           remembers="the list and its place in it", title="Scripted"),
), "tests.games.cards.dispatch_nb", "tests.games.cards.rollout_nb")

GAME = KIT.declare(
    title="Cards against the Computer", version="1", player_counts=tuple(range(1, 9)),
    cooperative=False,
    measures=(Measure("computer", "The Computer's score", "mean", "computer"),
              Measure("turns", "Length", "mean", "turns")),
    default_player="collector")
