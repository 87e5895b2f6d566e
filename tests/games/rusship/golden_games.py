"""Rusship's rule goldens: whole games printed turn by turn (balance/games/rusship/trace.py)
and checked in, so that any change in the rules shows as a readable diff. Random players
make every choice, so a change to a fast player never rewrites them; every decision is
printed with the options offered and the pick. Regenerate after an intended change with
    .venv/bin/python -m tests.games.rusship.golden_games
and read the diff before committing it."""

from pathlib import Path

from balance.games.rusship.play import play_traced, prepare
from balance.games.rusship.trace import format_game

GOLDEN = Path(__file__).parent / "golden"
# Every switch but the entry away from its default, on a short track with five attacks to
# lose (a counted entry leaves dice with no move, which then step the mothership).
SWITCHED = {"length": 8, "hits_to_lose": 5, "power_choice": "next_turn", "must_move": False,
            "both_dice": False, "blocked_die": "mothership", "mothership_moves": "forward",
            "mothership_space": "blocked", "plus_one_use": "always", "back_captures": False,
            "jump_protected": False, "second_tokens": 2, "second_bonus": 1}
GAMES = {
    # The rulebook's rules; the roll-off ties once, the Alien Empire plays first.
    "rules-default-seed9": dict(seed=9),
    # Six attacks to lose on a track of 10: all five powers are taken and used.
    "rules-powers-seed14": dict(seed=14, rules={"hits_to_lose": 6, "length": 10}),
    "rules-switches-seed10": dict(seed=10, rules=SWITCHED),
}


def render(seed: int, rules: dict | None = None) -> str:
    setup = prepare(rules, ("random", "random"))
    _, events = play_traced(setup, seed)
    return format_game(setup, events) + "\n"


def render_golden(name: str) -> str:
    return render(**GAMES[name])


if __name__ == "__main__":
    for name in GAMES:
        (GOLDEN / f"{name}.txt").write_text(render_golden(name))
        print("wrote", name)
