"""Issue 11, content patches: every selector and operation, the even-handed rule, refusals
that name the patch and the variant, and a patched variant equal to its content written out."""

from __future__ import annotations

import hashlib
import tomllib

import pytest

from balance.errors import InputError
from balance.games.gemrush.content import CONTENT_DIR, read_toml
from balance.games.gemrush.patches import SIDES, apply_patches, parse_patches
from balance.running.experiment import load_experiment

BOX = read_toml(CONTENT_DIR / "gemrush-2e.toml")


def _apply(**patches):
    ps = parse_patches(patches, "exp.toml")
    return apply_patches(BOX, list(ps.values()), "exp.toml", "0 (test)")


def _room(data, name):
    return next(r for r in data["rooms"] if r["name"] == name)


def _doors(data, pred=lambda r: True):
    return [(r["name"], s, r[s]) for r in data["rooms"] if pred(r) for s in SIDES
            if isinstance(r.get(s), dict)]


def _cost_counts(data):
    counts = {}
    for r in data["rooms"]:
        for s in SIDES:
            if isinstance(r.get(s), dict):
                for g in r[s]["cost"]:
                    counts[g] = counts.get(g, 0) + r.get("copies", 1)
    return counts


# -- selectors -------------------------------------------------------------------------------

def test_select_rooms_by_name_with_wildcards():
    out = _apply(p={"select": {"rooms": "* Vein"}, "set_points": 9})
    for name, _s, d in _doors(out):
        assert (d["points"] == 9) == name.endswith(" Vein")


def test_select_rooms_by_a_list_of_names():
    out = _apply(p={"select": {"rooms": ["Fire Ruby Vein", "Obsidian Vein"]}, "set_points": 9})
    hit = {n for n, _s, d in _doors(out) if d["points"] == 9}
    assert hit == {"Fire Ruby Vein", "Obsidian Vein"}


def test_select_by_room_kind():
    out = _apply(p={"select": {"kind": "minecart"}, "set_points": 9})
    for name, _s, d in _doors(out):
        assert (d["points"] == 9) == (_room(out, name)["kind"] == "minecart")


def test_select_doors_by_a_gem_in_their_cost():
    out = _apply(p={"select": {"cost_has": "Star Tear"}, "set_points": 9})
    before = {(n, s): d for n, s, d in _doors(BOX)}
    for n, s, d in _doors(out):
        assert (d["points"] == 9) == ("Star Tear" in before[(n, s)]["cost"])


def test_select_doors_by_points_and_by_a_range():
    out = _apply(p={"select": {"points": 3}, "add_points": 10})
    before = {(n, s): d["points"] for n, s, d in _doors(BOX)}
    for n, s, d in _doors(out):
        assert d["points"] == before[(n, s)] + (10 if before[(n, s)] == 3 else 0)
    out = _apply(p={"select": {"points": [1, 2]}, "set_points": 0})
    for n, s, d in _doors(out):
        assert d["points"] == (0 if 1 <= before[(n, s)] <= 2 else before[(n, s)])


def test_select_cards_by_their_gems_with_a_wildcard():
    out = _apply(p={"select": {"cards": ["Diamond Dust", "*"]}, "copies": 3})
    for c in out["cards"]:
        dd = len(c["gems"]) == 2 and "Diamond Dust" in c["gems"]
        before = next(b for b in BOX["cards"] if b["gems"] == c["gems"])
        assert c["copies"] == (3 if dd else before["copies"])
    assert out["box"]["gem_cards"] == sum(c["copies"] for c in out["cards"])


# -- door costs ------------------------------------------------------------------------------

def test_remove_a_named_gem_from_the_selected_costs():
    out = _apply(p={"select": {"cost_has": "Star Tear"}, "door_cost": -1, "gem": "Star Tear"})
    before = {(n, s): d["cost"] for n, s, d in _doors(BOX)}
    for n, s, d in _doors(out):
        b = list(before[(n, s)])
        if "Star Tear" in b:
            b.remove("Star Tear")
        assert sorted(d["cost"]) == sorted(b)


def test_add_a_named_gem():
    out = _apply(p={"select": {"rooms": "Fire Ruby Vein"}, "door_cost": 2, "gem": "Obsidian"})
    for n, s, d in _doors(out, lambda r: r["name"] == "Fire Ruby Vein"):
        assert d["cost"].count("Obsidian") == _room(BOX, n)[s]["cost"].count("Obsidian") + 2


@pytest.mark.parametrize("n", [-1, -2, 1])
def test_the_even_handed_rule_keeps_every_gems_share_of_door_costs(n):
    """No gem's share of all door costs moves by more than rounding: at most one door's worth
    of copies against the total (a naive 'drop the last gem' took most of one gem)."""
    out = _apply(p={"select": {"rooms": "*"}, "door_cost": n})
    a, b = _cost_counts(BOX), _cost_counts(out)
    ta, tb = sum(a.values()), sum(b.values())
    assert tb != ta
    standard = {g["name"] for g in BOX["gems"] if g["kind"] == "standard"}
    step = max(r.get("copies", 1) for r in BOX["rooms"]) / tb
    for g in standard:
        assert abs(a.get(g, 0) / ta - b.get(g, 0) / tb) <= step, g


