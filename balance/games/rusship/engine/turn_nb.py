"""A game of Rusship: the setup, a turn (powers owed, the dice, the two moves) and the game
loop, with what a finished game records. The track's own rules (what a move may do, captures,
attacks) are in moves_nb.py.

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
"""

from balance.games.rusship.engine.check_nb import check_nb
from balance.games.rusship.engine.events import emit_nb
from balance.games.rusship.engine.moves_nb import (
    apply_move_nb,
    forward_nb,
    holds_nb,
    landing_ok_nb,
    mothership_ok_nb,
    moves_nb,
)
from balance.games.rusship.engine.players import decide_nb
from balance.games.rusship.engine.state import (
    D_DICE,
    D_MOVE,
    D_PLUS,
    D_POWER,
    D_REROLL,
    END_NONE,
    END_TURN_CAP,
    EV_DICE,
    EV_END,
    EV_LOST,
    EV_MOVE,
    EV_PLUS,
    EV_POWER,
    EV_REROLL,
    EV_ROLL,
    EV_START,
    EV_TURN,
    IN_BOX,
    M_ENTER,
    M_PASS,
    MAX_OPTS,
    O_DIE,
    O_FROM,
    O_KIND,
    O_TO,
    OUT_OF_GAME,
    P_ONE_DIE,
    P_PLUS,
    P_REROLL,
    S_BONUS,
    S_CHECK,
    S_CUR,
    S_DECISIONS,
    S_END,
    S_ENDED,
    S_EV_N,
    S_FIRST_HIT,
    S_FIRST_HIT_TURN,
    S_NDICE,
    S_STARTER,
    S_TRACE,
    S_TURN,
    S_VIOLATION,
    S_WINNER,
)
from balance.kernels.jit import njit
from balance.kernels.rng import below_nb
from heuristics.rusship.dispatch_nb import reset_memories_nb, turn_start_nb

# A finished game's record: one row of `out` (records.py names the columns).
(R_WINNER, R_STARTER, R_TURNS, R_END, R_HITS0, R_HITS1, R_FIRST_HIT, R_FIRST_HIT_TURN,
 R_CAPT0, R_CAPT1, R_MS0, R_MS1, R_LOST0, R_LOST1, R_DECISIONS, R_VIOLATION,
 R_POWER) = range(17)
R_POWER_ORDER = R_POWER + 5
R_N = R_POWER_ORDER + 5


@njit(inline=True)
def _roll_nb(st):
    return 1 + below_nb(st.rng, 6)


@njit
def reset_nb(st, ru, pp, words, trace, check):
    for i in range(4):
        st.rng[i] = words[i]  # the game's stream: the dice
        pp.rng[i] = words[4 + i]  # the players' stream (heuristics/seats.py)
    st.sc[:] = 0
    st.sc[S_TRACE] = trace
    st.sc[S_CHECK] = check
    st.sc[S_FIRST_HIT] = -1
    st.sc[S_FIRST_HIT_TURN] = -1
    st.sc[S_WINNER] = -1
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
        st.power[k] = IN_BOX if (ru.box >> k) & 1 else OUT_OF_GAME
        st.power_order[k] = -1
    reset_memories_nb(pp.mem)


@njit
def setup_nb(st, ru):
    """Motherships on the first space by each planet; who starts by a roll of one die each,
    ties rolled again; the second player's starting tokens (a compensation lever)."""
    st.ms[0] = 1
    st.ms[1] = ru.length
    a = _roll_nb(st)
    b = _roll_nb(st)
    while a == b:
        emit_nb(st, EV_START, -1, a, b, 0)  # a tie: both roll again
        a = _roll_nb(st)
        b = _roll_nb(st)
    first = 0 if a > b else 1
    st.sc[S_STARTER] = first
    emit_nb(st, EV_START, first, a, b, 0)
    second = 1 - first
    st.sc[S_CUR] = second  # the side the placed tokens' events name
    d = forward_nb(second)
    # On the spaces after its mothership, one each, as far as a token may stand there: a short
    # track (or a mothership in the way, with mothership_space = "blocked") keeps the rest in
    # supply rather than put a token on a planet or beside an ally.
    for j in range(min(ru.second_tokens, st.pos.shape[1])):
        t = st.ms[second] + d * (j + 1)
        if t < 1 or t > ru.length or not landing_ok_nb(st, ru, second, t, False):
            break
        st.pos[second, j] = t
        st.occ[second, t] += 1
        emit_nb(st, EV_MOVE, M_ENTER, -1, t, 0)


