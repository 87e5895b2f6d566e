"""Gem runner's report (report.py): the neutral one, in the game's words."""
