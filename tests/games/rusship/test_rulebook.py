"""Every situation the rulebook (../shared/rules/rusship.txt) describes, as a scenario on the
compiled engine: a hand-built track, rigged dice, scripted choices (scenario.py)."""

import numpy as np
import pytest

from balance.games.rusship.engine.state import (
    D_DICE,
    D_MOVE,
    D_PLUS,
    D_POWER,
    D_REROLL,
    END_DESTROYED,
    EV_ATTACK,
    EV_MOVE,
    EV_POWER,
    EV_REROLL,
    EV_START,
    P_ONE_DIE,
    POWER_NAMES,
    S_FIRST_HIT,
    S_STARTER,
)
from balance.games.rusship.play import play_traced, prepare
from balance.kit.state import END, ENDED, EVENTS, WINNER
from tests.games.rusship.scenario import (
    ALIEN,
    EV_PICK,
    HUMANITY,
    board,
    decisions,
    move,
    options,
    roll,
    setup,
    supply,
    turn,
    where,
)


@pytest.fixture(scope="module")
def s():
    return setup()


# HOW TO PLAY: "a player rolls 2 dice ... must perform two moves corresponding to the values
# obtained. He can move one token twice or two tokens once." (the example: a 6 and a 3)

def test_a_6_and_a_3_move_one_token_twice(s):
    st = board(s, ([2], []))
    roll(st, 6, 3)
    assert options(st, s, HUMANITY) == [(6, "enter", -1, 7), (6, "forward", 2, 8),
                                        (3, "enter", -1, 4), (3, "forward", 2, 5)]
    turn(st, s, HUMANITY, (6, 3), [1, 1])  # 2>8 with the 6, then 8>11 with the 3
    assert where(st, HUMANITY) == [11] and supply(st, HUMANITY) == 4


def test_a_6_and_a_3_move_two_tokens_once(s):
    st = board(s, ([2, 4], []))
    events = turn(st, s, HUMANITY, (6, 3), [1, 1])  # 2>8 with the 6, then 4>7 with the 3
    moves = [(a, b, c, d) for code, a, b, c, d in events if code == EV_MOVE]
    assert moves == [(1, 2, 8, 6), (1, 4, 7, 3)]
    assert where(st, HUMANITY) == [7, 8]


# "Ship tokens come in play on the space next to the Mothership token" (entry counted: the
# die counts from the mothership's space, so a 1 is the space next to it).

def test_tokens_enter_counting_from_their_mothership(s):
    st = board(s)
    roll(st, 1, 4)
    assert [o for o in options(st, s, HUMANITY) if o[1] == "enter"] == [
        (1, "enter", -1, 2), (4, "enter", -1, 5)]
    assert [o for o in options(st, s, ALIEN) if o[1] == "enter"] == [
        (1, "enter", -1, 11), (4, "enter", -1, 8)]
    st = board(s, ms=(3, 9))  # motherships that have moved: entry follows them
    roll(st, 1, 4)
    assert [o[3] for o in options(st, s, HUMANITY) if o[1] == "enter"] == [4, 7]
    assert [o[3] for o in options(st, s, ALIEN) if o[1] == "enter"] == [8, 5]


# "tokens can move over tokens (allied or not). Two allied tokens cannot be on the same
# space."

def test_a_token_jumps_over_tokens_of_both_sides(s):
    st = board(s, ([2, 3], [4]))
    roll(st, 3)
    move(st, s, HUMANITY, 3, "forward", 2, 5)
    assert where(st, HUMANITY) == [3, 5] and where(st, ALIEN) == [4]
    assert st.captures[HUMANITY] == 0


def test_two_allied_tokens_never_share_a_space(s):
    st = board(s, ([2, 5], [8]))
    roll(st, 3, 4)
    offered = options(st, s, HUMANITY)
    assert (3, "forward", 2, 5) not in offered  # onto its ally
    assert (4, "enter", -1, 5) not in offered  # entering onto its ally
    assert (3, "forward", 5, 8) in offered  # onto an enemy: a capture
    st = board(s, ([], [7, 4]))
    roll(st, 3)
    assert (3, "forward", 7, 4) not in options(st, s, ALIEN)


