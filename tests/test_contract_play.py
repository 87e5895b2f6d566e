"""Contract tests that watch the games play (OpenSpiel's api_test drives every game through
its actions in this spirit), over every registered game and each of its players where that
is feasible:

- a planted illegal pick is caught with checks on;
- seats' streams differ from seed to seed, and tables depend neither on the workers nor on
  the shard size;
- random play reaches every kind of option the game declares;
- every player count the game declares plays, up to its largest; one it does not declare is
  one message;
- outcomes are encoded one way: a winning seat, a tie, a team win, an automa win, undecided;
- the decisions of each game and the options they offered (its branching) are recorded.

Those that watch a game's decisions (its picks, its options, its streams) read every game
through one interface, its probe (balance/contract/probe.py, Game.probe): the kit's for the
games on the kit (balance/kit/probe.py), an adapter of its own for a game that keeps its
engine (Gem Rush's, balance/games/gemrush/probe.py). Each `assert_*` fails on a game built to
break it: the `test_*_fails_on_*` cases at the end play the dice race with the kit subverted
in one place (its loop run as plain Python with one name replaced, a copy of its rules, its
declaration or its table step changed) and expect the assertion to fail; those of
tests/games/gemrush/test_probe.py break Gem Rush where its probe watches it."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
import types
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from balance.bench.speed import bench_case
from balance.contract import registry
from balance.contract.game import resolve
from balance.contract.probe import OPTIONS, PICK, SEAT, Kind
from balance.errors import InputError
from balance.kit import hooks
from balance.kit import nb as kit_nb
from balance.kit import table as kit_table
from balance.kit.declare import OptionKind
from balance.kit.generate import loop_source
from balance.kit.probe import KitProbe
from balance.kit.records import Records, width
from balance.kit.state import (
    AUTOMA,
    AUTOMA_WON,
    OUTCOMES,
    PICK_EVENT,
    SEAT_WON,
    TEAM_WON,
    TIE,
    UNDECIDED,
)
from balance.running.experiment import parse_experiment
from balance.running.runner import simulate_tables
from balance.running.seeds import game_seeds

GAMES = registry.names()


def _probe(name: str):
    """The game's probe: every game gives one (the kit its games'), or the contract cannot
    watch it play."""
    game = registry.get(name)
    assert game.probe, f"{name} declares no probe (Game.probe): its play cannot be watched"
    return game.hook("probe")()


def _experiment(game, games: int, shard_size: int, grid: dict | None = None, **head):
    """The game's bench case as an experiment, with `head` and `grid` on top."""
    run = game.name.replace("_", "-")  # a run's name takes no '_', a game's may
    data = {"experiment": {**bench_case(game).experiment, "name": f"play-{run}",
                           "description": "the contract's", "game": game.name, "games": games,
                           "seed": 7, "shard_size": shard_size, **head}}
    if grid:
        for key in grid:
            data["experiment"].pop(key, None)
        data["grid"] = grid
    return parse_experiment(data, "", "contract.toml")


def _seats(probe, player: str = "random") -> tuple[str, ...]:
    return (player,) * max(2, min(probe.game.player_counts))


def _picks(events: np.ndarray) -> np.ndarray:
    """The pick events of a kit game's trace: (turn, seat, code, decision, pick, options, 0)
    rows (tests/test_contract_next.py reads the automa's)."""
    return events[events[:, 2] == PICK_EVENT]


# -- a planted illegal pick is caught -----------------------------------------------------------

def assert_an_illegal_pick_is_caught(probe):
    """Every seat scripted to pick an option past the last any decision offers: the game's
    check says so, and the game still ends."""
    played = probe.play(_seats(probe, "scripted"), [1, 2], check=True, script=[probe.unoffered])
    assert played.not_offered.all(), \
        f"{probe.game.name}: an illegal pick went unseen (broke a rule: {played.violated})"
    assert played.ended.all()


@pytest.mark.parametrize("name", GAMES)
def test_a_planted_illegal_pick_is_caught(name):
    probe = _probe(name)
    assert "scripted" in probe.game.player_registry(), \
        "the probe plants picks through the scripted player"
    assert_an_illegal_pick_is_caught(probe)


# -- streams and the tables' independence of workers and shard size ----------------------------

