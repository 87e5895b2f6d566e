"""Rule profiles: the RULINGS numbers for both editions, overrides by name, and their errors."""

from __future__ import annotations

import pytest

from balance.errors import InputError
from balance.games.gemrush.rules import (
    SCHEMA,
    Typed,
    available_profiles,
    load_profile,
    parse_overrides,
)


@pytest.fixture(scope="module")
def p1():
    return load_profile("1e")


@pytest.fixture(scope="module")
def p2():
    return load_profile("2e")


def _problems(exc: pytest.ExceptionInfo) -> list[str]:
    return [str(p) for p in exc.value.problems]


def test_available_profiles():
    assert available_profiles() == ["1e", "2e"]


def test_first_edition_numbers(p1):
    assert p1.name == "1e" and p1.content == "gemrush-1e"
    assert p1["hand_limit"] == 4
    assert p1["deal"] == 4
    assert p1["steps"] == 3
    assert p1["burn_per_turn"] == 2
    assert p1["burn_from_hands"] is False  # from the deck only
    assert p1["cannot_burn_loses"] is True
    assert p1["start_vp"] == 1
    assert (p1["players_min"], p1["players_max"]) == (1, 6)
    assert p1.crisis_targets == {"Apprentice": 35, "Journeyman": 40, "Artisan": 45, "Master": 50}
    assert [p1.rush_target(n) for n in range(2, 7)] == [20] * 5
    for switch in ("tunnels", "mine_carts", "special_gems", "start_tunnel_chain"):
        assert p1[switch] is False, switch
    assert p1["skills"] == "none"  # the 1st edition has no skill cards


def test_second_edition_numbers(p2):
    assert p2.name == "2e" and p2.content == "gemrush-2e"
    assert p2["hand_limit"] == 4
    assert p2["steps"] == 3
    assert p2["burn_per_turn"] == 3
    assert p2["burn_from_hands"] is True  # from hands too
    assert p2["cannot_burn_loses"] is False  # the last card burnt ends the game
    assert p2["start_vp"] == 0
    assert p2["start_tunnel_chain"] is True
    assert (p2["players_min"], p2["players_max"]) == (1, 7)
    assert p2.crisis_targets == {"Apprentice": 35, "Journeyman": 45, "Artisan": 55,
                                 "Expert": 65, "Master": 75}
    assert [p2.rush_target(n) for n in range(2, 8)] == [20, 20, 20, 15, 15, 15]
    for switch in ("tunnels", "mine_carts", "special_gems"):
        assert p2[switch] is True, switch


def test_every_schema_field_is_set_in_both_profiles(p1, p2):
    assert set(p1.values) == set(SCHEMA) == set(p2.values)
    for p in (p1, p2):
        for k, spec in SCHEMA.items():
            assert isinstance(p[k], spec.kind), k
            if spec.kind is int:
                assert spec.lo <= p[k] <= spec.hi, k


def test_crisis_target_lookup(p2):
    assert p2.crisis_target("Expert") == 65
    with pytest.raises(InputError) as exc:
        p2.crisis_target("Legend")
    assert "unknown difficulty 'Legend'" in str(exc.value)
    assert "Apprentice" in str(exc.value)


def test_describe_lists_every_rule_and_target(p1):
    names = [row[0] for row in p1.describe()]
    assert names[: len(SCHEMA)] == list(SCHEMA)
    assert "crisis_targets.Master" in names


# ------------------------------------------------------------------ overrides


def test_override_ints_from_text(p2):
    q = p2.with_overrides({"hand_limit": Typed("5"), "steps": Typed(" 4 ")}, "--set")
    assert q["hand_limit"] == 5 and q["steps"] == 4
    assert p2["hand_limit"] == 4  # the original is untouched


@pytest.mark.parametrize("overrides,field", [
    ({"hand_limit": "5"}, "hand_limit"), ({"tunnels": "true"}, "tunnels"),
    ({"crisis_targets.Master": "80"}, "crisis_targets.Master"),
])
def test_text_from_a_file_is_not_read_as_a_number_or_a_switch(overrides, field):
    # `hand_limit = "5"` in a TOML file is a type error, as `players = 2.0` is; only text
    # typed on the command line (--set) is read as the rule's type.
    with pytest.raises(InputError) as exc:
        load_profile("2e", overrides, source="exp.toml")
    assert any(p.field == field for p in exc.value.problems), _problems(exc)


def test_override_crisis_target_by_name():
    q = load_profile("2e", {"crisis_targets.Master": Typed("80")})
    assert q.crisis_targets["Master"] == 80
    assert q.crisis_targets["Apprentice"] == 35
    assert q.crisis_target("Master") == 80


def test_override_crisis_targets_table(p1):
    q = p1.with_overrides({"crisis_targets": {"Master": 55, "Grandmaster": 60}}, "file")
    assert q.crisis_targets["Master"] == 55
    assert q.crisis_targets["Grandmaster"] == 60


