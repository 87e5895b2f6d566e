"""The players. Each is a set of Numba functions that pick one option per decision (see
balance/games/gemrush/engine/decisions.py), registered by name in `registry.py` with an integer
policy id
and a weights array that comes from data."""
