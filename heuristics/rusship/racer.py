"""`racer`: Rusship's fast player. It scores a move by what it changes at once and plans the
two dice of a turn together, and plays above 50,000 games a second on one core (53,000; the
racer before the plan and the dice tables, 140,000; this one wins 72% of paired games
against that one):

- an attack is worth most (the winning one, everything); a capture is worth its victim's
  progress; a step forward is worth the spaces gained, an entry a bonus;
- a token that ends within the enemy's reach is worth less by the chance the enemy's next roll
  hits it times what the token would lose (the threat map, drawn once per decision: the
  enemy's tokens behind it, its entries from its mothership, and the enemy's +1 and move-back
  powers when it holds them);
- with both dice unspent, each move is played out on the board (then undone) and credited
  with the best use of the other die after it: one token twice (a 6 then a 3 onto a token 9
  ahead), a capture that clears the way, an entry after an attack. This plan is most of its
  strength (against the same player crediting the other die on the board as it was: 39% of
  60,000 games, 95% interval 38.9% to 39.5%);
- a rolled 1 on the mothership is worth the shorter way in for the tokens still in supply.

Its dice decisions value a roll by the same scores: a die's best move for each value, two dice
the better of their best uses and one token moving both (each value worked out when first
asked for). It rerolls the die whose expected fresh roll beats the roll it has (or none),
takes +1 when the roll is worth more with it, and rolls one die (that power) when one die's
expected value, jumps captured, beats two dice's by `one_die_margin`. It picks powers by a
fixed ranking (its pw_* knobs), measured: +1 > reroll > move back > share > one die, the
order of the comebacks each power gives alone in the box (the side attacked first winning
63%, 48%, 37%, 32%, 31% of racer's games; none: 31%), and the best of all 120 rankings
played against each other. The weights are tuned (balance/games/rusship/tuning.py,
`balance tune-player`).
"""

import numpy as np

from balance.games.rusship.engine.moves_nb import forward_nb, is_attack_nb, landing_ok_nb
from balance.games.rusship.engine.state import (
    D_DICE,
    D_MOVE,
    D_PLUS,
    D_POWER,
    D_REROLL,
    M_BACK,
    M_ENTER,
    M_FORWARD,
    M_MOTHERSHIP,
    M_PASS,
    MAX_LENGTH,
    O_DIE,
    O_FROM,
    O_KIND,
    O_TO,
    O_VALUE,
    P_BACK,
    P_PLUS,
    P_SHARE,
    S_NDICE,
    S_TURN,
)
from balance.kernels.jit import njit
from heuristics.knobs import Knob

# The defaults of the first seven are tuned (CMA-ES, 700 candidates on 4,000 seeds each);
# only their ratios matter, but for one_die_margin and a lost die's -0.01.
KNOBS = (
    Knob("attack", 12.4, 0.0, 40.0, "worth of an attack on the enemy planet"),
    Knob("capture", 4.2, 0.0, 20.0, "worth of a capture, plus its victim's progress"),
    Knob("progress", 9.7, 0.0, 20.0, "worth of a token's whole way across the track"),
    Knob("enter", 1.2, 0.0, 10.0, "worth of a token entering from supply"),
    Knob("risk", 0.43, 0.0, 5.0, "weight of the chance of being captured next turn"),
    Knob("mothership", 0.27, 0.0, 5.0, "worth of the mothership's step, per token in supply"),
    Knob("one_die_margin", 0.3, -5.0, 5.0, "roll one die (that power) when one die's expected "
         "worth, jumps captured, exceeds two dice's by this"),
    Knob("pw_reroll", 4, 0, 10, "rank of the reroll power"),
    Knob("pw_plus_one", 5, 0, 10, "rank of the +1 power"),
    Knob("pw_one_die", 1, 0, 10, "rank of the one-die power"),
    Knob("pw_move_back", 3, 0, 10, "rank of the move-back power"),
    Knob("pw_share", 2, 0, 10, "rank of the share power"),
)
(W_ATTACK, W_CAPTURE, W_PROGRESS, W_ENTER, W_RISK, W_MOTHER, W_ONE_MARGIN, W_POWER) = range(8)
WIN = 1000.0
# The memory's parts (one float array): the threat map, then two scratch tables of the best
# single move of each value (SC; SJ with the one-die jumps; SC + 0 the mothership's step),
# then the dice's reach with +1 on both (an enemy holding that power), set once.
H = MAX_LENGTH + 2
SC = H
SJ = SC + 32
RP = SJ + 32
MEM = RP + MAX_LENGTH + 8


def new_memory(tables, players: int) -> np.ndarray:
    """The threat map and the tables (above), the +1 reach filled in."""
    mem = np.zeros(MEM, np.float64)
    for a in range(1, 7):
        for b in range(1, 7):
            for d in {a + 1, b + 1, a + b + 2}:
                mem[RP + d] += 1 / 36
    return mem