# "When a token ends its move on a space occupied by an enemy token, this last is captured and
# is returned to the supply of its owner."

def test_a_capture_sends_the_token_back_to_its_owners_supply(s):
    st = board(s, ([3], [7, 10]))
    roll(st, 4)
    move(st, s, HUMANITY, 4, "forward", 3, 7)
    assert where(st, ALIEN) == [10] and supply(st, ALIEN) == 4
    assert st.occ[ALIEN, 7] == 0 and st.occ[HUMANITY, 7] == 1
    assert st.captures[HUMANITY] == 1
    st = board(s, ([3], [7]))  # the Alien Empire captures the same way, moving down
    roll(st, 4)
    move(st, s, ALIEN, 4, "forward", 7, 3)
    assert where(st, HUMANITY) == [] and supply(st, HUMANITY) == 5 and where(st, ALIEN) == [3]


# "The Mothership and the Alien Vortex cannot be captured, even if tokens can move above
# them."

def test_motherships_are_never_captured_and_tokens_pass_over_them(s):
    st = board(s, ([4], []), ms=(1, 6))
    roll(st, 5, 2)
    move(st, s, HUMANITY, 5, "forward", 4, 9)  # over the Alien Vortex on 6
    assert st.ms[ALIEN] == 6 and where(st, HUMANITY) == [9]
    st = board(s, ([4], []), ms=(1, 6))
    roll(st, 2)
    move(st, s, HUMANITY, 2, "forward", 4, 6)  # onto it: it stays, nothing is captured
    assert st.ms[ALIEN] == 6 and where(st, HUMANITY) == [6]
    assert st.captures[HUMANITY] == 0


# "if a player rolls 1, he can choose to move his Mothership or Alien Vortex 1 space."

def test_a_rolled_1_may_move_the_mothership_one_space(s):
    st = board(s)
    roll(st, 1, 4)
    offered = options(st, s, HUMANITY)
    assert (1, "mothership", 1, 2) in offered
    assert not [o for o in offered if o[1] == "mothership" and o[0] == 4]
    move(st, s, HUMANITY, 1, "mothership", 1, 2)
    assert st.ms[HUMANITY] == 2 and st.ms_moves[HUMANITY] == 1
    roll(st, 1)
    move(st, s, ALIEN, 1, "mothership", 12, 11)
    assert st.ms[ALIEN] == 11
    st = board(s)
    roll(st, 2, 4)
    assert not [o for o in options(st, s, HUMANITY) if o[1] == "mothership"]
    st = board(s)
    roll(st, 1, 4, plus=1)  # the face counts: a 1 made a 2 by the +1 power still may
    assert (2, "mothership", 1, 2) in options(st, s, HUMANITY)


# "To attack the enemy planet, one of your tokens must end its move on the planet (or go
# further). One attacking token is returned to the supply of its owner. The attacked player
# must choose one available Power token."

@pytest.mark.parametrize("die", [3, 5])  # exactly on the planet (13), or past it
def test_an_attack_ends_on_or_passes_the_planet_and_the_token_goes_home(s, die):
    st = board(s, ([10, 4], []))
    roll(st, die)
    move(st, s, HUMANITY, die, "forward", 10, 10 + die)
    assert where(st, HUMANITY) == [4] and supply(st, HUMANITY) == 4
    assert list(st.hits) == [0, 1] and st.owed[ALIEN] == 1 and st.owed[HUMANITY] == 0
    assert st.sc[S_FIRST_HIT] == ALIEN and not st.kit.sc[ENDED]