@njit
def play_game_nb(st, tb, ru, pp, words, trace, check):
    reset_nb(st, ru, pp, words, trace, check)
    setup_nb(st, ru)
    play_on_nb(st, tb, ru, pp, False)


@njit
def play_on_nb(st, tb, ru, pp, resume):
    """The game loop from turn S_TURN to the end. With `resume`, that turn's start is done
    already: a search's rollout resumes it from the state saved there (forward.py)."""
    while not st.sc[S_ENDED]:
        turn = st.sc[S_TURN]
        if turn >= ru.max_turns:
            st.sc[S_ENDED] = 1
            st.sc[S_END] = END_TURN_CAP
            break
        p = (st.sc[S_STARTER] + turn) % 2
        st.sc[S_CUR] = p
        if not resume:
            emit_nb(st, EV_TURN, p, turn, 0, 0)
            turn_start_nb(pp, p)
            turn_start_nb(pp, 1 - p)  # it may choose a power in this turn (power_now)
        resume = False
        play_turn_nb(st, tb, ru, pp, p)
        if st.sc[S_CHECK]:
            check_nb(st, ru)
        st.sc[S_TURN] = turn + 1
    emit_nb(st, EV_END, st.sc[S_WINNER], st.sc[S_END], 0, 0)


@njit
def resume_nb(st, tb, ru, pp):
    """The forward model's play-on: the turn under way, from its start, and every later one."""
    play_on_nb(st, tb, ru, pp, True)


@njit
def choose_powers_nb(st, tb, ru, pp, p):
    """The powers side p owes, one choice each among those left in the box. Side p may be
    choosing in the other side's turn (power_now): its events name it all the same."""
    cur = st.sc[S_CUR]
    st.sc[S_CUR] = p
    _choose_owed_nb(st, tb, ru, pp, p)
    st.sc[S_CUR] = cur


@njit
def _choose_owed_nb(st, tb, ru, pp, p):
    while st.owed[p] > 0:
        st.owed[p] -= 1
        n = 0
        for k in range(st.power.shape[0]):
            if st.power[k] == IN_BOX:
                st.opt[n, O_DIE] = -1
                st.opt[n, O_KIND] = k
                n += 1
        if n == 0:
            st.owed[p] = 0
            return
        j = 0 if n == 1 else decide_nb(st, tb, ru, pp, D_POWER, n, p)
        k = st.opt[j, O_KIND]
        taken = 0  # its place among the game's choices: two can come in one turn
        for q in range(st.power.shape[0]):
            if st.power[q] >= 0:
                taken += 1
        st.power[k] = p
        st.power_order[k] = taken
        emit_nb(st, EV_POWER, k, 0, 0, 0)


@njit
def _choice_nb(st, n, value):
    st.opt[n, O_DIE] = -1
    st.opt[n, O_KIND] = value
    return n + 1


