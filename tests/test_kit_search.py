"""The search player over the kit's forward model (KitGame.forward, balance/kit/forward.py), on
the card race against the Computer (tests/games/cards/, hidden hands and a face-down deck):

- the kit's determinization deals a world that depends on what the searching seat sees and
  on the search's stream alone: the same world from the true state and from any state whose
  unseen parts were redrawn, everything the seat sees kept, the game's stream drawn anew;
- the search's rollouts play on such worlds: rollouts of one option differ from world to
  world, where a search that keeps the true cards (clairvoyant) ends every one alike;
- the search cannot cheat: its choice does not change when what its seat cannot see is
  redrawn (the contract's test, tests/test_contract_next.py, with knobs that make every
  choice turn on the rollouts), and a clairvoyant search fails that test;
- it plays at least as well as its rollout player, paired on common seeds.

Each `assert_*` fails on a determinization or a player built to break it (the
`test_*_fails_on_*` cases)."""

from __future__ import annotations

import dataclasses
import importlib
from types import SimpleNamespace

import numpy as np
import pytest

from balance.contract import registry
from balance.contract.game import resolve
from balance.kit.forward import reseed_chance_nb
from balance.kit.play import play, prepare
from balance.kit.state import SEAT_WON, TIE
from balance.running.seeds import game_seeds
from heuristics.search import Search
from tests.test_contract_next import (
    _copied,
    _seen,
    _unseen_slots,
    assert_a_seats_choice_ignores_what_it_cannot_see,
)
from tests.test_contract_play import plain_loop

CARDS = resolve(registry.get("cards").kit)
FORWARD = importlib.import_module(CARDS.forward)
# Knobs that make every choice of the search turn on its rollouts: no margin over the
# rollout player's choice is asked for, so a search that read the hidden cards would show it.
TOUCHY = {"budget": 16, "confidence": 0.0}


def _at_decisions(kit, check, players=("random",) * 3, knobs=None, games: int = 4):
    """check(state, tables, rules, seats, decision, n, seat) at every seat's decision of a few
    games, before the seat's player decides."""
    loop = importlib.import_module(kit.loop)

    def decide(state, tables, rules, pp, decision, n, seat):
        check(state, tables, rules, pp, decision, n, seat)
        return loop.decide_nb(state, tables, rules, pp, decision, n, seat)

    setup = prepare(kit, {}, players, knobs)
    setup.loop = plain_loop(kit, decide_nb=decide)
    play(setup, game_seeds(17, 0, games))


# -- the determinization -------------------------------------------------------------------------

def _without_chance(kit, state, seat):
    """What `seat` sees, but the game's stream (which a determinization draws anew)."""
    world = _copied(state)
    world.kit.chance[:] = 0
    return _seen(kit, world, seat)


def assert_a_world_depends_on_what_the_seat_sees(kit, determinize=None):
    """At every decision: determinizing the state, and a copy whose unseen parts the kit
    redrew, with the same stream deals one world; it keeps what the seat sees and the unseen
    items, draws the game's stream anew and, in most decisions, moves the unseen items."""
    determinize = determinize or FORWARD.determinize_nb
    tally = {"asked": 0, "moved": 0}

    def check(state, tables, rules, pp, decision, n, seat):
        tally["asked"] += 1
        other = _copied(state)
        FORWARD.redraw_unseen_nb(other, tables, rules, seat,
                                 np.array([tally["asked"], 3, 5, 7], np.int64))
        worlds = []
        for start in (state, other):
            world = _copied(start)
            determinize(world, tables, rules, seat, np.array([11, 13, 17, 19], np.int64))
            worlds.append(world)
        seen, unseen = _seen(kit, state, seat)
        assert _without_chance(kit, worlds[0], seat) == _without_chance(kit, state, seat), \
            f"{kit.name}: determinizing changed what seat {seat + 1} sees"
        assert _seen(kit, worlds[0], seat)[1] == unseen, \
            f"{kit.name}: determinizing made or lost unseen items"
        assert (worlds[0].kit.chance != state.kit.chance).any(), \
            f"{kit.name}: determinizing kept the game's stream"
        assert _seen(kit, worlds[0], seat) == _seen(kit, worlds[1], seat) and all(
            (getattr(worlds[0], f) == getattr(worlds[1], f)).all()
            for f in _unseen_slots(kit, state, seat)), (
            f"{kit.name}: determinizing two states seat {seat + 1} cannot tell apart dealt "
            "two worlds: the world depends on where the unseen items lay")
        tally["moved"] += any((getattr(state, f)[m] != getattr(worlds[0], f)[m]).any()
                              for f, m in _unseen_slots(kit, state, seat).items())

    _at_decisions(kit, check)
    assert tally["moved"] > tally["asked"] // 2, (
        f"{kit.name}: determinizing moved nothing unseen in {tally['asked'] - tally['moved']} "
        f"of {tally['asked']} decisions")