@njit
def reset_memory_nb(mem):
    mem[:RP] = 0.0


@njit(inline=True)
def _progress_nb(ru, s, x):
    """How far along the track a token of side s on space x is, in spaces."""
    return x if s == 0 else ru.length + 1 - x


@njit(inline=True)
def _threats_nb(st, tb, ru, s, h):
    """h[x]: the chance, roughly, that side s's enemy can land on space x next roll."""
    e = 1 - s
    d = forward_nb(e)
    L = ru.length
    rp = RP if st.power[P_PLUS] == e else -1
    back = st.power[P_BACK] == e and ru.back_captures
    for x in range(L + 2):
        h[x] = 0.0
    for j in range(st.pos.shape[1]):
        a = st.pos[e, j]
        if a < 0:
            continue
        for k in range(1, 15 if rp >= 0 else 13):
            x = a + d * k
            if x < 1 or x > L:
                break
            h[x] += h[rp + k] if rp >= 0 else tb.reach[k]
        if back:
            for k in range(1, 13):
                x = a - d * k
                if x < 1 or x > L:
                    break
                h[x] += tb.reach[k]
    has_supply = False
    for j in range(st.pos.shape[1]):
        if st.pos[e, j] < 0:
            has_supply = True
    if has_supply:
        for k in range(1, 13 if ru.entry_counted else 2):
            x = st.ms[e] + d * k
            if x < 1 or x > L:
                break
            h[x] += tb.reach[k] if ru.entry_counted else 1.0
    for x in range(L + 2):
        if h[x] > 1.0:
            h[x] = 1.0


@njit(inline=True)
def _token_value_nb(ru, w, s, x):
    return w[W_ENTER] + w[W_PROGRESS] * _progress_nb(ru, s, x) / ru.length


@njit(inline=True)
def _at_risk_nb(st, ru, w, s, x, h, extra):
    """What a lone token of side s on x stands to lose next enemy roll, in score."""
    if x < 1 or x > ru.length:
        return 0.0
    if st.power[P_SHARE] == s and st.occ[s, x] + extra >= 2:
        return 0.0  # a pair cannot be captured
    return w[W_RISK] * h[x] * _token_value_nb(ru, w, s, x)


@njit(inline=True)
def _gain_nb(st, tb, ru, w, s, kind, a, t, h, jumps):
    """What one move of side s gains at once (kind, from a, to t; see the module doc)."""
    e = 1 - s
    L = ru.length
    if kind == M_PASS:
        return -0.01
    if kind == M_MOTHERSHIP:
        supply = 0
        for j in range(st.pos.shape[1]):
            if st.pos[s, j] < 0:
                supply += 1
        step = 1.0 if _progress_nb(ru, s, t) > _progress_nb(ru, s, a) else -1.0
        return step * w[W_MOTHER] * supply
    g = 0.0
    start = st.ms[s] if kind == M_ENTER else a
    if kind == M_ENTER:
        g += w[W_ENTER]
    else:
        g += _at_risk_nb(st, ru, w, s, a, h, -1)
    if is_attack_nb(ru, s, t):
        if st.hits[e] + 1 >= ru.hits_to_lose:
            return WIN
        g += w[W_ATTACK] - w[W_ENTER] - w[W_PROGRESS] * _progress_nb(ru, s, start) / L
        if kind == M_ENTER:
            g -= w[W_ENTER]
    else:
        g += w[W_PROGRESS] * (_progress_nb(ru, s, t) - _progress_nb(ru, s, start)) / L
        g -= _at_risk_nb(st, ru, w, s, t, h, 1)
        if st.occ[e, t] > 0:
            g += w[W_CAPTURE] * (1.0 + _progress_nb(ru, e, t) / L)
    if jumps:
        d = 1 if t > start else -1
        x = start + d
        while x != t and 1 <= x <= L:
            if st.occ[e, x] == 1 or (st.occ[e, x] > 1 and not ru.jump_protected):
                g += st.occ[e, x] * w[W_CAPTURE] * (1.0 + _progress_nb(ru, e, x) / L)
            x += d
    return g


