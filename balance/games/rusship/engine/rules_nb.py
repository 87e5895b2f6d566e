"""A game of Rusship on the engine kit (balance/kit/): the setup, and a turn as phases the kit's
decision loop stops in at each decision (powers owed, the dice, the roll, +1, the moves),
with what a finished game records and its invariants. The track's own rules (what a move may
do, captures, attacks) are in moves_nb.py.

A turn, in order:
1. powers owed: with power_choice = "next_turn", the side attacked since its last turn
   chooses its power now (by default it chose at the attack, in the attacker's turn, before
   the attacker played on: rulings in the guide's Rusship page);
2. with the one-die power, one die or two;
3. the roll; with the reroll power, one die rolled again or none;
4. with +1, whether to add it to both dice (unless the rules make it automatic);
5. moves, one die at a time in the order the player picks, until both are spent; a die no
   token can use is lost, or moves the mothership (rules: blocked_mothership). An attack
   that does not end the game asks the attacked side for its power at once (power_now).

A choice of one power only (the last in the box) is taken without asking."""

from balance.games.rusship.engine.moves_nb import (
    apply_move_nb,
    forward_nb,
    holds_nb,
    landing_ok_nb,
    mothership_ok_nb,
    moves_nb,
)
from balance.games.rusship.engine.state import (
    D_DICE,
    D_MOVE,
    D_PLUS,
    D_POWER,
    D_REROLL,
    END_TURN_CAP,
    EV_DICE,
    EV_LOST,
    EV_MOVE,
    EV_PLUS,
    EV_POWER,
    EV_REROLL,
    EV_ROLL,
    EV_START,
    IN_BOX,
    K_KEEP,
    K_NO_PLUS,
    K_ONE,
    K_PLUS,
    K_POWER,
    K_REROLL,
    K_TWO,
    M_ENTER,
    M_PASS,
    MAX_OPTS,
    O_DIE,
    O_FROM,
    O_KIND,
    O_TO,
    O_VALUE,
    OUT_OF_GAME,
    P_ONE_DIE,
    P_PLUS,
    P_REROLL,
    P_SHARE,
    PH_DICE,
    PH_MOVES,
    PH_PLUS,
    PH_POWERS,
    PH_ROLL,
    PH_TURN,
    R_CAPT0,
    R_FIRST_HIT,
    R_FIRST_HIT_TURN,
    R_LOST0,
    R_MS0,
    R_POWER,
    R_POWER_ORDER,
    R_STARTER,
    S_AFTER,
    S_BONUS,
    S_CHOOSER,
    S_FIRST_HIT,
    S_FIRST_HIT_TURN,
    S_NDICE,
    S_PHASE,
    S_STARTER,
    S_TURN,
    V_ATTACKS,
    V_BOARD,
    V_POWERS,
    V_SHARED,
    V_TOKENS,
    Rules,  # noqa: F401  (the kit reads the rules' module for them)
    State,  # noqa: F401
    new_state,  # noqa: F401
    new_tables,  # noqa: F401
)
from balance.kernels.jit import njit
from balance.kit.nb import (
    ask_nb,
    emit_nb,
    ended_nb,
    offer_nb,
    roll_nb,
    turn_nb,
    turns_nb,
    undecided_nb,
)
from balance.kit.state import ENDED, KIND, OFFERED, SEAT


