"""What a strength ladder plays: one setting of a game (an experiment of one variant, or the
game's defaults), and the matches its rungs play on it, each a variant of that setting with
its own seats.

- A race (one seat wins): each rung against the rung below, on the same seeds, the upper rung
  on one seat and the lower on every other, in each seat in turn (TabletopGames' ladder
  seats its agents so: one of the higher budget, the rest of the lower, each position alike);
  and every rung on every seat, each seed replayed `repeats` times with the players' own
  streams drawn anew (the seed analysis, balance/ladder/luck.py).
- A team game, or one seat against the rules: every rung on every seat, each seed replayed
  so; a rung is compared with the rung below on the same seeds.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from balance.contract import registry
from balance.contract.experiment import Variant
from balance.errors import InputError, Problem
from balance.ladder.rungs import BUDGET, Rung
from balance.running.experiment import Experiment, load_experiment, parse_experiment
from balance.running.runner import Job
from balance.running.store.layout import Shard

STEP, SEEDS = "step", "seeds"


@dataclass(frozen=True)
class Match:
    """The games of one variant of the ladder."""

    part: str  # STEP: a rung against the rung below; SEEDS: one rung on every seat
    upper: int  # the rung (index into the rungs) above, or the one rung of SEEDS
    lower: int  # the rung below (SEEDS: the same rung)
    at: int  # the listed seat (from 0) of the upper rung; -1 where every seat plays one rung
    streams: int  # the players' streams (0 the seed's own; SEEDS' replays 0..repeats-1)


def base_experiment(game_name: str | None, file: str | None, players: int | None,
                    seed: int) -> Experiment:
    """The setting the ladder plays: an experiment file of one variant (its players are
    replaced), or the game's defaults at `players` seats (default: 2 where the game plays 2,
    else its fewest)."""
    if (game_name is None) == (file is None):
        raise InputError([Problem("--game", "", "", "give a game (--game NAME) or an "
                                  "experiment file of one variant, one of the two")])
    if file is not None:
        exp = load_experiment(file)
        if len(exp.variants) != 1:
            raise InputError([Problem(file, "[grid]", "", f"makes {len(exp.variants)} "
                                      "variants: a ladder plays one setting, so give a file "
                                      "of one variant")])
        if players is not None and players != exp.variants[0].players:
            raise InputError([Problem("--players", "", "", f"the file plays "
                                      f"{exp.variants[0].players} players: leave --players "
                                      "out, or change the file")])
        return exp
    game = registry.get(game_name, "--game", "", "")
    counts = game.player_counts
    if players is None:
        players = 2 if 2 in counts else min(counts)
    elif players not in counts:
        raise InputError([Problem("--players", "", "", f"{game.title} plays "
                                  f"{', '.join(map(str, counts))} players, got {players}")])
    head = {"name": f"ladder-{game.name.replace('_', '-')}", "description":
            f"{game.title}'s strength ladder", "game": game.name, "games": 1, "seed": seed,
            "players": players}
    try:
        return parse_experiment({"experiment": head}, "", "--game")
    except InputError as e:
        # A game whose file must name keys of its own (which rules, which way to play)
        # has no setting from --game alone: say what it asks, and where to give it.
        missing = "; ".join(f"{p.field} {p.message}".strip() for p in e.problems)
        raise InputError([Problem("--game", "", "", f"{game.title} cannot be played from "
                                  f"its defaults alone ({missing}): give an experiment file "
                                  "of one variant that sets them instead")]) from None


def race(exp: Experiment) -> bool:
    """Whether one seat wins the setting's games and there are seats to rotate."""
    v = exp.variants[0]
    return exp.game.competitive(v.describe()) and v.players > 1


def matches(exp: Experiment, rungs: list[Rung], repeats: int) -> list[Match]:
    players = exp.variants[0].players
    out = []
    if race(exp):
        out += [Match(STEP, i, i - 1, at, 0) for i in range(1, len(rungs))
                for at in range(players)]
    out += [Match(SEEDS, r, r, -1, k) for r in range(len(rungs)) for k in range(repeats)]
    return out


def variant_of(exp: Experiment, rungs: list[Rung], m: Match, index: int) -> Variant:
    """The setting's variant with the match's seats, and a search's budget on each seat."""
    base = exp.variants[0]
    if m.at < 0:
        seats = (rungs[m.upper],) * base.players
    else:
        seats = tuple(rungs[m.upper] if k == m.at else rungs[m.lower]
                      for k in range(base.players))
    names = tuple(r.player for r in seats)
    # The file's knobs of the players still seated: a knob of a player no rung seats here
    # would be refused as no seated player's.
    roster = exp.game.player_registry()
    own = {k.name for n in names for k in roster[n].knobs}
    knobs = {k: x for k, x in base.knobs.items() if k in own}
    if any(r.budget is not None for r in seats):
        knobs[BUDGET] = tuple(r.budget or 0 for r in seats)
    return dataclasses.replace(base, index=index, label=f"{m.part} {index}", seats=names,
                               heuristic=",".join(names), knobs=knobs)


def jobs_of(exp: Experiment, rungs: list[Rung], plan: list[Match], games: int,
            shard: int) -> list[Job]:
    """Every shard of every match: game i of every match is dealt from the same seed."""
    out = []
    for index, m in enumerate(plan):
        v = variant_of(exp, rungs, m, index)
        for start in range(0, games, shard):
            out.append(Job(exp.game, exp.name, exp.seed, v,
                           Shard(index, start, min(games, start + shard)), streams=m.streams))
    return out


def prepare_all(exp: Experiment, rungs: list[Rung], plan: list[Match]) -> None:
    """Every match's variant built as the workers will build it, before a game is played."""
    if not exp.game.prepare:
        return
    hook = exp.game.hook("prepare")
    seen = set()
    for index, m in enumerate(plan):
        v = variant_of(exp, rungs, m, index)
        key = (v.seats, tuple(sorted((k, str(x)) for k, x in v.knobs.items())))
        if key not in seen:
            seen.add(key)
            hook(v)