def assert_seats_streams_differ_from_seed_to_seed(probe):
    """The random player's picks among two or more options differ between games: its stream
    is seeded from each game's seed, not left unseeded nor seeded alike."""
    firsts = set()
    for seed in game_seeds(3, 0, 12):
        picks = probe.traced(_seats(probe), int(seed))[1]
        firsts.add(tuple(picks[picks[:, OPTIONS] >= 2][:8, PICK]))
    assert len(firsts) > 1, f"{probe.game.name}: every game's first picks were {firsts.pop()}"


def assert_a_batch_plays_as_games_one_at_a_time(probe):
    """What a shard of any size plays: nothing of one game reaches the next."""
    seeds = game_seeds(5, 0, 6)
    batch = probe.play(_seats(probe), seeds).rows
    alone = np.concatenate([probe.play(_seats(probe), [s]).rows for s in seeds])
    assert (batch == alone).all(), f"{probe.game.name}: a game played in a batch differs"


@pytest.mark.parametrize("name", GAMES)
def test_seats_streams_differ_from_seed_to_seed(name):
    assert_seats_streams_differ_from_seed_to_seed(_probe(name))


@pytest.mark.parametrize("name", GAMES)
def test_tables_depend_neither_on_workers_nor_on_shard_size(name):
    """Every player of a game on the kit; another game's bench player (its others include
    slow search players)."""
    game = registry.get(name)
    assert_a_batch_plays_as_games_one_at_a_time(_probe(name))
    grid = None
    if game.kit:
        grid = {"heuristic": list(game.player_registry())}
    one = _experiment(game, 4, 1, grid)
    many = _experiment(game, 4, 4, grid)
    tables = simulate_tables(one)
    for table, frame in simulate_tables(many, jobs=2).items():
        assert frame.drop("source_hash", strict=False).equals(
            tables[table].drop("source_hash", strict=False)), table


# -- random play reaches every kind of option -----------------------------------------------------

def assert_random_play_reaches_every_kind_of_option(probe):
    """Under the defaults, and a kind the defaults never offer under the rules it names; at
    the game's two fewest player counts, from the fewest that are offered the kind."""
    groups: dict[tuple, list[int]] = {}
    for k, kind in enumerate(probe.kinds):
        groups.setdefault((repr(kind.rules), kind.players), []).append(k)
    for (_, fewest), kinds in groups.items():
        rules = probe.kinds[kinds[0]].rules
        for n in [c for c in probe.game.player_counts if c >= fewest][:2]:
            # The 100 games ten at a time, until every kind was picked: a kind never picked
            # in the 100 fails as before, and Gem Rush's probe (a Python call per decision)
            # stops at the first ten where its kinds are common.
            picked: set[int] = set()
            for seeds in np.split(game_seeds(11, 0, 100), 10):
                picked |= probe.play(("random",) * n, seeds, rules).picked
                if all(k in picked for k in kinds):
                    break
            missed = [probe.kinds[k].name for k in kinds if k not in picked]
            assert not missed, (f"{probe.game.name}, {n} players: random play never picked "
                                f"{missed}" + (f" under {rules}" if rules else ""))


@pytest.mark.parametrize("name", GAMES)
def test_random_play_reaches_every_kind_of_option(name):
    assert_random_play_reaches_every_kind_of_option(_probe(name))


@pytest.mark.parametrize("name", GAMES)
def test_every_player_breaks_no_invariant(name):
    """With checks on (the game's check hook), each of its players but the scripted one,
    whose script is a test's (planted above); a search player in a few games (the
    contract's other test plays the bench case's)."""
    probe = _probe(name)
    check = probe.game.hook("check")
    assert set(probe.checked) == set(probe.game.player_registry()) - {"scripted"}
    for player, games in probe.checked.items():
        assert check(_variant(probe.game, player), game_seeds(2, 0, games)) == [], player


def _variant(game, player: str):
    exp = _experiment(game, 1, 1, heuristic=player)
    return exp.variants[0]


# -- player counts -------------------------------------------------------------------------------

def assert_every_declared_count_plays(game, probe, tables: bool = True):
    """Up to the largest count: the tables have a score for each seat and a winner among
    them (with `tables`: a broken game is watched through its probe alone), and every seat
    decides."""
    counts = list(game.player_counts)
    if tables:
        exp = _experiment(game, 2, 2, {"players": counts})
        games = simulate_tables(exp)["games"]
        assert games["scores"].list.len().to_list() == [n for n in counts for _ in (0, 1)]
        assert (games["winner"].is_null() | (games["winner"] <= games["players"])).all()
    for n in counts:
        seats = set()
        for seed in range(4):
            seats |= set(probe.traced(("random",) * n, seed)[1][:, SEAT].tolist()) - {AUTOMA}
        assert seats == set(range(n)), f"{game.name}, {n} players: only seats {seats} decided"


