"""Gem Mountain's keys of an experiment file (its Game.variants hook): every rule and every
count of the box is a setting (rules.py), so the grid sweeps any of them as on any game of the
kit (balance/kit/hooks.py); the game's own key is

    [experiment]
    ablate = "actions"   # the unchanged box, then one variant per action taken out of it

whose swept column is `ablate` (the action's name, "none" for the unchanged box). The actions
are every action tile the box holds: the base game's five, and those of each expansion the
rules switch on (rules.box_actions; Dark Tunnels' Trash and Multiplier are gems). Taking an
action out sets its count in the box to 0, as `[rules] steal = 0` would: the ablation is the
count lever at its end, played on the seeds of the unchanged box.

Its own key of the grid is

    [grid]
    expansion = ["none", "dark_tunnels", "gemshards", "golden_actions", "all"]

one variant per value: "none" the rules as the file gives them (the base game), each other
the rules with that expansion's switch on, or those of several ("dark_tunnels+gemshards", the
switches' names joined by "+" in the box's order; "all" the three). The three switches swept
as grid keys would pair no expansion alone with the base game; this key plays each chosen set
beside the base game on the same seeds."""

from __future__ import annotations

from balance.contract.experiment import (
    KNOB_PREFIX,
    VARIANT_KEYS,
    ExperimentInput,
    GameVariants,
    VariantSpec,
)
from balance.games.gem_mountain.game import ABLATIONS, EXPANSION_KEY, EXPANSION_SETS, KIT
from balance.games.gem_mountain.rules import ACTION_WORDS, box_actions, box_problem
from balance.kit import hooks


def variants(inp: ExperimentInput) -> GameVariants:
    if inp.head.get("ablate") is None:
        if EXPANSION_KEY in inp.grid:
            return expansion_variants(inp)
        return hooks.variants(KIT, inp)
    grid = dict(inp.grid)
    for key in inp.game_keys:
        if key != EXPANSION_KEY:  # kept, so that the grid it makes is refused below
            inp.unknown_key(key, (EXPANSION_KEY,))
            del grid[key]
    inp.choice("ablate", dict(ABLATIONS))
    if grid:
        inp.probs.add("[experiment]", "ablate", "makes the variants itself (the unchanged "
                      "box, then one per action): it takes no [grid]")
    inp.probs.raise_if_any()
    rules = {**KIT.defaults, **inp.rules}
    inside = box_actions(rules)
    if not inside:
        inp.probs.add("[rules]", ", ".join(ACTION_WORDS), "every action is out of the box "
                      "already: nothing to ablate")
    inp.probs.raise_if_any()
    grid = {"ablate": ["none", *inside]}
    game = inp.game
    specs = []
    for cell in inp.cells(grid, game_key=lambda k: k == "ablate"):
        if cell.players not in game.player_counts:
            inp.probs.add(cell.at, "players", f"{game.title} takes {game.player_counts[0]} "
                          f"to {game.player_counts[-1]} players, got {cell.values['players']!r}")
            continue
        out = cell.values["ablate"]
        played = {**KIT.defaults, **cell.rules}
        if out != "none":
            played[out] = 0
        if (bad := box_problem(played, cell.players, inp.file)) is not None:
            inp.probs.add(cell.at, bad.field, bad.message)
            continue
        specs.append(VariantSpec(cell, {KIT.settings_key: played}, {"ablate": out},
                                 rules={**cell.rules, **({out: 0} if out != "none" else {})}))
    inp.probs.raise_if_any()
    return GameVariants({}, grid, specs)


def expansion_variants(inp: ExperimentInput) -> GameVariants:
    """The grid with its `expansion` key (the module doc): each cell the file's rules, the
    cell's expansion switched on."""
    grid = dict(inp.grid)
    for key in inp.game_keys:
        if key != EXPANSION_KEY:
            inp.unknown_key(key, (EXPANSION_KEY,))
            del grid[key]
    values = grid[EXPANSION_KEY]
    if inp.values_ok(EXPANSION_KEY, values):
        for v in values:
            if v not in EXPANSION_SETS:
                inp.probs.add("[grid]", EXPANSION_KEY, f"values must be among "
                              f"{', '.join(EXPANSION_SETS)}, in quotes, got {v!r}")
    inp.probs.raise_if_any()
    game = inp.game
    specs = []
    for cell in inp.cells(grid, game_key=lambda k: k == EXPANSION_KEY):
        if cell.players not in game.player_counts:
            inp.probs.add(cell.at, "players", f"{game.title} takes {game.player_counts[0]} "
                          f"to {game.player_counts[-1]} players, got {cell.values['players']!r}")
            continue
        on = cell.values[EXPANSION_KEY]
        rules = {**cell.rules, **{k: True for k in EXPANSION_SETS[on]}}
        played = {**KIT.defaults, **rules}
        if (bad := box_problem(played, cell.players, inp.file)) is not None:
            inp.probs.add(cell.at, bad.field, bad.message)
            continue
        swept = {key: cell.values[key] for key in cell.grid
                 if key not in VARIANT_KEYS and not key.startswith(KNOB_PREFIX)}
        specs.append(VariantSpec(cell, {KIT.settings_key: played}, swept, rules=rules))
    inp.probs.raise_if_any()
    return GameVariants({}, grid, specs)
