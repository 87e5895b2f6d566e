"""A batch's records as the kit writes them (nb.write_record_nb): one int64 row per game, read back
here by name. A row: the outcome, the winning seat, the end reason, the turns, the decisions,
the options offered over them, the first violation, the kinds of option picked (a bit each)
and the lead changes kept; then each seat's score, each seat's tallies, the game's own record,
the lead changes as (turn, leader) pairs, and the game's course: each seat's progress at the
end of each of COURSE_POINTS equal parts of the game, then the changes of sole leader
(course_nb.py)."""

from __future__ import annotations

import numpy as np

from balance.kit.nb import FIXED
from balance.kit.state import COURSE_POINTS, MAX_LEADS


def width(seats: int, tallies: int, record: int) -> int:
    return FIXED + seats + seats * tallies + record + 2 * MAX_LEADS + COURSE_POINTS * seats + 1


class Records:
    def __init__(self, out: np.ndarray, seats: int, tallies: int, record: int):
        self.out = out
        self.outcome, self.winner, self.end, self.turns = (out[:, i] for i in range(4))
        self.decisions, self.options, self.violation, self.picked = (out[:, i]
                                                                      for i in range(4, 8))
        self.lead_count = out[:, 8]
        at = FIXED
        self.scores = out[:, at: at + seats]
        at += seats
        self.tallies = out[:, at: at + seats * tallies].reshape(len(out), seats, tallies)
        at += seats * tallies
        self.rec = out[:, at: at + record]
        at += record
        self._leads = out[:, at: at + 2 * MAX_LEADS]
        at += 2 * MAX_LEADS
        # (games, COURSE_POINTS, seats): each seat's progress at the end of each part
        self.course = out[:, at: at + COURSE_POINTS * seats].reshape(len(out), COURSE_POINTS,
                                                                      seats)
        self.lead_changes = out[:, at + COURSE_POINTS * seats]

    def __len__(self) -> int:
        return len(self.out)

    def leads(self, g: int) -> np.ndarray:
        """Game g's lead changes: (turn from 0, seat from 0 or -1 for a shared lead) rows."""
        return self._leads[g, : 2 * self.lead_count[g]].reshape(-1, 2)

    def lead_lists(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every game's lead changes at once: (offsets, turns, seats), game g's being
        turns[offsets[g]:offsets[g + 1]] (an Arrow list column's layout)."""
        pairs = self._leads.reshape(len(self), -1, 2)
        kept = np.arange(pairs.shape[1]) < self.lead_count[:, None]
        offsets = np.concatenate([[0], np.cumsum(self.lead_count)]).astype(np.int32)
        return offsets, pairs[..., 0][kept], pairs[..., 1][kept]

    def picked_kinds(self) -> set[int]:
        """The kinds of option picked in any game of the batch."""
        bits = int(np.bitwise_or.reduce(self.picked)) if len(self) else 0
        return {k for k in range(63) if bits >> k & 1}