def assert_an_undeclared_count_is_one_message(game):
    for n in (max(game.player_counts) + 1, min(game.player_counts) - 1):
        with pytest.raises(InputError) as caught:
            _experiment(game, 2, 2, players=n)
        assert [p.field for p in caught.value.problems] == ["players"], caught.value.problems


@pytest.mark.parametrize("name", GAMES)
def test_every_declared_player_count_plays(name):
    assert_every_declared_count_plays(registry.get(name), _probe(name))


@pytest.mark.parametrize("name", GAMES)
def test_an_undeclared_player_count_is_one_message(name):
    assert_an_undeclared_count_is_one_message(registry.get(name))


# -- outcomes, one way ----------------------------------------------------------------------------

def assert_outcomes_are_encoded_one_way(game, games: pl.DataFrame, race: bool = True):
    """winner: a seat (from 1) or null, never another number; won: null in a race (with
    `race`, for a game declared one), but false where the race's automa won; an undecided
    game has neither."""
    winner, players = games["winner"], games["players"]
    assert (winner.is_null() | ((winner >= 1) & (winner <= players))).all(), \
        f"{game.name}: winners {sorted(set(winner.drop_nulls()))} for {players.max()} seats"
    undecided = games["end_reason"].is_in(list(game.undecided_ends))
    assert (winner.is_null() & games["won"].is_null()).filter(undecided).all(), \
        f"{game.name}: an undecided game has a winner"
    if race and game.cooperative is False:
        won = games["won"]
        if not game.automa:
            assert won.is_null().all(), f"{game.name}: a race with a team's result"
        assert (won.is_null() | ~won).all(), f"{game.name}: a race the team won"
        assert (won.is_null() | winner.is_null()).all(), \
            f"{game.name}: a seat and the automa both won"


def assert_the_kit_writes_each_outcome_one_way(game, kit, make_table=kit_table.games_table):
    """Every outcome the kit knows, as the table step writes it: a seat's win, a tie, a
    team's win, the automa's, an undecided game."""
    outcomes = [SEAT_WON, TIE, TEAM_WON, AUTOMA_WON, UNDECIDED]
    seats = max(game.player_counts)
    out = np.zeros((5, width(seats, len(kit.tallies), len(kit.record))), np.int64)
    out[:, 0], out[:, 1] = outcomes, [seats - 1, -1, -1, -1, -1]
    out[:, 2] = [game.end_reasons.index(game.undecided_ends[0])
                 if o == UNDECIDED and game.undecided_ends else
                 next(i for i, e in enumerate(game.end_reasons) if e not in game.undecided_ends)
                 for o in outcomes]
    records = Records(out, seats, len(kit.tallies), len(kit.record))
    variant = _experiment(game, 1, 1).variants[0]
    own = hooks.own_columns(kit, records, types.SimpleNamespace(seats=("random",) * seats))
    table = pl.from_arrow(make_table(game, "x", variant, 0, np.arange(5), records,
                                     ("random",) * seats, "", own))
    got = list(zip(table["winner"].to_list(), table["won"].to_list(), strict=True))
    assert got == [(seats, None), (None, None), (None, True), (None, False), (None, None)], \
        f"{game.name}: {dict(zip((OUTCOMES[o] for o in outcomes), got, strict=True))}"
    assert_outcomes_are_encoded_one_way(game, table, race=False)


@pytest.mark.parametrize("name", GAMES)
def test_outcomes_are_encoded_one_way(name):
    game = registry.get(name)
    counts = [n for n in game.player_counts if n > 1][:2] or list(game.player_counts)
    assert_outcomes_are_encoded_one_way(
        game, simulate_tables(_experiment(game, 6, 6, {"players": counts}))["games"])
    if game.kit:
        assert_the_kit_writes_each_outcome_one_way(game, resolve(game.kit))


# -- branching and decisions recorded -------------------------------------------------------------

