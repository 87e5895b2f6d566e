"""Hand-built Rusship situations for the rule tests: a state whose arrays are set directly,
the compiled engine's own functions run on it (moves_nb, apply_move_nb, and the kit's loop
for one turn), the dice rigged by choosing the game's random stream, the choices made by the
scripted player."""

from __future__ import annotations

import numpy as np

from balance.games.rusship.engine.moves_nb import apply_move_nb, moves_nb
from balance.games.rusship.engine.rules_nb import run_nb
from balance.games.rusship.engine.state import (
    IN_BOX,
    K_POWER,
    MAX_EVENTS,
    MOVE_NAMES,
    O_DIE,
    O_FROM,
    O_KIND,
    O_TO,
    OUT_OF_GAME,
    PH_TURN,
    POWER_NAMES,
    S_FIRST_HIT,
    S_FIRST_HIT_TURN,
    S_NDICE,
    S_PHASE,
    S_STARTER,
    S_TURN,
)
from balance.games.rusship.loop_nb import play_on_nb
from balance.games.rusship.play import Setup, prepare
from balance.kernels.rng import below_nb, seed_state
from balance.kit.state import (
    END,
    END_EVENT,
    ENDED,
    EVENTS,
    OPTION_EVENT,
    OUTCOME,
    PICK_EVENT,
    TRACE,
    TURN_EVENT,
    TURNS,
    UNDECIDED,
    WINNER,
)
from heuristics.scripted import set_script

# The kit's events of a decision, by the names the rule tests use.
EV_OPTION, EV_PICK = OPTION_EVENT, PICK_EVENT

HUMANITY, ALIEN = 0, 1


def setup(rules: dict | None = None, seats=("scripted", "scripted")) -> Setup:
    return prepare(rules, seats)


def board(s: Setup, tokens=((), ()), ms=None, powers=None, hits=(0, 0), turn=2):
    """A state with each side's tokens on the given spaces (the rest in supply), the
    motherships on `ms` (default: their starting spaces), `powers` {name: side} held, and
    the trace on."""
    ru = s.rules
    st = s.new_state(MAX_EVENTS)
    st.kit.sc[TRACE] = 1
    st.kit.sc[WINNER] = -1
    st.sc[S_TURN] = turn
    st.sc[S_FIRST_HIT] = -1
    st.sc[S_FIRST_HIT_TURN] = -1
    st.sc[S_NDICE] = 2
    st.ms[:] = ms if ms is not None else (1, ru.length)
    for side in (HUMANITY, ALIEN):
        for j, t in enumerate(tokens[side]):
            st.pos[side, j] = t
            st.occ[side, t] += 1
    for k in range(len(POWER_NAMES)):
        st.power[k] = IN_BOX if (ru.box >> k) & 1 else OUT_OF_GAME
    for name, side in (powers or {}).items():
        st.power[POWER_NAMES.index(name)] = side
    st.hits[:] = hits
    return st


def roll(st, *dice, plus=0, one_die=False):
    """The dice of a move decision as already rolled: faces, values with `plus`; one die
    alone is a die the other of which is spent, unless `one_die` (that power's jump)."""
    st.face[:] = 0
    st.die[:] = 0
    st.used[:] = 1
    for i, f in enumerate(dice):
        st.face[i] = f
        st.die[i] = f + plus
        st.used[i] = 0
    st.sc[S_NDICE] = 1 if one_die else 2


def options(st, s: Setup, side: int) -> list[tuple]:
    """The move options of `side` with the unspent dice: (value, kind, from, to)."""
    n = moves_nb(st, s.rules, side)
    return [(int(st.die[r[O_DIE]]), MOVE_NAMES[r[O_KIND]], int(r[O_FROM]), int(r[O_TO]))
            for r in st.opt[:n]]


def move(st, s: Setup, side: int, value: int, kind: str, frm: int, to: int) -> None:
    """Play the move option (value, kind, from, to), which must be offered."""
    n = moves_nb(st, s.rules, side)
    for r in st.opt[:n]:
        if (int(st.die[r[O_DIE]]), MOVE_NAMES[r[O_KIND]], int(r[O_FROM]), int(r[O_TO])) == \
                (value, kind, frm, to):
            apply_move_nb(st, s.rules, side, r.copy())
            return
    raise AssertionError(f"{(value, kind, frm, to)} not offered: {options(st, s, side)}")


def rig(st, *faces) -> None:
    """Set the game's stream so that its next rolls show `faces`, in order."""
    for seed in range(1_000_000):
        words = seed_state(seed)[:4].copy()
        probe = words.copy()
        if all(1 + below_nb(probe, 6) == f for f in faces):
            st.kit.chance[:] = words
            return
    raise AssertionError(f"no stream rolls {faces}")


def turn(st, s: Setup, side: int, faces, script) -> list[tuple]:
    """Side `side` plays one turn, turn S_TURN of the game, with its rolls rigged to `faces`
    and its decisions taken from `script`; returns the events it wrote, (code, a, b, c, d),
    the kit's turn and end left out. The kit's loop plays it under rules that stop the game
    after it (a turn cap), which is then undone."""
    rig(st, *faces)
    set_script(s.players.mem.scripted, script)
    kit = st.kit
    first = int(kit.sc[EVENTS])
    at = int(st.sc[S_TURN])
    kit.sc[TURNS] = at
    st.sc[S_STARTER] = (side - at) % 2
    st.sc[S_PHASE] = PH_TURN
    one = s.rules._replace(max_turns=at + 1)
    run_nb(st, one)
    play_on_nb(st, s.tables, one, s.players)
    if kit.sc[OUTCOME] == UNDECIDED:  # the cap that stopped it, undone
        kit.sc[ENDED] = kit.sc[OUTCOME] = kit.sc[END] = 0
    kit.sc[TURNS] = at
    st.sc[S_TURN] = at
    return [tuple(int(x) for x in row[2:]) for row in kit.ev[first: kit.sc[EVENTS]]
            if row[2] not in (TURN_EVENT, END_EVENT)]


def decisions(events) -> list[tuple[int, list[tuple]]]:
    """The decisions in `events`: (kind, [option rows (die or -1, move kind or value, from,
    to)]), as the rule tests read them."""
    out, opts = [], []
    for code, a, b, c, d in events:
        if code == EV_OPTION:
            opts.append((b, a, c, d) if a < K_POWER else (-1, b, c, d))
        elif code == EV_PICK:
            out.append((a, opts))
            opts = []
    return out


def where(st, side: int) -> list[int]:
    """The spaces of side's tokens on the track, sorted (a pair shows twice)."""
    return sorted(int(t) for t in st.pos[side] if t >= 0)


def supply(st, side: int) -> int:
    return int(np.sum(st.pos[side] < 0))

