"""The course of a game on the kit: each seat's progress after every turn, kept compactly, and
the changes of leader counted, for the measures of a game's course (balance/stats/course.py).

Progress is the score, or the tally the game declares (KitGame.progress). The kit keeps it
after every turn while COURSE_KEEP turns fit; past that every other turn kept is dropped and
the stride doubles, so a game of any length costs the same and its course is never coarser
than a COURSE_KEEP-th of the game; the array's last row holds the declaration (state.py).
The record holds the course at the end of each of COURSE_POINTS equal parts of the game
(write_course_nb), not the turns themselves."""

from balance.kernels.jit import njit
from balance.kit.state import COURSE_POINTS, KEPT, LEAD_CHANGES, SOLE, STRIDE, TURNS


@njit(inline=True)
def tally_nb(kit):
    """The tally that counts as progress (KitGame.progress), -1 for the score."""
    return kit.course[kit.course.shape[0] - 1, 0]


@njit(inline=True)
def progress_nb(kit, s):
    p = tally_nb(kit)
    return kit.score[s] if p < 0 else kit.tally[s, p]


@njit(inline=True)
def sole_leader_nb(kit):
    """The seat ahead of every other on progress; -1 when the lead is shared."""
    best = -1
    top = 0
    shared = False
    for s in range(kit.score.shape[0]):
        v = progress_nb(kit, s)
        if best == -1 or v > top:
            best = s
            top = v
            shared = False
        elif v == top:
            shared = True
    return -1 if shared else best


@njit
def reset_course_nb(kit):
    kit.sc[STRIDE] = 1
    kit.sc[SOLE] = -1


@njit
def note_course_nb(kit, leader):
    """After TURNS turns (0: the start): a change of sole leader counted, as Ludii's
    LeadChange counts a change of the player ahead (a shared lead changes nothing, so a
    leader caught and passed is one change), and each seat's progress kept when the turn
    is the next one the stride keeps. `leader`: the seat alone ahead on score, or -1, which
    the lead record has found already (progress is the score unless a game declares
    otherwise). Called after every turn of every game: no division."""
    if tally_nb(kit) >= 0:
        leader = sole_leader_nb(kit)
    if leader >= 0 and leader != kit.sc[SOLE]:
        if kit.sc[SOLE] >= 0:
            kit.sc[LEAD_CHANGES] += 1
        kit.sc[SOLE] = leader
    t = kit.sc[TURNS]
    kept = kit.sc[KEPT]
    # A forward model's fresh state has never been reset: a stride of 0 reads as 1.
    stride = max(kit.sc[STRIDE], 1)
    if t != kept * stride:
        return
    keep = kit.course.shape[0] - 1
    if kept >= keep:
        for j in range(keep // 2):
            for s in range(kit.course.shape[1]):
                kit.course[j, s] = kit.course[2 * j, s]
        kept = keep // 2
        stride *= 2
        kit.sc[STRIDE] = stride
        if t != kept * stride:
            kit.sc[KEPT] = kept
            return
    for s in range(kit.course.shape[1]):
        kit.course[kept, s] = progress_nb(kit, s)
    kit.sc[KEPT] = kept + 1


@njit
def write_course_nb(kit, row, at):
    """Into row[at:]: each seat's progress at the end of each of COURSE_POINTS equal parts
    of the game (after turn round(k * turns / COURSE_POINTS), k from 1; the last kept turn
    at or before it where the stride skipped it), point by point, then the lead changes."""
    seats = kit.score.shape[0]
    turns = kit.sc[TURNS]
    stride = max(kit.sc[STRIDE], 1)
    kept = kit.sc[KEPT]
    for k in range(COURSE_POINTS):
        t = ((k + 1) * turns + COURSE_POINTS // 2) // COURSE_POINTS
        base = at + k * seats
        for s in range(seats):
            if t >= turns or kept == 0:
                row[base + s] = progress_nb(kit, s)
            else:
                row[base + s] = kit.course[min(t // stride, kept - 1), s]
    row[at + COURSE_POINTS * seats] = kit.sc[LEAD_CHANGES]
