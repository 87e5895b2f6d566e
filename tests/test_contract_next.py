"""The contract for the next games (issue 49, item 4), over every registered game on the kit
that declares each part, and on the card race against the Computer (tests/games/cards/), which
declares them all:

- an automa, the rules' own opponent and no seat: its picks go through the kit's loop, are
  traced, and with checks on must be among its options; its settings are rule settings;
- per-seat tallies: the seats table is one row per game and seat, a column per declared
  tally, each seat's own counts;
- hidden information: what a seat cannot see is redrawn by the kit (redraw_unseen_nb,
  generated in the game's forward module), which keeps all the seat can see, and no
  player's choice changes when it is redrawn, a search player's included (as Gem Rush's
  greedy is checked in tests/games/gemrush/test_forward.py);
- the lead record ends with the change that decided the game, however many there were.

Each `assert_*` fails on a game built to break it (the `test_*_fails_on_*` cases at the end)."""

from __future__ import annotations

import dataclasses
import importlib

import numpy as np
import polars as pl
import pytest

from balance.contract import registry
from balance.contract.game import Game, Table, resolve
from balance.kit import nb as kit_nb
from balance.kit import table as kit_table
from balance.kit.play import play, play_traced, prepare, redraw_unseen
from balance.kit.playthrough import render
from balance.kit.records import Records, width
from balance.kit.state import AUTOMA, AUTOMA_WON, MAX_LEADS, PICK_NOT_OFFERED, new_kit
from balance.running.runner import simulate_tables
from balance.running.seeds import game_seeds
from heuristics.seats import new_seats
from tests.test_contract_play import _experiment, _picks, plain_loop

GAMES = registry.names()
CARDS = resolve(registry.get("cards").kit)


def _kit_with(name: str, part: str):
    game = registry.get(name)
    kit = resolve(game.kit) if game.kit else None
    if kit is None or not getattr(kit, part):
        pytest.skip(f"{name} declares no {part} on the engine kit")
    return kit


# -- the automa ----------------------------------------------------------------------------------

def assert_the_automa_picks_among_its_options(kit, loop=None):
    """With checks on, the automa decides in every game, through the loop (its picks traced,
    in the automa's name), and never picks an option it was not offered."""
    setup = prepare(kit, {}, ("random",) * max(2, min(kit.game.player_counts)))
    setup.loop = loop
    for seed in range(3):
        records, events = play_traced(setup, seed)
        picks = _picks(events)
        assert (picks[:, 1] == AUTOMA).any(), f"{kit.name}, seed {seed}: the automa never chose"
        assert records.violation[0] != PICK_NOT_OFFERED, \
            f"{kit.name}, seed {seed}: the automa picked an option it was not offered"
    assert (play(setup, game_seeds(3, 0, 20), check=True).violation == 0).all()


@pytest.mark.parametrize("name", GAMES)
def test_the_automa_picks_among_its_options(name):
    kit = _kit_with(name, "automa")
    assert_the_automa_picks_among_its_options(kit)
    text = render(prepare(kit, {}, ("random", "random")), 2)
    assert f"  {kit.automa} " in text, "a trace names the automa's decisions"


@pytest.mark.parametrize("name", GAMES)
def test_the_automa_settings_are_levers(name):
    """Its settings are rule settings: [rules], [grid] and --set take them, and they change
    its play."""
    kit = _kit_with(name, "automa")
    game = kit.game
    assert kit.automa_settings and all(game.setting(s) for s in kit.automa_settings)
    for key in kit.automa_settings:
        setting = game.setting(key)
        values = list(setting.choices) or [int(setting.lo), int(setting.hi)]
        games = simulate_tables(_experiment(game, 30, 30, {key: values[:2]}))["games"]
        by = games.group_by("variant").agg(pl.col("score").sum(), pl.col("won").is_null().sum())
        assert by.height == 2 and by.select(pl.exclude("variant")).n_unique() == 2, key
        assert game.rules_from_text({key: str(values[-1])}) == {key: values[-1]}


