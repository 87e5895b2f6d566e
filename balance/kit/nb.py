"""The kit's compiled helpers: what a game's rules call (its streams, turns, decisions,
events and end) and what its generated loop calls (seeding, counting, checking, recording).
None of them takes a function: a game's loop that calls its own rules is generated
(generate.py), because a compiled function passed as an argument misses Numba's on-disk
cache in every new process."""

from balance.kernels.jit import njit
from balance.kernels.rng import below_nb, shuffle_nb
from balance.kit.course_nb import note_course_nb, reset_course_nb, write_course_nb
from balance.kit.state import (
    AUTOMA_WON,
    CHECK,
    DECISIONS,
    END,
    END_EVENT,
    ENDED,
    EVENTS,
    KIND,
    LEADER,
    LEADS,
    NO_OPTION,
    OFFERED,
    OPTION_EVENT,
    OPTIONS,
    OUTCOME,
    PICK_EVENT,
    PICK_NOT_OFFERED,
    PICKED,
    SEAT,
    SEAT_WON,
    TEAM_WON,
    TIE,
    TOO_MANY_OPTIONS,
    TRACE,
    TURN,
    TURN_EVENT,
    TURNS,
    UNDECIDED,
    UNKNOWN_OPTION,
    VIOLATION,
    WINNER,
)

# A game's record: these values, then scores, tallies, the game's own, lead changes, then its
# course (course_nb.py).
FIXED = 9


# -- what a game's rules call ----------------------------------------------------------------

@njit(inline=True)
def draw_nb(kit, n):
    """A number in [0, n) from the game's stream (never the players')."""
    return below_nb(kit.chance, n)


@njit(inline=True)
def roll_nb(kit, faces):
    """A die of `faces` faces, from the game's stream."""
    return 1 + below_nb(kit.chance, faces)


@njit
def shuffled_nb(kit, items, n):
    """items[:n] shuffled with the game's stream."""
    shuffle_nb(kit.chance, items, n)


@njit(inline=True)
def seat_nb(kit):
    """The seat whose turn it is (from 0)."""
    return kit.sc[SEAT]


@njit(inline=True)
def turns_nb(kit):
    """The turns begun so far: the turn under way is turns_nb - 1."""
    return kit.sc[TURNS]


@njit(inline=True)
def ended_nb(kit):
    return kit.sc[ENDED] != 0


@njit(inline=True)
def winner_nb(kit):
    """The seat that won, or -1 (no seat has, or the game has not ended)."""
    return kit.sc[WINNER]


@njit
def turn_nb(kit, seat):
    """A new turn, for `seat`: the turn before it ended (its scores join the lead record)."""
    note_course_nb(kit, _note_lead_nb(kit))
    kit.sc[TURN] = kit.sc[TURNS]
    kit.sc[TURNS] += 1
    kit.sc[SEAT] = seat
    emit_nb(kit, TURN_EVENT, 0, 0, 0, 0)


@njit(inline=True)
def ask_nb(kit, decision, seat):
    """A decision of kind `decision` for `seat`; its options follow with offer_nb."""
    kit.sc[KIND] = decision
    kit.sc[SEAT] = seat
    kit.sc[OFFERED] = 0


@njit(inline=True)
def offer_nb(kit, option, a, b, c):
    """One more option of the decision at hand: its kind (KitGame.options) and three values
    of the game's. Past what the kit holds an option is counted, not kept: a check says so."""
    n = kit.sc[OFFERED]
    if n < kit.opt.shape[0]:
        row = kit.opt[n]
        row[0] = option
        row[1] = a
        row[2] = b
        row[3] = c
    kit.sc[OFFERED] = n + 1


@njit(inline=True)
def emit_nb(kit, code, a, b, c, d):
    """An event of the game's (KitGame.events[code]), kept while tracing."""
    if kit.sc[TRACE] == 0:
        return
    n = kit.sc[EVENTS]
    if n >= kit.ev.shape[0]:
        return
    row = kit.ev[n]
    row[0] = kit.sc[TURN]
    row[1] = kit.sc[SEAT]
    row[2] = code
    row[3] = a
    row[4] = b
    row[5] = c
    row[6] = d
    kit.sc[EVENTS] = n + 1


