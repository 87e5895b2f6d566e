"""The dice race's rule goldens: whole races printed roll by roll and checked in, so that any
change in its rules shows as a readable diff. Regenerate after an intended change with
    .venv/bin/python -m tests.games.dice.golden_games
and read the diff before committing it."""

from pathlib import Path

import numpy as np

from tests.games.dice import kernel as k
from tests.games.dice.game import DEFAULTS, play_seeds

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    "rules-2p-random-seed3": dict(names=("random", "random"), seed=3),
    "rules-3p-stoppers-seed7": dict(names=("stopper", "random", "stopper"), seed=7,
                                    rules={"target": 25, "faces": 4}),
}


def render(names: tuple, seed: int, rules: dict | None = None) -> str:
    rules = {**DEFAULTS, **(rules or {})}
    out, scores, busts, ev = play_seeds(rules, names, {}, np.array([seed]), events=10_000)
    lines = [f"dice race, seed {seed}: {', '.join(names)}; to {rules['target']} points with a "
             f"{rules['faces']}-faced die"]
    rolls: list[str] = []
    for turn, seat, roll, total, banked in ev[: _events(ev)]:
        rolls.append(str(roll))
        if banked >= 0:
            what = "bust" if roll == 1 else f"banks {total}"
            lines.append(f"turn {turn + 1}, seat {seat + 1}: rolls {' '.join(rolls)}: {what}, "
                         f"score {banked}")
            rolls = []
    winner = out[0, k.OUT_WINNER]
    lines.append(f"end: {k.END_REASONS[out[0, k.OUT_END]]} after {out[0, k.OUT_TURNS]} turns; "
                 + (f"seat {winner + 1} wins" if winner >= 0 else "no winner")
                 + f"; scores {scores[0].tolist()}, busts {busts[0].tolist()}")
    return "\n".join(lines) + "\n"


def _events(ev: np.ndarray) -> int:
    """How many rows of `ev` the race wrote: up to the last banked or rolled one."""
    written = np.flatnonzero(ev.any(axis=1))
    return int(written[-1]) + 1 if len(written) else 0


def render_golden(name: str) -> str:
    return render(**GAMES[name])


if __name__ == "__main__":
    for name in GAMES:
        (GOLDEN / f"{name}.txt").write_text(render_golden(name))
        print("wrote", name)
