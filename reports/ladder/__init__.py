"""The section Strength and luck: a game's strength ladder (balance/ladder/), in words and
a chart."""