@pytest.mark.parametrize("raw,expected", [
    ("true", True), ("false", False), ("True", True), ("FALSE", False), ("1", True),
    ("0", False), ("yes", True), ("no", False), (True, True), (False, False),
])
def test_override_booleans(p1, raw, expected):
    raw = Typed(raw) if isinstance(raw, str) else raw
    q = p1.with_overrides({"tunnels": raw, "burn_from_hands": raw}, "--set")
    assert q["tunnels"] is expected
    assert q["burn_from_hands"] is expected


def test_overrides_via_parse_overrides():
    over = parse_overrides(["hand_limit=6", " steps = 2 ", "crisis_targets.Master=80",
                            "tunnels=false"])
    assert over == {"hand_limit": "6", "steps": "2", "crisis_targets.Master": "80",
                    "tunnels": "false"}
    q = load_profile("2e", over)
    assert (q["hand_limit"], q["steps"], q.crisis_targets["Master"], q["tunnels"]) == \
        (6, 2, 80, False)


@pytest.mark.parametrize("overrides,field,phrase", [
    ({"hand_limitt": "5"}, "hand_limitt", "unknown rule"),
    ({"Hand_Limit": "5"}, "Hand_Limit", "unknown rule"),
    ({"hand_limit": "31"}, "hand_limit", "must be between 0 and 30, got 31"),
    ({"hand_limit": "-1"}, "hand_limit", "must be between 0 and 30, got -1"),
    ({"burn_per_turn": "0"}, "burn_per_turn", "must be between 1 and 30, got 0"),
    ({"players_max": "17"}, "players_max", "must be between 1 and 16, got 17"),
    ({"steps": "three"}, "steps", "must be a whole number"),
    ({"steps": "2.5"}, "steps", "must be a whole number"),
    ({"steps": True}, "steps", "must be a whole number"),
    ({"tunnels": "maybe"}, "tunnels", "must be true or false"),
    ({"tunnels": 1}, "tunnels", "must be true or false"),
    ({"crisis_targets.Master": "0"}, "crisis_targets.Master", "must be a whole number >= 1"),
    ({"crisis_targets.Master": "lots"}, "crisis_targets.Master", "must be a whole number >= 1"),
    ({"players_min": "7", "players_max": "6"}, "players_min", "above players_max 6"),
])
def test_bad_overrides_are_rejected_naming_the_field(overrides, field, phrase):
    overrides = {k: Typed(v) if isinstance(v, str) else v for k, v in overrides.items()}
    with pytest.raises(InputError) as exc:
        load_profile("2e", overrides, source="--set")
    probs = exc.value.problems
    assert any(p.field == field and phrase in p.message and p.file == "--set" for p in probs), \
        _problems(exc)
    assert any(f"field '{field}'" in s for s in _problems(exc))


def test_all_bad_overrides_reported_together():
    with pytest.raises(InputError) as exc:
        load_profile("1e", {"hand_limit": "99", "bogus": "1", "tunnels": "perhaps"})
    assert {p.field for p in exc.value.problems} == {"hand_limit", "bogus", "tunnels"}


@pytest.mark.parametrize("pair", ["hand_limit", "hand_limit=", "=5", " = ", ""])
def test_parse_overrides_rejects_pairs_without_name_and_value(pair):
    with pytest.raises(InputError) as exc:
        parse_overrides([pair])
    (prob,) = exc.value.problems
    assert prob.field == pair
    assert "expected NAME=VALUE" in prob.message


def test_parse_overrides_reports_every_bad_pair():
    with pytest.raises(InputError) as exc:
        parse_overrides(["hand_limit", "steps=3", "deal"])
    assert [p.field for p in exc.value.problems] == ["hand_limit", "deal"]


def test_unknown_edition():
    with pytest.raises(InputError) as exc:
        load_profile("3e")
    text = str(exc.value)
    assert "unknown edition" in text and "1e" in text and "2e" in text


def test_profile_file_with_bad_values(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[profile]\nname = "mine"\ncontent = "gemrush-2e"\n'
                    '[rules]\nhand_limit = 4\n[extra]\nx = 1\n')
    with pytest.raises(InputError) as exc:
        load_profile(path)
    fields = {p.field for p in exc.value.problems}
    assert "extra" in fields
    probs = [p for p in exc.value.problems if p.field == "extra"]
    assert probs[0].file == str(path)


def test_profile_file_missing_rules_are_named(tmp_path):
    path = tmp_path / "thin.toml"
    path.write_text('[profile]\nname = "thin"\ncontent = "gemrush-2e"\n'
                    '[rules]\nhand_limit = 4\n[crisis_targets]\nEasy = 10\n')
    with pytest.raises(InputError) as exc:
        load_profile(path)
    missing = {p.field for p in exc.value.problems if "is missing from the profile" in p.message}
    assert missing == set(SCHEMA) - {"hand_limit"}


# ------------------------------------------------------------------ the `rules` command


def test_rules_command_prints_profile_with_overrides(cli):
    result = cli("rules", "2e", "--set", "crisis_targets.Master=80", "--set", "tunnels=false",
                 "--set", "hand_limit=6")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Gem Rush, 2nd edition" in out
    lines = {ln.split()[0]: ln.split()[1] for ln in out.splitlines()[1:] if ln.strip()}
    assert lines["crisis_targets.Master"] == "80"
    assert lines["tunnels"] == "false"
    assert lines["hand_limit"] == "6"
    assert lines["burn_per_turn"] == "3"