def test_the_alien_empire_attacks_earth_moving_down(s):
    st = board(s, ([], [2]))
    roll(st, 2)
    move(st, s, ALIEN, 2, "forward", 2, 0)
    assert list(st.hits) == [1, 0] and st.owed[HUMANITY] == 1 and supply(st, ALIEN) == 5


def test_the_attacked_side_chooses_one_of_the_powers_left(s):
    st = board(s, ([10], []), powers={"reroll": HUMANITY})
    roll(st, 4)
    move(st, s, HUMANITY, 4, "forward", 10, 14)
    # A power still owed (the move made alone here, outside a turn) opens the Alien Empire's
    # next turn: its choice, among the four powers left.
    events = turn(st, s, ALIEN, (2, 5), [1, 0])  # one_die (index 1 of the four), two dice
    kind, opts = decisions(events)[0]
    assert kind == D_POWER
    assert [POWER_NAMES[o[1]] for o in opts] == ["plus_one", "one_die", "move_back", "share"]
    assert (EV_POWER, P_ONE_DIE, 0, 0, 0) in events
    assert st.power[P_ONE_DIE] == ALIEN and st.owed[ALIEN] == 0
    assert decisions(events)[1][0] == D_DICE  # the power acts from this very turn


# ... and it chooses at the attack: "One attacking token is returned to the supply of its
# owner. The attacked player must choose one available Power token." The attacker plays its
# other die knowing the power (power_choice = "immediate").

def test_the_attacked_side_chooses_before_the_attacker_plays_its_other_die(s):
    st = board(s, ([10], []))
    # Humanity rolls 5 and 2: 10>15 attacks with the 5; the Alien Empire takes move back
    # (index 3 of the five); then Humanity enters with the 2.
    events = turn(st, s, HUMANITY, (5, 2), [1, 3, 0])
    assert [kind for kind, _ in decisions(events)] == [D_MOVE, D_POWER, D_MOVE]
    codes = [e[0] for e in events]
    moves = [i for i, code in enumerate(codes) if code == EV_MOVE]
    assert moves[0] < codes.index(EV_ATTACK) < codes.index(EV_POWER) < moves[1]
    assert st.power[POWER_NAMES.index("move_back")] == ALIEN and st.owed[ALIEN] == 0
    chooser = [int(r[1]) for r in st.kit.ev[: st.kit.sc[EVENTS]] if r[2] in (EV_POWER, EV_PICK)]
    assert chooser == [HUMANITY, ALIEN, ALIEN, HUMANITY]  # the events name who chose
    assert where(st, HUMANITY) == [3]


# "The player must perform two moves corresponding to the values obtained": a first move
# after which the other die has no move is not offered when another order plays both
# (both_dice; backgammon's rule).

def test_a_first_move_that_strands_the_other_die_is_not_offered(s):
    # Humanity rolls 1 and 2 with its mothership on 3 and ships on 6, 8 and 10; the Alien
    # pair on 12 (share) stops 10>12. The 2 can only enter on 5. After the mothership's
    # step 3>4, it could only enter on 6, a ship's space: the 2 would be lost. The step
    # back, 3>2, leaves it the entry on 4, so it stays.
    st = board(s, ([6, 8, 10], [12, 12]), ms=(3, 12), powers={"share": ALIEN})
    roll(st, 1, 2)
    assert options(st, s, HUMANITY) == [
        (1, "enter", -1, 4), (1, "forward", 6, 7), (1, "forward", 8, 9),
        (1, "forward", 10, 11), (1, "mothership", 3, 2), (2, "enter", -1, 5)]
    move(st, s, HUMANITY, 2, "enter", -1, 5)  # the 2 first; now the step is the 1's to take
    assert (1, "mothership", 3, 4) in options(st, s, HUMANITY)


