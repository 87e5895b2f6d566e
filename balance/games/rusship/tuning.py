"""What `balance tune-player` scores a Rusship player on (balance/running/tune_player.py): the
candidate's win rate against racer with its default knobs, each seed played twice with the
seats swapped. The dice are the game's own stream, apart from the players' (heuristics/
seats.py), so both games of a seed roll the same dice and the same side starts: the pair
cancels the luck of the dice and the seat, and what is left is the players' difference.

`match` is the same measurement between any two players with any knobs (racer against an
older racer, the search against racer, racer against random): the strength table of the
players' tests and of the guide comes from it. There a game stopped undecided scores a half,
so that a knob is not pushed to stall. `results` and `decided_rate` are what
`balance rusship strength` prints: the share of the decided games a player won, the
undecided ones counted apart and never read as a result."""

from __future__ import annotations

import numpy as np

from balance.contract.tuning import TuneRequest, Tuning
from balance.errors import InputError, Problem
from balance.games.rusship.game import GAME
from balance.games.rusship.play import Setup, play_batch, prepare
from balance.games.rusship.rules import conflict
from balance.games.rusship.rules import rules as rule_values
from balance.kit.state import SEAT_WON
from heuristics.rusship import racer
from heuristics.rusship.registry import PLAYERS

# The knobs `balance tune-player` tunes: racer's own (a Python player's would not be the
# engine's to tune; the search's are its budget and the like, not strategy).
KNOBS = racer.KNOBS
OPPONENT = "racer"  # with its default knobs
OBJECTIVE_NAME = "win rate against default racer, seats swapped on common seeds"


def _seated(a: str, a_knobs: dict | None, b: str, b_knobs: dict | None,
            rules: dict | None) -> Setup:
    """Player a in seat 1 with a_knobs, player b in seat 2 with b_knobs (None: defaults)."""
    setup = prepare(rules, (a, b))
    for seat, (name, knobs) in enumerate(((a, a_knobs), (b, b_knobs))):
        v = PLAYERS.weights(name, setup.tables, knobs or {}, "knobs")
        setup.players.w[seat, :] = 0.0
        setup.players.w[seat, : len(v)] = v
    return setup


def _score(w: np.ndarray, seat: int) -> np.ndarray:
    """Per game (its winner, -1 undecided): 1 when `seat` won, 0 when it lost, a half when
    the game stopped undecided."""
    return np.where(w < 0, 0.5, (w == seat).astype(float))


def _both(a: str, b: str, seeds, a_knobs: dict | None, b_knobs: dict | None,
          rules: dict | None) -> tuple[np.ndarray, np.ndarray]:
    """The winners (R_WINNER: 0, 1; -1 undecided) of each seed's two games: a in seat 1,
    then a in seat 2."""
    seeds = np.asarray(seeds, np.int64)
    return (_winners(play_batch(_seated(a, a_knobs, b, b_knobs, rules), seeds)),
            _winners(play_batch(_seated(b, b_knobs, a, a_knobs, rules), seeds)))


def _winners(records) -> np.ndarray:
    return np.where(records.outcome == SEAT_WON, records.winner, -1)


def match(a: str, b: str, seeds, a_knobs: dict | None = None, b_knobs: dict | None = None,
          rules: dict | None = None) -> np.ndarray:
    """Per seed, player a's score against player b, the mean of its two games on that seed:
    a in seat 1, then a in seat 2 (1: a won both; a half: one each, or two undecided)."""
    first, second = _both(a, b, seeds, a_knobs, b_knobs, rules)
    return (_score(first, 0) + _score(second, 1)) / 2


def results(a: str, b: str, seeds, a_knobs: dict | None = None, b_knobs: dict | None = None,
            rules: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per seed, (player a's wins, the games decided) of its two games on that seed, the
    seats swapped: each from 0 to 2."""
    first, second = _both(a, b, seeds, a_knobs, b_knobs, rules)
    wins = (first == 0).astype(int) + (second == 1).astype(int)
    return wins, (first >= 0).astype(int) + (second >= 0).astype(int)


def decided_rate(wins: np.ndarray, decided: np.ndarray) -> tuple[float, float, float] | None:
    """(share, low, high): the share of the decided games won, with its 95% interval over
    seeds (the ratio's, from the seeds' spread of wins against decided games: a seed's two
    games share the dice); None when no game was decided. With every game decided it is
    `interval` of the seeds' scores."""
    w, d = np.asarray(wins, float), np.asarray(decided, float)
    total = d.sum()
    if total == 0:
        return None
    r = w.sum() / total
    n = len(w)
    spread = ((w - r * d) ** 2).sum() / (n - 1) if n > 1 else float("nan")
    half = 1.96 * np.sqrt(spread * n) / total
    # A share's bounds are shares: the normal interval is cut at 0% and 100%.
    return float(r), float(max(0.0, r - half)), float(min(1.0, r + half))


def objective(player: str, knobs: dict | None, seeds, rules: dict | None = None
              ) -> np.ndarray:
    """Per seed (more is better): `player` with `knobs` against racer with its defaults, the
    mean of the seed's two games with the seats swapped (`match`). One value per seed, not
    per game: the two games of a seed share their dice, so a paired interval over seeds is
    the honest one."""
    return match(player, OPPONENT, seeds, knobs, None, rules)


def interval(x: np.ndarray) -> tuple[float, float, float]:
    """(mean, low, high): the mean of per-seed values and its 95% interval (normal: the
    seeds are independent and there are hundreds of them)."""
    x = np.asarray(x, float)
    half = 1.96 * x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else float("nan")
    return float(x.mean()), float(x.mean() - half), float(x.mean() + half)


def tuning(ask: TuneRequest) -> Tuning:
    """Rusship's tuning hook (Game.tuning, `balance tune-player --game rusship`): a compiled
    player's knobs, scored by `objective` at 2 players, under the rules `--set` gives."""
    player = PLAYERS.player(ask.player)  # an unknown name: one message naming the known
    if not player.knobs or player.python is not None:
        raise InputError([Problem("tune-player", "", "player", f"{ask.player!r} has no knobs "
                                  "the engine reads: tune racer (the search's rollouts play "
                                  "racer's knobs)")])
    rules = GAME.rules_from_text(ask.rules)
    if (bad := conflict(rule_values(rules))) is not None:  # as every other command refuses
        raise InputError([Problem("--set", "", *bad)])

    def score(n: int, values: dict | None, seeds) -> np.ndarray:
        return objective(ask.player, values, seeds, rules)

    said = ", ".join(f"{k}={v}" for k, v in rules.items())
    return Tuning(player.knobs, score, OBJECTIVE_NAME, (2,),
                  f"Rusship, {said or 'the default rules'}",
                  f"play them: balance rusship play --heuristic {ask.player} --knobs {{out}}")
