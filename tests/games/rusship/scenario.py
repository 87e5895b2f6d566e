"""Hand-built Rusship situations for the rule tests: a state whose arrays are set directly,
the compiled engine's own functions run on it (moves_nb, apply_move_nb, play_turn_nb), the
dice rigged by choosing the game's random stream, the choices made by the scripted player."""

from __future__ import annotations

import numpy as np

from balance.games.rusship.engine.moves_nb import apply_move_nb, moves_nb
from balance.games.rusship.engine.state import (
    EV_OPTION,
    EV_PICK,
    IN_BOX,
    MAX_EVENTS,
    MOVE_NAMES,
    O_DIE,
    O_FROM,
    O_KIND,
    O_TO,
    OUT_OF_GAME,
    POWER_NAMES,
    S_CUR,
    S_EV_N,
    S_FIRST_HIT,
    S_FIRST_HIT_TURN,
    S_NDICE,
    S_TRACE,
    S_TURN,
    S_WINNER,
    new_state,
)
from balance.games.rusship.engine.turn_nb import play_turn_nb
from balance.games.rusship.play import Setup, prepare
from balance.kernels.rng import below_nb, seed_state
from heuristics.scripted import set_script

HUMANITY, ALIEN = 0, 1


def setup(rules: dict | None = None, seats=("scripted", "scripted")) -> Setup:
    return prepare(rules, seats)


def board(s: Setup, tokens=((), ()), ms=None, powers=None, hits=(0, 0), turn=2):
    """A state with each side's tokens on the given spaces (the rest in supply), the
    motherships on `ms` (default: their starting spaces), `powers` {name: side} held, and
    the trace on."""
    ru = s.rules
    st = new_state(MAX_EVENTS, tokens=ru.tokens)
    st.sc[S_TRACE] = 1
    st.sc[S_TURN] = turn
    st.sc[S_FIRST_HIT] = -1
    st.sc[S_FIRST_HIT_TURN] = -1
    st.sc[S_WINNER] = -1
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
            st.rng[:] = words
            return
    raise AssertionError(f"no stream rolls {faces}")


def turn(st, s: Setup, side: int, faces, script) -> list[tuple]:
    """Side `side` plays one turn with its rolls rigged to `faces` and its decisions taken
    from `script`; returns the events it wrote, (code, a, b, c, d)."""
    rig(st, *faces)
    set_script(s.players.mem.scripted, script)
    first = int(st.sc[S_EV_N])
    st.sc[S_CUR] = side
    play_turn_nb(st, s.tables, s.rules, s.players, side)
    return [tuple(int(x) for x in row[2:]) for row in st.ev[first: st.sc[S_EV_N]]]


def decisions(events) -> list[tuple[int, list[tuple]]]:
    """The decisions in `events`: (kind, [option rows (die, kind, from, to)])."""
    out, opts = [], []
    for code, a, b, c, d in events:
        if code == EV_OPTION:
            opts.append((a, b, c, d))
        elif code == EV_PICK:
            out.append((a, opts))
            opts = []
    return out


def where(st, side: int) -> list[int]:
    """The spaces of side's tokens on the track, sorted (a pair shows twice)."""
    return sorted(int(t) for t in st.pos[side] if t >= 0)


def supply(st, side: int) -> int:
    return int(np.sum(st.pos[side] < 0))