def test_dropping_the_last_gem_of_every_cost_is_not_even_handed():
    """Why the rule exists: costs are written sorted, so the naive patch is lopsided."""
    naive = {g: 0 for g in _cost_counts(BOX)}
    for _n, _s, d in _doors(BOX):
        if d["cost"]:
            naive[d["cost"][-1]] += 1
    assert max(naive.values()) > 2 * (sum(naive.values()) / len(naive))


def test_replace_one_gem_by_another_and_set_a_cost():
    out = _apply(p={"select": {"rooms": "*"}, "replace_gem": ["Star Tear", "Obsidian"]})
    assert "Star Tear" not in _cost_counts(out)
    assert _cost_counts(out)["Obsidian"] == (_cost_counts(BOX)["Obsidian"]
                                             + _cost_counts(BOX)["Star Tear"])
    out = _apply(p={"select": {"rooms": "Fire Ruby Vein"}, "set_cost": ["Electrum"]})
    assert all(d["cost"] == ["Electrum"] for *_x, d in
               _doors(out, lambda r: r["name"] == "Fire Ruby Vein"))


# -- door points -----------------------------------------------------------------------------

def test_points_set_added_and_by_formula():
    out = _apply(p={"select": {"rooms": "*"}, "add_points": -5})
    assert all(d["points"] == 0 for *_x, d in _doors(out))  # floored at 0
    out = _apply(p={"select": {"rooms": "*"}, "points_formula": "2*gems + 1"})
    assert all(d["points"] == 2 * len(d["cost"]) + 1 for *_x, d in _doors(out))
    out = _apply(p={"select": {"rooms": "*"}, "points_formula": "gems - 1"})
    assert all(d["points"] == max(0, len(d["cost"]) - 1) for *_x, d in _doors(out))


# -- the box -----------------------------------------------------------------------------------

def test_copies_zero_takes_a_room_out_of_the_box_and_the_box_count_follows():
    out = _apply(p={"select": {"rooms": "Mine Cart"}, "copies": 0})
    assert all(r["name"] != "Mine Cart" for r in out["rooms"])
    assert out["box"]["room_tiles"] == BOX["box"]["room_tiles"] - 4


def test_replace_an_ability_and_make_a_room_plain():
    out = _apply(p={"select": {"rooms": "Fire Ruby Vein"}, "ability": "dig 3 Obsidian"})
    assert _room(out, "Fire Ruby Vein")["ability"] == "dig 3 Obsidian"
    out = _apply(p={"select": {"rooms": "Fire Ruby Vein"}, "kind": "plain", "ability": ""})
    assert _room(out, "Fire Ruby Vein")["kind"] == "plain"


def test_add_a_room_described_inline():
    room = {"name": "Gem Hall", "copies": 2, "kind": "action", "ability": "draw 2",
            "north": {"cost": ["Obsidian"], "points": 5}, "east": "wall", "south": "wall",
            "west": "wall"}
    out = _apply(p={"add_room": room})
    assert _room(out, "Gem Hall")["copies"] == 2
    assert out["box"]["room_tiles"] == BOX["box"]["room_tiles"] + 2


# -- refusals ------------------------------------------------------------------------------

@pytest.mark.parametrize("patch, field, phrase", [
    ({"select": {"rooms": "No Such *"}, "door_cost": -1}, "select", "selects no door"),
    ({"select": {"rooms": "No Such"}, "copies": 0}, "select", "selects no room"),
    ({"select": {"cards": ["Ruby", "Ruby"]}, "copies": 0}, "select", "selects no card"),
    ({"select": {"rooms": "*"}, "door_cost": -1, "gem": "Ruby"}, "gem", "unknown gem"),
    ({"select": {"rooms": "*"}, "points_formula": "gems ** 2"}, "points_formula", "A*gems"),
])
def test_a_patch_that_cannot_apply_names_itself(patch, field, phrase):
    with pytest.raises(InputError) as e:
        _apply(bad=patch)
    p = e.value.problems[0]
    assert p.file == "exp.toml" and p.where == "[patches.bad]"  # experiments add the variant
    assert p.field == field and phrase in p.message


@pytest.mark.parametrize("patch, phrase", [
    ({"door_cost": -1}, "select"),
    ({"select": {"rooms": "*"}}, "changes nothing"),
    ({"select": {"rooms": "*"}, "door_cost": 1.5}, "whole number"),
    ({"select": {"rooms": "*"}, "copies": 0, "door_cost": -1}, "mixes"),
    ({"select": {"rooms": "*", "colour": "red"}, "copies": 0}, "unknown selector"),
    ({"select": {"cards": ["Obsidian", "*"], "kind": "action"}, "copies": 0}, "alone"),
])
def test_badly_written_patches_are_refused(patch, phrase):
    with pytest.raises(InputError) as e:
        parse_patches({"bad": patch}, "exp.toml")
    assert any(phrase in str(p) and "[patches.bad]" in str(p) for p in e.value.problems)


