"""Tables.order, the cells nearest first from each arrow position: the top and a turn's grabs
read from it (rules_nb.top_nb, offer_top_nb; the majority player's top_value_nb) are the
ones the whole mountain gives, in grid order, on every kind of mountain left after grabs."""

import numpy as np

from balance.games.gem_mountain.rules_nb import EMPTY, GRAB, new_tables, top_nb
from tests.games.gem_mountain.scenario import game, gem, mountain, options


def test_each_position_orders_every_cell_by_layer_then_grid_order():
    for rules in ({}, {"gemshards": True}, {"rows": 4, "cols": 7}):
        s = game(rules)
        tables = new_tables(s.rules)
        for pos in range(tables.layer.shape[0]):
            order, layer = tables.order[pos], tables.layer[pos]
            assert sorted(order) == list(range(layer.shape[0]))
            keys = [(layer[i], i) for i in order]
            assert keys == sorted(keys)


def test_the_top_and_the_grabs_are_the_whole_mountains_on_thinned_mountains():
    s = game(players=3)
    cells = s.state.grid.shape[0]
    rng = np.random.default_rng(5)
    for trial in range(60):
        kept = rng.random(cells) < rng.uniform(0.05, 0.9)
        if not kept.any():
            continue
        tiles = {int(i): gem(int(rng.integers(5)), int(rng.integers(1, 4)))
                 for i in np.flatnonzero(kept)}
        pos = int(rng.integers(8))
        mountain(s, tiles, pos)
        layer = s.tables.layer[pos]
        top = min(layer[i] for i in tiles)
        assert top_nb(s.state, s.tables, pos) == top
        want = [(GRAB, i, tiles[i], top) for i in range(cells)
                if s.state.grid[i] != EMPTY and layer[i] == top]
        assert [o for o in options(s) if o[0] == GRAB] == want, (trial, pos)
