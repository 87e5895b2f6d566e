"""Issue 12, silent corruption 1, 2 and 7: content and rules whose worst case would write past
an engine array, wrap an Int16 column or play a wrong game are refused before any game."""

from __future__ import annotations

import subprocess
import sys

import pytest

from balance.errors import InputError
from balance.games.gemrush.capacity import COLUMN_MAX, max_cards
from balance.games.gemrush.content import load_content
from balance.games.gemrush.limits import highest_score, longest_game, most_gained
from balance.games.gemrush.play import prepare
from balance.games.gemrush.rules import load_profile

CLI = [sys.executable, "-c", "from balance.cli.app import app; app()"]


def _big(minimal: dict) -> dict:
    """The issue's case: 5,000 copies of one card and a room `reveal 4500; keep 2`."""
    minimal["box"]["gem_cards"] = 5004
    minimal["cards"][0]["copies"] = 5000
    minimal["rooms"][0]["ability"] = "reveal 4500; keep 2"
    return minimal


def test_content_that_could_overflow_the_options_buffer_is_refused(minimal, write_content, cli):
    path = write_content(_big(minimal), "big.toml")
    r = cli("validate", path)
    assert r.exit_code == 2
    assert "field 'gem_cards'" in r.stderr and "bound of 4,095 gem cards" in r.stderr
    assert 'room "Electrum Vein": field \'ability\'' in r.stderr
    assert "'reveal 4500' counts 4,500 cards" in r.stderr


