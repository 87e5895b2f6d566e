"""Gem Mountain's keys of an experiment file (its Game.variants hook): every rule and every
count of the box is a setting (rules.py), so the grid sweeps any of them as on any game of the
kit (balance/kit/hooks.py); the game's own key is

    [experiment]
    ablate = "actions"   # the unchanged box, then one variant per action taken out of it

whose swept column is `ablate` (the action's name, "none" for the unchanged box). Taking an
action out sets its count in the box to 0, as `[rules] steal = 0` would: the ablation is the
count lever at its end, played on the seeds of the unchanged box."""

from __future__ import annotations

from balance.contract.experiment import ExperimentInput, GameVariants, VariantSpec
from balance.games.gem_mountain.game import ABLATIONS, KIT
from balance.games.gem_mountain.rules import ACTION_WORDS, box_problem
from balance.kit import hooks


def variants(inp: ExperimentInput) -> GameVariants:
    if inp.head.get("ablate") is None:
        return hooks.variants(KIT, inp)
    grid = dict(inp.grid)
    for key in inp.game_keys:
        inp.unknown_key(key)
        del grid[key]
    inp.choice("ablate", dict(ABLATIONS))
    if grid:
        inp.probs.add("[experiment]", "ablate", "makes the variants itself (the unchanged "
                      "box, then one per action): it takes no [grid]")
    inp.probs.raise_if_any()
    rules = {**KIT.defaults, **inp.rules}
    inside = [name for name in ACTION_WORDS if rules[name] > 0]
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
