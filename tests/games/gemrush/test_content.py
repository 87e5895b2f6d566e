"""Loading content: the shipped files, the minimal file, and every problem collected at once."""

from __future__ import annotations

import dataclasses
import tomllib

import pytest

from balance.errors import InputError, Problem
from balance.games.gemrush.content import CONTENT_DIR, Door, load_content, parse_content

N, E, S, W = range(4)


def _room(data: dict, name: str) -> dict:
    return next(r for r in data["rooms"] if r["name"] == name)


def _problems(data: dict) -> list[Problem]:
    with pytest.raises(InputError) as exc:
        parse_content(data, "test.toml")
    assert all(p.file == "test.toml" for p in exc.value.problems)
    return exc.value.problems


def _has(problems: list[Problem], where: str, field: str, phrase: str) -> bool:
    return any(p.where == where and p.field == field and phrase in p.message for p in problems)


# ------------------------------------------------------------------ shipped and minimal content


@pytest.mark.parametrize("name,rooms,cards,gems,edition", [
    ("gemrush-1e", 48, 50, 8, "1e"),
    ("gemrush-2e", 80, 75, 11, "2e"),
])
def test_shipped_content_counts(name, rooms, cards, gems, edition):
    c = load_content(name)
    assert (c.name, c.edition) == (name, edition)
    assert c.room_tiles == c.declared_rooms == rooms
    assert c.gem_cards == c.declared_cards == cards
    assert len(c.gems) == gems
    assert [g.name for g in c.gems if g.kind == "standard"] == [
        "Electrum", "Fire Ruby", "Obsidian", "Permafrost", "Raw Hope", "Soulstone", "Star Tear"]
    assert c.gem("Diamond Dust").power == "wild"
    assert c.reconstructed.strip()


def test_shipped_content_by_name_equals_by_path():
    assert load_content("gemrush-1e") == load_content(CONTENT_DIR / "gemrush-1e.toml")
    assert load_content(str(CONTENT_DIR / "gemrush-2e.toml")).name == "gemrush-2e"


@pytest.mark.parametrize("name", ["gemrush-1e", "gemrush-2e"])
def test_rulebook_rooms(name):
    c = load_content(name)
    rooms = {r.name: r for r in c.rooms}
    fire = rooms["Fire Ruby Vein"]
    assert sorted(fire.edges[E].cost) == ["Fire Ruby", "Fire Ruby", "Obsidian", "Star Tear"]
    assert fire.edges[E].points == 3
    diamond = rooms["Diamond Vein"]
    assert diamond.doors == 2 and diamond.edges[N] and diamond.edges[W]
    assert rooms["Permafrost Vein"].ability_text == "dig 2 Permafrost"
    assert rooms["Soulstone Shaft"].ability_text == "discard 1 Soulstone; draw 3"
    assert rooms["Wish Geyser"].ability_text == "name 2; dig 2 named"
    assert rooms["Electrum Well"].ability_text == "reveal 4; keep all Electrum; keep 1"
    assert rooms["Portal"].ability_text == "move to any room"


def test_second_edition_tunnels():
    c = load_content("gemrush-2e")
    rooms = {r.name: r for r in c.rooms}
    assert rooms["Straight Tunnel"].pairs == ((N, S), (E, W))
    assert rooms["Bent Tunnel"].pairs == ((N, E), (S, W))
    for r in c.rooms:
        if r.kind == "tunnel":
            assert r.ability == () and r.doors == 4
            assert all(e == Door((), 0) for e in r.edges)
        else:
            assert r.pairs == ()


def test_minimal_content_parses(minimal):
    c = parse_content(minimal, "mini.toml")
    assert c.path == "mini.toml"
    assert (c.room_tiles, c.gem_cards) == (5, 6)
    assert [r.name for r in c.rooms] == ["Electrum Vein", "Ruby Shaft", "Straight Tunnel"]
    vein = c.rooms[0]
    assert vein.edges == (Door(("Fire Ruby", "Fire Ruby"), 1), None, Door((), 0), None)
    assert c.cards[1].gems == ("Electrum", "Electrum")


def test_minimal_round_trips_through_the_test_writer(minimal, minimal_text, write_content):
    path = write_content(minimal)
    assert tomllib.loads(path.read_text()) == tomllib.loads(minimal_text)
    assert load_content(path) == parse_content(minimal, str(path))


