"""The section Skill and luck: a game's skill ladder (balance/ladder/), in words and a chart."""