def test_a_world_depends_on_what_the_seat_sees():
    assert_a_world_depends_on_what_the_seat_sees(CARDS)


def _reseed_only(state, tables, rules, seat, rng):
    """The determinization a game on the kit had before its hidden parts were declared to the
    search: the game's stream drawn anew, the cards left where they lie."""
    reseed_chance_nb(state.kit, rng)


def _shuffled_where_they_lie(state, tables, rules, seat, rng):
    """A fair redraw that does not sort first: the unseen items shuffled from where they
    lay, so the world still tells where that was."""
    reseed_chance_nb(state.kit, rng)
    masks = _unseen_slots(CARDS, state, seat)
    items = np.concatenate([getattr(state, f)[m] for f, m in masks.items()])
    items = items[np.random.default_rng(list(rng)).permutation(len(items))]
    for f, m in masks.items():
        getattr(state, f)[m] = items[: m.sum()]
        items = items[m.sum():]


def _other_seats_view(state, tables, rules, seat, rng):
    FORWARD.determinize_nb(state, tables, rules, (seat + 1) % rules.players, rng)


@pytest.mark.parametrize("broken, message", [
    (lambda *args: None, "kept the game's stream"),
    (_reseed_only, "dealt two worlds"),
    (_shuffled_where_they_lie, "dealt two worlds"),
    (_other_seats_view, "changed what seat"),
])
def test_a_world_fails_on_a_determinization_built_to_break_it(broken, message):
    with pytest.raises(AssertionError, match=message):
        assert_a_world_depends_on_what_the_seat_sees(CARDS, broken)


# -- the search's rollouts -----------------------------------------------------------------------

def _search(tables, rules, pp, state, clairvoyant: bool) -> Search:
    """A search for one decision, over seats `pp` (its knobs and stream)."""
    roster = CARDS.roster()
    return Search(SimpleNamespace(tables=tables, rules=rules, players=pp), state,
                  forward=CARDS.game.forward, roster=CARDS.players,
                  rollout=roster["collector"], clairvoyant=clairvoyant)


def assert_rollouts_play_on_redrawn_worlds(clairvoyant: bool = False):
    """Over the search's decisions, the rollouts of an option differ from world to world in
    one decision in ten or more (a game is won or lost, and the draws change that now and
    then): the other hands and the deck are redrawn for each. With the true cards kept,
    every rollout of an option ends alike (collector and the Computer draw on no stream, and
    the game's stream is spent on the first shuffle)."""
    tally = {"asked": 0, "varied": 0}

    def check(state, tables, rules, pp, decision, n, seat):
        values = []
        me = _search(tables, rules, _copied(pp), state, clairvoyant)
        kernel = me._search_nb

        def spy(*args):
            kernel(*args)
            values.append(args[9].copy())  # vals: each option's rollouts, world by world

        me._search_nb = spy
        me.turn_start(seat)
        me.choose(decision, n, seat)
        tally["asked"] += 1
        tally["varied"] += any((v != v[:, :1]).any() for v in values)

    _at_decisions(CARDS, check, ("search",) * 2, TOUCHY)
    assert tally["varied"] >= max(1, tally["asked"] // 10), (
        f"the rollouts of an option ended alike in {tally['asked'] - tally['varied']} of "
        f"{tally['asked']} decisions: they do not play on redrawn worlds")


