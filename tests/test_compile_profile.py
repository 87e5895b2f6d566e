"""`balance bench --compile-profile`: each kernel's own and inclusive compile time, read from
nested compile events (a callee compiles inside its caller's compile)."""

import pytest

from balance.compile.profile import kernel_times, outer_time, profile

# The toy dice race, registered in the profile's new process as the suite registers it here.
DICE_PRELUDE = ("from balance.contract import registry; "
                "from tests.games.dice.game import GAME; registry.register(GAME)")


def test_own_time_is_the_compile_less_its_callees():
    events = [(0.0, True, "loop"), (1.0, True, "player"), (4.0, True, "helper"),
              (5.0, False, "helper"), (7.0, False, "player"), (10.0, False, "loop"),
              (11.0, True, "helper"), (13.0, False, "helper")]
    rows = {r.kernel: r for r in kernel_times(events)}
    assert rows["loop"].own_s == pytest.approx(4.0)  # 10 less the player's 6
    assert rows["loop"].with_callees_s == pytest.approx(10.0)
    assert rows["player"].own_s == pytest.approx(5.0)
    assert rows["helper"].own_s == pytest.approx(3.0)  # two signatures, 1 s and 2 s
    assert rows["helper"].compiles == 2
    assert [r.kernel for r in kernel_times(events)] == ["player", "loop", "helper"]
    assert sum(r.own_s for r in rows.values()) == pytest.approx(12.0)


def test_events_out_of_order_are_refused():
    with pytest.raises(ValueError, match="out of order"):
        kernel_times([(0.0, True, "a"), (1.0, False, "b")])


def test_outer_time_counts_nested_intervals_once():
    assert outer_time([(0.0, True), (1.0, True), (2.0, False), (3.0, False),
                       (5.0, True), (6.0, False)]) == pytest.approx(4.0)


def test_a_real_cold_compile_of_the_toy_game_is_profiled():
    p = profile("dice", DICE_PRELUDE)
    names = [k.kernel for k in p.kernels]
    assert any(n.startswith("tests.games.dice.") for n in names), names
    assert 0 < sum(k.own_s for k in p.kernels) <= p.total_s
    assert 0 < p.llvm_s <= p.total_s


def test_compile_profile_and_runner_are_refused_together(cli):
    r = cli("bench", "--compile-profile", "--runner")
    assert r.exit_code == 2
    assert "give it alone" in r.output
