"""Game state: plain arrays in a NamedTuple, allocated once per batch and reset per game.

Scalars live in `sc`, an int64 array indexed by the constants below, so that kernels can
update them in place. Physical cards are numbered 0..n_cards-1 (their type is
tables.card_deck[i]); placed tiles are numbered in placement order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from balance.games.gemrush.capacity import MAX_OPTS
from balance.games.gemrush.tables import Rules, Tables

# Scalar slots.
(S_DECK_N, S_DISC_N, S_POOL_N, S_REJ_N, S_BURNT_N, S_TILES_N, S_PLACED, S_TURN, S_CUR,
 S_STEPS_LEFT, S_ENDED, S_END_REASON, S_TARGET_TURN, S_RESHUFFLES, S_DECK_OUT_TURN,
 S_ORIGIN, S_TRACE, S_EV_N, S_CHECK, S_VIOLATION, S_CARTS, S_TEAM_SCORE, S_DECISIONS,
 S_MINE_VER, S_SUP_ECHO, S_LINK_VER, S_SUP_WILD, S_SUP_ECHO_UNITS, S_CARD_VER, S_OPT_HWM,
 S_BURNT_SEEN_N, S_SKDECK_N, S_SKILL_USED, S_FACES_DIRTY, S_HAND_BONUS, S_SUP_KEY,
 S_OPTIONS, S_N_SCALARS) = range(38)
# S_SUP_KEY: whose hand st.gtmp holds the tally of, at which S_CARD_VER (payment_nb's
# hand_supply_nb), or 0 when it holds something else. S_DECISIONS and S_OPTIONS: the
# decisions asked in a game and the options they offered, for the games table's decisions
# and branching.

# End reasons (stable codes: they are stored in the games table). A Rush game that nobody can
# win any more ends at the next first-player check: `sealed`, no door of the mine faces an
# empty cell and no room can move; `rooms_out`, the room deck is empty. `turn_cap` is then
# only the round cap.
(END_NONE, END_TARGET, END_EXHAUSTED, END_CANNOT_BURN, END_RUSH_TARGET, END_TURN_CAP,
 END_SEALED, END_ROOMS_OUT) = range(8)
END_NAMES = ("none", "target", "exhausted", "cannot_burn", "rush_target", "turn_cap", "sealed",
             "rooms_out")

# Invariant violations (check mode); the first one found is recorded.
(V_NONE, V_BAD_CHOICE, V_CARDS, V_SCORE, V_DISCONNECTED, V_IN_TUNNEL, V_BAD_PAYMENT,
 V_HAND_LIMIT, V_GRID, V_STALE_OPTION, V_SKILL) = range(11)
VIOLATION_NAMES = ("none", "player chose an option that was not offered",
                   "a card is missing or in two places", "scores differ from points scored",
                   "the mine is not connected", "a player stands in a tunnel",
                   "a payment did not cover its door or spent a card for nothing",
                   "a hand was over the limit after the discard phase",
                   "the grid and the placed tiles disagree",
                   "an option row offered a cell the engine did not write for this decision",
                   "a skill was used beyond its uses, or a card kept a skill's face past the "
                   "turn")

# Rows of the grouped arrays. Arrays of one length share one 2-D array because every call
# between kernels passes each array of the state by value (7 words for each; see jit.py):
# 47 arrays cost 345 words a call, 24 cost 190. Python code may use the row names as
# attributes (st.pl_type, st.deck, ...): see _ROW_VIEWS below.
# st.pl: facts of each placed tile, in placement order.
(PL_TYPE, PL_ROT, PL_X, PL_Y, PL_BUILDER, PL_TURN, PL_POINTS, PL_USES, PL_GAINED,
 PL_ROWS) = range(10)
# st.piles: the card piles, stacks of card ids whose sizes are in sc. PILE_BURNT_SEEN holds
# the burnt cards the table saw (burnt from an open hand); a burn from the deck is unseen.
PILE_DECK, PILE_DISC, PILE_POOL, PILE_REJ, PILE_BURNT, PILE_BURNT_SEEN, PILE_ROWS = range(7)
# st.work: work space. Scratch (mine connectivity, the payment list's bits), two general
# rows (payments, rotations, the card check), the Echoglass partners of a set of cards.
WK_SCRATCH, WK_A, WK_B, WK_ECHO, WK_ROWS = range(5)
# st.sk: each seat's skills: the skill of each of its two slots (-1 for none; only Magic
# Circle fills the second), the uses of each this turn, and the skills as dealt (Chaos Magic
# changes the slots; the games table records the deal).
SK_SLOT0, SK_SLOT1, SK_USED0, SK_USED1, SK_DEALT0, SK_DEALT1, SK_COLS = range(7)
# st.skdeck: the skill cards not dealt (row 0, a stack whose size is sc[S_SKDECK_N]) and the
# skill deal's own random stream (row 1, words 0-3), so that dealing skills never moves the
# shuffles of the game's stream: variants that differ only in skills share their decks.
SKD_DECK, SKD_RNG = 0, 1
# Nothing of the players is here: their memory (greedy's plans, the scripted player's list,
# a search's replay) is their own, passed with their seats (heuristics/seats.py).

# Check mode fills the option table with this before each listing (players.offer_nb), so that a
# cell the listing did not write shows up as a violation instead of a stale value from an
# earlier decision (a stale card once made greedy stop feeding the 1st-edition clock).
OPT_POISON = -(1 << 62)
EV_COLS = 8


class State(NamedTuple):
    sc: np.ndarray  # (S_N_SCALARS,) scalars above
    rng: np.ndarray  # (4,) generator words
    piles: np.ndarray  # (PILE_ROWS, n_cards) deck (top = last), discards, revealed cards
    #                    awaiting keep, cards a dig passed by, burnt cards (out of the game),
    #                    and those of them burnt from a hand
    hand: np.ndarray  # (P, n_cards) card ids
    hand_n: np.ndarray  # (P,)
    tiles: np.ndarray  # (n_tiles,) room deck, top = tiles[tiles_n - 1]
    pl: np.ndarray  # (PL_ROWS, n_tiles) placed tiles: room type, rotation, x, y, seat that
    #                 built it (-1 for setup), player turn built on (-1 for setup), points
    #                 scored through its doors, ability uses, cards those uses put in hands
    grid: np.ndarray  # (W, W) placed index or -1
    link: np.ndarray  # (n_tiles, 4, 5) where each door leads: trace_nb's answer (mine_nb.py)
    pos: np.ndarray  # (P,) placed index of each dwarf
    score: np.ndarray  # (P,)
    door_pts: np.ndarray  # (P,) points from doors
    bonus_pts: np.ndarray  # (P,) points from Orichalcum
    score_by_turn: np.ndarray  # (max_turns,) team total after each player turn
    opt: np.ndarray  # (MAX_OPTS, 4) the legal options of the current decision
    gtmp: np.ndarray  # (3, G) int work space for payments (the supply of a set of cards)
    work: np.ndarray  # (WK_ROWS, n_cards + 64) work space: mine connectivity, payments, and
    #                   the partner gem of each Echoglass card in a set
    spots: np.ndarray  # (4 * n_tiles + 8,) cells a room may move to
    queue: np.ndarray  # (n_tiles + 1,) work space: the mine's connectivity check
    ev: np.ndarray  # (EV_MAX, EV_COLS) trace events when tracing
    face: np.ndarray  # (n_cards, 4) the gems each card shows now (columns 0-1) and its
    #                   printed gems (2-3): a skill may turn a card in a hand until the turn
    #                   ends or the card leaves the hand (skills_nb.py)
    sk: np.ndarray  # (P, SK_COLS) the seats' skills and their uses this turn
    skdeck: np.ndarray  # (2, max(4, n_skill_cards)) undealt skill cards; the deal's stream


# Python-side names for the rows (st.pl_type is st.pl[PL_TYPE]): views, so writes go through.
# Kernels cannot use them: Numba sees only a NamedTuple's fields.
_ROW_VIEWS = {
    **{f"pl_{n}": ("pl", i) for i, n in enumerate(
        ("type", "rot", "x", "y", "builder", "turn", "points", "uses", "gained"))},
    **{n: ("piles", i) for i, n in enumerate(
        ("deck", "disc", "pool", "rej", "burnt", "burnt_seen"))},
    **{n: ("work", i) for i, n in enumerate(("scratch", "work1", "work2", "echo"))},
}
for _name, (_field, _row) in _ROW_VIEWS.items():
    setattr(State, _name, property(lambda s, f=_field, r=_row: getattr(s, f)[r]))


def max_turns(tables: Tables, rules: Rules) -> int:
    crisis = len(tables.card_deck) // max(1, rules.burn_per_turn) + 2
    rush = rules.rush_round_cap * rules.players + rules.players
    return max(crisis, rush) if rules.mode == 1 else crisis


def new_state(tables: Tables, rules: Rules, ev_max: int = 1) -> State:
    n_cards = len(tables.card_deck)
    n_tiles = len(tables.room_deck)
    p = rules.players
    w = 2 * (n_tiles + 2) + 1
    i64 = np.int64
    g = len(tables.gem_power)
    return State(
        sc=np.zeros(S_N_SCALARS, i64), rng=np.zeros(4, i64),
        piles=np.zeros((PILE_ROWS, n_cards), i64),
        hand=np.zeros((p, n_cards), i64), hand_n=np.zeros(p, i64),
        tiles=np.zeros(n_tiles, i64), pl=np.zeros((PL_ROWS, n_tiles), i64),
        grid=np.full((w, w), -1, i64), link=np.zeros((n_tiles, 4, 5), i64),
        pos=np.zeros(p, i64), score=np.zeros(p, i64), door_pts=np.zeros(p, i64),
        bonus_pts=np.zeros(p, i64), score_by_turn=np.zeros(max_turns(tables, rules), i64),
        opt=np.zeros((MAX_OPTS, 4), i64), gtmp=np.zeros((3, g), i64),
        work=np.zeros((WK_ROWS, n_cards + 64), i64),
        spots=np.zeros(4 * n_tiles + 8, i64),
        queue=np.zeros(n_tiles + 1, i64),
        ev=np.zeros((max(1, ev_max), EV_COLS), i64),
        face=np.tile(tables.card_gems[tables.card_deck], 2),
        sk=np.full((p, SK_COLS), -1, i64),
        skdeck=np.zeros((2, max(4, len(tables.skill_deck))), i64),
    )