@njit(inline=True)
def _best_for_value_nb(st, tb, ru, w, s, v, face, h, jumps):
    """The best gain of one die of value v (as rolled: face) for side s, the track as it is."""
    d = forward_nb(s)
    best = -0.01
    supply = False
    for j in range(st.pos.shape[1]):
        a = st.pos[s, j]
        if a < 0:
            supply = True
            continue
        t = a + d * v
        if is_attack_nb(ru, s, t) or landing_ok_nb(st, ru, s, t, False):
            best = max(best, _gain_nb(st, tb, ru, w, s, M_FORWARD, a, t, h, jumps))
        if st.power[P_BACK] == s:
            t = a - d * v
            if landing_ok_nb(st, ru, s, t, True):
                best = max(best, _gain_nb(st, tb, ru, w, s, M_BACK, a, t, h, jumps))
    if supply:
        t = st.ms[s] + d * (v if ru.entry_counted else 1)
        if is_attack_nb(ru, s, t) or landing_ok_nb(st, ru, s, t, False):
            best = max(best, _gain_nb(st, tb, ru, w, s, M_ENTER, -1, t, h, jumps))
    if face == 1:
        best = max(best, _gain_nb(st, tb, ru, w, s, M_MOTHERSHIP, st.ms[s], st.ms[s] + d, h,
                                  False))
    return best


@njit(inline=True)
def _try_nb(st, ru, s, kind, a, t):
    """Play a move on the board only (no events, no counts), for a plan: returns the token
    moved and the enemy token captured (-1: none; -2: the move attacked), to undo it."""
    e = 1 - s
    if kind == M_MOTHERSHIP:
        st.ms[s] = t
        return -1, -1
    j = -1
    for k in range(st.pos.shape[1]):
        if st.pos[s, k] == a:
            j = k
            break
    if kind != M_ENTER:
        st.occ[s, a] -= 1
    if is_attack_nb(ru, s, t):
        st.pos[s, j] = -1
        st.hits[e] += 1
        return j, -2
    v = -1
    if st.occ[e, t] > 0:
        for k in range(st.pos.shape[1]):
            if st.pos[e, k] == t:
                v = k
                break
        st.pos[e, v] = -1
        st.occ[e, t] -= 1
    st.pos[s, j] = t
    st.occ[s, t] += 1
    return j, v


@njit(inline=True)
def _undo_nb(st, s, kind, a, t, j, v):
    e = 1 - s
    if kind == M_MOTHERSHIP:
        st.ms[s] = a
        return
    if v == -2:
        st.hits[e] -= 1
    else:
        st.occ[s, t] -= 1
        if v >= 0:
            st.pos[e, v] = t
            st.occ[e, t] += 1
    st.pos[s, j] = a
    if kind != M_ENTER:
        st.occ[s, a] += 1


@njit
def _plan_nb(st, tb, ru, w, h, n, p):
    """Both dice unspent: each option played out with the best use of the other die after
    it, on the board as the option leaves it."""
    best, pick = -1e18, 0
    for k in range(n):
        r = st.opt[k]
        i, kind, a, t = r[O_DIE], r[O_KIND], r[O_FROM], r[O_TO]
        g = _gain_nb(st, tb, ru, w, p, kind, a, t, h, False)
        if g >= WIN:
            return k
        if i >= 0:
            j, v = _try_nb(st, ru, p, kind, a, t)
            if v >= 0:
                _threats_nb(st, tb, ru, p, h)  # the captured token threatens no more
            g += _best_for_value_nb(st, tb, ru, w, p, st.die[1 - i], st.face[1 - i], h, False)
            _undo_nb(st, p, kind, a, t, j, v)
            if v >= 0:
                _threats_nb(st, tb, ru, p, h)
        if g > best:
            best, pick = g, k
    return pick


@njit
def _choose_move_nb(st, tb, ru, w, h, n, p):
    if st.used[0] == 0 and st.used[1] == 0:
        return _plan_nb(st, tb, ru, w, h, n, p)
    jumps = st.sc[S_NDICE] == 1
    best, pick = -1e18, 0
    for k in range(n):
        r = st.opt[k]
        g = _gain_nb(st, tb, ru, w, p, r[O_KIND], r[O_FROM], r[O_TO], h, jumps)
        if g > best:
            best, pick = g, k
    return pick


@njit(inline=True)
def _power_nb(st, w, n):
    best, pick = -1.0, 0
    for k in range(n):
        v = w[W_POWER + st.opt[k, O_VALUE]]
        if v > best:
            best, pick = v, k
    return pick


@njit(inline=True)
def _clear_tables_nb(h):
    """Forget the tables: each entry is worked out when first asked for (a roll's value
    needs only some of them, and each costs a pass over the side's tokens)."""
    for v in range(SJ + 32 - SC):
        h[SC + v] = np.nan


@njit(inline=True)
def _single_nb(st, tb, ru, w, p, h, base, v):
    """h[SC + v]: the best gain of one token moving v spaces (h[SJ + v] the same with the
    one-die jumps); h[SC]: the mothership's step."""
    x = h[base + v]
    if x != x:
        if v == 0:
            x = _gain_nb(st, tb, ru, w, p, M_MOTHERSHIP, st.ms[p], st.ms[p] + forward_nb(p), h,
                         False)
        else:
            x = _best_for_value_nb(st, tb, ru, w, p, v, 0, h, base == SJ)
        h[base + v] = x
    return x


