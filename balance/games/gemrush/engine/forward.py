"""The forward model a search uses: copy a game, resample what a player cannot know, apply one
decision and play on to the end.

The engine plays a turn as nested calls (movement, construction, abilities), so a decision in
the middle of a turn cannot be resumed from the state alone. A rollout therefore starts from
the state saved at the start of the turn (`copy_state_nb`), replays the decisions already
made in the turn (they are deterministic: same state, same choices, same stream), then hands
out the decision to try. At that moment, and not before, it resamples the hidden information
(`determinize_nb`): the history up to the decision is the real one, and the future is drawn
from what the player could believe. From there every seat plays greedy to the end of the game
(`rollout_nb`).

What a player cannot know (RULINGS.md ruling 10; README, "Rulings the engine adds"):
- the order of the gem deck and of the room deck;
- which cards were burnt from the deck (burns from the deck are unseen), so those cards and
  the deck's are one pool;
- in Rush, the other players' hands (their sizes are public).
The game's own random stream is reseeded too: the next reshuffles must not repeat the real
ones.
"""

from balance.games.gemrush.engine.state import (
    PILE_BURNT,
    PILE_BURNT_SEEN,
    PILE_DECK,
    PL_X,
    PL_Y,
    S_BURNT_N,
    S_BURNT_SEEN_N,
    S_CARD_VER,
    S_CHECK,
    S_DECK_N,
    S_PLACED,
    S_RESAMPLE,
    S_SCRIPT_N,
    S_SCRIPT_POS,
    S_SKDECK_N,
    S_TEAM_SCORE,
    S_TILES_N,
    S_TRACE,
    SKD_DECK,
    SKD_RNG,
    WK_B,
    WK_SCRATCH,
)
from balance.games.gemrush.tables import CRISIS
from balance.kernels.copy_nb import copy_array_nb
from balance.kernels.jit import njit
from balance.kernels.rng import next32_nb, shuffle_nb
from heuristics.gemrush.dispatch import POLICY_GREEDY


@njit
def copy_state_nb(dst, src):
    """dst <- src: everything a game reads on (not the trace, the options or the script; the
    players' memory is theirs: heuristics/memory.copy_memory_nb)."""
    for j in range(dst.sc[S_PLACED]):  # the grid is large and mostly empty
        dst.grid[dst.pl[PL_Y, j], dst.pl[PL_X, j]] = -1
    copy_array_nb(dst.sc, src.sc)
    copy_array_nb(dst.rng, src.rng)
    copy_array_nb(dst.piles, src.piles)
    copy_array_nb(dst.hand, src.hand)
    copy_array_nb(dst.hand_n, src.hand_n)
    copy_array_nb(dst.tiles, src.tiles)
    copy_array_nb(dst.pl, src.pl)
    copy_array_nb(dst.link, src.link)
    copy_array_nb(dst.pos, src.pos)
    copy_array_nb(dst.score, src.score)
    copy_array_nb(dst.door_pts, src.door_pts)
    copy_array_nb(dst.bonus_pts, src.bonus_pts)
    copy_array_nb(dst.score_by_turn, src.score_by_turn)
    copy_array_nb(dst.gtmp, src.gtmp)  # the supply of the hand last tallied (payment_nb)
    copy_array_nb(dst.work, src.work)
    copy_array_nb(dst.face, src.face)
    copy_array_nb(dst.sk, src.sk)
    copy_array_nb(dst.skdeck, src.skdeck)
    for j in range(src.sc[S_PLACED]):
        dst.grid[src.pl[PL_Y, j], src.pl[PL_X, j]] = j
    dst.sc[S_TRACE] = 0
    dst.sc[S_CHECK] = 0