def test_play_of_big_content_refuses_instead_of_crashing(minimal, write_content):
    """Before: validation passed and `balance play` died of heap corruption (exit 134)."""
    path = write_content(_big(minimal), "big.toml")
    r = subprocess.run([*CLI, "play", "--content", str(path), "--players", "2"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr[-500:]
    assert "Traceback" not in r.stderr and "bound of 4,095" in r.stderr


def test_content_at_the_bounds_is_accepted(minimal, write_content):
    minimal["cards"][0]["copies"] = max_cards() - 4
    minimal["box"]["gem_cards"] = max_cards()
    minimal["rooms"][0]["ability"] = f"reveal {max_cards()}; keep 2"
    assert load_content(write_content(minimal)).gem_cards == max_cards()


@pytest.mark.parametrize("points", [COLUMN_MAX + 1, 10**30])
def test_door_points_a_score_column_cannot_hold_are_refused(minimal, write_content, points):
    minimal["rooms"][0]["north"]["points"] = points
    with pytest.raises(InputError, match=r"north.points.*more than a score column holds"):
        load_content(write_content(minimal))


def test_huge_ability_count_is_refused_not_a_traceback(minimal, write_content):
    minimal["rooms"][0]["ability"] = "draw 100000000000000000000000"
    with pytest.raises(InputError, match="more than the engine's bound"):
        load_content(write_content(minimal))


def test_rush_round_cap_that_would_wrap_turns_is_refused():
    """Before: 1e Rush with rush_round_cap = 10000 stored turns = -25536."""
    with pytest.raises(InputError) as e:
        prepare("1e", "rush", 4, "greedy", rules={"rush_round_cap": 10000})
    msg = str(e.value)
    assert "field 'rush_round_cap'" in msg and "'turns' column" in msg
    assert "use at most 8,190 rounds" in msg
    # the bound it names is accepted
    assert prepare("1e", "rush", 4, "greedy", rules={"rush_round_cap": 8190}).rules.players == 4


def test_door_points_that_add_up_past_the_score_column_are_refused(minimal, write_content,
                                                                   playable_text):
    path = write_content(playable_text.replace("points = 1", "points = 20000"), "rich.toml")
    with pytest.raises(InputError, match="'score' column holds"):
        prepare(None, "rush", 2, "greedy", content=str(path))


def test_target_no_score_can_reach_is_refused():
    with pytest.raises(InputError, match="field 'target'.*more than any game can score"):
        prepare("2e", "crisis", 2, "greedy", target=10**10)


@pytest.mark.parametrize("edition", ["1e", "2e"])
def test_shipped_editions_fit_every_column_at_every_player_count(edition):
    profile = load_profile(edition)
    for mode in ("crisis", "rush"):
        for players in range(max(2, profile["players_min"]), profile["players_max"] + 1):
            s = prepare(edition, mode, players, "greedy")
            assert longest_game(s.tables, s.rules) <= COLUMN_MAX
            assert highest_score(s.content, s.tables, s.rules) <= COLUMN_MAX


def test_too_few_cards_for_the_deal_is_refused(minimal, write_content):
    """Before: 6 cards and 2 players (4 each) played on with a short hand, silently."""
    path = write_content(minimal, "mini.toml")
    with pytest.raises(InputError, match=r"field 'deal'.*need 8 gem cards.*has 6"):
        prepare(None, "crisis", 2, "greedy", content=str(path))


def test_play_defaults_to_the_contents_own_edition(cli):
    """Before: `balance play --content gemrush-1e` played under the 2nd-edition profile."""
    r = cli("play", "--content", "gemrush-1e", "--players", "2", "--seed", "3")
    assert r.exit_code == 0, r.stderr
    default = cli("play", "--content", "gemrush-1e", "--players", "2", "--seed", "3",
                  "--edition", "1e")
    assert r.stdout == default.stdout
    assert r.stdout != cli("play", "--content", "gemrush-1e", "--players", "2", "--seed",
                           "3", "--edition", "2e").stdout


def test_content_where_no_door_can_be_paid_is_refused(minimal, write_content):
    """Before: accepted, and every game scored 0."""
    for room in minimal["rooms"]:
        for side in ("north", "east", "south", "west"):
            if isinstance(room[side], dict):
                room[side] = {"cost": ["Fire Ruby"] * 9, "points": 1}
    with pytest.raises(InputError, match="no scoring door can ever be paid"):
        load_content(write_content(minimal))


def test_content_where_no_door_scores_is_refused(minimal, write_content):
    for room in minimal["rooms"]:
        for side in ("north", "east", "south", "west"):
            if isinstance(room[side], dict):
                room[side]["points"] = 0
    with pytest.raises(InputError, match="no door scores a point"):
        load_content(write_content(minimal))


def test_play_seed_past_int64_is_refused_cleanly(cli):
    r = cli("play", "--seed", str(2**63))
    assert r.exit_code == 2 and "Traceback" not in (r.stdout + r.stderr)


def test_a_tiles_uses_and_cards_gained_past_int16_are_recorded_whole():
    """A tile can be used on every step, free use and action of the longest game allowed
    (1st-edition Rush at its largest round cap: 32,764 turns): more than Int16 holds."""
    import types

    import numpy as np

    from balance.games.gemrush.engine.game_nb import RM_GAINED, RM_N, RM_TYPE, RM_USES
    from balance.games.gemrush.records import rooms_table

    rooms = np.zeros((1, 2, RM_N), np.int64)
    rooms[0, :, RM_TYPE] = [0, -1]  # one placed tile
    rooms[0, 0, RM_USES], rooms[0, 0, RM_GAINED] = 393_168, -1_179_504
    t = rooms_table("x", types.SimpleNamespace(index=0), 0, types.SimpleNamespace(rooms=rooms),
                    ["Electrum Vein"])
    assert t.column("uses").to_pylist() == [393_168]
    assert t.column("gained").to_pylist() == [-1_179_504]


def test_cards_gained_past_the_rooms_column_are_refused(minimal, write_content):
    from balance.games.gemrush.limits import COUNT_MAX

    minimal["cards"][0]["copies"] = max_cards() - 4
    minimal["box"]["gem_cards"] = max_cards()
    minimal["rooms"][0]["ability"] = f"reveal {max_cards()}; keep 2"
    path = write_content(minimal)
    long_game = {"rush_round_cap": 8000, "steps": 20}
    with pytest.raises(InputError) as e:
        prepare("2e", "rush", 2, "greedy", content=path, rules=long_game)
    msg = str(e.value)
    assert "field 'ability'" in msg and "'gained' column" in msg and "16,002 player turns" in msg
    # three steps a turn fit: 16,002 turns x 12 uses x 2 steps x 4,095 cards
    ok = prepare("2e", "rush", 2, "greedy", content=path, rules=dict(long_game, steps=3))
    assert most_gained(ok.content, ok.tables, ok.rules) == 16_002 * 12 * 2 * 4_095 <= COUNT_MAX
