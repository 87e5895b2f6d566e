"""Swap's targets against a plain-Python brute force: on random mountains, connected or split
already, a tile may go to an empty cell exactly when moving it there leaves no more groups of
orthogonally adjacent tiles than before (the rules count them with one labelling of the
mountain without the tile, not one per empty cell)."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.gem_mountain.rules_nb import EMPTY, PICK_UP, PUT_DOWN, SWAP, USE
from tests.games.gem_mountain.scenario import N, action, cells, game, gem, give, mountain, pick


def groups(tiles: set[int], rows: int, cols: int) -> int:
    left, n = set(tiles), 0
    while left:
        n += 1
        todo = [left.pop()]
        while todo:
            i = todo.pop()
            r, c = divmod(i, cols)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                j = rr * cols + cc
                if 0 <= rr < rows and 0 <= cc < cols and j in left:
                    left.remove(j)
                    todo.append(j)
    return n


@pytest.mark.parametrize("rows, cols", [(6, 6), (5, 7), (2, 9)])
def test_swap_targets_are_the_moves_that_split_nothing_more(rows, cols):
    rng = np.random.default_rng(rows * 100 + cols)
    for _ in range(150):
        s = game({"rows": rows, "cols": cols, "ones": 6})
        full = rng.random(rows * cols) < rng.uniform(0.2, 0.9)
        tiles = {int(i): gem(0, 1) for i in np.flatnonzero(full)}
        if not tiles:
            continue
        mountain(s, tiles, N)
        give(s, 0, action(SWAP))
        pick(s, USE, SWAP)
        a = int(rng.choice(sorted(tiles)))
        pick(s, PICK_UP, a)
        before = groups(set(tiles), rows, cols)
        want = {b for b in range(rows * cols) if b != a and (
            b in tiles or groups(set(tiles) - {a} | {b}, rows, cols) <= before)}
        assert cells(s, PUT_DOWN) == want, (sorted(tiles), a)
        assert s.state.grid[a] != EMPTY  # asking for the targets moved nothing