@njit
def start_nb(state, tables, rules):
    """A new game: the kit has seeded the dice's stream. Motherships on the first space by
    each planet; who starts by a roll of one die each, ties rolled again; the second
    player's starting tokens (a compensation lever); then on to the first decision."""
    st = state
    kit = st.kit
    st.sc[:] = 0
    st.sc[S_FIRST_HIT] = -1
    st.sc[S_FIRST_HIT_TURN] = -1
    st.pos[:] = -1
    st.occ[:] = 0
    for s in range(2):
        st.hits[s] = 0
        st.owed[s] = 0
        st.captures[s] = 0
        st.ms_moves[s] = 0
        st.lost[s] = 0
        st.face[s] = 0
        st.die[s] = 0
        st.used[s] = 0
    for k in range(st.power.shape[0]):
        st.power[k] = IN_BOX if (rules.box >> k) & 1 else OUT_OF_GAME
        st.power_order[k] = -1
    st.ms[0] = 1
    st.ms[1] = rules.length
    a = roll_nb(kit, 6)
    b = roll_nb(kit, 6)
    while a == b:
        emit_nb(kit, EV_START, -1, a, b, 0)  # a tie: both roll again
        a = roll_nb(kit, 6)
        b = roll_nb(kit, 6)
    first = 0 if a > b else 1
    st.sc[S_STARTER] = first
    emit_nb(kit, EV_START, first, a, b, 0)
    second = 1 - first
    kit.sc[SEAT] = second  # the side the placed tokens' events name
    d = forward_nb(second)
    # On the spaces after its mothership, one each, as far as a token may stand there: a short
    # track (or a mothership in the way, with mothership_space = "blocked") keeps the rest in
    # supply rather than put a token on a planet or beside an ally.
    for j in range(min(rules.second_tokens, st.pos.shape[1])):
        t = st.ms[second] + d * (j + 1)
        if t < 1 or t > rules.length or not landing_ok_nb(st, rules, second, t, False):
            break
        st.pos[second, j] = t
        st.occ[second, t] += 1
        emit_nb(kit, EV_MOVE, M_ENTER, -1, t, 0)
    st.sc[S_PHASE] = PH_TURN
    run_nb(st, rules)


@njit(inline=True)
def options_nb(state, tables, rules):
    """Nothing to do: the step before asked the decision at hand and offered its options
    (a turn must list its moves to know whether a die has any)."""


@njit(inline=True)
def apply_nb(state, tables, rules, pick):
    st = state
    kit = st.kit
    row = kit.opt[pick]
    kind = kit.sc[KIND]  # the decision at hand
    p = _side_nb(st)
    if kind == D_MOVE:
        if row[O_KIND] == M_PASS:
            _pass_nb(st, p)
            st.sc[S_PHASE] = PH_TURN
        else:
            apply_move_nb(st, rules, p, row)
            if rules.power_now and st.owed[1 - p] > 0:
                st.sc[S_CHOOSER] = 1 - p  # before this side plays its other die
                st.sc[S_AFTER] = PH_MOVES
                st.sc[S_PHASE] = PH_POWERS
    elif kind == D_POWER:
        _take_power_nb(st, kit.sc[SEAT], row[O_VALUE])
    elif kind == D_DICE:
        st.sc[S_NDICE] = row[O_VALUE]
    elif kind == D_REROLL:
        i = row[O_VALUE]
        if i >= 0:
            st.face[i] = roll_nb(kit, 6)
            emit_nb(kit, EV_REROLL, i, st.face[i], 0, 0)
    else:
        _dice_nb(st, rules, row[O_VALUE], True)
    run_nb(st, rules)


@njit(inline=True)
def _side_nb(st):
    """The side whose turn it is."""
    return (st.sc[S_STARTER] + st.sc[S_TURN]) % 2


