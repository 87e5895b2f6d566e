"""Gem Rush's forward model (balance/contract/forward.py; FORWARD at the end, Game.forward),
which the search player (heuristics/search.py) uses: copy a game, resample what a player
cannot know, and score a finished game.

The engine plays a turn as nested calls (movement, construction, abilities), so a decision in
the middle of a turn cannot be resumed from the state alone. A rollout therefore starts from
the state saved at the start of the turn (`copy_state_nb`), replays the decisions already
made in the turn (they are deterministic: same state, same choices, same stream), then hands
out the decision to try. At that moment, and not before, it resamples the hidden information
(`determinize_nb`): the history up to the decision is the real one, and the future is drawn
from what the player could believe. From there every seat plays greedy to the end of the game
(game_nb.resume_nb), and `rollout_value_nb` scores it.

What a player cannot know (RULINGS.md ruling 10; README, "Rulings the engine adds"):
- the order of the gem deck and of the room deck;
- which cards were burnt from the deck (burns from the deck are unseen), so those cards and
  the deck's are one pool;
- in Rush, the other players' hands (their sizes are public).
The game's own random stream is reseeded too: the next reshuffles must not repeat the real
ones.
"""

from balance.contract.forward import ForwardModel
from balance.games.gemrush.engine.decisions import (
    D_ACTION,
    D_DISCARD_LIMIT,
    D_PAYMENT,
    D_ROTATION,
    D_SKILL,
    D_STEP,
)
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
    S_SKDECK_N,
    S_TEAM_SCORE,
    S_TILES_N,
    S_TRACE,
    S_TURN,
    SKD_DECK,
    SKD_RNG,
    WK_B,
    WK_SCRATCH,
)
from balance.games.gemrush.tables import CRISIS
from balance.kernels.copy_nb import copy_array_nb
from balance.kernels.jit import njit
from balance.kernels.rng import next32_nb, shuffle_nb


@njit
def copy_state_nb(dst, src):
    """dst <- src: everything a game reads on (not the trace or the options; the players'
    memory is theirs, copied by the generated dispatch's copy_memories_nb)."""
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


def turn_of(st) -> int:
    """The turn under way, counted from 0."""
    return int(st.sc[S_TURN])


# The forward model, as the search player reads it (balance/contract/forward.py). The
# decisions it may search, by their bit in the search's `searched` knob and a name for the
# command line (`balance strength --search steps,rotations`): searching one kind alone, the
# rest greedy's, measures how much greedy loses on that kind (README, "How strong are the
# players"). Skill uses after an ability are D_SKILL; those of the movement step are steps.
FORWARD = ForwardModel(
    new_state="balance.games.gemrush.engine.state:new_state",
    copy="balance.games.gemrush.engine.forward:copy_state_nb",
    determinize="balance.games.gemrush.engine.forward:determinize_nb",
    play_on="balance.games.gemrush.engine.game_nb:resume_nb",
    value="balance.games.gemrush.engine.forward:rollout_value_nb",
    turn="balance.games.gemrush.engine.forward:turn_of",
    searchable=(("steps", D_STEP), ("action", D_ACTION), ("payments", D_PAYMENT),
                ("discards", D_DISCARD_LIMIT), ("rotations", D_ROTATION), ("skills", D_SKILL)),
)
