"""Rusship's rule settings: each a Setting with its type and range (balance/contract/game.py),
their default values from data/rules.toml, and the compiled Rules they make
(engine/state.py). Every open reading of the rulebook is a setting here; the guide's Rusship
page states which reading each default takes and why."""

from __future__ import annotations

from pathlib import Path

from balance.contract.game import Setting
from balance.errors import InputError, Problem, twice
from balance.games.rusship.engine.state import MAX_LENGTH, MAX_TOKENS, POWER_NAMES, Rules
from balance.kit.defaults import read_defaults
from balance.textfile import short

RULES_FILE = Path(__file__).parent / "data" / "rules.toml"

# The powers as the rulebook's power tokens read.
POWER_WORDS = {"reroll": "reroll", "plus_one": "+1", "one_die": "one-die",
               "move_back": "move-back", "share": "shared-space"}

# Each setting's label and value words are the rulebook's (its ships, mothership, planets and
# power tokens): the reports and the terminal write them (balance/contract/labels.py).
SETTINGS = (
    Setting("length", int, "spaces between the two planets (reconstructed: 12)", 3, MAX_LENGTH,
            label="board length"),
    Setting("hits_to_lose", int, "attacks that destroy a planet", 1, 6,
            label="attacks to destroy a planet"),
    Setting("tokens", int, "ship tokens a side (the rulebook's box: 5)", 1, MAX_TOKENS,
            label="ships a side"),
    Setting("power_choice", str, "immediate: the attacked side chooses its power at the "
            "attack, before the attacker plays on; next_turn: when its own next turn begins",
            choices=("immediate", "next_turn"), label="power chosen",
            values=(("immediate", "power chosen at the attack"),
                    ("next_turn", "power chosen at the attacked side's next turn"))),
    Setting("entry", str, "counted: an entering token counts its die from the mothership's "
            "space; placed: it is set next to the mothership and the die is spent",
            choices=("counted", "placed"), label="entering ships",
            values=(("counted", "an entering ship counts its die"),
                    ("placed", "an entering ship is placed by the mothership"))),
    Setting("must_move", bool, "a die that can move a token must be used", label="must move",
            values=((True, "a die that can move must be used"),
                    (False, "a die may be left unused"))),
    Setting("both_dice", bool, "with must_move, a first move after which the other die has "
            "no move is not offered when another first move leaves it one",
            label="both dice used", values=((True, "both dice used where they can be"),
                                            (False, "the first move may waste the other die"))),
    Setting("blocked_die", str, "a die no move can use: lost, or it moves the mothership one "
            "space forward", choices=("lost", "mothership"), label="a blocked die",
            values=(("lost", "a blocked die is lost"),
                    ("mothership", "a blocked die moves the mothership"))),
    Setting("mothership_moves", str, "a rolled 1 moves the mothership forward only, or either "
            "way", choices=("forward", "either"), label="the mothership moves",
            values=(("forward", "the mothership moves forward only"),
                    ("either", "the mothership moves either way"))),
    Setting("mothership_space", str, "shared: tokens and motherships may share a space; "
            "blocked: no token ends on a mothership and no mothership on a token",
            choices=("shared", "blocked"), label="the mothership's space",
            values=(("shared", "ships may share the mothership's space"),
                    ("blocked", "the mothership's space is blocked"))),
    Setting("plus_one_use", str, "the +1 power: chosen each turn after the roll, or always",
            choices=("optional", "always"), label="the +1 power",
            values=(("optional", "+1 chosen each turn"), ("always", "+1 always added"))),
    Setting("back_captures", bool, "a token moving back (that power) captures",
            label="moving back captures",
            values=((True, "a ship moving back captures"),
                    (False, "a ship moving back does not capture"))),
    Setting("jump_protected", bool, "the one-die jump passes a protected pair uncaptured",
            label="the one-die jump passes a pair",
            values=((True, "the one-die jump passes a protected pair"),
                    (False, "the one-die jump captures a protected pair"))),
    Setting("second_tokens", int, "tokens the second player starts with on the track, next to "
            "its mothership (at most its tokens)", 0, MAX_TOKENS - 1,
            label="second player's head-start ships"),
    Setting("second_bonus", int, "added to each die of the second player's first turn", 0, 6,
            label="second player's first-roll bonus"),
    Setting("max_turns", int, "turns (both sides') after which a game stops undecided", 10,
            5000, label="turn cap (both sides' turns)"),
    *(Setting(f"box_{name}", bool, f"the {name.replace('_', ' ')} power is in the box",
              label=f"{POWER_WORDS[name]} power in the box",
              values=((True, f"{POWER_WORDS[name]} power"),
                      (False, f"no {POWER_WORDS[name]} power")))
      for name in POWER_NAMES),
)


