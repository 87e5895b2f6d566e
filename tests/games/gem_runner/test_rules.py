"""Gem Runner's rules, situation by situation, as the rulebook describes them: chaining, a Gem
beating a Hazard, a Gem beating the Gem, the Pool, the no-Gem procedure, Bugs and their Fix,
the Element circle, each of the Computer's rules, the end. Cards are the shipped decks' with
their sections rewritten where a situation needs them (scenario.set_card). The guide's
games/gem-runner.md states each reading."""

from __future__ import annotations

import pytest

from balance.games.gem_runner.codes import (
    BEAT,
    BOSS,
    BUG,
    BUG_FIX,
    BUGS_PLAYED,
    BUILD,
    CHAIN,
    CREATOR,
    DIG,
    DIG_CARD,
    DISCARD,
    FIX,
    GEM,
    HAND_GEM,
    HAZARD,
    KEEP,
    PHASE,
    PLAY_BUG,
    PLAY_FIX,
    POOL_GEM,
    PUT_CHAIN,
    PUT_HAZARD,
    RUN,
    STACK_GEM,
    STOP,
)
from balance.games.gem_runner.decks import action_names
from balance.games.gem_runner.rules_nb import computer_clear_nb, won_check_nb
from balance.kit.state import AUTOMA, ENDED, WINNER
from tests.games.gem_runner.scenario import (
    cards_of,
    computer_cards,
    computer_pick,
    game,
    hand,
    on_top,
    options,
    pick,
    pool,
    set_card,
    stack,
)

FIRE, EARTH, LIGHTNING, WATER, METAL = range(5)
PUNCH, KICK, JUMP, DODGE, SUPER = (action_names().index(a) for a in (
    "punch", "kick", "jump", "dodge", "super_run"))
HEAD = {"play": "head_to_head"}


def kinds(s, kind):
    return [o for o in options(s) if o[0] == kind]


def deck0(s, kind):
    return [c for c in cards_of(s, kind) if c < 56]


def blank(s, cards, play=(METAL, DODGE)):
    """Cards that beat nothing the test lays (their Play section set to one no Need names)."""
    for c in cards:
        set_card(s, c, play=play)


def challenge(s, seat, hazards, gem, runner_hand=()):
    """Seat lays `hazards` then `gem` (from its hand) with nothing discarded; the runner's
    hand is set first."""
    hand(s, (seat + 1) % s.rules.players, *runner_hand)
    hand(s, seat, *hazards, gem)
    for h in hazards:
        pick(s, PUT_CHAIN if s.tables.card[h, 0] == CHAIN else PUT_HAZARD, h)
    pick(s, HAND_GEM, gem)
    pick(s, KEEP)


def test_hazards_match_edge_to_edge_and_a_chain_frees_its_neighbours_and_adds_two():
    s = game(HEAD)
    a, b, c, d = deck0(s, HAZARD)[:4]
    chain = deck0(s, CHAIN)[0]
    set_card(s, a, vs=(FIRE, WATER))
    set_card(s, b, vs=(EARTH, EARTH))  # does not meet a's right edge
    set_card(s, c, vs=(WATER, METAL))  # does
    set_card(s, d, vs=(METAL, FIRE))
    hand(s, 0, a, b, c, d, chain)
    pick(s, PUT_HAZARD, a)
    assert [o[1] for o in kinds(s, PUT_HAZARD)] == [c]
    pick(s, PUT_HAZARD, c)
    assert kinds(s, PUT_HAZARD) == [], "two Hazards are all a Challenge holds without a Chain"
    pick(s, PUT_CHAIN, chain)
    assert sorted(o[1] for o in kinds(s, PUT_HAZARD)) == [b, d], "the Chain frees the edge"
    pick(s, PUT_HAZARD, b)
    set_card(s, d, vs=(EARTH, FIRE))
    pick(s, PUT_HAZARD, d)
    assert kinds(s, PUT_HAZARD) == [] and s.state.chal_n[0] == 5


