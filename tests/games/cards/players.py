"""The card race's own player, beside the neutral random and scripted ones."""

from balance.kernels.jit import njit
from balance.kit.nb import seat_nb


@njit
def collector_choose_nb(state, w):
    """The card of its own hand worth most, each card's worth raised by `chase` (w[0]) for
    every card of its colour the seat has played already (chasing a majority). It reads its
    own hand and the tallies, which every seat sees: nothing hidden from it."""
    kit = state.kit
    seat = seat_nb(kit)
    best, pick = -1.0, 0
    for j in range(state.hand_n[seat]):
        card = state.hand[seat, j]
        worth = card + 1 + w[0] * kit.tally[seat, card]
        if worth > best:
            best, pick = worth, j
    return pick