def test_content_is_immutable():
    c = load_content("gemrush-1e")
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.name = "other"  # type: ignore[misc]


def test_problem_text():
    assert str(Problem("f.toml", 'room "A"', "east.cost", "unknown gem 'X'")) == \
        "f.toml: room \"A\": field 'east.cost': unknown gem 'X'"
    assert str(Problem("f.toml", "", "", "file not found")) == "f.toml: file not found"
    err = InputError([Problem("a", "", "x", "m1"), Problem("a", "", "y", "m2")])
    assert str(err) == "a: field 'x': m1\na: field 'y': m2"


# ------------------------------------------------------------------ more problems, API level


def _std_with_power(d):
    d["gems"][0]["power"] = "echo"


def _lone_bonus(d):
    d["gems"].append({"name": "Orichalcum", "kind": "special", "power": "bonus"})
    d["cards"].append({"gems": ["Orichalcum"], "copies": 1})
    d["box"]["gem_cards"] = 7


def _double_echo(d):
    d["gems"].append({"name": "Echoglass", "kind": "special", "power": "echo"})
    d["cards"].append({"gems": ["Echoglass", "Echoglass"], "copies": 1})
    d["box"]["gem_cards"] = 7


def _pairs_on_room(d):
    _room(d, "Ruby Shaft")["pairs"] = [["north", "east"]]


def _tunnel_ability(d):
    _room(d, "Straight Tunnel")["ability"] = "draw 1"


def _no_ability(d):
    del _room(d, "Ruby Shaft")["ability"]


def _bad_name(d):
    d["content"]["name"] = "Mini Rush"


def _door_word(d):
    _room(d, "Ruby Shaft")["north"] = "opening"


def _cost_text(d):
    _room(d, "Electrum Vein")["north"]["cost"] = "Fire Ruby"


def _points_missing(d):
    del _room(d, "Electrum Vein")["north"]["points"]


def _points_text(d):
    _room(d, "Electrum Vein")["north"]["points"] = "1"


def _unknown_door_key(d):
    _room(d, "Electrum Vein")["north"]["vp"] = 2


def _copies_text(d):
    d["cards"][0]["copies"] = "2"


def _gem_kind(d):
    d["gems"][1]["kind"] = "precious"


def _box_missing(d):
    del d["box"]


def _box_key_missing(d):
    del d["box"]["gem_cards"]


def _rooms_table(d):
    d["rooms"] = {"name": "x"}


def _pair_side(d):
    _room(d, "Straight Tunnel")["pairs"] = [["north", "up"], ["east", "west"]]


def _unknown_content_key(d):
    d["content"]["version"] = 2


def _edition_missing(d):
    del d["content"]["edition"]


MORE = {
    "standard-gem-with-power": (_std_with_power, 'gem "Electrum"', "power",
                                "standard gems have no power"),
    "lone-bonus-gem-card": (_lone_bonus, "card #4 ['Orichalcum']", "gems",
                            "adds points only beside a gem that pays"),
    "doubled-echo-card": (_double_echo, "card #4 ['Echoglass', 'Echoglass']", "gems",
                          "cannot be doubled"),
    "pairs-on-non-tunnel": (_pairs_on_room, 'room "Ruby Shaft"', "pairs",
                            "only tunnels join doors in pairs"),
    "tunnel-with-ability": (_tunnel_ability, 'room "Straight Tunnel"', "ability",
                            "a tunnel has no ability"),
    "action-without-ability": (_no_ability, 'room "Ruby Shaft"', "ability",
                               "an action room needs an ability"),
    "bad-content-name": (_bad_name, "[content]", "name", "use lowercase letters"),
    "door-word": (_door_word, 'room "Ruby Shaft"', "north", 'must be "wall", "door"'),
    "cost-not-a-list": (_cost_text, 'room "Electrum Vein"', "north.cost",
                        "must be a list of gem names"),
    "points-missing": (_points_missing, 'room "Electrum Vein"', "north.points", "is missing"),
    "points-text": (_points_text, 'room "Electrum Vein"', "north.points",
                    "must be a whole number"),
    "unknown-door-key": (_unknown_door_key, 'room "Electrum Vein"', "north.vp",
                         "unknown field"),
    "copies-text": (_copies_text, "card #1 ['Electrum', 'Fire Ruby']", "copies",
                    "must be a whole number"),
    "unknown-gem-kind": (_gem_kind, 'gem "Fire Ruby"', "kind", "must be one of standard"),
    "box-missing": (_box_missing, "", "box", "missing [box] table"),
    "box-key-missing": (_box_key_missing, "[box]", "gem_cards", "is missing"),
    "rooms-not-an-array": (_rooms_table, "", "rooms", "must be an array of tables"),
    "pair-bad-side": (_pair_side, 'room "Straight Tunnel"', "pairs",
                      "must be a list of [side, side] pairs"),
    "unknown-content-field": (_unknown_content_key, "[content]", "version", "unknown field"),
    "edition-missing": (_edition_missing, "[content]", "edition", "is missing"),
}


