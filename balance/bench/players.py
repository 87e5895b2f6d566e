"""Games per second of a kit game's bench rules played by each named player in every seat, one
core, beside the bench's own player: what an issue asks when it wants the random player's rate
beside the fast player's (what bounds the engine, not the player).

    python -m balance.bench.players GAME PLAYER [PLAYER ...] [--set NAME=VALUE] [--seats N]

(the games' guide pages give the commands their figures came from)

Each player: its engine made and first played (compiled or loaded), then three batches of
`--games` games on new seeds, timed by processor time (the machine's other work does not
count), the best batch given. The bench's rules and seat count (`balance games`); the players
the game's roster names."""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from balance.contract import registry
from balance.contract.game import resolve
from balance.errors import InputError, Problem


def rate(game_name: str, player: str, games: int = 20_000, rounds: int = 3,
         sets: dict[str, str] | None = None, seats: int | None = None) -> float:
    """Best games per second of processor time over `rounds` batches of `games` games, the
    bench's rules with `sets` (`--set NAME=VALUE` texts, checked) at `seats` seats (the
    bench's count when None)."""
    from balance.kit.play import play, prepare  # lazy: the kit's engine, only when timing

    game = registry.get(game_name)
    if not game.kit:
        raise InputError([Problem("game", "", "", f"{game.name} is not on the engine kit: "
                                  "`balance bench --game` times its bench player")])
    kit = resolve(game.kit)
    if player not in game.player_registry():
        raise InputError([Problem("player", "", "", f"{game.name} has no player {player!r} "
                                  f"(its players: {', '.join(game.player_registry())})")])
    seats = seats or int(kit.bench_experiment.get("players", 2))
    if seats not in game.player_counts:
        raise InputError([Problem("--seats", "", "", f"{game.title} plays "
                                  f"{', '.join(map(str, game.player_counts))} seats, got {seats}")])
    setup = prepare(kit, game.rules_from_text(sets or {}), (player,) * seats)
    play(setup, np.arange(4))
    best = 0.0
    for r in range(rounds):
        seeds = np.arange(1 + r * games, 1 + (r + 1) * games)
        start = time.process_time()
        play(setup, seeds)
        best = max(best, games / max(time.process_time() - start, 1e-9))
    return best


def sets_of(texts: list[str]) -> dict[str, str]:
    """`--set NAME=VALUE` texts as a dict (their values checked by the game's rules)."""
    out = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InputError([Problem("--set", "", text, "expected NAME=VALUE")])
        out[key.strip()] = value.strip()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m balance.bench.players", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("players", nargs="+")
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seats", type=int, default=None, help="seats (the bench's by default)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a rule other than the bench's")
    args = ap.parse_args(argv)
    try:
        sets = sets_of(args.set)
        for p in args.players:
            r = rate(args.game, p, args.games, sets=sets, seats=args.seats)
            print(f"{p:<12} {r:>10,.0f} games/s "
                  f"(best of 3 x {args.games:,}, processor time, one core)")
    except (InputError, LookupError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