def test_a_gem_card_beating_a_hazard_wins_itself_and_ends_the_run():
    s = game(HEAD)
    h1, h2 = deck0(s, HAZARD)[:2]
    gem, mine = deck0(s, GEM)[:2]
    set_card(s, h1, vs=(FIRE, FIRE), need=(EARTH, KICK))
    set_card(s, h2, vs=(FIRE, FIRE), need=(EARTH, KICK))
    set_card(s, gem, need=(EARTH, KICK))
    set_card(s, mine, play=(EARTH, JUMP))
    challenge(s, 0, (h1, h2), gem, runner_hand=(mine,))
    pick(s, BEAT, mine)
    st = s.state
    assert list(st.stack[1, :st.stack_n[1]]) == [mine]
    assert list(st.pool[:st.pool_n[0]]) == [gem], "the Challenge's Gem, not won, is pooled"
    assert st.kit.score[1] == 1


def test_a_gem_card_beating_the_gem_wins_both_and_the_pool():
    s = game(HEAD)
    gem, mine, old = deck0(s, GEM)[:3]
    set_card(s, gem, need=(WATER, PUNCH))
    set_card(s, mine, play=(WATER, JUMP))
    pool(s, old)
    challenge(s, 0, (), gem, runner_hand=(mine,))
    pick(s, BEAT, mine)
    st = s.state
    assert sorted(st.stack[1, :st.stack_n[1]]) == sorted([gem, mine, old])
    assert st.pool_n[0] == 0 and st.kit.tally[1, 2] == 1  # pool_taken


def test_a_gem_not_won_goes_to_the_pool_which_the_next_winner_collects_whole():
    s = game(HEAD)
    g1, g2 = deck0(s, GEM)[:2]
    plain = deck0(s, HAZARD)[5]
    set_card(s, g1, need=(FIRE, PUNCH))
    set_card(s, g2, need=(FIRE, PUNCH))
    blank(s, [plain])
    challenge(s, 0, (), g1, runner_hand=(plain,))
    assert s.state.pool_n[0] == 1, "no card beats it: the runner stops without a choice"
    hand(s, 0, plain)
    winner = deck0(s, HAZARD)[6]
    set_card(s, winner, play=(FIRE, KICK))
    pick(s, KEEP)  # seat 1's discard after its run; it now builds for seat 0
    hand(s, 0, winner)
    hand(s, 1, g2)
    pick(s, HAND_GEM, g2)
    assert [o[0] for o in options(s)][0] == KEEP
    pick(s, KEEP)
    pick(s, BEAT, winner)
    st = s.state
    assert sorted(st.stack[0, :st.stack_n[0]]) == sorted([g1, g2]) and st.pool_n[0] == 0


def test_without_a_gem_in_hand_the_pool_then_the_stack_then_digging():
    s = game(HEAD)
    hazards = deck0(s, HAZARD)[:3]
    g1, g2, g3 = deck0(s, GEM)[:3]
    hand(s, 0, *hazards)
    pool(s, g1)
    ends = [o[0] for o in options(s) if o[0] not in (PUT_HAZARD, PUT_CHAIN)]
    assert ends == [POOL_GEM]
    s.state.pool_n[0] = 0
    stack(s, 0, g2, g3)
    s.state.deck0_n[0] += 1  # g1 back on the deck's count (the Pool emptied by hand)
    s.state.deck0[s.state.deck0_n[0] - 1] = g1
    ends = [o for o in options(s) if o[0] not in (PUT_HAZARD, PUT_CHAIN)]
    assert ends == [(STACK_GEM, g3, 0, 0)], "the most recent Gem of the Stack"
    s2 = game(HEAD)
    hand(s2, 0, *hazards)
    other = deck0(s2, BOSS)[0]
    on_top(s2, 0, other, g1)
    assert {o[0] for o in options(s2)} == {PUT_HAZARD, DIG_CARD}
    pick(s2, DIG_CARD, hazards[0])
    assert [o[0] for o in options(s2)] == [DIG_CARD] * 3, "a non-Gem drawn: dig on"
    pick(s2, DIG_CARD, hazards[1])
    st = s2.state
    assert st.chal[st.chal_n[0] - 1] == g1 and st.ph[PHASE] != 1


