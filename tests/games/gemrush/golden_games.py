"""Golden playthroughs: whole games printed and checked in, so that any change in the engine's
behaviour shows as a readable diff. Regenerate after an intended change with
    .venv/bin/python -m tests.games.gemrush.golden_games
and read the diff before committing it.

Rule goldens pin the rules: a uniformly random chooser plays them, and each of its decisions
is printed with every option offered and the pick (balance/games/gemrush/narrate.py), as OpenSpiel's
playthroughs are. One greedy golden is kept apart, so that tuning greedy rewrites only it."""

from pathlib import Path

from balance.games.gemrush.narrate import decision_lines, play_narrated
from balance.games.gemrush.play import play_traced, prepare
from balance.games.gemrush.trace import format_game

GOLDEN = Path(__file__).parent / "golden"
RULE_GAMES = {
    "rules-2e-crisis-3p-seed7": dict(edition="2e", mode="crisis", players=3, seed=7),
    "rules-1e-crisis-2p-seed1": dict(edition="1e", mode="crisis", players=2, seed=1),
    "rules-2e-rush-3p-seed2": dict(edition="2e", mode="rush", players=3, seed=2),
    "rules-1e-rush-2p-seed4": dict(edition="1e", mode="rush", players=2, seed=4),
    "rules-2e-crisis-3p-circle-seed3": dict(edition="2e", mode="crisis", players=3, seed=3,
                                            rules={"skills": "circle"}),
    "rules-2e-rush-4p-chaos-seed5": dict(edition="2e", mode="rush", players=4, seed=5,
                                         rules={"skills": "chaos"}),
}
GREEDY_GAMES = {
    "greedy-2e-crisis-3p-seed7": dict(edition="2e", mode="crisis", players=3, seed=7),
}
GAMES = {**RULE_GAMES, **GREEDY_GAMES}


def render(edition, mode, players, seed, rules=None) -> str:
    """A greedy game, told turn by turn."""
    s = prepare(edition, mode, players, rules=rules)
    st, ev = play_traced(s, seed)
    return format_game(s, st, ev) + "\n"


def render_rules(edition, mode, players, seed, rules=None) -> str:
    """A game of uniformly random choices, with every decision's options and pick."""
    s = prepare(edition, mode, players, "random", rules=rules)
    st, ev, narrator = play_narrated(s, seed)
    return format_game(s, st, ev, decision_lines(s, st, narrator)) + "\n"


def render_golden(name: str) -> str:
    kw = GAMES[name]
    return render_rules(**kw) if name in RULE_GAMES else render(**kw)


if __name__ == "__main__":
    for name in GAMES:
        (GOLDEN / f"{name}.txt").write_text(render_golden(name))
        print("wrote", name)
