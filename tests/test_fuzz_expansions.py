"""Gem Mountain's `expansion` key of the grid (balance/games/gem_mountain/experiment.py): the base
game and each expansion (or set of them) switched on beside it. A value that names no
expansion, a value that is no list, an expansion the file's rules cannot play with, and another
key of nobody's beside it are each one message naming the file, the field and the problem,
exit 2, nothing written. The harness is tests/fuzz.py."""

from __future__ import annotations

import pytest

from balance.running.experiment import load_experiment
from tests.fuzz import Case, assert_refused_cleanly

MOUNTAIN = """\
[experiment]
name = "fz"
description = "fuzz base"
game = "gem_mountain"
heuristic = "majority"
games = 10
seed = 3
shard_size = 5
players = 3
"""


def mountain(append: str):
    def make(tmp):
        path = tmp / "fz.toml"
        path.write_text(MOUNTAIN + append, encoding="utf-8")
        return ["run", str(path), "--out", str(tmp / "runs"), "--jobs", "1"]
    return make


CASES: dict[str, Case] = {
    "expansion-unknown": Case(
        "experiment", mountain('[grid]\nexpansion = ["none", "dark"]\n'),
        ("fz.toml", "[grid]", "expansion", "dark_tunnels, gemshards, golden_actions",
         "'dark'")),
    "expansion-a-word": Case(
        "experiment", mountain('[grid]\nexpansion = "gemshards"\n'),
        ("fz.toml", "[grid]", "expansion", "non-empty list")),
    "expansion-twice": Case(
        "experiment", mountain('[grid]\nexpansion = ["gemshards", "gemshards"]\n'),
        ("fz.toml", "[grid]", "expansion", "twice")),
    # Every combination plays (Dark Tunnels with another was refused until mix_nb.py); what
    # the file's rules cannot play is still one message naming the variant: here the base
    # box, too small for an 8x8 map that the three expansions' tiles fill.
    "expansion-map-only-all-fills": Case(
        "experiment", mountain('[rules]\nrows = 8\ncols = 8\n[grid]\n'
                               'expansion = ["all", "none"]\n'),
        ("fz.toml", "variant 1 (expansion=none)", "box", "64 cells")),
    "expansion-a-plus-unknown": Case(
        "experiment", mountain('[grid]\nexpansion = ["none", "dark_tunnels+shards"]\n'),
        ("fz.toml", "[grid]", "expansion", "dark_tunnels+gemshards", "'dark_tunnels+shards'")),
    "expansion-beside-an-unknown-key": Case(
        "experiment", mountain('[grid]\nexpansion = ["none", "gemshards"]\nshards = [1, 2]\n'),
        ("fz.toml", "[grid]", "shards", "unknown key", "expansion")),
    "expansion-with-ablate": Case(
        "experiment", mountain('ablate = "actions"\n[grid]\nexpansion = ["none", "gemshards"]\n'),
        ("fz.toml", "[experiment]", "ablate", "takes no [grid]")),
}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_expansion_key_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)


def test_each_expansion_is_switched_on_beside_the_file_s_rules(tmp_path):
    f = tmp_path / "x.toml"
    f.write_text(MOUNTAIN.replace("players = 3\n", "") + '[rules]\nflashlight = 2\n[grid]\n'
                 'players = [2, 4]\n'
                 'expansion = ["none", "dark_tunnels", "gemshards", "golden_actions"]\n',
                 encoding="utf-8")
    vs = load_experiment(f).variants
    assert [(v.players, v.swept["expansion"]) for v in vs] == [
        (n, e) for n in (2, 4) for e in ("none", "dark_tunnels", "gemshards", "golden_actions")]
    assert vs[0].rules == {"flashlight": 2}
    assert vs[1].rules == {"flashlight": 2, "dark_tunnels": True}
    assert vs[3].rules == {"flashlight": 2, "golden_actions": True}
    assert vs[3].label == "players=2, expansion=golden_actions"


def test_a_set_of_expansions_switches_each_on(tmp_path):
    f = tmp_path / "x.toml"
    f.write_text(MOUNTAIN + '[grid]\nexpansion = ["none", "dark_tunnels+gemshards", "all"]\n',
                 encoding="utf-8")
    vs = load_experiment(f).variants
    assert [v.rules for v in vs] == [
        {}, {"dark_tunnels": True, "gemshards": True},
        {"dark_tunnels": True, "gemshards": True, "golden_actions": True}]