def test_a_winning_move_is_offered_though_it_strands_the_other_die():
    # Two ships a side; Humanity's on 10, the other in supply. 10>13 wins with the 3; the
    # 2 would then have no move (entering on 3, the Alien pair), while 10>12 first plays
    # both. The game ends on the win: nothing is left to play the 2 for.
    s = setup({"tokens": 2})
    st = board(s, ([10], [3, 3]), hits=(0, 2), powers={"share": ALIEN})
    roll(st, 3, 2)
    assert options(st, s, HUMANITY) == [(3, "enter", -1, 4), (3, "forward", 10, 13),
                                        (2, "forward", 10, 12)]


def test_when_no_order_plays_both_dice_every_first_move_stays(s):
    # Alien pairs on 9 and 10 (share) stop Humanity's entries from its mothership on 7 and
    # the ship on 5 after either die: 5>7 then 7>10, or 5>8 then 8>10.
    st = board(s, ([5], [9, 9, 10, 10]), ms=(7, 12), powers={"share": ALIEN})
    roll(st, 2, 3)
    assert options(st, s, HUMANITY) == [(2, "forward", 5, 7), (3, "forward", 5, 8)]


# The five powers.

def test_reroll_one_die(s):
    st = board(s, ([2], []), powers={"reroll": HUMANITY})
    events = turn(st, s, HUMANITY, (2, 5, 6), [2])  # reroll die 2: the 5 becomes a 6
    kind, opts = decisions(events)[0]
    assert kind == D_REROLL and [o[1] for o in opts] == [-1, 0, 1]  # keep, die 1, die 2
    assert (EV_REROLL, 1, 6, 0, 0) in events
    assert list(st.die) == [2, 6]
    st = board(s, ([2], []), powers={"reroll": HUMANITY})
    events = turn(st, s, HUMANITY, (3, 3), [0])  # two equal dice: one die to reroll
    assert [o[1] for o in decisions(events)[0][1]] == [-1, 0]
    st = board(s, ([2], []), powers={"reroll": ALIEN})  # the other side's power: no reroll
    events = turn(st, s, HUMANITY, (2, 5), [])
    assert {k for k, _ in decisions(events)} == {D_MOVE}


def test_plus_one_to_both_dice(s):
    st = board(s, ([2], []), powers={"plus_one": HUMANITY})
    events = turn(st, s, HUMANITY, (2, 5), [0])  # take the +1
    assert decisions(events)[0][0] == D_PLUS and list(st.die) == [3, 6]
    moves = [(a, b, c, d) for code, a, b, c, d in events if code == EV_MOVE]
    assert [m[3] for m in moves] == [3, 6]
    st = board(s, ([2], []), powers={"plus_one": HUMANITY})
    turn(st, s, HUMANITY, (2, 5), [1])  # decline it
    assert list(st.die) == [2, 5]


def test_one_die_only_captures_every_token_jumped_over(s):
    st = board(s, ([2], [3, 5]), powers={"one_die": HUMANITY})
    # One die (index 1), a 4; its moves: enter 5 (index 0), 2>6 (index 1).
    events = turn(st, s, HUMANITY, (4,), [1, 1])
    kind, opts = decisions(events)[0]
    assert kind == D_DICE and [o[1] for o in opts] == [2, 1]  # two dice, or one
    assert where(st, HUMANITY) == [6] and where(st, ALIEN) == []
    assert st.captures[HUMANITY] == 2 and st.die[1] == 0
    st = board(s, ([2], [3, 5]), powers={"one_die": HUMANITY})
    turn(st, s, HUMANITY, (4, 1), [0, 1])  # two dice: a plain move jumps, captures nothing
    assert where(st, ALIEN) == [3, 5]


def test_one_die_jump_passes_a_protected_pair(s):
    st = board(s, ([2], [4, 4, 5]), powers={"one_die": HUMANITY, "share": ALIEN})
    turn(st, s, HUMANITY, (4,), [1, 1])
    assert where(st, ALIEN) == [4, 4] and where(st, HUMANITY) == [6]


