"""One rollout of a search (forward.py): from the state saved at the start of the turn, replay
the turn's decisions, try one, resample the hidden information, and play on to the end."""

from balance.games.gemrush.engine.forward import copy_state_nb, rollout_value_nb
from balance.games.gemrush.engine.game_nb import play_on_nb
from balance.games.gemrush.engine.state import S_RESAMPLE, S_SCRIPT_N, S_SCRIPT_POS
from balance.kernels.jit import njit
from balance.kernels.rng import next32_nb
from heuristics.gemrush.dispatch import POLICY_ROLLOUT
from heuristics.gemrush.greedy import greedy_choose_nb
from heuristics.gemrush.memory import copy_memory_nb


@njit
def rollout_nb(sim, snap, snap_mem, tb, ru, pps, rng, script, m, p, resample=1):
    """Play one rollout in `sim` for seat p: script[:m] is the turn's decisions so far and the
    one to try. `snap` is the state at the start of the turn, `snap_mem` the players' memory at
    the decision (a replay does not rebuild it). `pps` is the rollout's seats (their knobs are
    the rollout policy's); `rng`, the searching player's stream, seeds it; `resample` = 0
    keeps the true hidden information (tests). Returns rollout_value_nb."""
    copy_state_nb(sim, snap)
    copy_memory_nb(pps.mem, snap_mem)
    for i in range(m):
        sim.script[i] = script[i]
    sim.sc[S_SCRIPT_POS] = 0
    sim.sc[S_SCRIPT_N] = m
    sim.sc[S_RESAMPLE] = resample
    for q in range(pps.pol.shape[0]):
        pps.pol[q] = POLICY_ROLLOUT
    for i in range(4):
        pps.rng[i] = next32_nb(rng) | 1
    play_on_nb(sim, tb, ru, pps, 0, True)
    return rollout_value_nb(sim, ru, p)


@njit
def greedy_pick_nb(kind, st, tb, ru, pp, n, p):
    """Greedy's choice for seat p, for a Python player that defers to it."""
    return greedy_choose_nb(kind, st, tb, ru, pp, n, p)


@njit
def search_nb(sim, snap, snap_mem, tb, ru, pps, rng, script, m, opts, per, p, seeds, words,
              vals):
    """Flat Monte Carlo over options opts[j] of seat p's decision: `per` rollouts each,
    script[:m-1] being the turn's decisions so far. Rollout r of every option is seeded
    alike, from `rng` (common random numbers: options are compared on the same resampled
    worlds). `seeds` (4 * per) and `words` (4) are scratch. vals[j, r] gets the value of
    rollout r of option opts[j]."""
    for j in range(4 * per):
        seeds[j] = next32_nb(rng) | 1
    for j in range(opts.shape[0]):
        script[m - 1] = opts[j]
        for r in range(per):
            for k in range(4):
                words[k] = seeds[4 * r + k]
            vals[j, r] = rollout_nb(sim, snap, snap_mem, tb, ru, pps, words, script, m, p)