@njit
def win_nb(kit, seat, reason):
    """The game ends: `seat` won, for end reason `reason` (an index of KitGame.end_reasons)."""
    _end_nb(kit, SEAT_WON, seat, reason)


@njit
def tie_nb(kit, reason):
    _end_nb(kit, TIE, -1, reason)


@njit
def team_wins_nb(kit, reason):
    """A cooperative game ends won: every seat together."""
    _end_nb(kit, TEAM_WON, -1, reason)


@njit
def automa_wins_nb(kit, reason):
    """The rules' own opponent (not a seat) won: the seats lost together."""
    _end_nb(kit, AUTOMA_WON, -1, reason)


@njit
def undecided_nb(kit, reason):
    """The game stops without a result (a turn cap): KitGame.undecided_ends names the reason."""
    _end_nb(kit, UNDECIDED, -1, reason)


@njit
def _end_nb(kit, outcome, seat, reason):
    kit.sc[ENDED] = 1
    kit.sc[OUTCOME] = outcome
    kit.sc[WINNER] = seat
    kit.sc[END] = reason
    note_course_nb(kit, _note_lead_nb(kit))
    emit_nb(kit, END_EVENT, outcome, seat, reason, 0)


@njit
def _note_lead_nb(kit):
    """After each turn: the seat ahead on score (-1 when the lead is shared), recorded when
    it changes. Compact, and enough to tell when a game was decided (the last change) and
    whether its winner came from behind (an earlier leader). Past MAX_LEADS changes the first
    ones and the latest are kept. Returns the seat ahead (-1: shared), for the course."""
    top = kit.score[0]
    for s in range(1, kit.score.shape[0]):
        top = max(top, kit.score[s])
    leader = -1
    for s in range(kit.score.shape[0]):
        if kit.score[s] == top:
            leader = s if leader == -1 else -2
    leader = max(leader, -1)
    if kit.sc[TURNS] == 0 or leader == kit.sc[LEADER]:
        return leader
    kit.sc[LEADER] = leader
    n = kit.sc[LEADS]
    if n == kit.lead.shape[0]:
        n -= 1  # full: the latest change takes the last slot, so the record ends with it
    kit.lead[n, 0] = kit.sc[TURN]
    kit.lead[n, 1] = leader
    kit.sc[LEADS] = n + 1
    return leader


# -- what a game's generated loop calls ------------------------------------------------------

@njit
def reset_kit_nb(kit, seats, words, trace, check):
    """A new game from its seed's words (balance/kernels/rng.py, seed_states): words 0-3 seed
    the game's stream, 4-7 the players' (Seats.rng). Every game on the kit is seeded here, so
    none can forget a stream, and none depends on the game played before it."""
    for i in range(4):
        kit.chance[i] = words[i]
        seats.rng[i] = words[4 + i]
    kit.sc[:] = 0
    kit.sc[TRACE] = trace
    kit.sc[CHECK] = check
    kit.sc[WINNER] = -1
    kit.sc[LEADER] = -1  # every seat starts level
    reset_course_nb(kit)
    kit.score[:] = 0
    kit.tally[:] = 0
    kit.rec[:] = 0


@njit(inline=True)
def counted_nb(kit, n):
    """A decision of n options: counted for the games table (decisions, branching)."""
    kit.sc[DECISIONS] += 1
    kit.sc[OPTIONS] += n


@njit(inline=True)
def verified_nb(kit, pick, n):
    """The pick if it is one of the n options; else the first, and the game is marked."""
    if pick < 0 or pick >= n:
        if kit.sc[VIOLATION] == 0:
            kit.sc[VIOLATION] = PICK_NOT_OFFERED
        return 0
    kind = kit.opt[pick, 0]
    if 0 <= kind < 63:
        kit.sc[PICKED] |= 1 << kind
    return pick