def test_move_back(s):
    st = board(s, ([6], [4]), powers={"move_back": HUMANITY})
    roll(st, 2)
    assert (2, "back", 6, 4) in options(st, s, HUMANITY)
    move(st, s, HUMANITY, 2, "back", 6, 4)  # and it captures where it ends
    assert where(st, HUMANITY) == [4] and where(st, ALIEN) == []
    st = board(s, ([2], []), powers={"move_back": HUMANITY})
    roll(st, 3)
    assert not [o for o in options(st, s, HUMANITY) if o[1] == "back"]  # not off the track
    st = board(s, ([6], [4]))
    roll(st, 2)
    assert not [o for o in options(st, s, HUMANITY) if o[1] == "back"]  # without the power
    st = board(s, ([], [5]), powers={"move_back": ALIEN})
    roll(st, 3)
    assert (3, "back", 5, 8) in options(st, s, ALIEN)


def test_share_two_tokens_on_one_space_that_cannot_be_captured(s):
    st = board(s, ([2, 5], [8]), powers={"share": HUMANITY})
    roll(st, 3, 6)
    assert (3, "forward", 2, 5) in options(st, s, HUMANITY)
    move(st, s, HUMANITY, 3, "forward", 2, 5)
    assert st.occ[HUMANITY, 5] == 2
    roll(st, 3, 3)
    assert (3, "forward", 8, 5) not in options(st, s, ALIEN)  # the pair cannot be captured
    st.occ[HUMANITY, 5] = 1  # a single token of the holder is captured as any other
    st.pos[HUMANITY, 0] = 9
    st.occ[HUMANITY, 9] = 1
    roll(st, 3)
    move(st, s, ALIEN, 3, "forward", 8, 5)
    assert where(st, HUMANITY) == [9]
    st = board(s, ([2, 5, 5], []), powers={"share": HUMANITY})
    roll(st, 1)
    assert (1, "forward", 5, 6) in options(st, s, HUMANITY)
    roll(st, 3)
    assert (3, "forward", 2, 5) not in options(st, s, HUMANITY)  # never three


# VICTORY: "The game ends as soon as a planet has been attacked three times."

def test_the_third_attack_ends_the_game_at_once(s):
    st = board(s, ([10, 4], []), hits=(0, 2),
               powers={"reroll": ALIEN, "share": ALIEN})
    events = turn(st, s, HUMANITY, (3, 4), [0])  # 10>13: the third attack; the 4 is not played
    assert (EV_ATTACK, ALIEN, 3, 0, 0) in events
    assert [e for e in events if e[0] == EV_MOVE] == [(EV_MOVE, 1, 10, 13, 3)]
    assert st.kit.sc[ENDED] and st.kit.sc[WINNER] == HUMANITY and st.kit.sc[END] == END_DESTROYED
    assert st.owed[ALIEN] == 0  # no power for the attack that destroys


def test_a_whole_game_ends_on_the_third_attack():
    s = prepare(None, ("random", "random"))
    for seed in range(20):
        st, _ = play_traced(s, seed)
        loser = 1 - st.kit.sc[WINNER]
        assert st.hits[loser] == 3 and st.hits[1 - loser] < 3
        assert sum(st.power == loser) == 2  # a power for each attack but the last


# SETUP: "each player rolls one die. The player with the highest score plays first." Ties roll
# again.

def test_the_roll_off_rolls_ties_again_and_the_higher_die_starts():
    s = prepare(None, ("random", "random"))
    ties = 0
    for seed in range(60):
        st, ev = play_traced(s, seed)
        offs = [tuple(r[3:6]) for r in ev if r[2] == EV_START]
        *tied, (first, a, b) = offs
        assert all(x == -1 and y == z for x, y, z in tied)
        assert a != b and first == (0 if a > b else 1) == st.sc[S_STARTER]
        ties += len(tied)
    assert ties > 0


def test_the_starter_is_either_side_about_equally():
    s = prepare(None, ("random", "random"))
    starters = [play_traced(s, seed)[0].sc[S_STARTER] for seed in range(200)]
    assert 60 < np.sum(starters) < 140