def test_rollouts_play_on_redrawn_worlds():
    assert_rollouts_play_on_redrawn_worlds()


def test_rollouts_fail_on_a_search_that_keeps_the_true_cards():
    with pytest.raises(AssertionError, match="do not play on redrawn worlds"):
        assert_rollouts_play_on_redrawn_worlds(clairvoyant=True)


# -- it cannot cheat -----------------------------------------------------------------------------

def test_the_search_ignores_what_its_seat_cannot_see():
    """The contract's test with every choice turning on the rollouts."""
    assert_a_seats_choice_ignores_what_it_cannot_see(CARDS, players=["search"], knobs=TOUCHY)


def test_ignoring_fails_on_a_search_that_keeps_the_true_cards():
    def clairvoyant(state, tables, rules, pp, decision, n, seat):
        me = _search(tables, rules, pp, state, clairvoyant=True)
        me.turn_start(seat)
        return int(me.choose(decision, n, seat))

    with pytest.raises(AssertionError, match="its choice reads hidden information"):
        assert_a_seats_choice_ignores_what_it_cannot_see(CARDS, choose=clairvoyant,
                                                         players=["search"], knobs=TOUCHY)


# -- its strength --------------------------------------------------------------------------------

def _value(records, seat: int) -> np.ndarray:
    """Each game for `seat`: 1 won, a half tied, 0 lost (to a seat or to the Computer)."""
    won = (records.outcome == SEAT_WON) & (records.winner == seat)
    return np.where(won, 1.0, np.where(records.outcome == TIE, 0.5, 0.0))


def paired_lead(kit, player: str, rollout: str, seats: int, seeds, knobs=None):
    """The mean lead of `player` over `rollout` at one seat among `rollout` players, paired
    game by game on the same seeds, every seat taken in turn: (mean, standard error)."""
    leads = []
    for seat in range(seats):
        names = [rollout] * seats
        base = _value(play(prepare(kit, {}, names), seeds), seat)
        names[seat] = player
        leads.append(_value(play(prepare(kit, {}, names, knobs), seeds), seat) - base)
    d = np.concatenate(leads)
    return d.mean(), d.std(ddof=1) / np.sqrt(len(d))


# The most a player may trail its rollout player, at the interval's lower end, and still
# count as at least as strong: two points of a game in a hundred.
MARGIN = 0.02


def assert_at_least_as_strong(kit, player: str, rollout: str, knobs=None):
    """Over 300 seeds at each of 2 seats: the paired lead's lower end (two standard errors
    below the mean) is above -MARGIN."""
    mean, se = paired_lead(kit, player, rollout, 2, game_seeds(21, 0, 300), knobs)
    assert mean - 2 * se > -MARGIN, (
        f"{kit.name}: {player} leads {rollout} by {mean:+.3f} ± {2 * se:.3f} a game: weaker")


def test_the_search_is_at_least_as_strong_as_its_rollout_player():
    assert_at_least_as_strong(CARDS, "search", "collector", {"budget": 32})


def test_strength_fails_on_a_weaker_player():
    with pytest.raises(AssertionError, match="weaker"):
        assert_at_least_as_strong(CARDS, "random", "collector")


# -- the declaration ------------------------------------------------------------------------------

def test_a_game_with_hidden_parts_names_its_forward_module():
    with pytest.raises(ValueError, match="name it"):
        dataclasses.replace(CARDS, forward="", searchable=())
    with pytest.raises(ValueError, match=r"searchable \['bids'\]"):
        dataclasses.replace(CARDS, searchable=("bids",))
    assert CARDS.forward_hooks.searchable == (("plays", 0),)
    assert CARDS.game.forward == "tests.games.cards.game:KIT.forward_hooks"
