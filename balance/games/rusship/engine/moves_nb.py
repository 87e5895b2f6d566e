"""How tokens and motherships move: which moves a die allows (the options of a move
decision) and what a move does (captures, attacks). Every rule of the track is here; the turn
around it (powers, dice, the order of decisions) is in turn_nb.py.

A move's option row (state.O_*): its kind (state.M_*), the die it spends, the space it leaves
(-1 for a token entering from supply) and the space it reaches; a space past the last one
(0 or L + 1, or beyond) is the enemy planet: an attack.
"""

from balance.games.rusship.engine.state import (
    END_DESTROYED,
    EV_ATTACK,
    EV_CAPTURE,
    EV_MOVE,
    IN_BOX,
    M_BACK,
    M_ENTER,
    M_FORWARD,
    M_MOTHERSHIP,
    MAX_OPTS,
    O_DIE,
    O_FROM,
    O_KIND,
    O_TO,
    P_BACK,
    P_SHARE,
    S_FIRST_HIT,
    S_FIRST_HIT_TURN,
    S_NDICE,
    S_TURN,
)
from balance.kernels.jit import njit
from balance.kit.nb import emit_nb, win_nb

NO_STOP = 1 << 30  # die_moves_nb's `stop` for a full list


@njit(inline=True)
def forward_nb(s):
    """The direction side s moves in: toward the enemy planet."""
    return 1 if s == 0 else -1


@njit(inline=True)
def holds_nb(st, s, k):
    return st.power[k] == s


@njit(inline=True)
def is_attack_nb(ru, s, t):
    """Space t is the enemy planet of side s, or past it."""
    return t >= ru.length + 1 if s == 0 else t <= 0


@njit(inline=True)
def protected_nb(st, e, t):
    """Side e's tokens on space t cannot be captured: two of them share it (the power)."""
    return st.occ[e, t] >= 2


@njit(inline=True)
def landing_ok_nb(st, ru, s, t, back):
    """Whether a token of side s may end a move on space t (on the track)."""
    if back and (t < 1 or t > ru.length):
        return False
    cap = 2 if holds_nb(st, s, P_SHARE) else 1
    if st.occ[s, t] >= cap:
        return False
    e = 1 - s
    if st.occ[e, t] > 0:
        if protected_nb(st, e, t):
            return False  # a protected pair cannot be captured, so nothing may land on it
        if back and not ru.back_captures:
            return False
    if ru.mothership_blocks and (st.ms[0] == t or st.ms[1] == t):
        return False
    return True


@njit(inline=True)
def _add_nb(st, n, die, kind, a, t):
    if n < MAX_OPTS:
        r = st.opt[n]
        r[O_DIE] = die
        r[O_KIND] = kind
        r[O_FROM] = a
        r[O_TO] = t
    return n + 1


@njit(inline=True)
def mothership_ok_nb(st, ru, s, t):
    if t < 1 or t > ru.length:
        return False
    if ru.mothership_blocks and (st.occ[0, t] > 0 or st.occ[1, t] > 0 or st.ms[1 - s] == t):
        return False
    return True