@njit(inline=True)
def run_nb(st, rules):
    """Play on from the phase the turn stands in, up to the next decision (asked, its options
    offered) or the end."""
    kit = st.kit
    while kit.sc[ENDED] == 0:
        phase = st.sc[S_PHASE]
        p = _side_nb(st)
        if phase == PH_TURN:
            turn = turns_nb(kit)
            if turn >= rules.max_turns:
                undecided_nb(kit, END_TURN_CAP)
                return
            st.sc[S_TURN] = turn
            p = _side_nb(st)
            turn_nb(kit, p)
            st.sc[S_CHOOSER] = p
            st.sc[S_AFTER] = PH_DICE
            st.sc[S_PHASE] = PH_POWERS
        elif phase == PH_POWERS:
            if _powers_asked_nb(st, st.sc[S_CHOOSER]):
                return
            kit.sc[SEAT] = p
            st.sc[S_PHASE] = st.sc[S_AFTER]
        elif phase == PH_DICE:
            st.sc[S_PHASE] = PH_ROLL
            if holds_nb(st, p, P_ONE_DIE):
                ask_nb(kit, D_DICE, p)
                offer_nb(kit, K_TWO, 2, 0, 0)
                offer_nb(kit, K_ONE, 1, 0, 0)
                return
            st.sc[S_NDICE] = 2
        elif phase == PH_ROLL:
            ndice = st.sc[S_NDICE]
            for i in range(2):
                st.face[i] = roll_nb(kit, 6) if i < ndice else 0
                st.used[i] = 0 if i < ndice else 1
            emit_nb(kit, EV_ROLL, st.face[0], st.face[1], 0, 0)
            st.sc[S_PHASE] = PH_PLUS
            if holds_nb(st, p, P_REROLL):
                ask_nb(kit, D_REROLL, p)
                offer_nb(kit, K_KEEP, -1, 0, 0)
                for i in range(ndice):
                    if i == 0 or st.face[1] != st.face[0]:  # two equal dice: one option
                        offer_nb(kit, K_REROLL + i, i, 0, 0)
                return
        elif phase == PH_PLUS:
            # The second player's first turn may get a bonus on each die (a lever).
            st.sc[S_BONUS] = rules.second_bonus if st.sc[S_TURN] == 1 else 0
            if holds_nb(st, p, P_PLUS):
                if not rules.plus_always:
                    ask_nb(kit, D_PLUS, p)
                    offer_nb(kit, K_PLUS, 1, 0, 0)
                    offer_nb(kit, K_NO_PLUS, 0, 0, 0)
                    return
                _dice_nb(st, rules, 1, True)
            else:
                _dice_nb(st, rules, 0, False)
        else:  # PH_MOVES
            if st.used[0] and st.used[1]:
                st.sc[S_PHASE] = PH_TURN
                continue
            ask_nb(kit, D_MOVE, p)
            n = moves_nb(st, rules, p)
            if n == 0:
                _blocked_nb(st, rules, p)  # one die; then the other's moves, looked at again
                continue
            if not rules.must_move and n < MAX_OPTS:
                r = kit.opt[n]
                r[O_KIND] = M_PASS
                r[O_DIE] = -1
                r[O_FROM] = -1
                r[O_TO] = -1
                n += 1
            kit.sc[OFFERED] = n
            return


@njit(inline=True)
def _dice_nb(st, rules, plus, told):
    """The dice's values this turn moves with: the faces, the +1 (`told`: the side holds
    it) and the second player's bonus."""
    if told:
        emit_nb(st.kit, EV_PLUS, plus, 0, 0, 0)
    for i in range(2):
        st.die[i] = st.face[i] + plus + st.sc[S_BONUS] if i < st.sc[S_NDICE] else 0
    emit_nb(st.kit, EV_DICE, st.die[0], st.die[1], 0, 0)
    st.sc[S_PHASE] = PH_MOVES


@njit
def _powers_asked_nb(st, c):
    """The powers side c owes, one choice each among those left in the box: True when a
    choice is asked (its options offered), False once none is owed. Side c may be choosing
    in the other side's turn (power_now): its events name it all the same."""
    kit = st.kit
    while st.owed[c] > 0:
        st.owed[c] -= 1
        ask_nb(kit, D_POWER, c)
        n = 0
        last = -1
        for k in range(st.power.shape[0]):
            if st.power[k] == IN_BOX:
                offer_nb(kit, K_POWER + k, k, 0, 0)
                last = k
                n += 1
        if n == 0:
            st.owed[c] = 0
            return False
        if n > 1:
            return True
        _take_power_nb(st, c, last)
    return False


@njit
def _take_power_nb(st, c, k):
    taken = 0  # its place among the game's choices: two can come in one turn
    for q in range(st.power.shape[0]):
        if st.power[q] >= 0:
            taken += 1
    st.power[k] = c
    st.power_order[k] = taken
    emit_nb(st.kit, EV_POWER, k, 0, 0, 0)


