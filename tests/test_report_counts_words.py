"""A count of players on the page or in a message reads "1 player", never "1 players", where
a game is played alone (Gem Runner against the Computer, Gem Rush solo)."""

from __future__ import annotations

import polars as pl
import pytest

from balance.errors import InputError
from reports.gemrush.page import room_table
from reports.page.merge import merged_groups


def test_merged_runs_of_one_seed_at_one_player_are_refused_in_the_singular():
    kinds = pl.DataFrame({"variant": [0, 1], "setting": ["solo", "solo"], "players": [1, 1],
                          "games": [10, 10]})
    variants = [{"variant": i, "from_run": run, "run_variant": 0, "run_seed": 3,
                 "run_games": [[0, 10]]} for i, run in enumerate(("a", "b"))]
    with pytest.raises(InputError) as e:
        merged_groups(kinds, {"merged": True, "variants": variants})
    said = str(e.value)
    assert "both solo with 1 player, played alike" in said, said


def test_gem_rush_room_table_at_one_player_is_captioned_in_the_singular():
    none = pl.DataFrame(schema={"diff": pl.Float64, "room": pl.Utf8})
    assert room_table(none, 1).caption.startswith("1 player (")
