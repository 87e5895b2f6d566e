"""Plays a few games and prints their records as JSON; run with and without the JIT."""

import json
import sys

from balance.games.gemrush.play import play_batch, prepare

CASES = [("2e", "crisis", 4, "greedy", True, "normal"), ("1e", "crisis", 2, "greedy", False, None),
         ("2e", "rush", 2, "random", False, "circle"), ("1e", "rush", 3, "greedy", False, None),
         ("2e", "crisis", 3, "random", True, "chaos"), ("2e", "crisis", 3, "greedy", True, "none"),
         ("2e", "rush", 3, "greedy", False, "choice")]


def records(seeds=(1, 2, 3)):
    out = {}
    for ed, mode, players, h, exhaust, skills in CASES:
        rules = {"rush_round_cap": 30} if mode == "rush" else {}
        if skills:
            rules["skills"] = skills
        s = prepare(ed, mode, players, h, exhaust=exhaust, rules=rules)
        b = play_batch(s, list(seeds), check=True)
        out[f"{ed}-{mode}-{players}-{h}-{skills}"] = [
            b.out.tolist(), b.scores.tolist(), b.score_by_turn.tolist(), b.rooms.tolist(),
            b.skills.tolist()]
    return out


if __name__ == "__main__":
    json.dump(records(), sys.stdout)