@njit
def _blocked_nb(st, rules, p):
    """No move can use any die left: the first of them is lost, or (blocked_mothership) moves
    the mothership one space forward where it can. The turn then looks again at the other
    die, which the mothership's step may have given a move (an entry from its new space)."""
    i = 0 if not st.used[0] else 1
    st.used[i] = 1
    t = st.ms[p] + forward_nb(p)
    if rules.blocked_mothership and mothership_ok_nb(st, rules, p, t):
        st.ms[p] = t
        st.ms_moves[p] += 1
        emit_nb(st.kit, EV_LOST, i, st.die[i], 1, 0)
    else:
        st.lost[p] += 1
        emit_nb(st.kit, EV_LOST, i, st.die[i], 0, 0)


@njit
def _pass_nb(st, p):
    """The player passed (must_move off): the dice left are lost. They could move, so
    blocked_die, which speaks of a die no move can use, does not apply."""
    for i in range(2):
        if not st.used[i]:
            st.used[i] = 1
            st.lost[p] += 1
            emit_nb(st.kit, EV_LOST, i, st.die[i], 0, 0)


@njit
def record_nb(state, rules):
    st = state
    r = st.kit.rec
    r[R_STARTER] = st.sc[S_STARTER]
    r[R_FIRST_HIT] = st.sc[S_FIRST_HIT]
    r[R_FIRST_HIT_TURN] = st.sc[S_FIRST_HIT_TURN]
    for s in range(2):
        r[R_CAPT0 + s] = st.captures[s]
        r[R_MS0 + s] = st.ms_moves[s]
        r[R_LOST0 + s] = st.lost[s]
    for k in range(5):
        r[R_POWER + k] = st.power[k]
        r[R_POWER_ORDER + k] = st.power_order[k]


@njit
def broken_nb(state, rules):
    """The first of Rusship's invariants broken (state.INVARIANTS, from 1), or 0."""
    st = state
    L = rules.length
    for s in range(2):
        if st.ms[s] < 1 or st.ms[s] > L:
            return V_BOARD
        on = 0
        for j in range(st.pos.shape[1]):
            a = st.pos[s, j]
            if a == 0 or a > L or a < -1:
                return V_BOARD
            if a > 0:
                on += 1
        counted = 0
        for t in range(st.occ.shape[1]):
            counted += st.occ[s, t]
            if st.occ[s, t] > 0 and (t < 1 or t > L):
                return V_BOARD
        if counted != on or st.pos.shape[1] != rules.tokens:
            return V_TOKENS
        for j in range(st.pos.shape[1]):
            a = st.pos[s, j]
            if a > 0:
                m = 0
                for k in range(st.pos.shape[1]):
                    if st.pos[s, k] == a:
                        m += 1
                if m != st.occ[s, a]:
                    return V_TOKENS
        cap = 2 if st.power[P_SHARE] == s else 1
        for t in range(1, L + 1):
            if st.occ[s, t] > cap or (st.occ[s, t] > 0 and st.occ[1 - s, t] > 0):
                return V_SHARED
        held = 0
        for k in range(st.power.shape[0]):
            if st.power[k] == s:
                held += 1
        # A side holds a power for each attack it suffered while the box had one, and owes
        # the rest: never more than its attacks.
        if held + st.owed[s] > st.hits[s]:
            return V_POWERS
        if st.hits[s] >= rules.hits_to_lose and not ended_nb(st.kit):
            return V_ATTACKS
        if st.hits[s] > rules.hits_to_lose:
            return V_ATTACKS
    for k in range(st.power.shape[0]):
        p = st.power[k]
        if p != IN_BOX and p != OUT_OF_GAME and p != 0 and p != 1:
            return V_POWERS
        if ((rules.box >> k) & 1) == 0 and p != OUT_OF_GAME:
            return V_POWERS
    return 0
