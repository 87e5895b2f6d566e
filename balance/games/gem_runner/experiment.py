"""Gem Runner's keys of an experiment file (its Game.variants hook): every rule is a setting
(rules.py), so the grid sweeps any of them as on any game of the kit (balance/kit/hooks.py);
the game's own key is

    [experiment]
    ablate = "cards"   # the full decks, then one variant per card taken out of them

whose swept column is `ablate` (the card's name, "none" for the full decks). The cards are
every name of the deck files in play (decks.card_names, the first deck's first), each taken out
as `[rules] without = "<name>"` would: every copy of it, from each deck in play that holds it,
the deck that much smaller, played on the seeds of the full decks."""

from __future__ import annotations

from balance.contract.experiment import ExperimentInput, GameVariants, VariantSpec
from balance.games.gem_runner import decks
from balance.games.gem_runner.codes import HEROES
from balance.games.gem_runner.game import ABLATIONS, KIT
from balance.games.gem_runner.rules import against_computer, decks_for, setup_problem
from balance.kit import hooks

CARDS = "cards"


def variants(inp: ExperimentInput) -> GameVariants:
    if inp.head.get("ablate") != CARDS:
        return hooks.variants(KIT, inp)
    grid = dict(inp.grid)
    for key in inp.game_keys:
        inp.unknown_key(key)
        del grid[key]
    inp.choice("ablate", dict(ABLATIONS))
    if grid:
        inp.probs.add("[experiment]", "ablate", "makes the variants itself (the full decks, "
                      "then one per card): it takes no [grid]")
    inp.probs.raise_if_any()
    cell = inp.cells({})[0]
    rules = {**KIT.defaults, **cell.rules}
    # The file's own rules first: a bad `without` is one message, not one per card.
    if cell.players in inp.game.player_counts and (
            bad := setup_problem(rules, cell.players, inp.file)) is not None:
        inp.probs.add("[rules]", bad.field, bad.message)
    inp.probs.raise_if_any()
    names = [n for n in names_in_play(rules, cell.players or 0) if n != rules["without"]]
    game = inp.game
    specs = []
    for cell in inp.cells({"ablate": ["none", *names]}, game_key=lambda k: k == "ablate"):
        if cell.players not in game.player_counts:
            inp.probs.add(cell.at, "players", f"{game.title} takes {game.player_counts[0]} "
                          f"to {game.player_counts[-1]} players, got {cell.values['players']!r}")
            continue
        out = cell.values["ablate"]
        own = {**cell.rules, **({"without": out} if out != "none" else {})}
        values = {**KIT.defaults, **own}
        if (bad := setup_problem(values, cell.players, inp.file)) is not None:
            inp.probs.add(cell.at, bad.field, f"{bad.message} (ablate {out!r})")
            continue
        specs.append(VariantSpec(cell, {KIT.settings_key: values}, {"ablate": out},
                                 rules=own))
    inp.probs.raise_if_any()
    return GameVariants({}, {"ablate": ["none", *names]}, specs)


def names_in_play(rules: dict, seats: int) -> list[str]:
    """Every card name of the decks the rules play with `seats`, each once, deck by deck."""
    computer = against_computer(rules["play"], seats)
    heroes = [rules[f"hero{k + 1}"] for k in range(decks_for(rules["decks"], computer, seats))]
    names: dict[str, None] = {}
    for hero in heroes:
        if hero in HEROES:
            names.update(dict.fromkeys(decks.card_names(hero)))
    return list(names)