def test_a_chain_beats_any_hazard_but_a_gem_only_under_a_bug_which_a_bug_fix_answers():
    s = game(HEAD)
    h = deck0(s, HAZARD)[0]
    gem = deck0(s, GEM)[0]
    c1, c2 = deck0(s, CHAIN)[:2]
    bug, fix = deck0(s, BUG)[0], deck0(s, BUG_FIX)[0]
    set_card(s, h, vs=(FIRE, FIRE), need=(EARTH, KICK))
    set_card(s, gem, need=(EARTH, KICK))
    hand(s, 0, fix)
    challenge(s, 0, (h,), gem, runner_hand=(c1, c2, bug))
    assert {o[1] for o in kinds(s, BEAT)} == {c1, c2}
    pick(s, BEAT, c1)
    assert kinds(s, BEAT) == [], "no Chain on a Gem without its Bug"
    pick(s, PLAY_BUG, bug)
    assert [o[0] for o in options(s)][0] == PLAY_FIX, "the creator may answer"
    pick(s, PLAY_FIX, fix)
    assert kinds(s, BEAT) == [] and kinds(s, PLAY_BUG) == []
    s2 = game(HEAD)
    set_card(s2, h, vs=(FIRE, FIRE), need=(EARTH, KICK))
    set_card(s2, gem, need=(EARTH, KICK))
    challenge(s2, 0, (h,), gem, runner_hand=(c1, c2, bug))
    pick(s2, BEAT, c1)
    pick(s2, PLAY_BUG, bug)
    pick(s2, BEAT, c2)
    assert gem in s2.state.stack[1, :s2.state.stack_n[1]]


def test_bugs_off_offer_no_bug():
    s = game({**HEAD, "bug_rule": "off"})
    gem = deck0(s, GEM)[0]
    c1, bug = deck0(s, CHAIN)[0], deck0(s, BUG)[0]
    set_card(s, gem, need=(EARTH, KICK))
    blank(s, [])
    hand(s, 0, gem)
    hand(s, 1, c1, bug)
    pick(s, HAND_GEM, gem)
    pick(s, KEEP)
    assert s.state.pool_n[0] == 1, "nothing to do at the Gem: stopped without a choice"


@pytest.mark.parametrize("stronger", [False, True])
def test_a_stronger_element_beats_only_with_the_switch(stronger):
    s = game({**HEAD, "stronger_beats": stronger})
    gem, = deck0(s, GEM)[:1]
    fire = deck0(s, HAZARD)[0]
    set_card(s, gem, need=(EARTH, KICK))
    set_card(s, fire, play=(FIRE, JUMP))  # Fire burns Earth
    hand(s, 1, fire)
    hand(s, 0, gem)
    pick(s, HAND_GEM, gem)
    pick(s, KEEP)
    assert (s.state.pool_n[0] == 0) == stronger
    if stronger:
        assert [o[1] for o in kinds(s, BEAT)] == [fire]


def test_the_first_stack_of_the_target_wins():
    s = game({**HEAD, "target": 2})
    gem, mine = deck0(s, GEM)[:2]
    set_card(s, gem, need=(WATER, PUNCH))
    set_card(s, mine, play=(WATER, JUMP))
    challenge(s, 0, (), gem, runner_hand=(mine,))
    pick(s, BEAT, mine)
    assert s.state.kit.sc[ENDED] == 1 and s.state.kit.sc[WINNER] == 1


# -- the Computer ----------------------------------------------------------------------------

def computer_game(rules=None):
    return game({"play": "computer", **(rules or {})}, players=1)


