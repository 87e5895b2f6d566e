"""Every rule setting of balance/games/rusship/rules.py changes what its help says, each against
the default on the same situation (scenario.py)."""

import pytest

from balance.games.rusship.engine.rules_nb import start_nb
from balance.games.rusship.engine.state import (
    D_MOVE,
    D_PLUS,
    D_POWER,
    END_TURN_CAP,
    EV_DICE,
    EV_LOST,
    EV_MOVE,
    EV_ROLL,
    POWER_NAMES,
)
from balance.games.rusship.play import play_traced, prepare
from balance.games.rusship.rules import DEFAULTS, SETTINGS
from balance.kernels.rng import seed_state
from balance.kit.state import END, ENDED, TURN_EVENT, TURNS, VIOLATION, WINNER
from tests.games.rusship.scenario import (
    ALIEN,
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


def test_every_setting_has_a_test_here():
    tested = {name[len("test_"):].split("__")[0] for name in globals()
              if name.startswith("test_")}
    assert {s.name for s in SETTINGS if not s.name.startswith("box_")} | {"box"} <= tested


def test_length__the_track_and_where_the_planet_is():
    for length in (12, 20):
        s = setup({"length": length})
        st = s.new_state()
        st.kit.chance[:] = seed_state(1)[:4]
        start_nb(st, s.tables, s.rules)  # the setup, up to the first decision
        assert list(st.ms) == [1, length]  # each mothership starts by its own planet
        st = board(s, ([length - 2], []))
        roll(st, 2, 3)
        assert (2, "forward", length - 2, length) in options(st, s, HUMANITY)
        move(st, s, HUMANITY, 3, "forward", length - 2, length + 1)
        assert st.hits[ALIEN] == 1


def test_hits_to_lose__attacks_that_destroy_a_planet():
    for hits, ends in ((3, False), (1, True)):
        s = setup({"hits_to_lose": hits})
        st = board(s, ([10], []))
        roll(st, 3)
        move(st, s, HUMANITY, 3, "forward", 10, 13)
        assert bool(st.kit.sc[ENDED]) == ends and st.owed[ALIEN] == (0 if ends else 1)


def test_tokens__a_side_enters_no_more_ships_than_it_has():
    for tokens in (1, 8):
        s = setup({"tokens": tokens})
        st = board(s)
        assert st.pos.shape == (2, tokens)
        roll(st, 3, 4)
        move(st, s, HUMANITY, 3, "enter", -1, 4)
        entries = [o for o in options(st, s, HUMANITY) if o[1] == "enter"]
        assert bool(entries) == (tokens > 1)  # one ship: on the track, none left to enter
    # Eight ships a side play whole games without breaking an invariant.
    st, _ = play_traced(prepare({"tokens": 8, "second_tokens": 7}, ("random", "random")), 4)
    assert st.kit.sc[VIOLATION] == 0 and st.kit.sc[ENDED]


def test_power_choice__next_turn_the_attacked_side_chooses_when_its_turn_begins():
    s = setup({"power_choice": "next_turn"})
    st = board(s, ([10], []))
    events = turn(st, s, HUMANITY, (5, 2), [1, 0])  # 10>15 attacks, then the 2 enters on 3
    assert [kind for kind, _ in decisions(events)] == [D_MOVE, D_MOVE]
    assert st.owed[ALIEN] == 1 and ALIEN not in st.power
    events = turn(st, s, ALIEN, (2, 5), [3, 0, 0])  # move back, then the moves
    assert decisions(events)[0][0] == D_POWER
    assert st.power[POWER_NAMES.index("move_back")] == ALIEN and st.owed[ALIEN] == 0


def test_both_dice__off_a_first_move_may_strand_the_other_die():
    # The rulebook test's track (test_rulebook.py): the mothership's step 3>4 leaves the 2
    # no move; offered only with both_dice off.
    for rules, offered in ((None, False), ({"both_dice": False}, True)):
        s = setup(rules)
        st = board(s, ([6, 8, 10], [12, 12]), ms=(3, 12), powers={"share": ALIEN})
        roll(st, 1, 2)
        assert ((1, "mothership", 3, 4) in options(st, s, HUMANITY)) is offered
        events = turn(st, s, HUMANITY, (1, 2), [4 if offered else 0, 0])
        assert st.lost[HUMANITY] == (1 if offered else 0)
        assert [e for e in events if e[0] == EV_LOST] == ([(EV_LOST, 1, 2, 0, 0)]
                                                          if offered else [])


def test_entry__placed_sets_the_token_next_to_the_mothership():
    s = setup({"entry": "placed"})
    st = board(s, ms=(3, 12))
    roll(st, 1, 4)
    assert [o for o in options(st, s, HUMANITY) if o[1] == "enter"] == [
        (1, "enter", -1, 4), (4, "enter", -1, 4)]
    assert [o[3] for o in options(st, s, ALIEN) if o[1] == "enter"] == [11, 11]
    move(st, s, HUMANITY, 4, "enter", -1, 4)
    assert where(st, HUMANITY) == [4] and st.used[1] == 1


def test_must_move__off_a_player_may_pass_and_the_dice_are_lost():
    st = board(setup(), ([2], []))
    roll(st, 3)
    assert "pass" not in [o[1] for o in options(st, setup(), HUMANITY)]
    s = setup({"must_move": False})
    st = board(s, ([2], []))
    events = turn(st, s, HUMANITY, (3, 4), [4])  # enter, 2>5, enter, 2>6, then pass
    assert decisions(events)[0][1][-1][1] == 4  # the pass option (state.M_PASS) comes last
    assert where(st, HUMANITY) == [2] and st.lost[HUMANITY] == 2


def test_blocked_die__mothership_moves_it_and_then_the_other_die_may_enter():
    # Every Humanity token in supply; a protected Alien pair on 7 stops a 6 from entering.
    def blocked(rules):
        s = setup(rules)
        st = board(s, ([], [7, 7]), powers={"share": ALIEN})
        return st, turn(st, s, HUMANITY, (6, 6), [0])

    st, events = blocked(None)
    assert st.lost[HUMANITY] == 2 and st.ms[HUMANITY] == 1 and supply(st, HUMANITY) == 5
    st, events = blocked({"blocked_die": "mothership"})
    # The first 6 moves the mothership to 2; from there the second 6 enters on 8.
    assert [e for e in events if e[0] == EV_LOST] == [(EV_LOST, 0, 6, 1, 0)]
    assert st.ms[HUMANITY] == 2 and where(st, HUMANITY) == [8] and st.lost[HUMANITY] == 0


def test_blocked_die__a_passed_die_is_lost_not_a_mothership_step():
    s = setup({"blocked_die": "mothership", "must_move": False})
    st = board(s, ([2], []))
    turn(st, s, HUMANITY, (3, 4), [4])  # pass
    assert st.ms[HUMANITY] == 1 and st.lost[HUMANITY] == 2


def test_mothership_moves__forward_only():
    for rules, spaces in ((None, [4, 2]), ({"mothership_moves": "forward"}, [4])):
        s = setup(rules)
        st = board(s, ms=(3, 9))
        roll(st, 1)
        assert [o[3] for o in options(st, s, HUMANITY) if o[1] == "mothership"] == spaces
        assert len([o for o in options(st, s, ALIEN) if o[1] == "mothership"]) == len(spaces)


def test_mothership_space__blocked_keeps_tokens_and_motherships_apart():
    shared, blocked = setup(), setup({"mothership_space": "blocked"})
    for s, offered in ((shared, True), (blocked, False)):
        st = board(s, ([4], []), ms=(3, 6))
        roll(st, 2, 1)
        got = options(st, s, HUMANITY)
        assert ((2, "forward", 4, 6) in got) == offered  # a token onto the Alien Vortex
        assert ((1, "mothership", 3, 4) in got) == offered  # the Mothership onto a token
        assert ((2, "enter", -1, 5) in got)  # a free space: both
        st = board(s, ([], []), ms=(3, 6))
        roll(st, 3)
        assert ((3, "enter", -1, 6) in options(st, s, HUMANITY)) == offered
        st = board(s, ([5], []), ms=(3, 6))
        roll(st, 3)
        assert (3, "forward", 5, 8) in options(st, s, HUMANITY)  # over it: both


def test_plus_one_use__always_applies_without_asking():
    s = setup({"plus_one_use": "always"})
    st = board(s, ([2], []), powers={"plus_one": HUMANITY})
    events = turn(st, s, HUMANITY, (2, 5), [])
    assert D_PLUS not in [k for k, _ in decisions(events)] and list(st.die) == [3, 6]


def test_back_captures__off_a_move_back_neither_lands_on_nor_jumps_a_token():
    for rules, captures in ((None, True), ({"back_captures": False}, False)):
        s = setup(rules)
        st = board(s, ([6], [4]), powers={"move_back": HUMANITY})
        roll(st, 2)
        assert ((2, "back", 6, 4) in options(st, s, HUMANITY)) == captures
        st = board(s, ([8], [6]), powers={"move_back": HUMANITY, "one_die": HUMANITY})
        roll(st, 4, one_die=True)
        move(st, s, HUMANITY, 4, "back", 8, 4)  # over the UFO on 6
        assert (where(st, ALIEN) == []) == captures


def test_jump_protected__off_the_one_die_jump_takes_a_protected_pair():
    for rules, kept in ((None, [4, 4]), ({"jump_protected": False}, [])):
        s = setup(rules)
        st = board(s, ([2], [4, 4]), powers={"one_die": HUMANITY, "share": ALIEN})
        roll(st, 4, one_die=True)
        move(st, s, HUMANITY, 4, "forward", 2, 6)
        assert where(st, ALIEN) == kept


def _placed(events) -> list[tuple]:
    """The tokens set on the track before the first turn: (side, space)."""
    out = []
    for row in events:
        if row[2] == TURN_EVENT:
            break
        if row[2] == EV_MOVE:
            out.append((int(row[1]), int(row[5])))
    return out


def test_second_tokens__the_second_player_starts_with_tokens_on_the_track():
    s = prepare({"second_tokens": 2}, ("random", "random"))
    for seed in range(6):
        st, ev = play_traced(s, seed)
        second = 1 - ev[[r[2] == TURN_EVENT for r in ev]][0][1]
        ms = 1 if second == HUMANITY else 12
        step = 1 if second == HUMANITY else -1
        assert _placed(ev) == [(second, ms + step), (second, ms + 2 * step)]
    st, ev = play_traced(prepare(None, ("random", "random")), 0)
    assert _placed(ev) == []
    # A track too short for them all: those that would reach the planet stay in supply.
    st, ev = play_traced(prepare({"second_tokens": 4, "length": 3}, ("random", "random")), 0)
    assert len(_placed(ev)) == 2 and st.kit.sc[VIOLATION] == 0


def test_second_bonus__adds_to_the_second_players_first_dice_only():
    # No powers, so that no reroll or +1 comes between the roll and the dice.
    s = prepare({"second_bonus": 2, **{f"box_{name}": False for name in POWER_NAMES}},
                ("random", "random"))
    st, ev = play_traced(s, 3)
    rolls = [(int(r[0]), int(r[3]), int(r[4])) for r in ev if r[2] == EV_ROLL]
    dice = [(int(r[0]), int(r[3]), int(r[4])) for r in ev if r[2] == EV_DICE]
    for (t, a, b), (t2, x, y) in zip(rolls, dice, strict=True):
        assert t == t2
        bonus = 2 if t == 1 else 0
        assert (x, y) == (a + bonus, b + bonus)


def test_max_turns__a_game_stops_undecided():
    s = prepare({"max_turns": 10}, ("random", "random"))
    stopped = 0
    for seed in range(10):
        st, _ = play_traced(s, seed)
        assert st.kit.sc[TURNS] <= 10
        if st.kit.sc[ENDED] and st.kit.sc[END] == END_TURN_CAP:
            stopped += 1
            assert st.kit.sc[WINNER] == -1 and st.kit.sc[TURNS] == 10
    assert stopped > 0


@pytest.mark.parametrize("name", POWER_NAMES)
def test_box__a_power_out_of_the_box_is_never_offered(name):
    s = setup({f"box_{name}": False})
    st = board(s, ([10], []))
    roll(st, 3)
    move(st, s, HUMANITY, 3, "forward", 10, 13)
    events = turn(st, s, ALIEN, (2, 5), [0, 0, 0, 0])
    kind, opts = decisions(events)[0]
    assert kind == D_POWER
    assert [POWER_NAMES[o[1]] for o in opts] == [p for p in POWER_NAMES if p != name]


def test_box__empty_an_attack_gives_no_power():
    s = setup({f"box_{name}": False for name in POWER_NAMES})
    st = board(s, ([10], []))
    roll(st, 3)
    move(st, s, HUMANITY, 3, "forward", 10, 13)
    assert st.hits[ALIEN] == 1 and st.owed[ALIEN] == 0


def test_the_defaults_are_the_rulebooks():
    assert DEFAULTS["hits_to_lose"] == 3 and DEFAULTS["must_move"] is True
    assert DEFAULTS["power_choice"] == "immediate" and DEFAULTS["both_dice"] is True
    assert DEFAULTS["mothership_moves"] == "either" and DEFAULTS["entry"] == "counted"
    assert all(DEFAULTS[f"box_{name}"] for name in POWER_NAMES)
    assert DEFAULTS["second_tokens"] == DEFAULTS["second_bonus"] == 0
