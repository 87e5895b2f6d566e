"""`racer`: Rusship's fast player. It scores each move by what it gains at once and keeps the
rest simple, so that it plays well above 50,000 games a second:

- an attack is worth most (the winning one, everything); a capture is worth its victim's
  progress; a step forward is worth the spaces gained, an entry a bonus;
- a token that ends within the enemy's reach is worth less by the chance the enemy's next roll
  hits it (its tokens behind it, and an entry from its mothership: the threat map, computed
  once per decision) times what the token would lose;
- with two dice unspent, a move is also credited with the best use of the other die, and a
  token's first step with the other die's follow-on (a 6 then a 3 onto a token 9 ahead);
- a rolled 1 on the mothership is worth the shorter way in for the tokens still in supply.

Its other decisions follow from the same scores: it rerolls the die whose best move is
furthest below what a fresh die is expected to give, takes +1 when it helps the dice's best
moves, rolls one die (that power) when enough enemy tokens sit within one die's reach ahead,
and picks powers by a fixed ranking (its pw_* knobs), measured with the power experiments
(experiments/rusship/power-strength.toml): the power worth most to the side behind first.
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
    P_BACK,
    P_SHARE,
    S_NDICE,
)
from balance.kernels.jit import njit
from heuristics.knobs import Knob

KNOBS = (
    Knob("attack", 4.0, 0.0, 20.0, "worth of an attack on the enemy planet"),
    Knob("capture", 1.5, 0.0, 10.0, "worth of a capture, plus its victim's progress"),
    Knob("progress", 2.0, 0.0, 10.0, "worth of a token's whole way across the track"),
    Knob("enter", 0.5, 0.0, 5.0, "worth of a token entering from supply"),
    Knob("risk", 1.5, 0.0, 10.0, "weight of the chance of being captured next turn"),
    Knob("mothership", 0.4, 0.0, 5.0, "worth of the mothership's step, per token in supply"),
    Knob("one_die_at", 2, 1, 6, "roll one die (that power) when at least this many enemy "
         "tokens sit within one die ahead", integer=True),
    Knob("pw_reroll", 3, 0, 10, "rank of the reroll power"),
    Knob("pw_plus_one", 5, 0, 10, "rank of the +1 power"),
    Knob("pw_one_die", 2, 0, 10, "rank of the one-die power"),
    Knob("pw_move_back", 1, 0, 10, "rank of the move-back power"),
    Knob("pw_share", 4, 0, 10, "rank of the share power"),
)
(W_ATTACK, W_CAPTURE, W_PROGRESS, W_ENTER, W_RISK, W_MOTHER, W_ONE_DIE, W_POWER) = range(8)
WIN = 1000.0


def new_memory(tables, players: int) -> np.ndarray:
    """The threat map: for each space, the chance the enemy's next roll reaches it."""
    return np.zeros(MAX_LENGTH + 2, np.float64)


@njit
def reset_memory_nb(mem):
    mem[:] = 0.0


@njit(inline=True)
def _progress_nb(ru, s, x):
    """How far along the track a token of side s on space x is, in spaces."""
    return x if s == 0 else ru.length + 1 - x


@njit
def _threats_nb(st, tb, ru, s, h):
    """h[x]: the chance, roughly, that side s's enemy can land on space x next roll."""
    e = 1 - s
    d = forward_nb(e)
    L = ru.length
    for x in range(L + 2):
        h[x] = 0.0
    for j in range(st.pos.shape[1]):
        a = st.pos[e, j]
        if a < 0:
            continue
        for k in range(1, 13):
            x = a + d * k
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


@njit
def _at_risk_nb(st, ru, w, s, x, h, extra):
    """What a lone token of side s on x stands to lose next enemy roll, in score."""
    if x < 1 or x > ru.length:
        return 0.0
    if st.power[P_SHARE] == s and st.occ[s, x] + extra >= 2:
        return 0.0  # a pair cannot be captured
    return w[W_RISK] * h[x] * (w[W_ENTER] + w[W_PROGRESS] * _progress_nb(ru, s, x) / ru.length)


@njit
def _gain_nb(st, ru, w, s, kind, a, t, h, jumps):
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


