"""How a playthrough shows a game beyond its declaration's formats (KitGame.view): the state as
text at each turn (as OpenSpiel's State.ToString), and the words for options, decisions and
events that depend on the state (as its ActionToString). A game whose trace draws its board
(Rusship's track) subclasses View; every method left as it is keeps the declaration's way.

The view keeps its own copy of what it draws, replayed from the events (`event` sees each, in
order, the kit's own included), so what it shows is what the events say happened."""

from __future__ import annotations


class View:
    def __init__(self, setup):
        self.setup = setup  # the game's Setup (balance/kit/play.py): rules, seats, values

    def header(self) -> str | None:
        """The playthrough's first lines; None: KitGame.header."""
        return None

    def event(self, row) -> str | None:
        """Event `row` (turn, seat, code, a, b, c, d; the kit's TURN_EVENT and END_EVENT too)
        applied to the view's state; the line (or lines) that tell it, "" for none, None for
        the declaration's way (Event.line and part, KitGame.closing)."""
        return None

    def option(self, seat: int, decision: int, row) -> str | None:
        """An option (kind, a, b, c) of a decision of kind `decision` of `seat` (from 0);
        None: OptionKind.text."""
        return None

    def decision(self, seat: int, decision: int, shown: str, pick: int) -> str | None:
        """The line of a decision of `seat` (from 0), its options `shown` as worded, and the
        pick; None: the kit's line."""
        return None

    def text(self) -> str | None:
        """The state as text, written as each turn begins and before the game's last line;
        None: nothing."""
        return None