@njit
def offered_nb(kit, kinds):
    """With checks on: the decision at hand offers at least one option, no more than the kit
    holds, each of a declared kind (0 to kinds - 1). Returns the options to ask about."""
    n = kit.sc[OFFERED]
    if n == 0:
        _violated_nb(kit, NO_OPTION)
    elif n > kit.opt.shape[0]:
        _violated_nb(kit, TOO_MANY_OPTIONS)
        n = kit.opt.shape[0]
    for j in range(n):
        if kit.opt[j, 0] < 0 or kit.opt[j, 0] >= kinds:
            _violated_nb(kit, UNKNOWN_OPTION)
    return n


@njit
def judged_nb(kit, broken, first):
    """With checks on, after each step: `broken`, what the game's own invariants found (0:
    none, else the 1-based index of KitGame.invariants), numbered after the kit's own."""
    if broken:
        _violated_nb(kit, first + broken - 1)


@njit
def _violated_nb(kit, code):
    if kit.sc[VIOLATION] == 0:
        kit.sc[VIOLATION] = code


@njit
def stalled_nb(kit):
    """A decision with no option: the game cannot go on. It stops undecided, marked."""
    _violated_nb(kit, NO_OPTION)
    _end_nb(kit, UNDECIDED, -1, 0)


@njit
def trace_options_nb(kit, n):
    for j in range(n):
        r = kit.opt[j]
        emit_nb(kit, OPTION_EVENT, r[0], r[1], r[2], r[3])


@njit
def trace_pick_nb(kit, decision, pick, n):
    emit_nb(kit, PICK_EVENT, decision, pick, n, 0)


@njit
def write_record_nb(kit, row):
    """A finished game into its row of the batch's records (records.py reads them)."""
    row[0] = kit.sc[OUTCOME]
    row[1] = kit.sc[WINNER]
    row[2] = kit.sc[END]
    row[3] = kit.sc[TURNS]
    row[4] = kit.sc[DECISIONS]
    row[5] = kit.sc[OPTIONS]
    row[6] = kit.sc[VIOLATION]
    row[7] = kit.sc[PICKED]
    row[8] = kit.sc[LEADS]
    at = FIXED
    seats = kit.score.shape[0]
    for s in range(seats):
        row[at + s] = kit.score[s]
    at += seats
    for s in range(seats):
        for t in range(kit.tally.shape[1]):
            row[at] = kit.tally[s, t]
            at += 1
    for k in range(kit.rec.shape[0]):
        row[at + k] = kit.rec[k]
    at += kit.rec.shape[0]
    for k in range(kit.sc[LEADS]):
        row[at + 2 * k] = kit.lead[k, 0]
        row[at + 2 * k + 1] = kit.lead[k, 1]
    for k in range(at + 2 * kit.sc[LEADS], at + 2 * kit.lead.shape[0]):
        row[k] = 0  # the whole row is the game's: batches are compared row by row
    write_course_nb(kit, row, at + 2 * kit.lead.shape[0])


# -- what a game's generated redraw of the unseen calls (KitGame.hidden) ---------------------
# Kernels never allocate (balance/kernels/jit.py): the unseen items are shuffled where they lie,
# the i-th of them found part by part.

@njit
def unseen_rows_nb(count, seat):
    """How many private items (row q: count[q] of them) `seat` cannot see: all rows but its."""
    n = 0
    for q in range(count.shape[0]):
        if q != seat:
            n += count[q]
    return n


@njit
def row_slot_nb(count, seat, i):
    """Where the i-th private item `seat` cannot see lies: (row, column); past them (-1, i
    less their number), for the next part."""
    for q in range(count.shape[0]):
        if q != seat:
            if i < count[q]:
                return q, i
            i -= count[q]
    return -1, i


@njit
def pile_slot_nb(count, i):
    """The i-th item of a face-down pile (count[0] of them): (0, i); past them (-1, i less
    their number)."""
    if i < count[0]:
        return 0, i
    return -1, i - count[0]


@njit(inline=True)
def redraw_pick_nb(rng, i):
    """Fisher-Yates's pick for place i, from a search's stream (never the game's nor the
    players')."""
    return below_nb(rng, i + 1)
