"""Gem Rush's probe (balance/games/gemrush/probe.py): the game it watches is the one the
compiled seats play alone, and the contract's assertions (tests/test_contract_play.py) fail on
Gem Rush broken where its probe watches it, as they fail on the broken dice race."""

import pytest

from balance.contract.probe import Kind
from balance.games.gemrush.engine.game_nb import R_N
from balance.games.gemrush.play import play_batch, prepare
from balance.games.gemrush.probe import GemRushProbe, Watcher
from balance.running.seeds import game_seeds
from tests.test_contract_play import (
    assert_an_illegal_pick_is_caught,
    assert_random_play_reaches_every_kind_of_option,
    assert_seats_streams_differ_from_seed_to_seed,
)


@pytest.mark.parametrize("seats,check,rules", [(("random",) * 3, True, {}),
                                              (("greedy", "random"), False, {"first_player": 0})])
def test_the_probe_watches_the_game_the_seats_play_alone(seats, check, rules):
    """Pick for pick and stream for stream: every record of each game is the unwatched one's
    (the second's first player is drawn, so its seatings are watched one by one)."""
    seeds = game_seeds(5, 0, 8)
    watched = GemRushProbe().play(seats, seeds, {"rules": rules}, check=check)
    alone = play_batch(prepare("2e", "crisis", len(seats), seats=seats, rules=rules), seeds,
                       check=check)
    assert len(set(alone.first)) == (2 if rules else 1)
    assert (watched.rows[:, :R_N] == alone.out).all()
    assert (watched.decisions > 0).all() and not watched.violated.any()


def test_the_probe_watches_compiled_players_only():
    """A search seat is a Python player itself: the probe cannot sit in its place."""
    with pytest.raises(ValueError, match="compiled players only"):
        GemRushProbe().play(("reference", "greedy"), [1])


class _AnyPick(Watcher):
    """A decision loop that takes any pick, made one of the options: the engine never sees
    the pick the player made."""

    def choose(self, kind: int, n: int, p: int) -> int:
        return super().choose(kind, n, p) % n


class _Unseeded(Watcher):
    """The seats' stream never seeded (Pig's trap of issue 49): all zero at every pick."""

    def choose(self, kind: int, n: int, p: int) -> int:
        self.players.rng[:] = 0
        return super().choose(kind, n, p)


def test_an_illegal_pick_fails_on_gemrush_taking_any_pick():
    with pytest.raises(AssertionError, match="an illegal pick went unseen"):
        assert_an_illegal_pick_is_caught(GemRushProbe(watcher=_AnyPick))


def test_streams_fail_on_gemrush_whose_seats_are_never_seeded():
    with pytest.raises(AssertionError, match="every game's first picks"):
        assert_seats_streams_differ_from_seed_to_seed(GemRushProbe(watcher=_Unseeded))


def test_option_kinds_fail_on_gemrush_declaring_one_it_never_offers():
    defaults = [k for k in GemRushProbe().kinds if not k.rules]  # the quick ones
    probe = GemRushProbe(kinds=(*defaults, Kind("a phantom")))
    with pytest.raises(AssertionError, match=r"never picked \['a phantom'\]"):
        assert_random_play_reaches_every_kind_of_option(probe)


def test_the_swap_is_looked_for_from_three_seats_on():
    """Asked only with two seats to swap with: random play at two seats never meets it."""
    probe = GemRushProbe()
    swap = next(k for k, kind in enumerate(probe.kinds) if kind.name == "swap")
    rules = probe.kinds[swap].rules
    assert probe.kinds[swap].players == 3
    seeds = game_seeds(11, 0, 60)
    assert swap not in probe.play(("random",) * 2, seeds, rules).picked
    assert swap in probe.play(("random",) * 3, seeds, rules).picked