def assert_decisions_and_branching_are_recorded(probe):
    """The game's record of its decisions and the options they offered (the games table's
    decisions and branching) is what its probe saw: each pick, and the options each
    offered."""
    for seed in range(3):
        played, picks = probe.traced(_seats(probe), seed)
        picks = picks[picks[:, SEAT] != AUTOMA]  # the rules' own picks are no seat's decisions
        offered = picks[:, OPTIONS].sum()
        assert (played.decisions[0], played.options[0]) == (len(picks), offered), \
            f"{probe.game.name}, seed {seed}: recorded {played.decisions[0]} decisions of " \
            f"{played.options[0]} options, the trace {len(picks)} of {offered}"


@pytest.mark.parametrize("name", GAMES)
def test_decisions_and_branching_are_recorded(name):
    probe = _probe(name)
    assert_decisions_and_branching_are_recorded(probe)
    games = simulate_tables(_experiment(probe.game, 4, 4))["games"]
    assert (games["decisions"] > 0).all() and (games["branching"] >= 1).all()


# -- the broken games: each assertion above fails on a game built to break it --------------------

DICE = resolve(registry.get("dice").kit)


def _plain(fn=None, *, inline=False):
    return (lambda f: f) if fn is None else fn


def plain_loop(kit, **replaced):
    """The kit's loop for `kit` as plain Python calling the compiled rules and players, with
    the names in `replaced` put in place of the kit's: the kit subverted in one place."""
    source = loop_source(kit).replace("from balance.kernels.jit import njit\n", "")
    space = {"njit": _plain, "__name__": f"broken_{kit.name}_loop"}
    exec(compile(source, f"<{kit.name}'s loop, broken>", "exec"), space)
    space.update(replaced)
    return types.SimpleNamespace(**space)


def plain_rules(kit, old: str, new: str):
    """A copy of the game's rules as plain Python, `old` (which must be there) made `new`."""
    source = Path(importlib.util.find_spec(kit.rules).origin).read_text()
    assert old in source
    source = source.replace(old, new).replace("from balance.kernels.jit import njit\n", "")
    space = {"njit": _plain, "__name__": f"broken_{kit.name}_rules"}
    exec(compile(source, f"<{kit.name}'s rules, broken>", "exec"), space)
    return space


def _reset_then(change):
    def reset(kit, seats, words, trace, check):
        kit_nb.reset_kit_nb(kit, seats, words, trace, check)
        change(seats.rng, words)
    return reset


def test_an_illegal_pick_fails_on_a_loop_that_takes_any_pick():
    loop = plain_loop(DICE, verified_nb=lambda kit, pick, n: pick)
    with pytest.raises(AssertionError, match="an illegal pick went unseen"):
        assert_an_illegal_pick_is_caught(KitProbe(DICE, loop))


def test_streams_fail_on_a_game_whose_seats_are_never_seeded():
    """Pig's trap of issue 49: the players' stream left as it was (all zero), the random
    player always takes the first option."""
    unseeded = _reset_then(lambda rng, words: rng.__setitem__(slice(None), 0))
    with pytest.raises(AssertionError, match="every game's first picks"):
        assert_seats_streams_differ_from_seed_to_seed(KitProbe(DICE, plain_loop(
            DICE, reset_kit_nb=unseeded)))


def test_streams_fail_on_a_game_whose_seats_are_seeded_alike():
    alike = _reset_then(lambda rng, words: rng.__setitem__(slice(None), [5, 6, 7, 8]))
    with pytest.raises(AssertionError, match="every game's first picks"):
        assert_seats_streams_differ_from_seed_to_seed(KitProbe(DICE, plain_loop(
            DICE, reset_kit_nb=alike)))


def test_the_batch_fails_on_a_game_whose_seats_are_seeded_once_a_batch():
    """The players' stream seeded by a batch's first game and run on through the rest: a
    game's play then depends on the shard it is in."""
    kept = {}

    def once(kit, seats, words, trace, check):
        before = seats.rng.copy()
        kit_nb.reset_kit_nb(kit, seats, words, trace, check)
        if kept:
            seats.rng[:] = before  # runs on from the game before
        kept["started"] = True

    loop = plain_loop(DICE, reset_kit_nb=once)
    games = loop.play_games_nb

    def batch(*args):
        kept.clear()
        return games(*args)

    loop.play_games_nb = batch
    with pytest.raises(AssertionError, match="a game played in a batch differs"):
        assert_a_batch_plays_as_games_one_at_a_time(KitProbe(DICE, loop))


