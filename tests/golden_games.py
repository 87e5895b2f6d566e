"""Golden playthroughs: whole games printed and checked in, so that any change in the engine's
behaviour shows as a readable diff. Regenerate after an intended change with
    .venv/bin/python -m tests.golden_games
and read the diff before committing it."""

from pathlib import Path

from balance.play import play_traced, prepare
from balance.trace import format_game

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    "2e-crisis-3p-seed7": dict(edition="2e", mode="crisis", players=3, seed=7),
    "1e-crisis-2p-seed1": dict(edition="1e", mode="crisis", players=2, seed=1),
    "2e-rush-3p-seed2": dict(edition="2e", mode="rush", players=3, seed=2),
    "1e-rush-2p-seed4": dict(edition="1e", mode="rush", players=2, seed=4),
}


def render(edition, mode, players, seed) -> str:
    s = prepare(edition, mode, players)
    st, ev = play_traced(s, seed)
    return format_game(s, st, ev) + "\n"


if __name__ == "__main__":
    for name, kw in GAMES.items():
        (GOLDEN / f"{name}.txt").write_text(render(**kw))
        print("wrote", name)