def test_the_computer_makes_the_longest_challenge():
    s = computer_game()
    a, b, c = deck0(s, HAZARD)[:3]
    gem = deck0(s, GEM)[0]
    set_card(s, c, vs=(METAL, LIGHTNING))
    set_card(s, a, vs=(FIRE, WATER))
    set_card(s, b, vs=(WATER, EARTH))
    computer_cards(s, c, a, b, gem)
    assert computer_pick(s)[:2] == (PUT_HAZARD, a), "a then b: two Hazards, c alone is one"


@pytest.mark.parametrize("rule,expected", [("pool_first", POOL_GEM), ("hand_first", HAND_GEM)])
def test_the_computer_takes_a_pool_gem_before_its_own(rule, expected):
    s = computer_game({"computer_gem": rule})
    g1, g2 = deck0(s, GEM)[:2]
    pool(s, g1)
    computer_cards(s, g2)
    assert computer_pick(s)[0] == expected


@pytest.mark.parametrize("rule", ["first", "ignored"])
def test_the_computer_prefers_super_needs(rule):
    s = computer_game({"computer_supers": rule})
    plain, boss = deck0(s, HAZARD)[0], deck0(s, BOSS)[0]
    gem = deck0(s, GEM)[0]
    set_card(s, plain, vs=(FIRE, FIRE), need=(WATER, KICK))
    set_card(s, boss, vs=(EARTH, EARTH), need=(WATER, SUPER))
    computer_cards(s, plain, boss, gem)
    assert computer_pick(s)[1] == (boss if rule == "first" else plain)


@pytest.mark.parametrize("rule", ["first", "ignored"])
def test_the_computer_prefers_needs_repeating_the_gems_element(rule):
    s = computer_game({"computer_repeats": rule})
    other, same = deck0(s, HAZARD)[:2]
    gem = deck0(s, GEM)[0]
    set_card(s, gem, need=(LIGHTNING, PUNCH))
    set_card(s, other, vs=(FIRE, FIRE), need=(WATER, KICK))
    set_card(s, same, vs=(EARTH, EARTH), need=(LIGHTNING, KICK))
    computer_cards(s, other, same, gem)
    assert computer_pick(s)[1] == (same if rule == "first" else other)


def computer_runs(s, hazards, gem, cards):
    """Seat 0 lays `hazards` and `gem` for the Computer (two decks: the Computer draws `cards`
    from its own)."""
    st = s.state
    while st.ph[PHASE] != BUILD or st.ph[CREATOR] != 0:  # until seat 0 builds
        if st.ph[CREATOR] == AUTOMA and st.ph[PHASE] in (BUILD, DIG):
            kind, card = computer_pick(s)[:2]
            pick(s, kind, card)
        else:  # seat 0 stops its run and keeps its cards
            pick(s, {RUN: STOP, DISCARD: KEEP}[int(st.ph[PHASE])])
    hand(s, 0, *hazards, gem)
    on_top(s, 1, *cards)
    for h in hazards:
        pick(s, PUT_HAZARD, h)
    pick(s, HAND_GEM, gem)
    pick(s, KEEP)


def test_the_computer_runs_for_the_final_gem_first():
    s = computer_game({"decks": 2})
    h = deck0(s, HAZARD)[0]
    gem = deck0(s, GEM)[0]
    theirs_gem = [c for c in cards_of(s, GEM) if c >= 56][0]
    x, y, z, w = [c for c in cards_of(s, HAZARD) if c >= 56][:4]
    set_card(s, h, vs=(FIRE, FIRE), need=(EARTH, KICK))
    set_card(s, gem, need=(WATER, PUNCH))
    set_card(s, theirs_gem, play=(EARTH, JUMP))  # beats h: would win itself only
    set_card(s, x, play=(EARTH, DODGE))  # beats h
    set_card(s, y, play=(WATER, DODGE))  # beats the Gem
    blank(s, [z, w])
    computer_runs(s, (h,), gem, (theirs_gem, x, y, z, w))
    assert computer_pick(s)[:2] == (BEAT, x)