@njit
def play_turn_nb(st, tb, ru, pp, p):
    choose_powers_nb(st, tb, ru, pp, p)
    ndice = 2
    if holds_nb(st, p, P_ONE_DIE):
        n = _choice_nb(st, _choice_nb(st, 0, 2), 1)
        ndice = st.opt[decide_nb(st, tb, ru, pp, D_DICE, n, p), O_KIND]
    st.sc[S_NDICE] = ndice
    for i in range(2):
        st.face[i] = _roll_nb(st) if i < ndice else 0
        st.used[i] = 0 if i < ndice else 1
    emit_nb(st, EV_ROLL, st.face[0], st.face[1], 0, 0)
    if holds_nb(st, p, P_REROLL):
        n = _choice_nb(st, 0, -1)
        for i in range(ndice):
            if i == 0 or st.face[1] != st.face[0]:  # two equal dice: one reroll option
                n = _choice_nb(st, n, i)
        i = st.opt[decide_nb(st, tb, ru, pp, D_REROLL, n, p), O_KIND]
        if i >= 0:
            st.face[i] = _roll_nb(st)
            emit_nb(st, EV_REROLL, i, st.face[i], 0, 0)
    # The second player's first turn may get a bonus on each die (a compensation lever).
    bonus = ru.second_bonus if st.sc[S_TURN] == 1 else 0
    st.sc[S_BONUS] = bonus
    plus = 0
    if holds_nb(st, p, P_PLUS):
        if ru.plus_always:
            plus = 1
        else:
            n = _choice_nb(st, _choice_nb(st, 0, 1), 0)
            plus = st.opt[decide_nb(st, tb, ru, pp, D_PLUS, n, p), O_KIND]
        emit_nb(st, EV_PLUS, plus, 0, 0, 0)
    for i in range(2):
        st.die[i] = st.face[i] + plus + bonus if i < ndice else 0
    emit_nb(st, EV_DICE, st.die[0], st.die[1], 0, 0)
    while not (st.used[0] and st.used[1]) and not st.sc[S_ENDED]:
        n = moves_nb(st, ru, p)
        if n == 0:
            _blocked_nb(st, ru, p)  # one die; then the moves the other has, looked at again
            continue
        if not ru.must_move and n < MAX_OPTS:
            st.opt[n, O_DIE] = -1
            st.opt[n, O_KIND] = M_PASS
            st.opt[n, O_FROM] = -1
            st.opt[n, O_TO] = -1
            n += 1
        k = decide_nb(st, tb, ru, pp, D_MOVE, n, p)
        if st.opt[k, O_KIND] == M_PASS:
            _pass_nb(st, p)
            break
        apply_move_nb(st, ru, p, st.opt[k])
        if ru.power_now and st.owed[1 - p] > 0:
            choose_powers_nb(st, tb, ru, pp, 1 - p)  # before this side plays its other die


@njit
def _blocked_nb(st, ru, p):
    """No move can use any die left: the first of them is lost, or (blocked_mothership) moves
    the mothership one space forward where it can. The turn then looks again at the other
    die, which the mothership's step may have given a move (an entry from its new space)."""
    i = 0 if not st.used[0] else 1
    st.used[i] = 1
    t = st.ms[p] + forward_nb(p)
    if ru.blocked_mothership and mothership_ok_nb(st, ru, p, t):
        st.ms[p] = t
        st.ms_moves[p] += 1
        emit_nb(st, EV_LOST, i, st.die[i], 1, 0)
    else:
        st.lost[p] += 1
        emit_nb(st, EV_LOST, i, st.die[i], 0, 0)


@njit
def _pass_nb(st, p):
    """The player passed (must_move off): the dice left are lost. They could move, so
    blocked_die, which speaks of a die no move can use, does not apply."""
    for i in range(2):
        if not st.used[i]:
            st.used[i] = 1
            st.lost[p] += 1
            emit_nb(st, EV_LOST, i, st.die[i], 0, 0)


@njit
def record_nb(st, out, g):
    r = out[g]
    r[R_WINNER] = st.sc[S_WINNER]
    r[R_STARTER] = st.sc[S_STARTER]
    r[R_TURNS] = st.sc[S_TURN]
    r[R_END] = st.sc[S_END] if st.sc[S_ENDED] else END_NONE
    r[R_HITS0] = st.hits[0]
    r[R_HITS1] = st.hits[1]
    r[R_FIRST_HIT] = st.sc[S_FIRST_HIT]
    r[R_FIRST_HIT_TURN] = st.sc[S_FIRST_HIT_TURN]
    r[R_CAPT0] = st.captures[0]
    r[R_CAPT1] = st.captures[1]
    r[R_MS0] = st.ms_moves[0]
    r[R_MS1] = st.ms_moves[1]
    r[R_LOST0] = st.lost[0]
    r[R_LOST1] = st.lost[1]
    r[R_DECISIONS] = st.sc[S_DECISIONS]
    r[R_VIOLATION] = st.sc[S_VIOLATION]
    for k in range(5):
        r[R_POWER + k] = st.power[k]
        r[R_POWER_ORDER + k] = st.power_order[k]


@njit
def play_games_nb(st, tb, ru, pp, words, out, check):
    """One game per row of `words` (balance/kernels/rng.py, seed_states), recorded in out."""
    for g in range(words.shape[0]):
        play_game_nb(st, tb, ru, pp, words[g], 0, check)
        record_nb(st, out, g)


@njit
def play_traced_nb(st, tb, ru, pp, words):
    play_game_nb(st, tb, ru, pp, words, 1, 1)
    return st.sc[S_EV_N]
