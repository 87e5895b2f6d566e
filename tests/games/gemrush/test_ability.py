"""The room-ability language: parsing, formatting and the errors a designer sees."""

from __future__ import annotations

import pytest

from balance.games.gemrush.ability import (
    DIG,
    DISCARD,
    DRAW,
    F_ANY,
    F_GEMS,
    F_NAMED,
    KEEP_ALL,
    KEEP_N,
    MAX_STEPS,
    MOVE_ANY,
    MOVE_ROOM,
    NAME,
    REVEAL,
    SWAP,
    AbilityError,
    Step,
    X,
    format_ability,
    parse_ability,
)
from balance.games.gemrush.content import load_content

GEMS = {"Electrum", "Fire Ruby", "Obsidian", "Permafrost", "Raw Hope", "Soulstone",
        "Star Tear", "Diamond Dust"}

EXAMPLES = {
    "dig 2 Permafrost": (Step(DIG, 2, F_GEMS, ("Permafrost",)),),
    "discard 1 Soulstone; draw 3": (Step(DISCARD, 1, F_GEMS, ("Soulstone",)), Step(DRAW, 3)),
    "name 2; dig 2 named": (Step(NAME, 2), Step(DIG, 2, F_NAMED)),
    "reveal 4; keep all Electrum; keep 1": (
        Step(REVEAL, 4), Step(KEEP_ALL, 0, F_GEMS, ("Electrum",)), Step(KEEP_N, 1, F_ANY)),
    "dig 3 Star Tear or Fire Ruby; keep 2": (
        Step(DIG, 3, F_GEMS, ("Star Tear", "Fire Ruby")), Step(KEEP_N, 2)),
    "name 1; reveal 3; keep all named": (Step(NAME, 1), Step(REVEAL, 3),
                                         Step(KEEP_ALL, 0, F_NAMED)),
    "discard X any; draw X": (Step(DISCARD, X, F_ANY), Step(DRAW, X)),
    "move to any room": (Step(MOVE_ANY),),
    "swap with a player": (Step(SWAP),),
    "move this room": (Step(MOVE_ROOM),),
    "name 1; discard X any; dig X named": (Step(NAME, 1), Step(DISCARD, X),
                                           Step(DIG, X, F_NAMED)),
    "discard 2; draw 3": (Step(DISCARD, 2), Step(DRAW, 3)),
    "": (),
}


@pytest.mark.parametrize("text", list(EXAMPLES))
def test_example_parses_to_expected_steps(text):
    assert parse_ability(text, GEMS) == EXAMPLES[text]


@pytest.mark.parametrize("text", list(EXAMPLES))
def test_format_round_trips(text):
    steps = parse_ability(text, GEMS)
    formatted = format_ability(steps)
    assert parse_ability(formatted, GEMS) == steps
    # formatting is a fixed point
    assert format_ability(parse_ability(formatted, GEMS)) == formatted
    # each step prints as its own program
    for s in steps:
        if s.n != X and s.filter_kind != F_NAMED and s.op not in (KEEP_ALL, KEEP_N):
            assert parse_ability(str(s), GEMS) == (s,)


@pytest.mark.parametrize("text", [t for t in EXAMPLES if "any" not in t.replace("any room", "")])
def test_canonical_examples_print_exactly_as_written(text):
    assert format_ability(parse_ability(text, GEMS)) == text


def test_discard_any_prints_in_short_form():
    # FORMAT.md: '"discard N" = any cards'
    assert format_ability(parse_ability("discard X any; draw X", GEMS)) == "discard X; draw X"


def test_step_str():
    assert str(Step(DIG, 2, F_GEMS, ("Star Tear", "Fire Ruby"))) == "dig 2 Star Tear or Fire Ruby"
    assert str(Step(DIG, 1, F_ANY)) == "dig 1 any"
    assert str(Step(KEEP_ALL, 0, F_NAMED)) == "keep all named"
    assert str(Step(KEEP_ALL, 0, F_ANY)) == "keep all any"
    assert str(Step(DRAW, X)) == "draw X"
    assert str(Step(SWAP)) == "swap with a player"


def test_whitespace_is_normalised():
    assert parse_ability("  reveal 4 ;keep   all Electrum;  keep 1 ", GEMS) == \
        EXAMPLES["reveal 4; keep all Electrum; keep 1"]


def test_every_shipped_ability_round_trips():
    for name in ("gemrush-1e", "gemrush-2e"):
        content = load_content(name)
        gems = {g.name for g in content.gems}
        for room in content.rooms:
            again = parse_ability(format_ability(room.ability), gems)
            assert again == room.ability, room.name


BAD = {
    "fly 3": "unknown step 'fly 3'",
    "draw 2; teleport": "unknown step 'teleport'",
    "DRAW 2": "unknown step",
    "draw": "'draw' takes one count",
    "draw 2 Electrum": "'draw' takes one count",
    "draw 0": "expected a positive count or X",
    "draw -1": "expected a positive count or X",
    "draw two": "expected a positive count or X",
    "dig 2": "'dig' needs a count and a filter",
    "dig 2 Moonstone": "unknown gem 'Moonstone'",
    "dig 2 Electrum or Moonstone": "unknown gem 'Moonstone'",
    "dig 2 Electrum or Electrum": "a gem is named twice",
    "keep": "'keep' needs a count or 'all'",
    "reveal 2; keep all": "'keep all' needs a filter",
    "keep 1": "keeps from nothing",
    "name 1; keep all named": "keeps from nothing",
    "discard": "'discard' needs a count",
    "dig 2 named": "uses 'named' before any 'name' step",
    "discard 2 named; name 1": "uses 'named' before any 'name' step",
    "name 1; name 1": "only one 'name' step",
    "draw X": "X is unbounded",
    "discard 1; draw X": "X is unbounded",
    "draw 1;; draw 2": "empty step",
    "draw 1;": "empty step",
    "move to any room; draw 1": "a special move must stand alone",
    "draw 1; swap with a player": "a special move must stand alone",
    "; ".join(["draw 1"] * (MAX_STEPS + 1)): f"at most {MAX_STEPS} steps",
}


@pytest.mark.parametrize("text", list(BAD))
def test_bad_program_is_rejected_with_reason(text):
    with pytest.raises(AbilityError) as exc:
        parse_ability(text, GEMS)
    assert BAD[text] in str(exc.value)


def test_eight_steps_is_the_limit():
    text = "; ".join(["draw 1"] * MAX_STEPS)
    assert len(parse_ability(text, GEMS)) == MAX_STEPS


def test_ability_error_is_a_value_error():
    assert issubclass(AbilityError, ValueError)


def test_non_ascii_digit_count_raises_ability_error():
    """BUG: str.isdigit() accepts superscript digits that int() rejects, so parse_ability
    raises a bare ValueError; content.py only catches AbilityError, so `balance validate`
    crashes with a traceback."""
    with pytest.raises(AbilityError):
        parse_ability("dig \u00b2 Electrum", GEMS)
