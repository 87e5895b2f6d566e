"""The runner player's Bug cards, situation by situation (heuristics/gem_runner/players.py): it
gives up a Bug or a Bug Fix at a discard, or digging, by its knobs `drop_bug` and `drop_fix`,
and runs toward a Gem that only a Chain under a Bug can win (`bug_way`) where the old runner
stopped. The decision is asked of runner_choose_nb on a hand-built situation, as the engine
asks it."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.gem_runner.codes import (
    BEAT,
    BUG,
    BUG_FIX,
    BUILD,
    CHAIN,
    CREATOR,
    DIG_CARD,
    DISCARD,
    GEM,
    HAND_GEM,
    HAZARD,
    KEEP,
    PHASE,
    PLAY_BUG,
    PUT_HAZARD,
    RUN,
    STOP,
    THROW,
)
from balance.games.gem_runner.decks import action_names
from balance.kit.state import AUTOMA
from balance.kit.state import KIND as DECISION
from heuristics.gem_runner.players import runner_choose_nb
from heuristics.gem_runner.registry import RUNNER
from tests.games.gem_runner.scenario import (
    cards_of,
    computer_cards,
    computer_pick,
    game,
    hand,
    options,
    pick,
    set_card,
)

FIRE, EARTH, LIGHTNING, WATER, METAL = range(5)
KICK, PUNCH, DODGE = (action_names().index(a) for a in ("kick", "punch", "dodge"))
HEAD = {"play": "head_to_head"}
OLD = {"bug_way": 0, "drop_bug": 0, "drop_fix": 0}  # the runner before its Bug rules


def knobs(**over) -> np.ndarray:
    values = {k.name: float(k.default) for k in RUNNER.knobs}
    values.update(over)
    return np.array([values[k.name] for k in RUNNER.knobs], np.float64)


def runner_pick(s, **over):
    """The runner's option at the decision at hand (not applied)."""
    opts = options(s)
    i = runner_choose_nb(int(s.state.kit.sc[DECISION]), s.state, s.tables, s.rules, knobs(**over))
    return opts[i][:2]


def deck0(s, kind):
    return [c for c in cards_of(s, kind) if c < 56]


def after_build(s, seat, *others):
    """Seat lays a Hazard and its Gem, holding `others` too: its discard is asked."""
    h, gem = deck0(s, HAZARD)[0], deck0(s, GEM)[0]
    hand(s, seat, h, gem, *others)
    pick(s, PUT_HAZARD, h)
    pick(s, HAND_GEM, gem)
    assert s.state.ph[PHASE] == DISCARD


def test_a_bug_fix_is_thrown_head_to_head_and_kept_by_the_old_runner():
    s = game(HEAD)
    fix = deck0(s, BUG_FIX)[0]
    after_build(s, 0, fix, *deck0(s, HAZARD)[1:3])
    assert runner_pick(s) == (THROW, fix)
    assert runner_pick(s, **OLD)[0] == KEEP


def test_drop_fix_1_keeps_a_bug_fix_while_a_bug_may_be_unseen():
    s = game(HEAD)
    fix, bug = deck0(s, BUG_FIX)[0], deck0(s, BUG)[0]
    after_build(s, 0, fix, *deck0(s, HAZARD)[1:3])
    assert runner_pick(s, drop_fix=1)[0] == KEEP, "the Bug in the deck: the next runner may hold it"
    s2 = game(HEAD)
    after_build(s2, 0, fix, bug, deck0(s2, HAZARD)[1])
    assert runner_pick(s2, drop_fix=1, drop_bug=0) == (THROW, fix), "the only Bug is its own"


def seat_discards_against_the_computer(s):
    """Play on (the Computer building by its rules, the seat stopping) to the seat's discard
    after its run."""
    st = s.state
    while st.ph[PHASE] != DISCARD:
        if st.ph[CREATOR] == AUTOMA and st.ph[PHASE] != RUN:
            pick(s, *computer_pick(s)[:2])
        else:
            pick(s, STOP)


def test_drop_fix_2_keeps_a_bug_fix_while_the_computer_holds_a_bug_face_up():
    s = game({"play": "computer"}, players=1)
    seat_discards_against_the_computer(s)
    fix, bug = deck0(s, BUG_FIX)[0], deck0(s, BUG)[0]
    hand(s, 0, fix, *deck0(s, HAZARD)[1:3])
    computer_cards(s)
    assert runner_pick(s, drop_fix=2) == (THROW, fix)
    computer_cards(s, bug)
    assert runner_pick(s, drop_fix=2)[0] == KEEP
    assert runner_pick(s) == (THROW, fix), "the default gives it up all the same"


