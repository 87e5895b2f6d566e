"""A referee of our own: an independent model of the rules that re-reads a game's event trace
and checks every event. It shares no rule code with the engine: it reads the content file's
facts (rooms, doors, cards) and the rule profile's numbers, and the trace's format (event
codes and end names), and models piles, positions, doors and tunnels, payments, scores, the
clock and the end itself. `balance check --referee` runs it on any content file."""

from balance.games.gemrush.referee.referee import Report, Violation, referee_events, referee_game

__all__ = ["Report", "Violation", "referee_events", "referee_game"]
