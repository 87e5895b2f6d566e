"""A whole game, and the batch kernel that plays many and writes one record per game."""


from balance.games.gemrush.engine.cards_nb import take_top_nb, to_hand_nb
from balance.games.gemrush.engine.check_nb import check_invariants_nb
from balance.games.gemrush.engine.events import (
    EV_DEAL,
    EV_END,
    EV_PLACE,
    EV_SETUP,
    EV_TURN,
    EV_TURN_END,
    emit_nb,
)
from balance.games.gemrush.engine.mine_nb import T_EMPTY, mine_sealed_nb, place_nb, trace_nb
from balance.games.gemrush.engine.options_nb import poison_options_nb
from balance.games.gemrush.engine.skills_nb import deal_skills_nb, reset_skills_nb
from balance.games.gemrush.engine.state import (
    END_NONE,
    END_ROOMS_OUT,
    END_RUSH_TARGET,
    END_SEALED,
    END_TURN_CAP,
    PILE_DECK,
    PL_BUILDER,
    PL_GAINED,
    PL_POINTS,
    PL_TURN,
    PL_TYPE,
    PL_USES,
    PL_X,
    PL_Y,
    S_BURNT_N,
    S_CHECK,
    S_CUR,
    S_DECISIONS,
    S_DECK_N,
    S_DECK_OUT_TURN,
    S_DISC_N,
    S_END_REASON,
    S_ENDED,
    S_N_SCALARS,
    S_OPTIONS,
    S_ORIGIN,
    S_PLACED,
    S_RESHUFFLES,
    S_TARGET_TURN,
    S_TEAM_SCORE,
    S_TILES_N,
    S_TRACE,
    S_TURN,
    S_VIOLATION,
    SK_DEALT0,
)
from balance.games.gemrush.engine.turn_nb import ask_rotation_nb, play_turn_nb
from balance.games.gemrush.tables import CRISIS, RUSH, SEAT_DEAL, SEAT_VP, TUNNEL
from balance.kernels.jit import njit
from balance.kernels.rng import shuffle_nb
from balance.kernels.unlinked import unlinked
from heuristics.gemrush.dispatch_nb import reset_memories_nb, turn_start_nb

# Columns of the per-game integer record.
(R_WON, R_END_REASON, R_TURNS, R_TEAM_SCORE, R_TOP_SCORE, R_WINNER, R_TARGET_TURN,
 R_DECK_OUT_TURN, R_RESHUFFLES, R_BURNT, R_ROOMS_BUILT, R_VIOLATION, R_DECISIONS,
 R_OPTIONS, R_N) = range(15)
# Columns of the per-room record: one row per placed tile, in placement order.
(RM_TYPE, RM_TURN, RM_BUILDER, RM_POINTS, RM_USES, RM_GAINED, RM_N) = range(7)


@njit
def reset_nb(st, tb, ru, pp, rng_words, trace, check):
    # Clear only the cells the last game used: the grid is large and mostly empty.
    for j in range(st.sc[S_PLACED]):
        st.grid[st.pl[PL_Y, j], st.pl[PL_X, j]] = -1
    for i in range(S_N_SCALARS):
        st.sc[i] = 0
    for i in range(4):
        st.rng[i] = rng_words[i]  # the game's stream: shuffles
        pp.rng[i] = rng_words[4 + i]  # the players' stream (heuristics/seats.py)
    reset_memories_nb(pp.mem)
    reset_skills_nb(st, tb, rng_words)
    st.sc[S_TRACE] = trace
    st.sc[S_CHECK] = check
    if check:
        poison_options_nb(st.opt, st.sc, st.opt.shape[0])  # see options_nb
    st.sc[S_TARGET_TURN] = -1
    st.sc[S_DECK_OUT_TURN] = -1
    st.sc[S_ORIGIN] = st.grid.shape[0] // 2
    n_cards = tb.card_deck.shape[0]
    for i in range(n_cards):
        st.piles[PILE_DECK, i] = i
    st.sc[S_DECK_N] = n_cards
    n_tiles = tb.room_deck.shape[0]
    for i in range(n_tiles):
        st.tiles[i] = tb.room_deck[i]
    st.sc[S_TILES_N] = n_tiles
    team = 0
    for q in range(ru.players):
        st.hand_n[q] = 0
        st.score[q] = ru.seat[SEAT_VP, q]
        team += st.score[q]
        st.door_pts[q] = 0
        st.bonus_pts[q] = 0
    st.sc[S_TEAM_SCORE] = team
    for t in range(st.score_by_turn.shape[0]):
        st.score_by_turn[t] = 0