def test_drop_bug_1_gives_up_a_bug_without_a_chain_or_against_the_computer_s_fix():
    s = game(HEAD)
    bug, chain = deck0(s, BUG)[0], deck0(s, CHAIN)[0]
    after_build(s, 0, bug, deck0(s, HAZARD)[1])
    assert runner_pick(s, drop_bug=1) == (THROW, bug)
    assert runner_pick(s, drop_bug=0)[0] == KEEP
    s2 = game(HEAD)
    after_build(s2, 0, bug, chain)
    assert runner_pick(s2, drop_bug=1)[0] == KEEP, "a Chain held: the Bug may win a Gem"
    assert runner_pick(s2) == (THROW, bug), "the default gives it up all the same"
    s3 = game({"play": "computer"}, players=1)
    seat_discards_against_the_computer(s3)
    hand(s3, 0, bug, chain)
    computer_cards(s3, deck0(s3, BUG_FIX)[0])
    assert runner_pick(s3, drop_bug=1) == (THROW, bug), "the Computer answers every Bug"


def test_digging_for_a_gem_gives_up_a_bug_card_before_a_hazard():
    s = game(HEAD)
    fix = deck0(s, BUG_FIX)[0]
    hazards = deck0(s, HAZARD)[:2]
    hand(s, 0, *hazards, fix)
    assert s.state.ph[PHASE] == BUILD and {o[0] for o in options(s)} >= {DIG_CARD}
    assert runner_pick(s) == (DIG_CARD, fix)
    assert runner_pick(s, **OLD) == (DIG_CARD, hazards[0])


@pytest.mark.parametrize("bug_way", [1, 0])
def test_the_runner_runs_to_a_gem_only_a_chain_under_a_bug_wins(bug_way):
    s = game(HEAD)
    h, plain = deck0(s, HAZARD)[:2]
    gem = deck0(s, GEM)[0]
    chain, bug = deck0(s, CHAIN)[0], deck0(s, BUG)[0]
    set_card(s, h, vs=(FIRE, FIRE), need=(EARTH, KICK))
    set_card(s, gem, need=(WATER, PUNCH))
    set_card(s, plain, play=(EARTH, DODGE))  # beats h, not the Gem
    hand(s, 1, plain, chain, bug)
    hand(s, 0, h, gem)
    pick(s, PUT_HAZARD, h)
    pick(s, HAND_GEM, gem)
    pick(s, KEEP)
    assert s.state.ph[PHASE] == RUN
    if not bug_way:
        assert runner_pick(s, bug_way=0)[0] == STOP, "the old runner sees no way to the Gem"
        return
    assert runner_pick(s) == (BEAT, plain), "the Chain kept for the Gem"
    pick(s, BEAT, plain)
    assert runner_pick(s) == (PLAY_BUG, bug)
    pick(s, PLAY_BUG, bug)
    assert runner_pick(s) == (BEAT, chain)
    pick(s, BEAT, chain)
    st = s.state
    assert gem in st.stack[1, :st.stack_n[1]]


def test_the_runner_runs_for_no_bug_way_when_the_computer_holds_a_bug_fix():
    s = game({"play": "computer"}, players=1)
    st = s.state
    while st.ph[PHASE] != RUN:  # the Computer builds its first Challenge, for seat 1
        pick(s, *computer_pick(s)[:2])
    n = int(st.chal_n[0])
    gem = int(st.chal[n - 1])
    hazards = [int(c) for c in st.chal[:n - 1] if s.tables.card[c, 0] != CHAIN]
    assert 1 <= len(hazards) <= 3
    plains = [c for c in deck0(s, HAZARD) if c not in hazards][:len(hazards)]
    for h, p in zip(hazards, plains, strict=True):
        set_card(s, h, need=(EARTH, KICK))
        set_card(s, p, play=(EARTH, DODGE))  # each beats a Hazard, none the Gem
    set_card(s, gem, need=(WATER, PUNCH))
    chain, bug, fix = deck0(s, CHAIN)[0], deck0(s, BUG)[0], deck0(s, BUG_FIX)[0]
    hand(s, 0, *plains, chain, bug)
    computer_cards(s)
    assert runner_pick(s)[0] == BEAT
    computer_cards(s, fix)
    assert runner_pick(s)[0] == STOP, "the Computer answers every Bug: no way to the Gem"