# -- in experiments ----------------------------------------------------------------------------

EXPERIMENT = """\
[experiment]
name = "patched"
description = "Vein doors cheaper"
edition = "2e"
mode = "crisis"
games = 60
seed = 4
players = 2
exhaust = true
shard_size = 30

[patches.vein_discount]
select = {{ rooms = "* Vein" }}
door_cost = -1

[grid]
"vein_discount.door_cost" = {values}
"""


def _write(tmp_path, text, name="patched.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_swept_patch_number_makes_variants_and_a_column(tmp_path):
    exp = load_experiment(_write(tmp_path, EXPERIMENT.format(values="[0, -1, -2]")))
    assert [v.swept["vein_discount.door_cost"] for v in exp.variants] == [0, -1, -2]
    texts = [v.carry["content_text"] for v in exp.variants]
    assert len(set(texts)) == 3  # three different boxes
    vein = [tomllib.loads(t) for t in texts]
    a, b = (_cost_counts(v) for v in vein[:2])
    assert sum(b.values()) < sum(a.values())
    assert "vein_discount.door_cost" in exp.swept
    assert exp.variants[1].describe()["content_sha256"] == hashlib.sha256(
        exp.variants[1].carry["content_text"].encode()).hexdigest()


def test_a_patch_that_breaks_the_content_is_refused_naming_patch_and_variant(tmp_path, cli):
    text = EXPERIMENT.format(values="[0, 1]").replace(
        'door_cost = -1\n', 'door_cost = -1\n\n[patches.all_out]\nselect = { rooms = "*" }\n'
        'copies = 0\n')
    path = _write(tmp_path, text)
    r = cli("run", path, "--out", tmp_path / "out")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "[patches.all_out] in variant 0" in r.output and "every room" in r.output
    assert not (tmp_path / "out").exists()


def test_playing_the_written_content_equals_playing_the_patched_variant(tmp_path, cli):
    path = _write(tmp_path, EXPERIMENT.format(values="[0, -1]"))
    r = cli("content", path, "--variant", "1", "--out", tmp_path / "v1.toml")
    assert r.exit_code == 0, r.output
    plain = _write(tmp_path, f"""\
[experiment]
name = "as-file"
description = "variant 1 written out"
edition = "2e"
content = "{tmp_path / 'v1.toml'}"
mode = "crisis"
games = 60
seed = 4
players = 2
exhaust = true
shard_size = 30
""", "as-file.toml")
    from balance.running.runner import simulate_tables

    (a, ra), (b, rb) = (simulate_tables(load_experiment(p)).values() for p in (path, plain))
    cols = ["game", "seed", "score", "turns", "score_by_turn", "rooms_built", "cards_burned"]
    assert a.filter(a["variant"] == 1).select(cols).equals(b.select(cols))
    assert not a.filter(a["variant"] == 0).select(cols).equals(b.select(cols))
    keep = ["game", "room", "turn", "points", "uses"]
    assert ra.filter(ra["variant"] == 1).select(keep).equals(rb.select(keep))


def test_mine_carts_off_says_how_and_the_patch_it_suggests_works(tmp_path, cli):
    base = """\
[experiment]
name = "no-carts"
description = "without mine carts"
edition = "2e"
mode = "crisis"
games = 20
seed = 1
players = 2
exhaust = true
"""
    r = cli("run", _write(tmp_path, base + "\n[rules]\nmine_carts = false\n", "a.toml"),
            "--out", tmp_path / "out")
    assert r.exit_code == 2
    assert '[patches.no_mine_carts] select = { kind = "minecart" }, copies = 0' in r.output
    fixed = base + '\n[patches.no_mine_carts]\nselect = { kind = "minecart" }\ncopies = 0\n'
    exp = load_experiment(_write(tmp_path, fixed, "b.toml"))
    rooms = tomllib.loads(exp.variants[0].carry["content_text"])["rooms"]
    assert all(r["kind"] != "minecart" for r in rooms)


def test_content_and_edition_can_be_swept(tmp_path):
    exp = load_experiment(_write(tmp_path, """\
[experiment]
name = "editions"
description = "both boxes"
mode = "crisis"
games = 10
seed = 1
players = 3
exhaust = true

[grid]
edition = ["1e", "2e"]
""", "ed.toml"))
    assert [v.settings["edition"] for v in exp.variants] == ["1e", "2e"]
    assert [v.settings["content"] for v in exp.variants] == ["gemrush-1e", "gemrush-2e"]
    exp = load_experiment(_write(tmp_path, """\
[experiment]
name = "boxes"
description = "the 1e box under 1e rules, and under 2e rules"
edition = "1e"
mode = "crisis"
games = 10
seed = 1
players = 3
exhaust = true

[grid]
content = ["gemrush-1e"]
"""
                                  , "c.toml"))
    assert exp.variants[0].swept["content"] == "gemrush-1e"
    assert "content" in exp.swept
