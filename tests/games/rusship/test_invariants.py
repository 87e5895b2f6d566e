"""Thousands of Rusship games in check mode break no invariant (engine/check_nb.py: tokens
conserved, allies apart but for the share power, no space held by both sides, powers held once
and never more than the attacks suffered, everything on the track, no attack past the end):
over each rule switch (check.py, as `balance rusship check` plays them) and over the whole grid
of the switches at once, on a short track where they meet most often."""

import itertools

import numpy as np

from balance.games.rusship.check import check_rules, rule_switches
from balance.games.rusship.engine.state import R_POWER
from balance.games.rusship.game import KIT
from balance.games.rusship.play import play_batch, prepare
from balance.games.rusship.rules import DEFAULTS, SETTINGS

SWITCHES = [s for s in SETTINGS if (s.kind is bool or s.choices) and not s.name.startswith("box_")]


def test_every_rule_switch_breaks_no_invariant():
    results = check_rules(150)
    assert len(results) == 2 * len(rule_switches()) and sum(r.games for r in results) >= 5000
    broken = [(r.variant, r.bad_seeds[:3]) for r in results if r.bad_seeds]
    assert broken == []


def test_the_grid_of_every_switch_breaks_no_invariant():
    values = [(s.name, s.choices or (False, True)) for s in SWITCHES]
    seeds = np.arange(20)
    played, broken, every_power, attacks = 0, [], 0, 0
    for combo in itertools.product(*(v for _, v in values)):
        rules = {"length": 6, "hits_to_lose": 6, **dict(zip([n for n, _ in values], combo,
                                                            strict=True))}
        for seats in (("random", "random"), ("racer", "random")):
            out = play_batch(prepare(rules, seats), seeds, check=True)
            played += len(seeds)
            broken += [(rules, seats, int(seeds[i]), KIT.violation_names()[out.violation[i]])
                       for i in np.flatnonzero(out.violation)]
            # Six attacks to lose: games where all five powers are in play are many.
            every_power += int(((out.rec[:, R_POWER: R_POWER + 5] >= 0).sum(axis=1) == 5).sum())
            attacks = max(attacks, int(out.scores.max()))  # a side's score: its attacks
    assert played >= 10_000 and broken == []
    assert every_power > 1000 and attacks == 6


def test_the_switches_cover_every_word_and_switch():
    assert {s.name for s in SWITCHES} <= {k for r in rule_switches() for k in r}
    for s in SWITCHES:
        assert s.name in DEFAULTS