@njit(inline=True)
def _die_value_nb(st, tb, ru, w, p, h, base, f, add):
    """A single die showing f, add added: its best move (the mothership too on a 1)."""
    g = _single_nb(st, tb, ru, w, p, h, base, f + add)
    return max(g, _single_nb(st, tb, ru, w, p, h, SC, 0)) if f == 1 else g


@njit(inline=True)
def _pair_value_nb(st, tb, ru, w, p, h, a, b, add):
    """Two dice a and b, add added to each: the better of their best uses one by one and
    one token moving both (an estimate: it ignores what lies between)."""
    return max(_die_value_nb(st, tb, ru, w, p, h, SC, a, add)
               + _die_value_nb(st, tb, ru, w, p, h, SC, b, add),
               _single_nb(st, tb, ru, w, p, h, SC, a + b + 2 * add))


@njit(inline=True)
def _adds_nb(st, ru, p):
    """(the least, the most) each die may get added this turn: the second player's first-turn
    bonus, and +1 when p holds that power (always, or by choice)."""
    bonus = ru.second_bonus if st.sc[S_TURN] == 1 else 0
    if st.power[P_PLUS] != p:
        return bonus, bonus
    if ru.plus_always:
        return bonus + 1, bonus + 1
    return bonus, bonus + 1


@njit(inline=True)
def _roll_value_nb(st, tb, ru, w, p, h, ndice, a, b, lo, hi):
    """The value of a roll (b unused with one die), the +1 taken where it helps."""
    best = -1e18
    for add in range(lo, hi + 1):
        if ndice == 1:
            v = _die_value_nb(st, tb, ru, w, p, h, SJ, a, add)
        else:
            v = _pair_value_nb(st, tb, ru, w, p, h, a, b, add)
        best = max(best, v)
    return best


@njit
def _one_die_nb(st, tb, ru, w, p, h, n):
    """One die when its expected worth, jumps captured, beats two dice's by the margin."""
    lo, hi = _adds_nb(st, ru, p)
    _clear_tables_nb(h)
    one = two = 0.0
    for a in range(1, 7):
        one += _roll_value_nb(st, tb, ru, w, p, h, 1, a, 0, lo, hi) / 6.0
        for b in range(1, 7):
            two += _roll_value_nb(st, tb, ru, w, p, h, 2, a, b, lo, hi) / 36.0
    want = 1 if one > two + w[W_ONE_MARGIN] else 2
    for k in range(n):
        if st.opt[k, O_VALUE] == want:
            return k
    return 0


@njit
def _reroll_nb(st, tb, ru, w, p, h, n):
    """Reroll the die whose fresh roll is expected to make the roll worth most, or none."""
    lo, hi = _adds_nb(st, ru, p)
    nd = st.sc[S_NDICE]
    _clear_tables_nb(h)
    fa, fb = st.face[0], st.face[1]
    best, pick = _roll_value_nb(st, tb, ru, w, p, h, nd, fa, fb, lo, hi), 0
    for k in range(n):
        i = st.opt[k, O_VALUE]
        if i < 0:
            continue
        v = 0.0
        for f in range(1, 7):
            a, b = (f, fb) if i == 0 else (fa, f)
            v += _roll_value_nb(st, tb, ru, w, p, h, nd, a, b, lo, hi) / 6.0
        if v > best:
            best, pick = v, k
    return pick


@njit
def _plus_nb(st, tb, ru, w, p, h, n):
    """+1 on both dice when the roll is worth at least as much with it."""
    lo, _hi = _adds_nb(st, ru, p)
    nd = st.sc[S_NDICE]
    _clear_tables_nb(h)
    with_ = _roll_value_nb(st, tb, ru, w, p, h, nd, st.face[0], st.face[1], lo + 1, lo + 1)
    without = _roll_value_nb(st, tb, ru, w, p, h, nd, st.face[0], st.face[1], lo, lo)
    want = 1 if with_ >= without else 0
    for k in range(n):
        if st.opt[k, O_VALUE] == want:
            return k
    return 0


@njit
def racer_choose_nb(kind, st, tb, ru, w, mem, n, p):
    if n <= 1:
        return 0
    if kind == D_POWER:
        return _power_nb(st, w, n)
    _threats_nb(st, tb, ru, p, mem)
    if kind == D_MOVE:
        return _choose_move_nb(st, tb, ru, w, mem, n, p)
    if kind == D_DICE:
        return _one_die_nb(st, tb, ru, w, p, mem, n)
    if kind == D_REROLL:
        return _reroll_nb(st, tb, ru, w, p, mem, n)
    if kind == D_PLUS:
        return _plus_nb(st, tb, ru, w, p, mem, n)
    return 0