@njit
def setup_nb(st, tb, ru, pp):
    """Shuffle, lay the start tile (2nd edition: a tunnel start chains on until a room),
    deal (seat after seat, each its own number of cards), and seat everyone on the start room.
    Seat 0 is the first player."""
    shuffle_nb(st.rng, st.tiles, st.sc[S_TILES_N])
    shuffle_nb(st.rng, st.piles[PILE_DECK], st.sc[S_DECK_N])
    o = st.sc[S_ORIGIN]
    if not ru.start_tunnel_chain:
        # Without the chain rule a tunnel cannot start the mine: it goes under the deck.
        for _ in range(st.sc[S_TILES_N]):
            top = st.tiles[st.sc[S_TILES_N] - 1]
            if tb.room_kind[top] != TUNNEL:
                break
            for i in range(st.sc[S_TILES_N] - 1, 0, -1):
                st.tiles[i] = st.tiles[i - 1]
            st.tiles[0] = top
    st.sc[S_TILES_N] -= 1
    t0 = st.tiles[st.sc[S_TILES_N]]
    start = place_nb(st, tb, t0, 0, o, o, -1, -1)
    emit_nb(st, EV_SETUP, start, t0, 0, o, o)
    x, y, side = o, o, 0
    rt, rot = t0, 0
    while tb.room_kind[rt] == TUNNEL and st.sc[S_TILES_N] > 0:
        if st.sc[S_PLACED] == 1:
            ex = 0  # leave the start tunnel northwards
        else:
            ex = tb.tunnel_exit[rt, rot, side]
        kind, a, b, c, _p = trace_nb(st, tb, x, y, ex)
        if kind != T_EMPTY:
            start = a
            break
        st.sc[S_TILES_N] -= 1
        nt = st.tiles[st.sc[S_TILES_N]]
        rot = ask_rotation_nb(st, tb, ru, pp, 0, nt, c, a, b)
        start = place_nb(st, tb, nt, rot, a, b, -1, -1)
        emit_nb(st, EV_PLACE, start, nt, rot, a, b)
        x, y, side, rt = a, b, c, nt
    for q in range(ru.players):
        st.pos[q] = start
        for _ in range(ru.seat[SEAT_DEAL, q]):
            c = take_top_nb(st)
            if c >= 0:
                to_hand_nb(st, q, c)
                emit_nb(st, EV_DEAL, c, q, 0, 0, 0)
    deal_skills_nb(st, tb, ru, pp)


@njit
def play_game_nb(st, tb, ru, pp, rng_words, trace, check):
    reset_nb(st, tb, ru, pp, rng_words, trace, check)
    _setup_nb(st, tb, ru, pp)
    _play_on_nb(st, tb, ru, pp, check, False)
    emit_nb(st, EV_END, st.sc[S_END_REASON], st.sc[S_TEAM_SCORE], 0, 0, 0)


@njit
def play_on_nb(st, tb, ru, pp, check, resume):
    """The game loop, from turn S_TURN to the end of the game. With `resume`, that turn has
    already begun (its start checks are done): a search's rollout resumes it from the state
    saved at its start (resume_nb)."""
    cap = st.score_by_turn.shape[0]
    while True:
        turn = st.sc[S_TURN]
        p = turn % ru.players
        st.sc[S_CUR] = p
        if not resume:
            if ru.mode == RUSH and p == 0:
                # Ruling 2: the end is checked at the first player, so all have equal turns.
                top = 0
                for q in range(ru.players):
                    top = max(top, st.score[q])
                if top >= ru.target:
                    st.sc[S_ENDED] = 1
                    st.sc[S_END_REASON] = END_RUSH_TARGET
                    break
                # Points come only from construction: once nobody can build again the game
                # ends at once, without the idle rounds, and says why.
                reason = END_NONE
                if st.sc[S_TILES_N] == 0:
                    reason = END_ROOMS_OUT
                elif mine_sealed_nb(st, tb, ru):
                    reason = END_SEALED
                elif turn // ru.players >= ru.rush_round_cap:
                    reason = END_TURN_CAP
                if reason != END_NONE:
                    st.sc[S_ENDED] = 1
                    st.sc[S_END_REASON] = reason
                    break
            if turn >= cap:
                st.sc[S_ENDED] = 1
                st.sc[S_END_REASON] = END_TURN_CAP
                break
            emit_nb(st, EV_TURN, p, st.pos[p], 0, 0, 0)
            turn_start_nb(pp, p)
        resume = False
        play_turn_nb(st, tb, ru, pp, p)
        st.score_by_turn[turn] = st.sc[S_TEAM_SCORE]
        st.sc[S_TURN] = turn + 1
        emit_nb(st, EV_TURN_END, st.sc[S_TEAM_SCORE], st.sc[S_DECK_N], st.sc[S_DISC_N],
               st.sc[S_BURNT_N], st.score[p])
        if check:
            check_invariants_nb(st, tb, ru)
        if st.sc[S_ENDED]:
            break


