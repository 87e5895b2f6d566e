"""Hand-built Gem Mountain situations for the rule tests: a game started from a seed, then its
mountain, arrow and hands set directly, and the compiled rules' own options_nb and apply_nb run
on it, one option at a time, as the kit's loop runs them."""

from __future__ import annotations

from balance.games.gem_mountain.game import KIT
from balance.games.gem_mountain.rules_nb import (
    ACT0,
    EMPTY,
    GEMS_LEFT,
    TILES_LEFT,
    VALUES,
    apply_nb,
    gain_nb,
    options_nb,
    start_nb,
)
from balance.kernels.rng import seed_states
from balance.kit.nb import reset_kit_nb
from balance.kit.play import Setup, prepare
from balance.kit.state import OFFERED

N, NE, E, SE, S, SW, W, NW = range(8)


def gem(colour: int, value: int) -> int:
    return colour * VALUES + value - 1


def action(kind: int) -> int:
    return ACT0 + kind


def game(rules: dict | None = None, players: int = 2, seed: int = 1) -> Setup:
    """A started game, checks on, its seats scripted (the tests pick by hand)."""
    s = prepare(KIT, rules or {}, ("scripted",) * players)
    reset_kit_nb(s.state.kit, s.players, seed_states([seed])[0], 0, 1)
    start_nb(s.state, s.tables, s.rules)
    return s


def mountain(s: Setup, tiles: dict[int, int], arrow: int, locked: int = 0) -> None:
    """The mountain holds exactly `tiles` (cell: code); the rest of the dealt tiles go to the
    deck's count, so that tiles stay conserved; no seat holds anything."""
    st = s.state
    dealt = int((st.grid != EMPTY).sum() + st.hand.sum())
    st.grid[:] = EMPTY
    st.hand[:] = 0
    st.cnt[:] = 0
    st.vsum[:] = 0
    for cell, code in tiles.items():
        st.grid[cell] = code
    st.deck_n[0] += dealt - len(tiles)
    st.ph[GEMS_LEFT] = sum(1 for c in tiles.values() if c < ACT0)
    st.ph[TILES_LEFT] = len(tiles)
    st.arrow[:] = (arrow, locked)


def give(s: Setup, seat: int, *codes: int) -> None:
    """Tiles into seat's hand, taken from the deck's count."""
    for code in codes:
        gain_nb(s.state, seat, code, 1)
        s.state.deck_n[0] -= 1


def options(s: Setup) -> list[tuple[int, int, int, int]]:
    options_nb(s.state, s.tables, s.rules)
    n = int(s.state.kit.sc[OFFERED])
    return [tuple(int(x) for x in row) for row in s.state.kit.opt[:n]]


def pick(s: Setup, kind: int, a: int | None = None, b: int | None = None) -> None:
    """The option of that kind (and values) applied; it must be offered."""
    opts = options(s)
    for i, o in enumerate(opts):
        if o[0] == kind and (a is None or o[1] == a) and (b is None or o[2] == b):
            apply_nb(s.state, s.tables, s.rules, i)
            return
    raise AssertionError(f"no option {kind, a, b} among {opts}")


def cells(s: Setup, kind: int) -> set[int]:
    return {o[1] for o in options(s) if o[0] == kind}


def full(s: Setup, code: int = 0) -> dict[int, int]:
    return {i: code for i in range(s.rules.rows * s.rules.cols)}


def grid_cells(s: Setup, rc) -> set[int]:
    return {r * s.rules.cols + c for r, c in rc}
