"""The dice race's engine: a small Numba kernel, as a real game's engine is built.

Seats take turns. A turn rolls the die again and again, adding each roll to the turn's total,
until the seat's player stops (the total is banked) or a 1 comes up (the total is lost: a
bust). The first seat to bank `target` points wins; after `max_turns` turns the game stops
with no winner."""

from balance.kernels.jit import njit
from balance.kernels.rng import below_nb

RANDOM, STOPPER = 0, 1  # policy ids: the players' decisions are dispatched on them
END_TARGET, END_CAP = 0, 1
END_REASONS = ("target", "cap")
OUT_WINNER, OUT_TURNS, OUT_END, OUT_N = 0, 1, 2, 3  # a game's record in `out`
EV_TURN, EV_SEAT, EV_ROLL, EV_TOTAL, EV_BANKED, EV_N = 0, 1, 2, 3, 4, 5  # an event's columns


@njit
def roll_again_nb(policy, stop_at, total, rng):
    """A player's one decision: roll again with `total` at stake?"""
    if policy == RANDOM:
        return below_nb(rng, 2) == 1  # the players' own stream, never the dice's
    return total < stop_at


@njit
def play_game_nb(words, target, faces, max_turns, pol, stop_at, scores, busts, out, ev):
    """One game from its seed's words (0-3 the dice, 4-7 the players); events go to `ev`
    while it has room. Returns the number of events."""
    dice, rng = words[0:4], words[4:8]
    n = pol.shape[0]
    ne = 0
    out[OUT_WINNER], out[OUT_END] = -1, END_CAP
    turn = 0
    while turn < max_turns:
        seat = turn % n
        total = 0
        while True:
            roll = below_nb(dice, faces) + 1
            total = 0 if roll == 1 else total + roll
            stop = roll == 1 or scores[seat] + total >= target \
                or not roll_again_nb(pol[seat], stop_at[seat], total, rng)
            if ne < ev.shape[0]:
                ev[ne, EV_TURN], ev[ne, EV_SEAT], ev[ne, EV_ROLL] = turn, seat, roll
                ev[ne, EV_TOTAL], ev[ne, EV_BANKED] = total, scores[seat] + total if stop else -1
                ne += 1
            if stop:
                break
        if roll == 1:
            busts[seat] += 1
        scores[seat] += total
        turn += 1
        if scores[seat] >= target:
            out[OUT_WINNER], out[OUT_END] = seat, END_TARGET
            break
    out[OUT_TURNS] = turn
    return ne


@njit
def play_games_nb(words, target, faces, max_turns, pol, stop_at, scores, busts, out, ev):
    """One game per row of `words`, its records in the same row of the others."""
    for g in range(words.shape[0]):
        play_game_nb(words[g], target, faces, max_turns, pol, stop_at, scores[g], busts[g],
                     out[g], ev)