@njit(inline=True)
def die_moves_nb(st, ru, s, i, n, stop):
    """Append to st.opt every move die i allows side s; returns the new count. It stops once
    the count reaches `stop`: whether a die has a move at all needs only the first."""
    v = st.die[i]
    d = forward_nb(s)
    # A token from supply: it enters next to the mothership; with entry counted, the die's
    # value is counted from the mothership's space (a 1 puts it on the next space).
    if supply_nb(st, s) > 0:
        t = st.ms[s] + d * (v if ru.entry_counted else 1)
        if is_attack_nb(ru, s, t) or landing_ok_nb(st, ru, s, t, False):
            n = _add_nb(st, n, i, M_ENTER, -1, t)
            if n >= stop:
                return n
    back = holds_nb(st, s, P_BACK)
    # Each space holding tokens of side s once: two tokens on one space move alike.
    for j in range(st.pos.shape[1]):
        a = st.pos[s, j]
        if a < 0 or _seen_before_nb(st, s, j, a):
            continue
        t = a + d * v
        if is_attack_nb(ru, s, t) or landing_ok_nb(st, ru, s, t, False):
            n = _add_nb(st, n, i, M_FORWARD, a, t)
            if n >= stop:
                return n
        if back:
            t = a - d * v
            if landing_ok_nb(st, ru, s, t, True):
                n = _add_nb(st, n, i, M_BACK, a, t)
                if n >= stop:
                    return n
    # A rolled 1 may move the mothership one space instead.
    if st.face[i] == 1:
        if mothership_ok_nb(st, ru, s, st.ms[s] + d):
            n = _add_nb(st, n, i, M_MOTHERSHIP, st.ms[s], st.ms[s] + d)
            if n >= stop:
                return n
        if ru.mothership_back and mothership_ok_nb(st, ru, s, st.ms[s] - d):
            n = _add_nb(st, n, i, M_MOTHERSHIP, st.ms[s], st.ms[s] - d)
    return n


@njit(inline=True)
def _seen_before_nb(st, s, j, a):
    for k in range(j):
        if st.pos[s, k] == a:
            return True
    return False


@njit(inline=True)
def supply_nb(st, s):
    m = 0
    for j in range(st.pos.shape[1]):
        if st.pos[s, j] < 0:
            m += 1
    return m


@njit(inline=True)
def moves_nb(st, ru, s):
    """Every move of side s with its unspent dice, into st.opt; returns the count. Two dice
    of one value are one die: the same moves, listed once. With must_move and both_dice,
    and both dice unspent, only the first moves that leave the other die a move, where
    some do (most_dice_nb)."""
    n = 0
    for i in range(2):
        if st.used[i]:
            continue
        if i == 1 and not st.used[0] and st.die[0] == st.die[1] and st.face[0] == st.face[1]:
            continue
        n = die_moves_nb(st, ru, s, i, n, NO_STOP)
    n = min(n, MAX_OPTS)
    if ru.must_move and ru.both_dice and not st.used[0] and not st.used[1]:
        n = most_dice_nb(st, ru, s, n)
    return n


@njit
def most_dice_nb(st, ru, s, n):
    """The rulebook's "two moves corresponding to the values obtained", as backgammon's
    rule reads it: of the n first moves in st.opt, keep those after which the other die
    still has a move, unless none does (then every one stays). Returns the count kept."""
    kept = 0
    for r in range(n):
        if _leaves_a_move_nb(st, ru, s, st.opt[r], n):
            for c in range(st.opt.shape[1]):
                st.opt[kept, c] = st.opt[r, c]
            kept += 1
    return kept if kept > 0 else n


@njit
def _leaves_a_move_nb(st, ru, s, row, n):
    """Whether the other die has a move after the move `row`. The move is made on the track
    alone (tokens, occupancy, mothership: what a die's moves read), the other die's first
    move is looked for in the rows past the n listed, and the move is undone. A move that wins
    the game leaves nothing to use the other die for, so it counts as using both.

    The power the attacked side may choose at once changes nothing here: its powers act in
    its own turns, and its tokens cannot form a protected pair before it moves."""
    die, kind, a, t = row[O_DIE], row[O_KIND], row[O_FROM], row[O_TO]
    other = 1 - die
    e = 1 - s
    if kind == M_MOTHERSHIP:
        st.ms[s] = t
        ok = die_moves_nb(st, ru, s, other, n, n + 1) > n
        st.ms[s] = a
        return ok
    attack = is_attack_nb(ru, s, t)
    if attack and st.hits[e] + 1 >= ru.hits_to_lose:
        return True
    if kind == M_ENTER:
        j = _supply_token_nb(st, s)
    else:
        j = _token_at_nb(st, s, a)
        st.occ[s, a] -= 1
    hit = 0
    if attack:
        st.pos[s, j] = -1
    else:
        hit = st.occ[e, t]  # at most one: no move lands on a protected pair
        st.occ[e, t] -= hit
        st.pos[s, j] = t
        st.occ[s, t] += 1
    ok = die_moves_nb(st, ru, s, other, n, n + 1) > n
    if not attack:
        st.occ[s, t] -= 1
        st.occ[e, t] += hit
    if kind == M_ENTER:
        st.pos[s, j] = -1
    else:
        st.pos[s, j] = a
        st.occ[s, a] += 1
    return ok