# -- per-seat tallies ----------------------------------------------------------------------------

def assert_the_tallies_match_their_declaration(game, kit, make_table=kit_table.seats_table):
    """The seats table of a batch whose every seat holds counts of its own: one row per game
    and seat, seats from 1, a column per declared tally in the declared order, each value the
    seat's own."""
    seats, tallies = max(game.player_counts), len(kit.tallies)
    out = np.zeros((3, width(seats, tallies, len(kit.record))), np.int64)
    records = Records(out, seats, tallies, len(kit.record))
    for g in range(3):
        for s in range(seats):
            records.tallies[g, s] = [100 * g + 10 * s + t for t in range(tallies)]
    variant = _experiment(game, 1, 1).variants[0]
    table = pl.from_arrow(make_table(game, kit.tallies, "x", variant, 5, records))
    assert list(game.tallies) == list(kit.tallies)
    assert table.columns == list(game.table("seats").columns), \
        f"{game.name}: seats table columns {table.columns}"
    assert table.height == 3 * seats, f"{game.name}: {table.height} rows for 3 games"
    for row in table.iter_rows(named=True):
        g, s = row["game"] - 5, row["seat"] - 1
        got = [row[t] for t in kit.tallies]
        assert got == [100 * g + 10 * s + t for t in range(tallies)], \
            f"{game.name}: game {g}, seat {s + 1} holds {got}, another seat's or tally's"


@pytest.mark.parametrize("name", GAMES)
def test_the_tallies_match_their_declaration(name):
    kit = _kit_with(name, "tallies")
    game = kit.game
    assert_the_tallies_match_their_declaration(game, kit)
    # As a run writes them: a row per seat of every game, each game's tallies its trace's.
    counts = [n for n in game.player_counts if n > 1][:1] + [max(game.player_counts)]
    tables = simulate_tables(_experiment(game, 3, 3, {"players": counts}))
    seats, games = tables["seats"], tables["games"]
    per_game = seats.group_by("variant", "game").agg(pl.len().alias("rows"))
    joined = games.join(per_game, on=["variant", "game"])
    assert (joined["rows"] == joined["players"]).all()
    first = games.row(0, named=True)
    setup = prepare(kit, {}, (first["heuristic"],) * first["players"])
    records = play(setup, [first["seed"]])
    mine = seats.filter((pl.col("variant") == first["variant"]) & (pl.col("game") == 0))
    assert mine.select(list(kit.tallies)).to_numpy().tolist() == records.tallies[0].tolist()


def test_a_game_declares_its_tallies_with_a_seats_table():
    dice = registry.get("dice")
    with pytest.raises(ValueError, match=r"tallies need a table 'seats' with the columns "
                                         r"\['bust'\]"):
        dataclasses.replace(dice, tallies=("bust",))
    assert dice.tallies == ("busts",) and "busts" in dice.table("seats").columns
    bare = Table("games", dict(dice.games_table.columns))
    with pytest.raises(ValueError, match="tallies need a table 'seats'"):
        Game(**{**{f.name: getattr(dice, f.name) for f in dataclasses.fields(Game)},
                "tables": (bare,)})


# -- hidden information --------------------------------------------------------------------------

def _copied(x):
    """A deep copy of a state or of the seats: NamedTuples of arrays."""
    if isinstance(x, np.ndarray):
        return x.copy()
    if isinstance(x, tuple):
        parts = [_copied(v) for v in x]
        return type(x)(*parts) if hasattr(x, "_fields") else tuple(parts)
    return x


