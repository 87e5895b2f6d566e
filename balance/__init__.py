"""Gem Rush balance toolkit.

From a notebook:
    from balance.play import prepare, play_batch, play_traced
    setup = prepare("2e", "crisis", players=4, heuristic="greedy", exhaust=True)
    batch = play_batch(setup, range(10_000))      # one record per game

The package imports nothing heavy here, so that reading content files stays fast.
"""

__version__ = "0.1.0"
