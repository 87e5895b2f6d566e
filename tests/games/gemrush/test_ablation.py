"""Issue 11, causal room value: one variant per room, taken out of the box or made plain,
against the unchanged box on common seeds."""

from __future__ import annotations

import tomllib

import pytest

from balance.games.gemrush.content import CONTENT_DIR, read_toml
from balance.running.experiment import load_experiment

RAW = read_toml(CONTENT_DIR / "gemrush-2e.toml")

BASE = """\
[experiment]
name = "abl"
description = "ablation"
edition = "2e"
mode = "crisis"
games = 40
seed = 2
players = 2
exhaust = true
shard_size = 40
"""


def _exp(tmp_path, extra=""):
    path = tmp_path / "abl.toml"
    path.write_text(BASE + extra, encoding="utf-8")
    return path


@pytest.mark.parametrize("how", ["out", "plain"])
def test_ablation_makes_one_variant_per_room_against_the_unchanged_box(tmp_path, how):
    exp = load_experiment(_exp(tmp_path, f'ablate = "{how}"\n'))
    v0, rest = exp.variants[0], exp.variants[1:]
    assert v0.swept["ablate"] == "none" and v0.carry["content_text"] is None
    from balance.games.gemrush.content import load_content

    box = load_content("gemrush-2e")
    expected = [r.name for r in box.rooms if how == "out" or r.kind != "tunnel"]
    assert [v.swept["ablate"] for v in rest] == expected
    for v in rest[:5] + rest[-3:]:
        content = tomllib.loads(v.carry["content_text"])
        names = {r["name"]: r for r in content["rooms"]}
        room = v.swept["ablate"]
        if how == "out":
            assert room not in names
        else:
            assert names[room]["kind"] == "plain" and names[room]["ability"] == ""
            raw = next(r for r in RAW["rooms"] if r["name"] == room)
            for side in ("north", "east", "south", "west"):
                assert names[room][side] == raw[side]  # the same doors


def test_ablation_refuses_a_grid(tmp_path):
    from balance.errors import InputError

    with pytest.raises(InputError, match="one per room"):
        load_experiment(_exp(tmp_path, 'ablate = "out"\n\n[grid]\nhand_limit = [5, 6]\n'))


def test_balance_ablate_ranks_every_room(tmp_path, cli):
    r = cli("ablate", _exp(tmp_path), "--how", "plain", "--out", tmp_path / "runs", "--jobs", 1)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert any("mean team score" in x for x in lines)
    from balance.games.gemrush.content import load_content

    box = load_content("gemrush-2e")
    for room in [x.name for x in box.rooms if x.kind != "tunnel"]:
        assert any(x.startswith(room[:28]) for x in lines), room


def test_balance_ablate_refuses_a_bad_how_before_anything(tmp_path, cli):
    r = cli("ablate", _exp(tmp_path), "--how", "sideways", "--out", tmp_path / "runs")
    assert r.exit_code == 2 and "--how" in r.output
    assert not (tmp_path / "runs").exists()