@njit
def _best_for_value_nb(st, ru, w, s, v, face, h, jumps):
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
            best = max(best, _gain_nb(st, ru, w, s, M_FORWARD, a, t, h, jumps))
        if st.power[P_BACK] == s:
            t = a - d * v
            if landing_ok_nb(st, ru, s, t, True):
                best = max(best, _gain_nb(st, ru, w, s, M_BACK, a, t, h, jumps))
    if supply:
        t = st.ms[s] + d * (v if ru.entry_counted else 1)
        if is_attack_nb(ru, s, t) or landing_ok_nb(st, ru, s, t, False):
            best = max(best, _gain_nb(st, ru, w, s, M_ENTER, -1, t, h, jumps))
    if face == 1:
        best = max(best, _gain_nb(st, ru, w, s, M_MOTHERSHIP, st.ms[s], st.ms[s] + d, h,
                                  False))
    return best


@njit
def _choose_move_nb(st, tb, ru, w, h, n, p):
    jumps = st.sc[S_NDICE] == 1
    both = st.used[0] == 0 and st.used[1] == 0
    best0 = best1 = -1.0  # the best use of each die alone, for the other die's credit
    if both:
        best0 = _best_for_value_nb(st, ru, w, p, st.die[0], st.face[0], h, jumps)
        best1 = _best_for_value_nb(st, ru, w, p, st.die[1], st.face[1], h, jumps)
    best, pick = -1e18, 0
    d = forward_nb(p)
    for k in range(n):
        r = st.opt[k]
        i, kind, a, t = r[O_DIE], r[O_KIND], r[O_FROM], r[O_TO]
        g = _gain_nb(st, ru, w, p, kind, a, t, h, jumps)
        if both and i >= 0 and g < WIN:
            other = best1 if i == 0 else best0
            if (kind == M_FORWARD or kind == M_ENTER) and not is_attack_nb(ru, p, t):
                # The same token on with the other die: its gain from here, as one move.
                t2 = t + d * st.die[1 - i]
                if is_attack_nb(ru, p, t2) or landing_ok_nb(st, ru, p, t2, False):
                    on = _gain_nb(st, ru, w, p, M_FORWARD, t, t2, h, jumps)
                    on += _at_risk_nb(st, ru, w, p, t, h, 1)  # it does not stay on t
                    other = max(other, on)
            g += other
        if g > best:
            best, pick = g, k
    return pick


@njit
def _power_nb(st, w, n):
    best, pick = -1.0, 0
    for k in range(n):
        v = w[W_POWER + st.opt[k, O_KIND]]
        if v > best:
            best, pick = v, k
    return pick


@njit
def _one_die_nb(st, ru, w, p, n):
    """Roll one die when at least `one_die_at` lone enemy tokens are within 6 spaces ahead of
    one of its tokens (or of its mothership, with tokens to enter)."""
    e = 1 - p
    d = forward_nb(p)
    near = 0
    for j in range(st.pos.shape[1]):
        x = st.pos[e, j]
        if x < 0 or st.occ[e, x] > 1:
            continue
        for k in range(st.pos.shape[1] + 1):
            a = st.ms[p] if k == st.pos.shape[1] else st.pos[p, k]
            if k < st.pos.shape[1] and a < 0:
                continue
            gap = (x - a) * d
            if 1 <= gap <= 6:
                near += 1
                break
    want = 1 if near >= w[W_ONE_DIE] else 2
    for k in range(n):
        if st.opt[k, O_KIND] == want:
            return k
    return 0


@njit
def _reroll_nb(st, ru, w, p, h, n):
    """Reroll the die whose best move is furthest below a fresh die's expected best."""
    jumps = st.sc[S_NDICE] == 1
    fresh = 0.0
    for f in range(1, 7):
        fresh += _best_for_value_nb(st, ru, w, p, f, f, h, jumps) / 6.0
    best, pick = 0.0, 0  # option 0: keep both
    for k in range(n):
        i = st.opt[k, O_KIND]
        if i < 0:
            continue
        lack = fresh - _best_for_value_nb(st, ru, w, p, st.face[i], st.face[i], h, jumps)
        if lack > best:
            best, pick = lack, k
    return pick


@njit
def _plus_nb(st, ru, w, p, h, n):
    jumps = st.sc[S_NDICE] == 1
    with_, without = 0.0, 0.0
    for i in range(st.sc[S_NDICE]):
        f = st.face[i]
        with_ += _best_for_value_nb(st, ru, w, p, f + 1, f, h, jumps)
        without += _best_for_value_nb(st, ru, w, p, f, f, h, jumps)
    want = 1 if with_ >= without else 0
    for k in range(n):
        if st.opt[k, O_KIND] == want:
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
        return _one_die_nb(st, ru, w, p, n)
    if kind == D_REROLL:
        return _reroll_nb(st, ru, w, p, mem, n)
    if kind == D_PLUS:
        return _plus_nb(st, ru, w, p, mem, n)
    return 0
