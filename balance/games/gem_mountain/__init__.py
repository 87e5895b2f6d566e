"""Gem mountain: its rules (rules_nb.py), their defaults (data/rules.toml) and its declaration
(game.py), on the engine kit (balance/kit/). Its players are in heuristics/gem_mountain/, its
report in reports/gem_mountain/, its experiments in experiments/gem_mountain/, its tests in
tests/games/gem_mountain/."""