def _unseen_slots(kit, state, seat) -> dict[str, np.ndarray]:
    """Per hidden field, a mask of the slots `seat` cannot see."""
    masks = {}
    for h in kit.hidden:
        items, count = getattr(state, h.items), getattr(state, h.count)
        mask = np.zeros(items.shape, bool)
        if h.private:
            for q in range(count.shape[0]):
                if q != seat:
                    mask[q, : count[q]] = True
        elif h.masked:
            mask[:] = count[seat] == 0
        else:
            mask[: count[0]] = True
        masks[h.items] = mask
    return masks


def _seen(kit, state, seat, drawn=()):
    """Everything `seat` can see (the unseen slots blanked) and the unseen items, sorted; the
    fields `drawn` left out (the game deals them anew itself: redrawn_nb)."""
    masks = _unseen_slots(kit, state, seat)
    seen, unseen = [], []
    for name in state._fields:
        value = getattr(state, name)
        if name in drawn:
            continue
        if name == "kit":
            seen += [a.tolist() for a in value if a.size]
        elif name in masks:
            seen.append(np.where(masks[name], -1, value).tolist())
            unseen += value[masks[name]].tolist()
        else:
            seen.append(np.asarray(value).tolist())
    return seen, sorted(unseen)


def _cheats(player) -> bool:
    """A clairvoyant search (heuristics/search.py) reads what its seat cannot see by design:
    a measuring stick beside the honest search, never a fair player, so the contract below
    holds every player but it (a game's own test shows it is caught)."""
    return bool(getattr(player.python, "keywords", {}).get("clairvoyant", False))


def assert_a_seats_choice_ignores_what_it_cannot_see(kit, choose=None, redraw=None,
                                                     players=None, seats: int = 3,
                                                     knobs: dict | None = None,
                                                     rules: dict | None = None,
                                                     drawn: tuple[str, ...] = ()):
    """At every decision of a few games, what the deciding seat cannot see is redrawn on a copy
    (the kit's redraw_unseen_nb, or `redraw`): the copy keeps all the seat can see and the
    same unseen items, the redraw moves some of them, and the seat's player (or `choose`:
    (state, tables, rules, seats, decision, n, seat) -> pick) picks the same option on both,
    with the knobs `knobs` (and the rules `rules`) where given; a `redraw` that also deals
    anew what the game's redrawn_nb deals names those State fields in `drawn`, left out of
    what the seat must still see. A player written in Python
    (a search) is asked afresh on each, its turn begun at the decision, with the same seats
    (its weights, its stream): a search must determinize what it cannot see, and the kit's
    redraw deals a world that depends on what the seat sees alone, so its choice is the same
    to the option."""
    loop_module = importlib.import_module(kit.loop)
    dispatch = kit.roster().generated()
    redraw = redraw or importlib.import_module(kit.forward).redraw_unseen_nb
    for player in players or [p for p, who in kit.roster().items()
                              if p != "scripted" and not _cheats(who)]:
        setup = prepare(kit, rules or {}, (player,) * seats, knobs)
        tally = {"asked": 0, "moved": 0}

        def ask(state, tables, rules, pp, decision, n, seat, setup=setup, player=player):
            python = kit.roster()[player].python
            if python is not None:
                me = python(dataclasses.replace(setup, players=pp), state)
                me.turn_start(seat)
                return int(me.choose(decision, n, seat))
            return int(dispatch.pick_nb(pp.pol[seat], decision, state, tables, rules, pp, n,
                                        seat))

        probe = choose or ask

        def decide(state, tables, rules, pp, decision, n, seat, player=player, tally=tally,
                   probe=probe):
            tally["asked"] += 1
            other = _copied(state)
            redraw(other, tables, rules, seat, np.array([tally["asked"], 7, 8, 9], np.int64))
            seen, unseen = _seen(kit, state, seat, drawn)
            seen_other, unseen_other = _seen(kit, other, seat, drawn)
            assert seen_other == seen, f"{kit.name}: redrawing changed what seat {seat + 1} sees"
            assert unseen_other == unseen, f"{kit.name}: redrawing made or lost unseen items"
            masks = _unseen_slots(kit, state, seat)
            tally["moved"] += any((getattr(state, f)[m] != getattr(other, f)[m]).any()
                                  for f, m in masks.items())
            mine = probe(state, tables, rules, _copied(pp), decision, n, seat)
            redrawn = probe(other, tables, rules, _copied(pp), decision, n, seat)
            assert mine == redrawn, (
                f"{kit.name}: seat {seat + 1}'s {player} chose option {mine}, and {redrawn} "
                "when what it cannot see was redrawn: its choice reads hidden information")
            return loop_module.decide_nb(state, tables, rules, pp, decision, n, seat)

        setup.loop = plain_loop(kit, decide_nb=decide)
        play(setup, game_seeds(13, 0, 4), check=True)
        assert tally["moved"] > tally["asked"] // 2, (
            f"{kit.name}: redrawing moved nothing unseen in {tally['asked'] - tally['moved']} "
            f"of {tally['asked']} decisions")


