"""Trace events: what the engine writes when asked to show its work (one row per event:
turn, seat, code, then up to five arguments). `balance.games.gemrush.trace` turns them into
words."""

from balance.games.gemrush.engine.state import S_CUR, S_EV_N, S_TRACE, S_TURN
from balance.kernels.jit import njit

(EV_TURN, EV_DISCARD, EV_MOVE, EV_BUILD, EV_PAY, EV_PLACE, EV_TUNNEL, EV_CART, EV_WARP_MOVE,
 EV_ABILITY, EV_DRAW, EV_REVEAL, EV_KEEP, EV_PASS_OVER, EV_BURN, EV_RESHUFFLE, EV_NAME,
 EV_CHOOSE_X, EV_SWAP, EV_TELEPORT, EV_MOVE_ROOM, EV_END, EV_VOL_DISCARD, EV_STOP_BACK,
 EV_SETUP, EV_DEAL, EV_BONUS, EV_TURN_END, EV_SKILL_DEAL, EV_SKILL, EV_SKILL_REDRAW, EV_FACE,
 EV_RECOVER) = range(33)
# Skill events: EV_SKILL_DEAL (seat, slot, skill); EV_SKILL (skill, effect op, a, b, slot),
# where a and b are the turned and the discarded card of `turn` (-1: none), the room moved to,
# the room used again, or the hand size kept; EV_FACE (card, gem, gem) after a turn;
# EV_RECOVER (card) from the discard pile; EV_SKILL_REDRAW (old skill, new skill).


@njit
def emit_nb(st, code, a, b, c, d, e):
    if st.sc[S_TRACE] == 0:
        return
    n = st.sc[S_EV_N]
    if n >= st.ev.shape[0]:
        return
    row = st.ev[n]
    row[0] = st.sc[S_TURN]
    row[1] = st.sc[S_CUR]
    row[2] = code
    row[3] = a
    row[4] = b
    row[5] = c
    row[6] = d
    row[7] = e
    st.sc[S_EV_N] = n + 1

