"""Game state: plain arrays in a NamedTuple, allocated once per batch and reset per game.

Scalars live in `sc`, an int64 array indexed by the constants below, so that kernels can
update them in place. Physical cards are numbered 0..n_cards-1 (their type is
tables.card_deck[i]); placed tiles are numbered in placement order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from balance.tables import Rules, Tables

# Scalar slots.
(S_DECK_N, S_DISC_N, S_POOL_N, S_REJ_N, S_BURNT_N, S_TILES_N, S_PLACED, S_TURN, S_CUR,
 S_STEPS_LEFT, S_ENDED, S_END_REASON, S_TARGET_TURN, S_RESHUFFLES, S_DECK_OUT_TURN,
 S_ORIGIN, S_TRACE, S_EV_N, S_CHECK, S_VIOLATION, S_CARTS, S_TEAM_SCORE, S_DECISIONS,
 S_MINE_VER, S_NEED_VER, S_PLAN_ROOM, S_FRONT_N, S_SUP_ECHO, S_SCRIPT_POS, S_SCRIPT_N,
 S_AVAIL_STAMP, S_LINK_VER, S_GOAL_STAMP, S_REACH_KEY, S_SUP_WILD, S_SUP_ECHO_UNITS,
 S_CARD_VER, S_PLAN_KEY, S_PLAN_TARGET, S_PLAN_SIDE, S_N_SCALARS) = range(41)

# End reasons (stable codes: they are stored in the games table).
END_NONE, END_TARGET, END_EXHAUSTED, END_CANNOT_BURN, END_RUSH_TARGET, END_TURN_CAP = range(6)
END_NAMES = ("none", "target", "exhausted", "cannot_burn", "rush_target", "turn_cap")

# Invariant violations (check mode); the first one found is recorded.
(V_NONE, V_BAD_CHOICE, V_CARDS, V_SCORE, V_DISCONNECTED, V_IN_TUNNEL, V_BAD_PAYMENT,
 V_HAND_LIMIT, V_GRID) = range(9)
VIOLATION_NAMES = ("none", "player chose an option that was not offered",
                   "a card is missing or in two places", "scores differ from points scored",
                   "the mine is not connected", "a player stands in a tunnel",
                   "a payment did not cover its door or spent a card for nothing",
                   "a hand was over the limit after the discard phase",
                   "the grid and the placed tiles disagree")

MAX_OPTS = 4096
MAX_SCRIPT = 4096
EV_COLS = 8


class State(NamedTuple):
    sc: np.ndarray  # (S_N_SCALARS,) scalars above
    rng: np.ndarray  # (4,) generator words
    deck: np.ndarray  # (n_cards,) card ids, top = deck[deck_n - 1]
    disc: np.ndarray  # (n_cards,) discard pile
    pool: np.ndarray  # (n_cards,) revealed cards awaiting keep
    rej: np.ndarray  # (n_cards,) cards a dig turned over and passed by
    burnt: np.ndarray  # (n_cards,) burnt cards, out of the game
    hand: np.ndarray  # (P, n_cards) card ids
    hand_n: np.ndarray  # (P,)
    tiles: np.ndarray  # (n_tiles,) room deck, top = tiles[tiles_n - 1]
    pl_type: np.ndarray  # (n_tiles,) placed tile: room type
    pl_rot: np.ndarray
    pl_x: np.ndarray
    pl_y: np.ndarray
    pl_builder: np.ndarray  # seat that built it, -1 for setup
    pl_turn: np.ndarray  # player turn it was built on, -1 for setup
    pl_points: np.ndarray  # points scored through its doors
    pl_uses: np.ndarray  # times its ability was used
    pl_gained: np.ndarray  # cards those uses put into hands
    grid: np.ndarray  # (W, W) placed index or -1
    link: np.ndarray  # (n_tiles, 4, 5) where each door leads: trace_nb's answer (mine_nb.py)
    pos: np.ndarray  # (P,) placed index of each dwarf
    score: np.ndarray  # (P,)
    door_pts: np.ndarray  # (P,) points from doors
    bonus_pts: np.ndarray  # (P,) points from Orichalcum
    score_by_turn: np.ndarray  # (max_turns,) team total after each player turn
    opt: np.ndarray  # (MAX_OPTS, 4) the legal options of the current decision
    gtmp: np.ndarray  # (4, G) int work space for payments (the supply of a set of cards)
    echo: np.ndarray  # (n_cards,) partner gem of each Echoglass card in that set
    scratch: np.ndarray  # (n_cards + 64,) work space (mine connectivity)
    work1: np.ndarray  # (n_cards + 64,) work space (payments)
    work2: np.ndarray  # (n_cards + 64,) work space (payments)
    spots: np.ndarray  # (4 * n_tiles + 8,) cells a room may move to
    dist: np.ndarray  # (n_tiles,) BFS distances (players' planning)
    prev: np.ndarray  # (n_tiles,) BFS parents
    prev_how: np.ndarray  # (n_tiles,) BFS: option kind used to arrive
    prev_arg: np.ndarray  # (n_tiles,) BFS: its argument
    queue: np.ndarray  # (n_tiles,)
    ev: np.ndarray  # (EV_MAX, EV_COLS) trace events when tracing
    front: np.ndarray  # (4 * n_tiles + 4, 3) players' cache: frontier doors (tile, side, pts)
    script: np.ndarray  # (MAX_SCRIPT,) choices the `scripted` player replays
    need: np.ndarray  # (G,) float: players' estimate of how much each gem is wanted
    avail: np.ndarray  # (G,) float: players' estimate of each gem's cards a dig could find
    goal: np.ndarray  # (G,) float: players' worth of holding each gem for their next door
    want: np.ndarray  # (G,) float: units of each gem that door still lacks
    card_val: np.ndarray  # (n_cards,) float work space: players' worth of each hand card


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
    return State(
        sc=np.zeros(S_N_SCALARS, i64), rng=np.zeros(4, i64),
        deck=np.zeros(n_cards, i64), disc=np.zeros(n_cards, i64), pool=np.zeros(n_cards, i64),
        rej=np.zeros(n_cards, i64), burnt=np.zeros(n_cards, i64),
        hand=np.zeros((p, n_cards), i64), hand_n=np.zeros(p, i64),
        tiles=np.zeros(n_tiles, i64), pl_type=np.zeros(n_tiles, i64),
        pl_rot=np.zeros(n_tiles, i64), pl_x=np.zeros(n_tiles, i64), pl_y=np.zeros(n_tiles, i64),
        pl_builder=np.zeros(n_tiles, i64), pl_turn=np.zeros(n_tiles, i64),
        pl_points=np.zeros(n_tiles, i64), pl_uses=np.zeros(n_tiles, i64),
        pl_gained=np.zeros(n_tiles, i64), grid=np.full((w, w), -1, i64),
        link=np.zeros((n_tiles, 4, 5), i64),
        pos=np.zeros(p, i64), score=np.zeros(p, i64), door_pts=np.zeros(p, i64),
        bonus_pts=np.zeros(p, i64), score_by_turn=np.zeros(max_turns(tables, rules), i64),
        opt=np.zeros((MAX_OPTS, 4), i64),
        gtmp=np.zeros((4, len(tables.gem_power)), i64), echo=np.zeros(n_cards, i64),
        scratch=np.zeros(n_cards + 64, i64),
        work1=np.zeros(n_cards + 64, i64), work2=np.zeros(n_cards + 64, i64),
        spots=np.zeros(4 * n_tiles + 8, i64),
        dist=np.zeros(n_tiles, i64), prev=np.zeros(n_tiles, i64),
        prev_how=np.zeros(n_tiles, i64), prev_arg=np.zeros(n_tiles, i64),
        queue=np.zeros(n_tiles + 1, i64), ev=np.zeros((max(1, ev_max), EV_COLS), i64),
        front=np.zeros((4 * n_tiles + 4, 3), i64),
        script=np.zeros(MAX_SCRIPT, i64),
        need=np.zeros(len(tables.gem_power), np.float64),
        avail=np.zeros(len(tables.gem_power), np.float64),
        goal=np.zeros(len(tables.gem_power), np.float64),
        want=np.zeros(len(tables.gem_power), np.float64),
        card_val=np.zeros(n_cards, np.float64),
    )
