"""Gem runner: its rules (rules_nb.py), their defaults (data/rules.toml) and its declaration
(game.py), on the engine kit (balance/kit/). Its players are in heuristics/gem_runner/, its
report in reports/gem_runner/, its experiments in experiments/gem_runner/, its tests in
tests/games/gem_runner/."""
