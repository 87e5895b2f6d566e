"""Issue 11, causal room value: a mine cart's rides are its uses in the rooms table (before,
a cart ridden 1 to 16 times a game recorded 0 uses)."""

from __future__ import annotations

import numpy as np

from balance.games.gemrush.engine import events as E
from balance.games.gemrush.engine.state import PL_TYPE, PL_USES, S_PLACED
from balance.games.gemrush.play import play_traced, prepare
from balance.games.gemrush.tables import MINECART


def test_every_cart_ride_is_a_use_of_the_cart_it_leaves_from():
    setup = prepare("2e", "crisis", 4, "greedy", exhaust=True, rules={})
    rides_seen = 0
    for seed in range(40):
        st, ev = play_traced(setup, seed, check=False)
        rides = ev[ev[:, 2] == E.EV_CART]
        per_room = np.bincount(rides[:, 3], minlength=st.sc[S_PLACED])
        placed = st.sc[S_PLACED]
        carts = [j for j in range(placed)
                 if setup.tables.room_kind[st.pl[PL_TYPE, j]] == MINECART]
        for j in carts:
            assert st.pl[PL_USES, j] == per_room[j]
        rides_seen += len(rides)
    assert rides_seen > 0  # the sample has rides to count
