"""Gem Mountain's rules and box as data: both files read and checked, every tile count a
setting an experiment sweeps, and a box no game can be dealt from refused in one message
naming the field."""

from __future__ import annotations

import pytest

from balance.errors import InputError
from balance.games.gem_mountain.game import GAME, KIT
from balance.games.gem_mountain.rules import (
    BOX_FILE,
    BOX_SETTINGS,
    RULES_FILE,
    kit_rules,
    read_all,
)
from balance.games.gem_mountain.rules_nb import new_tables
from balance.kit.play import play, prepare


def test_the_box_is_marked_reconstructed_and_every_count_is_a_setting():
    assert "RECONSTRUCTED" in BOX_FILE.read_text()
    names = {s.name for s in GAME.settings}
    assert {s.name for s in BOX_SETTINGS} <= names
    assert {"ones", "twos", "threes", "move_arrow", "arrow_lock", "swap", "double",
            "steal", "colours"} <= names


def test_the_default_box_holds_47_tiles_for_a_36_cell_mountain():
    rules = kit_rules(KIT.defaults, 4)
    assert len(new_tables(rules).box) == 47 and rules.rows * rules.cols == 36


def test_a_count_swept_changes_the_box():
    rules = kit_rules({**KIT.defaults, "steal": 0, "threes": 3}, 3)
    box = new_tables(rules).box.tolist()
    assert 22 not in box and sum(1 for c in box if c < 18 and c % 3 == 2) == 15


@pytest.mark.parametrize("line, new, field", [
    ("ones = 4", "ones = -1", "ones"),
    ("steal = 2", "steal = 2.5", "steal"),
    ("ones = 4", "ones = 0", None),
])
def test_a_broken_box_file_is_one_message_naming_the_field(tmp_path, line, new, field):
    bad = tmp_path / "box.toml"
    text = BOX_FILE.read_text().replace(line, new)
    if field is None:  # no gem at all: no single range says it
        text = text.replace("twos = 2", "twos = 0").replace("threes = 1", "threes = 0")
        field = "ones"
    bad.write_text(text)
    with pytest.raises(InputError) as e:
        read_all(RULES_FILE, bad)
    assert [(p.file, p.field) for p in e.value.problems] == [(str(bad), field)]


def test_a_bad_rules_default_names_the_rules_file(tmp_path):
    bad = tmp_path / "rules.toml"
    bad.write_text(RULES_FILE.read_text().replace('split = "ignore"', 'split = "halves"'))
    with pytest.raises(InputError) as e:
        read_all(bad, BOX_FILE)
    assert [(p.file, p.field) for p in e.value.problems] == [(str(bad), "split")]


def test_a_map_larger_than_the_box_is_refused_before_any_game():
    with pytest.raises(InputError) as e:
        prepare(KIT, {"rows": 8, "cols": 8}, ("random",) * 3)
    [p] = e.value.problems
    assert p.field == "box" and "64 cells" in p.message
    with pytest.raises(InputError) as e:
        prepare(KIT, {"start_tiles": "action", "move_arrow": 0, "arrow_lock": 0, "swap": 0,
                      "double": 1, "steal": 1}, ("random",) * 4)
    assert [p.field for p in e.value.problems] == ["start_tiles"]


COMBINATIONS = [{"dark_tunnels": True, "gemshards": True},
                {"dark_tunnels": True, "golden_actions": True},
                {"gemshards": True, "golden_actions": True},
                {"dark_tunnels": True, "gemshards": True, "golden_actions": True}]


@pytest.mark.parametrize("on", [{"dark_tunnels": True}, {"gemshards": True},
                                {"golden_actions": True}, *COMBINATIONS])
def test_every_expansion_and_every_combination_is_played(on):
    """Dark Tunnels with another was refused (field dark_tunnels) until mix_nb.py: now every
    combination plays, its box the union of the expansions' tiles."""
    box = new_tables(kit_rules({**KIT.defaults, **on}, 3)).box
    alone = {k: len(new_tables(kit_rules({**KIT.defaults, k: True}, 3)).box) - 47 for k in on}
    assert len(box) == 47 + sum(alone.values())
    r = play(prepare(KIT, on, ("random",) * 3), range(20), check=True)
    assert (r.violation == 0).all()


def test_the_three_expansions_in_the_rules_file_are_read(tmp_path):
    on = tmp_path / "rules.toml"
    on.write_text(RULES_FILE.read_text().replace("dark_tunnels = false", "dark_tunnels = true")
                  .replace("gemshards = false", "gemshards = true")
                  .replace("golden_actions = false", "golden_actions = true"))
    values = read_all(on, BOX_FILE)
    assert values["dark_tunnels"] and values["gemshards"] and values["golden_actions"]
