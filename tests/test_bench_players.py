"""`python -m balance.bench.players GAME PLAYER...` (balance/bench/players.py): the bench's
rules played by other players of a kit game, one core; a game off the kit or a player the game
does not have is one message and exit 2."""

from __future__ import annotations

from balance.bench import players


def test_each_named_player_gets_its_rate(capsys):
    assert players.main(["dice", "random", "--games", "50"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("random") and "games/s" in out[0]
    assert float(out[0].split()[1].replace(",", "")) > 0


def test_a_player_the_game_lacks_or_a_game_off_the_kit_is_refused(capsys):
    assert players.main(["dice", "nobody", "--games", "50"]) == 2
    err = capsys.readouterr().err
    assert "has no player 'nobody'" in err and "random" in err
    assert players.main(["gemrush", "random", "--games", "50"]) == 2
    assert "not on the engine kit" in capsys.readouterr().err


def test_a_rule_and_a_seat_count_other_than_the_bench_s(capsys):
    assert players.main(["dice", "random", "--games", "50", "--set", "faces=8",
                         "--seats", "2"]) == 0
    assert "games/s" in capsys.readouterr().out
    assert players.main(["dice", "random", "--games", "50", "--set", "faces=nope"]) == 2
    assert "faces" in capsys.readouterr().err
