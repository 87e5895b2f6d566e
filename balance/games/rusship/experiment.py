"""Rusship's keys of an experiment file (its Game.variants hook): every rule is a setting
(rules.py), so the grid sweeps any of them directly; the game's own key is

    [experiment]
    ablate = "powers"   # one variant per power taken out of the box, after the unchanged box
    control = true      # the unchanged rules as a variant before the [grid]'s

whose swept column is `ablate` (the power's name, "none" for the unchanged box)."""

from __future__ import annotations

from balance.contract.experiment import (
    KNOB_PREFIX,
    VARIANT_KEYS,
    ExperimentInput,
    GameVariants,
    VariantSpec,
)
from balance.contract.game import Label
from balance.games.rusship.engine.state import POWER_NAMES
from balance.games.rusship.rules import POWER_WORDS, conflict
from balance.games.rusship.rules import rules as rule_values

ABLATIONS = (("powers", "each power in the box taken out, one variant each"),)
# The ablate key's values in words ("none", the unchanged box, is every game's own).
ABLATE_WORDS = Label("ablate", "without", tuple((name, f"without the {POWER_WORDS[name]} power")
                                                for name in POWER_NAMES))


def variants(inp: ExperimentInput) -> GameVariants:
    grid = dict(inp.grid)
    for key in inp.game_keys:
        inp.unknown_key(key)
        del grid[key]
    head = inp.head
    ablate = inp.choice("ablate", dict(ABLATIONS))
    control = head.get("control", False)
    if not isinstance(control, bool):
        inp.probs.add("[experiment]", "control", f"must be true or false, got {control!r}")
        control = False
    elif control and not grid:
        inp.probs.add("[experiment]", "control", "has nothing to stand beside: give a [grid]")
    rules = dict(inp.rules)
    if ablate is not None:
        if grid or control:
            inp.probs.add("[experiment]", "ablate", "makes the variants itself (the unchanged "
                          "box, then one per power): it takes no [grid] and no control")
        else:
            inside = [name for name in POWER_NAMES if rules.get(f"box_{name}", True)]
            if not inside:
                inp.probs.add("[rules]", "box_*", "every power is out of the box already: "
                              "nothing to ablate")
            grid = {"ablate": ["none", *inside]}
    inp.probs.raise_if_any()
    specs = []
    for cell in inp.cells(grid, control, game_key=lambda k: k == "ablate"):
        if cell.players is not None and cell.players != 2:
            inp.probs.add(cell.at, "players", f"Rusship takes 2 players, got "
                          f"{cell.values['players']!r}")
            continue
        played = dict(cell.rules)
        out = cell.values.get("ablate", "none")
        if out != "none":
            played[f"box_{out}"] = False
        if (bad := conflict(rule_values(played))) is not None:
            inp.probs.add(cell.at, *bad)
            continue
        swept = {key: cell.values.get(key) for key in grid
                 if key not in VARIANT_KEYS and not key.startswith(KNOB_PREFIX)}
        specs.append(VariantSpec(cell, {"ablate": out} if ablate else {}, swept, rules=played))
    inp.probs.raise_if_any()
    return GameVariants({}, grid, specs)