@pytest.mark.parametrize("case", list(MORE))
def test_more_problems(case, minimal):
    mutate, where, field, phrase = MORE[case]
    mutate(minimal)
    probs = _problems(minimal)
    assert _has(probs, where, field, phrase), [str(p) for p in probs]


def test_empty_file_lists_everything_missing():
    probs = _problems({})
    fields = {p.field for p in probs}
    assert {"content", "box", "gems", "rooms", "cards"} <= fields


def test_every_room_a_tunnel(minimal):
    minimal["rooms"] = [_room(minimal, "Straight Tunnel")]
    minimal["box"]["room_tiles"] = 2
    probs = _problems(minimal)
    assert _has(probs, "", "rooms", "every room is a tunnel")


def test_unnamed_room_is_named_by_position(minimal):
    del minimal["rooms"][1]["name"]
    probs = _problems(minimal)
    assert _has(probs, "room #2", "name", "is missing")


def test_problems_from_many_places_at_once(minimal):
    minimal["content"]["colour"] = "red"
    minimal["gems"][0]["kind"] = "rare"
    _room(minimal, "Ruby Shaft")["ability"] = "fly 2"
    minimal["cards"][2]["copies"] = -1
    probs = _problems(minimal)
    assert _has(probs, "[content]", "colour", "unknown field")
    assert _has(probs, 'gem "Electrum"', "kind", "must be one of")
    assert _has(probs, 'room "Ruby Shaft"', "ability", "unknown step 'fly 2'")
    assert _has(probs, "card #3 ['Diamond Dust']", "copies", "must be at least 1, got -1")


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError) as exc:
        load_content(tmp_path / "nope.toml")
    (p,) = exc.value.problems
    assert (p.file, p.message) == (str(tmp_path / "nope.toml"), "file not found")
    with pytest.raises(InputError) as exc:
        load_content(tmp_path)
    assert "is a directory" in str(exc.value)


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('[content]\nname = "caf\u00e9"\n'.encode("latin-1"))
    with pytest.raises(InputError) as exc:
        load_content(path)
    assert str(path) in str(exc.value)


# ------------------------------------------------------------------ bugs found in the code


def _card_unknown_gem(d):
    d["cards"][0]["gems"] = ["Electrum", "Moonstone"]


def _cost_unknown_gem(d):
    _room(d, "Electrum Vein")["north"]["cost"] = ["Moonstone"]


def _special_without_power(d):
    del d["gems"][2]["power"]  # Diamond Dust, which card #3 shows


@pytest.mark.parametrize("mutate,where,field", [
    (_card_unknown_gem, "card #1 ['Electrum', 'Moonstone']", "gems"),
    (_cost_unknown_gem, 'room "Electrum Vein"', "north.cost"),
    (_special_without_power, 'gem "Diamond Dust"', "power"),
], ids=["card-unknown-gem", "door-cost-unknown-gem", "special-gem-without-power"])
def test_one_mistake_gives_one_problem(minimal, mutate, where, field):
    """BUG: a room, card or gem that fails validation is dropped, and later checks then report
    false problems about it: '[box] declares 6 gem cards but the cards' copies add up to 4'
    (they add up to 6 in the file), or "unknown gem 'Diamond Dust'" for a gem that is
    declared but lacks its power."""
    mutate(minimal)
    probs = _problems(minimal)
    assert [(p.where, p.field) for p in probs] == [(where, field)], [str(p) for p in probs]