@pytest.mark.parametrize("name", GAMES)
def test_a_seats_choice_ignores_what_it_cannot_see(name):
    assert_a_seats_choice_ignores_what_it_cannot_see(_kit_with(name, "hidden"))


def test_redraw_unseen_from_python_keeps_the_seats_own_hand():
    setup = prepare(CARDS, {}, ("random",) * 4)
    play(setup, [3])  # the state as the game ended: every hand full, the deck empty
    state = setup.state
    before = _copied(state)
    redraw_unseen(setup, state, 1, [1, 2, 3, 4])
    assert (state.hand[1] == before.hand[1]).all()
    assert sorted(state.hand[[0, 2, 3]].ravel()) == sorted(before.hand[[0, 2, 3]].ravel())
    assert (state.hand != before.hand).any()
    with pytest.raises(ValueError, match="declares no hidden information"):
        redraw_unseen(prepare(resolve(registry.get("dice").kit)), state, 0, [1, 2, 3, 4])


# -- the lead record -----------------------------------------------------------------------------

def test_the_lead_record_ends_with_the_change_that_decided_the_game():
    """Past MAX_LEADS changes the first ones and the latest are kept: the last change (when
    the game was decided) is never lost."""
    kit = new_kit(2)
    kit_nb.reset_kit_nb(kit, new_seats([0, 0], [[], []], ()), np.arange(8, dtype=np.int64), 0,
                        0)
    for turn in range(40):
        kit_nb.turn_nb(kit, turn % 2)
        kit.score[turn % 2] += 2 if turn % 4 < 2 else 0  # the lead changes hands
    kit.score[1] += 50
    kit_nb.win_nb(kit, 1, 0)
    out = np.zeros((1, width(2, 0, 0)), np.int64)
    kit_nb.write_record_nb(kit, out[0])
    leads = Records(out, 2, 0, 0).leads(0)
    assert len(leads) == MAX_LEADS
    assert leads[-1].tolist() == [39, 1], "the decisive change is the record's last"
    assert leads[0].tolist() == [0, 0]


# -- the broken games: each assertion above fails on a game built to break it --------------------

def test_the_automa_fails_on_a_rule_that_picks_past_its_options():
    loop = plain_loop(CARDS, automa_nb=lambda state, tables, rules: 2)
    with pytest.raises(AssertionError, match="the automa picked an option it was not offered"):
        assert_the_automa_picks_among_its_options(CARDS, loop)


def test_the_automa_fails_on_a_loop_that_does_not_trace_its_picks():
    """The Computer's rule obeyed outside the kit's tracing: a playthrough would not show it."""
    rule = CARDS.module().automa_nb
    loop = plain_loop(CARDS, _automa_nb=lambda state, tables, rules, decision, n:
                      rule(state, tables, rules))
    with pytest.raises(AssertionError, match="the automa never chose"):
        assert_the_automa_picks_among_its_options(CARDS, loop)


