"""The players. Neutral parts here (the player declaration, the seats, knobs, the random,
scripted and search players, the generator of each game's dispatch); each game's own players
and its roster in heuristics/<game>/ (heuristics/player.py says how they fit)."""