def test_the_computer_uses_a_gem_card_on_the_earliest_hazard_when_the_gem_is_out_of_reach():
    s = computer_game({"decks": 2})
    h1, h2 = deck0(s, HAZARD)[:2]
    gem = deck0(s, GEM)[0]
    theirs_gem = [c for c in cards_of(s, GEM) if c >= 56][0]
    rest = [c for c in cards_of(s, HAZARD) if c >= 56][:4]
    set_card(s, h1, vs=(FIRE, FIRE), need=(EARTH, KICK))
    set_card(s, h2, vs=(FIRE, FIRE), need=(EARTH, KICK))
    set_card(s, gem, need=(WATER, PUNCH))
    set_card(s, theirs_gem, play=(EARTH, JUMP))
    blank(s, rest)
    computer_runs(s, (h1, h2), gem, (theirs_gem, *rest))
    assert computer_pick(s)[:2] == (BEAT, theirs_gem)
    pick(s, BEAT, theirs_gem)
    assert s.state.stack_n[1] == 1


def test_the_computer_answers_a_bug_with_its_bug_fix():
    s = computer_game()
    fix = deck0(s, BUG_FIX)[0]
    s.state.ph[PHASE] = FIX
    computer_cards(s, fix)
    assert computer_pick(s)[:2] == (PLAY_FIX, fix)


def test_a_stop_is_always_offered_while_running():
    s = game(HEAD)
    gem = deck0(s, GEM)[0]
    mine = deck0(s, GEM)[1]
    set_card(s, gem, need=(WATER, PUNCH))
    set_card(s, mine, play=(WATER, JUMP))
    challenge(s, 0, (), gem, runner_hand=(mine,))
    assert options(s)[-1][0] == STOP


def test_against_the_computer_a_teams_stacks_count_together():
    s = game({"play": "computer", "target": 3}, players=2)
    g1, g2, g3 = deck0(s, GEM)[:3]
    stack(s, 0, g1)
    stack(s, 1, g2)
    won_check_nb(s.state, s.rules, 1)
    assert s.state.kit.sc[ENDED] == 0, "two Gems of three"
    stack(s, 1, g3)
    won_check_nb(s.state, s.rules, 1)
    assert s.state.kit.sc[ENDED] == 1 and s.state.kit.sc[WINNER] == 1


def test_the_computer_keeps_its_bug_cards_and_drops_the_fix_once_every_bug_is_played():
    s = computer_game()
    h, gem = deck0(s, HAZARD)[0], deck0(s, GEM)[0]
    bug, fix = deck0(s, BUG)[0], deck0(s, BUG_FIX)[0]
    computer_cards(s, h, bug, gem, fix)
    computer_clear_nb(s.state, s.tables, s.rules)
    assert sorted(s.state.comp[:s.state.comp_n[0]]) == sorted([bug, fix])
    s.state.ph[BUGS_PLAYED] = s.rules.bugs * s.rules.decks
    computer_clear_nb(s.state, s.tables, s.rules)
    assert list(s.state.comp[:s.state.comp_n[0]]) == [bug]


def test_a_runner_that_played_a_bug_refills_only_after_its_build():
    s = game(HEAD)
    gem, spare = deck0(s, GEM)[:2]
    c1, bug = deck0(s, CHAIN)[0], deck0(s, BUG)[0]
    others = deck0(s, HAZARD)[:3]
    blank(s, others)
    set_card(s, gem, need=(EARTH, KICK))
    hand(s, 0, gem)
    hand(s, 1, c1, bug, spare, *others[:2])
    pick(s, HAND_GEM, gem)
    pick(s, KEEP)
    pick(s, PLAY_BUG, bug)
    pick(s, BEAT, c1)
    assert gem in s.state.stack[1, :s.state.stack_n[1]]
    pick(s, KEEP)  # after its run: no card drawn
    assert s.state.hand_n[1] == 3
    pick(s, HAND_GEM, spare)
    pick(s, KEEP)  # after its build, the turn's end: refilled
    assert s.state.hand_n[1] == s.rules.hand
