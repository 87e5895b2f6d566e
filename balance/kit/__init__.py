"""The engine kit: what every game on it shares, written once (the guide's developers/kit.md).

A game on the kit writes only its rules, as compiled functions over its own state: the set-up
(`start_nb`), the options of the decision at hand (`options_nb`), how a picked option applies
(`apply_nb`), and through the kit's helpers its turns, its scores and tallies, its events and
its end. The kit owns the rest: both random streams seeded from each game's seed words, the
decision loop that asks the seat's player through the generated dispatch and checks the pick,
the checks a game declares, the records of a game and the tables made of them, traces and
golden playthroughs rendered from the events, and the hooks the runner calls.

Modules: state.py (the kit's arrays), nb.py (the compiled helpers a game calls), declare.py
(KitGame, the Python declaration), generate.py (a game's loop, generated), play.py (playing
from Python), records.py and table.py (records into tables), trace.py (playthroughs),
hooks.py (the runner's hooks)."""