@njit
def determinize_nb(st, tb, ru, p, rng):
    """Resample, in place, everything player p cannot know (module docstring), drawing from
    `rng`: the cards of the deck, of the unseen burns and (Rush) of the other hands are dealt
    again from one shuffled pool, keeping every pile's size; the room deck is shuffled."""
    n_cards = tb.card_deck.shape[0]
    seen = st.work[WK_B]
    for c in range(n_cards):
        seen[c] = 0
    for i in range(st.sc[S_BURNT_SEEN_N]):
        seen[st.piles[PILE_BURNT_SEEN, i]] = 1
    pool = st.work[WK_SCRATCH]
    m = 0
    for i in range(st.sc[S_DECK_N]):
        pool[m] = st.piles[PILE_DECK, i]
        m += 1
    # The burnt pile keeps the cards burnt from hands (seen) first; the unseen ones follow.
    kept = 0
    for i in range(st.sc[S_BURNT_N]):
        c = st.piles[PILE_BURNT, i]
        if seen[c]:
            st.piles[PILE_BURNT, kept] = c
            kept += 1
        else:
            pool[m] = c
            m += 1
    if ru.mode != CRISIS:
        for q in range(ru.players):
            if q != p:
                for i in range(st.hand_n[q]):
                    pool[m] = st.hand[q, i]
                    m += 1
    # The pool in card order, not in the order the true piles hold it: the world drawn then
    # depends only on what the player knows (which cards are unseen) and on `rng`.
    for c in range(n_cards):
        seen[c] = 0
    for i in range(m):
        seen[pool[i]] = 1
    m = 0
    for c in range(n_cards):
        if seen[c]:
            pool[m] = c
            m += 1
    shuffle_nb(rng, pool, m)
    m = 0
    for i in range(st.sc[S_DECK_N]):
        st.piles[PILE_DECK, i] = pool[m]
        m += 1
    for i in range(kept, st.sc[S_BURNT_N]):
        st.piles[PILE_BURNT, i] = pool[m]
        m += 1
    if ru.mode != CRISIS:
        for q in range(ru.players):
            if q != p:
                for i in range(st.hand_n[q]):
                    st.hand[q, i] = pool[m]
                    m += 1
    shuffle_nb(rng, st.tiles, st.sc[S_TILES_N])
    shuffle_nb(rng, st.skdeck[SKD_DECK], st.sc[S_SKDECK_N])  # Chaos Magic's next skills
    for i in range(4):
        st.rng[i] = next32_nb(rng) | 1  # never the all-zero state
        st.skdeck[SKD_RNG, i] = next32_nb(rng) | 1
    if ru.mode != CRISIS:
        st.sc[S_CARD_VER] += 1  # the other seats' plans were made on their old hands


@njit
def replay_choice_nb(st, tb, ru, pp, p):
    """The rollout policy's scripted part: the next recorded choice of the turn. Handing out
    the last one (the decision being tried) resamples the hidden information, and from then on
    every seat plays greedy. S_RESAMPLE = 0 keeps the true hidden information (for tests: the
    rollout must then end as the real game does). Returns -1 when the script is spent."""
    i = st.sc[S_SCRIPT_POS]
    n = st.sc[S_SCRIPT_N]
    if i >= n:
        return -1
    st.sc[S_SCRIPT_POS] = i + 1
    if i + 1 == n:
        if st.sc[S_RESAMPLE]:
            determinize_nb(st, tb, ru, p, pp.rng)
        for q in range(pp.pol.shape[0]):
            pp.pol[q] = POLICY_GREEDY
    return st.script[i]


@njit
def rollout_value_nb(st, ru, p):
    """What a finished rollout is worth to player p: the team score in Crisis; in Rush 1 for
    a win (shared or not), plus a hundredth of a point per point of lead over the best other
    player."""
    if ru.mode == CRISIS:
        return float(st.sc[S_TEAM_SCORE])
    best_other = -1 << 30
    for q in range(ru.players):
        if q != p and st.score[q] > best_other:
            best_other = st.score[q]
    lead = st.score[p] - best_other
    return (1.0 if lead >= 0 else 0.0) + 0.01 * lead