@njit
def _capture_nb(st, s, t):
    """Side s captures the enemy token on space t: it goes back to its owner's supply."""
    e = 1 - s
    for j in range(st.pos.shape[1]):
        if st.pos[e, j] == t:
            st.pos[e, j] = -1
            st.occ[e, t] -= 1
            st.captures[s] += 1
            emit_nb(st.kit, EV_CAPTURE, e, t, 0, 0)
            return


@njit(inline=True)
def apply_move_nb(st, ru, s, row):
    """Play one move option (a row of st.opt) for side s and spend its die."""
    die, kind, a, t = row[O_DIE], row[O_KIND], row[O_FROM], row[O_TO]
    st.used[die] = 1
    emit_nb(st.kit, EV_MOVE, kind, a, t, st.die[die])
    if kind == M_MOTHERSHIP:
        st.ms[s] = t
        st.ms_moves[s] += 1
        return
    d = forward_nb(s) if kind != M_BACK else -forward_nb(s)
    start = a
    if kind == M_ENTER:
        start = st.ms[s]
        j = _supply_token_nb(st, s)
    else:
        j = _token_at_nb(st, s, a)
        st.occ[s, a] -= 1
    # The one-die power: every enemy token jumped over is captured (a protected pair too,
    # unless the rules protect it here as well); a move back only with back captures.
    if st.sc[S_NDICE] == 1 and (kind != M_BACK or ru.back_captures):
        x = start + d
        while x != t and 1 <= x <= ru.length:
            if st.occ[1 - s, x] > 0 and not (ru.jump_protected and protected_nb(st, 1 - s, x)):
                while st.occ[1 - s, x] > 0:
                    _capture_nb(st, s, x)
            x += d
    if is_attack_nb(ru, s, t):
        st.pos[s, j] = -1  # the attacking token goes back to its owner's supply
        attack_nb(st, ru, s)
        return
    if st.occ[1 - s, t] > 0:
        _capture_nb(st, s, t)
    st.pos[s, j] = t
    st.occ[s, t] += 1


@njit
def attack_nb(st, ru, s):
    """Side s attacks the enemy planet: the enemy owes a power choice (if the box holds one),
    and the attack that reaches the limit ends the game."""
    e = 1 - s
    st.hits[e] += 1
    st.kit.score[s] += 1  # a side's score: the attacks it made
    emit_nb(st.kit, EV_ATTACK, e, st.hits[e], 0, 0)
    if st.sc[S_FIRST_HIT] < 0:
        st.sc[S_FIRST_HIT] = e
        st.sc[S_FIRST_HIT_TURN] = st.sc[S_TURN]
    if st.hits[e] >= ru.hits_to_lose:
        win_nb(st.kit, s, END_DESTROYED)
        return
    for k in range(st.power.shape[0]):
        if st.power[k] == IN_BOX:
            st.owed[e] += 1
            return


@njit(inline=True)
def _supply_token_nb(st, s):
    for j in range(st.pos.shape[1]):
        if st.pos[s, j] < 0:
            return j
    return -1


@njit(inline=True)
def _token_at_nb(st, s, a):
    for j in range(st.pos.shape[1]):
        if st.pos[s, j] == a:
            return j
    return -1


