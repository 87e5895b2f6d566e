"""Gem runner's players: the roster (registry.py), their decision functions (players.py) and
the dispatch generated from the roster (dispatch_nb.py)."""
