"""Each seat's counts, for a game that declares them (balance/contract/game.py, Game.tallies):
the means and shares of every setting (tallies) and the report's section on them
(tallies_page). `balance compare` pairs them game by game (reports/compare/compare.py)."""