# Called once a game, so by their symbols (balance/kernels/unlinked.py): linked, the game
# loop and everything under it, players included, was optimised and compiled again inside
# play_game_nb and again inside play_games_nb (and inside resume_nb, once a rollout: 1.7 s
# of the search's compile, against 0.4 s unlinked, the rollouts as fast).
_setup_nb = unlinked(setup_nb)
_play_on_nb = unlinked(play_on_nb)
_play_game_nb = unlinked(play_game_nb)


@njit
def resume_nb(st, tb, ru, pp):
    """The forward model's play-on (forward.py, FORWARD): the turn under
    way, whose start is done, and every later one, to the end of the game."""
    _play_on_nb(st, tb, ru, pp, 0, True)


@njit
def record_nb(st, tb, ru, out, g, scores, rooms):
    top = -1
    winner = -1
    for q in range(ru.players):
        scores[g, q] = st.score[q]
        if st.score[q] > top:
            top = st.score[q]
            winner = q
        elif st.score[q] == top:
            winner = -1
    r = out[g]
    if ru.mode == CRISIS:
        r[R_WON] = 1 if st.sc[S_TEAM_SCORE] >= ru.target else 0
        r[R_WINNER] = -1
    else:
        r[R_WINNER] = winner
        r[R_WON] = 1 if (winner >= 0 and st.sc[S_END_REASON] == END_RUSH_TARGET) else 0
    r[R_END_REASON] = st.sc[S_END_REASON]
    r[R_TURNS] = st.sc[S_TURN]
    r[R_TEAM_SCORE] = st.sc[S_TEAM_SCORE]
    r[R_TOP_SCORE] = top
    r[R_TARGET_TURN] = st.sc[S_TARGET_TURN]
    r[R_DECK_OUT_TURN] = st.sc[S_DECK_OUT_TURN]
    r[R_RESHUFFLES] = st.sc[S_RESHUFFLES]
    r[R_BURNT] = st.sc[S_BURNT_N]
    n = st.sc[S_PLACED]
    built = 0
    for j in range(n):
        rooms[g, j, RM_TYPE] = st.pl[PL_TYPE, j]
        rooms[g, j, RM_TURN] = st.pl[PL_TURN, j]
        rooms[g, j, RM_BUILDER] = st.pl[PL_BUILDER, j]
        rooms[g, j, RM_POINTS] = st.pl[PL_POINTS, j]
        rooms[g, j, RM_USES] = st.pl[PL_USES, j]
        rooms[g, j, RM_GAINED] = st.pl[PL_GAINED, j]
        if st.pl[PL_BUILDER, j] >= 0:
            built += 1
    for j in range(n, rooms.shape[1]):
        rooms[g, j, RM_TYPE] = -1
    r[R_ROOMS_BUILT] = built
    r[R_VIOLATION] = st.sc[S_VIOLATION]
    r[R_DECISIONS] = st.sc[S_DECISIONS]
    r[R_OPTIONS] = st.sc[S_OPTIONS]


@njit
def play_games_nb(st, tb, ru, pp, rng_words, check, out, scores, sbt, rooms, skills):
    """Play len(rng_words) games; game g writes out[g], scores[g], sbt[g] (team score after
    each player turn; -1 after the end), rooms[g] (placed tiles; type -1 after the last) and
    skills[g] (each seat's skills as dealt, -1 for none)."""
    for g in range(rng_words.shape[0]):
        _play_game_nb(st, tb, ru, pp, rng_words[g], 0, check)
        record_nb(st, tb, ru, out, g, scores, rooms)
        for q in range(ru.players):
            skills[g, q, 0] = st.sk[q, SK_DEALT0]
            skills[g, q, 1] = st.sk[q, SK_DEALT0 + 1]
        turns = st.sc[S_TURN]
        for t in range(sbt.shape[1]):
            sbt[g, t] = st.score_by_turn[t] if t < turns else -1