DEFAULTS = read_defaults(RULES_FILE, SETTINGS)


def conflict(values: dict) -> tuple[str, str] | None:
    """The one rule that two settings' values break together, as (setting, why), or None.
    Each value alone is checked by its Setting; this is what no single range can say."""
    if values["second_tokens"] > values["tokens"]:
        return "second_tokens", (f"is {values['second_tokens']}, more than the side's "
                                 f"{values['tokens']} tokens (tokens)")
    return None


def rules(overrides: dict | None = None) -> dict:
    """Every setting's value: the defaults, then `overrides` (checked already by the
    experiment parser, or by `parse_set`)."""
    return {**DEFAULTS, **(overrides or {})}


def compiled(values: dict) -> Rules:
    """The engine's Rules for a full set of values (rules())."""
    box = sum(1 << k for k, name in enumerate(POWER_NAMES) if values[f"box_{name}"])
    return Rules(players=2, length=int(values["length"]), tokens=int(values["tokens"]),
                 hits_to_lose=int(values["hits_to_lose"]),
                 power_now=int(values["power_choice"] == "immediate"),
                 entry_counted=int(values["entry"] == "counted"),
                 must_move=int(values["must_move"]),
                 both_dice=int(values["both_dice"]),
                 blocked_mothership=int(values["blocked_die"] == "mothership"),
                 mothership_back=int(values["mothership_moves"] == "either"),
                 mothership_blocks=int(values["mothership_space"] == "blocked"),
                 plus_always=int(values["plus_one_use"] == "always"),
                 back_captures=int(values["back_captures"]),
                 jump_protected=int(values["jump_protected"]),
                 second_tokens=int(values["second_tokens"]),
                 second_bonus=int(values["second_bonus"]),
                 max_turns=int(values["max_turns"]), box=box)


def kit_rules(values: dict, seats: int) -> Rules:
    """The kit's way to the Rules (KitGame.compile): Rusship seats two players."""
    return compiled(values)


def checked(overrides, source: str = "overrides") -> dict:
    """`overrides` as rule values, each a Rusship setting's name with a value of its type and
    range, the two settings that go together agreeing (conflict); InputError names each bad
    one, `source` as the file. What every Setup is made of (play.prepare), whoever calls."""
    if overrides is None:
        return {}
    if not isinstance(overrides, dict):
        raise InputError([Problem(source, "", "", f"must be a table of rule settings, NAME = "
                                  f"value, got {short(repr(overrides))}")])
    out, probs = {}, []
    known = {s.name: s for s in SETTINGS}
    for name, value in overrides.items():
        s = known.get(name) if isinstance(name, str) else None
        if s is None:
            probs.append(Problem(source, "", str(name), f"is no Rusship setting (known: "
                                 f"{', '.join(known)})"))
        elif (why := s.problem(value)) is not None:
            probs.append(Problem(source, "", name, why))
        else:
            out[name] = value
    if not probs and (bad := conflict(rules(out))) is not None:
        probs.append(Problem(source, "", *bad))
    if probs:
        raise InputError(probs)
    return out


def parse_set(items: list[str], source: str = "--set") -> dict:
    """`--set NAME=VALUE` items as rule values, each checked against its setting."""
    out, probs, given = {}, [], {}
    for item in items:
        name, sep, raw = item.partition("=")
        name = name.strip()
        s = next((x for x in SETTINGS if x.name == name), None)
        if not sep or s is None:
            known = ", ".join(x.name for x in SETTINGS)
            probs.append(Problem(source, "", name or item, f"is no Rusship setting "
                                 f"(NAME=VALUE; known: {known})"))
            continue
        raw = raw.strip()
        if name in given:
            probs.append(Problem(source, "", name, twice(given[name], raw)))
            continue
        given[name] = raw
        out[name] = s.from_text(raw)  # what is no value of its type stays text: refused below
    try:
        values = checked(out, source)
    except InputError as e:
        probs += e.problems
    if probs:
        raise InputError(probs)
    return values