@pytest.mark.parametrize("args,phrase", [
    (["--set", "hand_limit"], "field 'hand_limit': expected NAME=VALUE"),
    (["--set", "handlimit=5"], "field 'handlimit': unknown rule"),
    (["--set", "hand_limit=50"], "field 'hand_limit': must be between 0 and 30, got 50"),
    (["--set", "crisis_targets.Master=zero"], "field 'crisis_targets.Master'"),
])
def test_rules_command_rejects_bad_overrides(cli, args, phrase):
    result = cli("rules", "1e", *args)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert phrase in result.stderr
    assert all(ln.startswith("error: ") for ln in result.stderr.splitlines())


# ------------------------------------------------------------------ bugs found in the code


@pytest.mark.parametrize("overrides,field", [
    ({"hand_limit": "--5"}, "hand_limit"),
    ({"hand_limit": "\u00b2"}, "hand_limit"),
    ({"crisis_targets.Master": "--80"}, "crisis_targets.Master"),
])
def test_malformed_numbers_are_input_errors_not_crashes(overrides, field):
    """BUG: `raw.lstrip('-').isdigit()` accepts '--5' and '²', then int() raises ValueError,
    so `balance rules 2e --set hand_limit=--5` dies with a traceback instead of exit 2."""
    with pytest.raises(InputError) as exc:
        load_profile("2e", overrides)
    assert any(p.field == field for p in exc.value.problems)


# ------------------------------------------------------------------ per-seat rules


def test_a_seat_may_have_its_own_deal_and_starting_points(p2):
    q = p2.with_overrides({"deal.seat5": Typed("5"), "start_vp.seat1": 2}, "--set")
    assert [q.seat_value("deal", s) for s in range(1, 6)] == [4, 4, 4, 4, 5]
    assert [q.seat_value("start_vp", s) for s in range(1, 6)] == [2, 0, 0, 0, 0]
    assert q["deal"] == 4 and q["start_vp"] == 0  # every other seat's
    assert p2.seat_keys() == [] and q.seat_keys() == ["deal.seat5", "start_vp.seat1"]


def test_a_seat_value_stays_when_the_field_changes(p2):
    q = p2.with_overrides({"deal.seat2": 6}, "x").with_overrides({"deal": 3}, "y")
    assert [q.seat_value("deal", s) for s in (1, 2, 3)] == [3, 6, 3]


def test_describe_lists_the_seat_values_set(p2):
    rows = {r[0]: r for r in p2.with_overrides({"start_vp.seat4": 1}, "x").describe()}
    assert rows["start_vp.seat4"][1] == "1" and "seat 4" in rows["start_vp.seat4"][2]
    assert rows["first_player"][1] == "1"


@pytest.mark.parametrize("raw", [Typed("random"), "random", 0])
def test_first_player_may_be_drawn_at_random(p2, raw):
    q = p2.with_overrides({"first_player": raw}, "x")
    assert q["first_player"] == 0
    assert {r[0]: r[1] for r in q.describe()}["first_player"] == "random"


@pytest.mark.parametrize("overrides,field,phrase", [
    ({"deal.seat0": 5}, "deal.seat0", "seats count from 1"),
    ({"deal.seat05": 5}, "deal.seat05", "without leading zeros: deal.seat5"),
    ({"deal.seat17": 5}, "deal.seat17", "seats count from 1 (seat 1 plays first) to 16"),
    ({"deal.seat3": 31}, "deal.seat3", "must be between 0 and 30, got 31"),
    ({"start_vp.seat2": -1}, "start_vp.seat2", "must be between 0 and 100, got -1"),
    ({"start_vp.seat2": "1"}, "start_vp.seat2", "must be a whole number"),  # text, in a file
    ({"hand_limit.seat2": 5}, "hand_limit.seat2", "hand_limit cannot differ by seat"),
    ({"deal.seat8": 5}, "deal.seat8", "names seat 8, but the edition allows at most 7"),
    ({"deal": {"seat5": 5}}, "deal", 'quoted key, "deal.seat5" = 5'),
    ({"first_player": 8}, "first_player", "allows at most 7 players"),
    ({"first_player": "first"}, "first_player", "must be a whole number or random"),
    ({"first_player": -1}, "first_player", "must be between 0 and 16"),
])
def test_bad_seat_rules_are_refused_naming_the_key(p2, overrides, field, phrase):
    with pytest.raises(InputError) as exc:
        p2.with_overrides(overrides, "exp.toml")
    assert any(p.field == field and phrase in p.message and p.file == "exp.toml"
               for p in exc.value.problems), _problems(exc)


def test_the_rules_command_shows_seat_values(cli):
    result = cli("rules", "2e", "--set", "deal.seat3=6", "--set", "first_player=random")
    assert result.exit_code == 0, result.output
    lines = {ln.split()[0]: ln.split()[1] for ln in result.stdout.splitlines()[1:] if ln.strip()}
    assert lines["deal.seat3"] == "6" and lines["deal"] == "4"
    assert lines["first_player"] == "random"