def test_option_kinds_fail_on_a_game_that_declares_one_it_never_offers():
    phantom = dataclasses.replace(DICE, options=(*DICE.options, OptionKind("double")))
    with pytest.raises(AssertionError, match=r"never picked \['double'\]"):
        assert_random_play_reaches_every_kind_of_option(KitProbe(phantom))


@dataclasses.dataclass(frozen=True)
class _Noted(KitProbe):
    """The kit's probe, noting the seats and rules of each batch it plays; `fewest` makes
    kinds, by name, offered only from that many seats on."""

    noted: list = dataclasses.field(default_factory=list)
    fewest: dict = dataclasses.field(default_factory=dict)

    @property
    def kinds(self) -> tuple[Kind, ...]:
        return tuple(dataclasses.replace(k, players=self.fewest.get(k.name, 0))
                     for k in super().kinds)

    def play(self, seats, seeds, rules=None, check=False, script=()):
        self.noted.append((len(seats), dict(rules or {})))
        return super().play(seats, seeds, rules, check, script)


def test_option_kinds_are_played_under_the_rules_that_offer_them():
    """A kind the defaults never offer is looked for under its rules, and only there; one
    offered only from some player count on, from that count on."""
    faced = dataclasses.replace(DICE, options=(DICE.options[0],
                                               OptionKind("roll", rules={"faces": 3})))
    probe = _Noted(faced)
    assert_random_play_reaches_every_kind_of_option(probe)
    counts = DICE.game.player_counts[:2]
    assert probe.noted == [(n, {}) for n in counts] + [(n, {"faces": 3}) for n in counts]
    later = _Noted(DICE, fewest={"roll": 3})
    assert_random_play_reaches_every_kind_of_option(later)
    assert later.noted == [(n, {}) for n in counts] + [(3, {}), (4, {})]
    phantom = dataclasses.replace(DICE, options=(*DICE.options,
                                                 OptionKind("double", rules={"faces": 3})))
    with pytest.raises(AssertionError, match=r"never picked \['double'\] under \{'faces': 3\}"):
        assert_random_play_reaches_every_kind_of_option(KitProbe(phantom))


def test_player_counts_fail_on_a_game_whose_fifth_seat_never_plays():
    rules = plain_rules(DICE, "(seat + 1) % rules.players", "(seat + 1) % min(rules.players, 4)")
    loop = plain_loop(DICE, **{f: rules[f] for f in ("start_nb", "options_nb", "apply_nb",
                                                     "broken_nb")})
    with pytest.raises(AssertionError, match="5 players: only seats"):
        assert_every_declared_count_plays(registry.get("dice"), KitProbe(DICE, loop),
                                          tables=False)


def test_player_counts_fail_on_a_game_that_takes_any_count():
    game = registry.get("dice")

    def variants(inp):  # the kit's hook, told every count is the game's
        inp.game = dataclasses.replace(game, player_counts=tuple(range(0, 100)))
        return hooks.variants(DICE, inp)

    module = types.ModuleType("broken_dice_counts")
    module.variants = variants
    sys.modules[module.__name__] = module
    broken = registry.register(dataclasses.replace(game, name="diceany",
                                                   variants="broken_dice_counts:variants"))
    try:
        with pytest.raises(pytest.fail.Exception, match="DID NOT RAISE"):
            assert_an_undeclared_count_is_one_message(broken)
    finally:
        registry.unregister(broken.name)
        del sys.modules[module.__name__]


def test_outcomes_fail_on_a_table_step_that_writes_minus_one_for_no_winner():
    """As the dice race did before the kit: -1 where no seat won."""
    def minus_one(*args):
        table = kit_table.games_table(*args)
        return table.set_column(table.schema.get_field_index("winner"), "winner",
                                table["winner"].fill_null(-1))

    with pytest.raises(AssertionError, match=r"'tie': \(-1, None\)"):
        assert_the_kit_writes_each_outcome_one_way(registry.get("dice"), DICE, minus_one)


def test_decisions_fail_on_a_loop_that_does_not_count_them():
    loop = plain_loop(DICE, counted_nb=lambda kit, n: None)
    with pytest.raises(AssertionError, match="recorded 0 decisions"):
        assert_decisions_and_branching_are_recorded(KitProbe(DICE, loop))