def test_the_tallies_fail_on_a_table_step_that_mixes_the_seats():
    def mixed(game, tallies, experiment, variant, start, records):
        flipped = Records(records.out.copy(), *records.tallies.shape[1:], len(CARDS.record))
        flipped.tallies[:] = records.tallies[:, ::-1]
        return kit_table.seats_table(game, tallies, experiment, variant, start, flipped)

    with pytest.raises(AssertionError, match="another seat's or tally's"):
        assert_the_tallies_match_their_declaration(CARDS.game, CARDS, mixed)


def test_the_tallies_fail_on_a_table_step_that_drops_one():
    def dropped(game, tallies, *args):
        return kit_table.seats_table(game, tallies, *args).drop_columns(["blue"])

    with pytest.raises(AssertionError, match="seats table columns"):
        assert_the_tallies_match_their_declaration(CARDS.game, CARDS, dropped)


def test_hidden_information_fails_on_a_player_that_reads_another_hand():
    def peeker(state, tables, rules, pp, decision, n, seat):
        return int(state.hand[(seat + 1) % rules.players, 0]) % n

    with pytest.raises(AssertionError, match="its choice reads hidden information"):
        assert_a_seats_choice_ignores_what_it_cannot_see(CARDS, choose=peeker,
                                                         players=["random"])


def test_hidden_information_fails_on_a_player_that_reads_the_deck():
    def peeker(state, tables, rules, pp, decision, n, seat):
        return int(state.deck[max(state.deck_n[0] - 1, 0)]) % n

    with pytest.raises(AssertionError, match="its choice reads hidden information"):
        assert_a_seats_choice_ignores_what_it_cannot_see(CARDS, choose=peeker,
                                                         players=["random"])


def test_hidden_information_fails_on_a_redraw_that_moves_nothing():
    with pytest.raises(AssertionError, match="redrawing moved nothing unseen"):
        assert_a_seats_choice_ignores_what_it_cannot_see(
            CARDS, redraw=lambda *args: None, players=["random"])


def test_hidden_information_fails_on_a_redraw_of_the_seats_own_hand():
    real = importlib.import_module(CARDS.forward).redraw_unseen_nb

    def own(state, tables, rules, seat, rng):
        real(state, tables, rules, (seat + 1) % rules.players, rng)

    with pytest.raises(AssertionError, match="redrawing changed what seat"):
        assert_a_seats_choice_ignores_what_it_cannot_see(CARDS, redraw=own, players=["random"])


def test_the_automa_wins_in_its_name():
    setup = prepare(CARDS, {"computer_pace": 10}, ("random",) * 2)
    records = play(setup, range(5))
    assert (records.outcome == AUTOMA_WON).all()
    assert "the Computer wins" in render(setup, 0)


def test_the_headline_gives_the_automas_share_apart_from_ties():
    """The Computer's wins are `won` false: neither a seat's nor a tie, and the seats' fair
    share is of what the Computer leaves them."""
    from balance.stats.measures import headline_counts
    from reports.headline import seat_lines

    game = CARDS.game
    games = simulate_tables(_experiment(game, 60, 60, players=3))["games"]
    beaten = int((games["won"] == False).sum())  # noqa: E712 (a column, not a bool)
    ties = int((games["winner"].is_null() & games["won"].is_null()).sum())
    assert 0 < beaten < 60
    lines = seat_lines(games, 3, automa=game.automa)
    assert any(line.startswith(f"  the Computer wins {round(100 * beaten / 60)}%")
               for line in lines), lines
    assert f"  ties     {100 * ties / 60:.1f}%" in lines, lines
    counts = headline_counts(games, {"variants": [{"variant": 0, "players": 3}]}, game)
    rows = {m: k for m, k in zip(counts["measure"], counts["wins"], strict=True)}
    assert rows["the Computer wins"] == beaten
    assert sum(rows[f"seat {s} wins"] for s in (1, 2, 3)) == 60 - beaten - ties
