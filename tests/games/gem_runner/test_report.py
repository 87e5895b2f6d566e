"""Gem Runner's report (reports/gem_runner/): each section's verdict follows its data. Each test
builds a games table whose answer is known by hand (the seats beating the Computer more with one
deck than two, one deck ahead of another on the same shuffles and two decks even, the first
player ahead, the Pool going to the side behind or never collected, a shorter target, a
stronger player) and checks what the page says of it; then the Pool's record on real play."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest

from balance.contract.labels import value_words
from balance.games.gem_runner.codes import RECORD
from balance.games.gem_runner.game import GAME, KIT
from balance.games.gem_runner.rules import DEFAULTS
from balance.kit.play import play, prepare
from reports.compare.compare import compare
from reports.gem_runner import findings
from reports.gem_runner.levers import FIRST_KIND, LENGTH_KIND, PLAYERS_KIND, pairs_of
from reports.gem_runner.report import REPORT

_TYPES = {"string": pl.Utf8, "bool": pl.Boolean, "int8": pl.Int8, "int16": pl.Int16,
          "int32": pl.Int32, "int64": pl.Int64, "float32": pl.Float32,
          "list<int16>": pl.List(pl.Int16), "list<int8>": pl.List(pl.Int8),
          "list<int64>": pl.List(pl.Int64)}
H2H = {"play": "head_to_head"}


def game_row(variant: int, game: int, *, players: int = 2, winner: int | None = 1,
             heuristic: str = "runner", turns: int = 20, pool: tuple = (0, 0, 0, 0)
             ) -> dict:
    """One game as Gem Runner's records write it; winner None: the Computer won (against it)
    or nobody did. pool: (pool_decides, pool_wins, pool_behind, pool_overtakes)."""
    scores = [3] * players
    if winner is not None:
        scores[winner - 1] = 7
    decides, wins, behind, overtakes = pool
    return {"experiment": "made", "variant": variant, "game": game, "seed": game,
            "players": players, "heuristic": heuristic, "went_first": 1,
            "won": None if winner else False, "winner": winner, "score": max(scores),
            "scores": scores, "turns": turns, "end_reason": "gems", "engine_version": "1",
            "source_hash": "x", "decisions": 40, "branching": 3.0, "lead_turns": [turns],
            "leaders": [winner or 1], "course": [0], "lead_changes": 0,
            "first_won": winner == 1, "computer_gems": 0 if winner else 7, "challenges": turns,
            "hazards": 2 * turns, "final_gems": 5, "pool_gems": wins, "pool_wins": wins,
            "hazard_gems": 0, "chains": 0, "bugs": 0, "fixes": 0, "pool_decides": decides,
            "pool_behind": behind, "pool_overtakes": overtakes,
            "cards_drawn": [0] * players, "cards_played": [0] * players}


def table(rows: list[dict], swept: dict[str, list] | None = None) -> pl.DataFrame:
    schema = {c: _TYPES[t] for c, t in GAME.games_table.columns.items()}
    df = pl.DataFrame(rows, schema=schema)
    for key, per_variant in (swept or {}).items():
        df = df.with_columns(pl.col("variant").replace_strict(
            dict(enumerate(per_variant)), default=None).alias(key))
    return df


def variant(i: int, rules: dict | None = None, players: int = 2, heuristic: str = "runner",
            swept: dict | None = None) -> dict:
    return {"variant": i, "label": f"variant {i}", "players": players,
            "heuristic": heuristic, "rules": {**DEFAULTS, **(rules or {})},
            "swept": swept if swept is not None else (rules or {})}


def run(rows, variants, swept=None) -> SimpleNamespace:
    return SimpleNamespace(games=table(rows, swept), manifest={
        "experiment": "made", "game": "gem_runner", "variants": variants})


def said(a, topic: str, pairs=()) -> str:
    [v] = [v for v in findings.verdicts(a, list(pairs), {}) if v.topic == topic]
    return v.sentence


# -- The Computer -----------------------------------------------------------------------------

def test_the_computer_verdict_gives_the_win_rate_with_one_deck_and_two():
    rows = [game_row(0, g, players=1, winner=1 if g < 600 else None) for g in range(1000)]
    rows += [game_row(1, g, players=1, winner=1 if g < 300 else None) for g in range(1000)]
    made = run(rows, [variant(0, {"decks": 1}, 1), variant(1, {"decks": 2}, 1)],
               {"decks": [1, 2]})
    a = REPORT.analyse(made)
    say = said(a, "How hard the Computer is")
    assert "Runner alone wins 60% ± 3% with one deck and 30% ± 3% with two decks" in say


def test_each_deck_against_the_computer_is_told_apart_only_beyond_chance():
    heroes = ["bit_boy", "giga_girl"]
    rows = [game_row(i, g, players=1, winner=1 if g < (350 if i == 0 else 200) else None)
            for i in range(2) for g in range(500)]
    made = run(rows, [variant(i, {"decks": 1, "hero1": h}, 1) for i, h in enumerate(heroes)],
               {"hero1": heroes})
    assert "Bit Boy's deck 70% ± 4% is clearly easier than Giga Girl's" in said(
        REPORT.analyse(made), "Each deck against the Computer")


# -- Decks ------------------------------------------------------------------------------------

def matrix_run(ab_first: int, ba_first: int, n: int = 500) -> SimpleNamespace:
    """Bit Boy against Giga Girl both ways round on the same seeds: seat 1 wins the first
    `ab_first` games with Bit Boy in seat 1, the first `ba_first` with Giga Girl there."""
    rules = {**H2H, "decks": 2}
    pairs = [("bit_boy", "giga_girl"), ("giga_girl", "bit_boy")]
    rows = [game_row(0, g, winner=1 if g < ab_first else 2) for g in range(n)]
    rows += [game_row(1, g, winner=1 if g < ba_first else 2) for g in range(n)]
    return run(rows, [variant(i, {**rules, "hero1": a, "hero2": b},
                              swept={"hero1": a, "hero2": b})
                      for i, (a, b) in enumerate(pairs)],
               {"hero1": [a for a, _ in pairs], "hero2": [b for _, b in pairs]})


def test_a_deck_that_wins_more_on_the_same_shuffles_is_named():
    # Bit Boy wins 350 of 500 in seat 1 and 350 of 500 in seat 2: 70% of its games.
    a = REPORT.analyse(matrix_run(350, 150))
    rows = {(r["deck"], r["against"]): r for r in a.decks.to_dicts()}
    assert rows[("bit_boy", "giga_girl")]["share"] == 0.7
    assert rows[("giga_girl", "bit_boy")]["share"] == pytest.approx(0.3)
    assert rows[("bit_boy", "giga_girl")]["ci_low"] > 0.5
    assert "not even head to head: Bit Boy's deck wins 70%" in said(a, "Deck against deck")


def test_a_deck_after_the_first_is_said_by_its_place_in_words():
    # Deck 2 is the opponent's head to head and the Computer's with two decks against it, a
    # teammate's with three: its words say its place, true in each.
    assert [value_words(GAME, f"hero{k}", "cache_cat") for k in (1, 2, 3, 4)] == [
        "Cache Cat's deck", "Cache Cat's deck second", "Cache Cat's deck third",
        "Cache Cat's deck fourth"]
    a = REPORT.analyse(matrix_run(350, 150))
    assert a.levers.sort("variant")["setting"].to_list() == [
        "Bit Boy's deck, Giga Girl's deck second",
        "Giga Girl's deck, Bit Boy's deck second"]


def test_decks_even_on_the_same_shuffles_are_said_even_whatever_the_seat_gives():
    # Seat 1 wins 400 of 500 whichever deck it holds: the seat, not the deck.
    a = REPORT.analyse(matrix_run(400, 400))
    assert "The decks are even head to head" in said(a, "Deck against deck")
    assert a.decks["first"].to_list() == [0.8, 0.8]


# -- First player -----------------------------------------------------------------------------

def test_the_first_player_verdict_says_an_advantage_beyond_chance():
    rows = [game_row(0, g, winner=1 if g < 600 else 2) for g in range(1000)]
    a = REPORT.analyse(run(rows, [variant(0, H2H)]))
    assert "the first player has an advantage at 2 players: it wins 60%" in said(
        a, "First player")


def test_an_even_first_player_is_said_even():
    rows = [game_row(0, g, winner=1 + g % 2) for g in range(1000)]
    assert "the first player is even" in said(REPORT.analyse(run(rows, [variant(0, H2H)])),
                                              "First player")


def test_the_compensation_nearest_the_fair_share_is_named():
    rows = [game_row(0, g, winner=1 if g < 430 else 2) for g in range(1000)]
    rows += [game_row(1, g, winner=1 if g < 500 else 2) for g in range(1000)]
    rows += [game_row(2, g, winner=1 if g < 420 else 2) for g in range(1000)]
    swept = {"first_gems": [0, 1, 0], "first_cards": [0, 0, 1]}
    made = run(rows, [variant(0, H2H, swept={"first_gems": 0, "first_cards": 0}),
                      variant(1, {**H2H, "first_gems": 1},
                              swept={"first_gems": 1, "first_cards": 0}),
                      variant(2, {**H2H, "first_cards": 1},
                              swept={"first_gems": 0, "first_cards": 1})], swept)
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    assert [p.kind for p in pairs] == [FIRST_KIND, FIRST_KIND]
    say = said(REPORT.analyse(made), "What evens the first player", pairs)
    assert say.startswith("At 2 players, a Gem for seat 1 at the start evens the first player "
                          "best: 50.0% of the games a player won against 43.0%"), say


def test_the_team_s_win_against_the_computer_is_its_side_s_not_zero():
    # The kit names the seat whose Gem reached the target as the winner of a team's game.
    rows = [game_row(0, g, players=2, winner=1 + g % 2 if g < 600 else None)
            for g in range(1000)]
    a = REPORT.analyse(run(rows, [variant(0, {"play": "computer"}, 2)]))
    [r] = a.outcomes.team_wins.to_dicts()
    assert (r["games"], r["wins"]) == (1000, 600)


# -- The Pool ---------------------------------------------------------------------------------

def test_a_pool_that_goes_to_the_side_behind_is_a_catch_up():
    rows = [game_row(0, g, winner=1 + g % 2, pool=(1 if g < 100 else 0, 1,
                                                   1 if g < 800 else 0, 1 if g < 400 else 0))
            for g in range(1000)]
    say = said(REPORT.analyse(run(rows, [variant(0, H2H)])), "The Pool")
    assert say.startswith("Head to head the Pool decides 10%")
    assert "80% (77–82%) of the Pools collected go to the side behind" in say
    assert "helps the trailing player catch up" in say


def test_a_pool_never_collected_decides_no_game():
    rows = [game_row(0, g, winner=1 + g % 2) for g in range(200)]
    assert said(REPORT.analyse(run(rows, [variant(0, H2H)])), "The Pool").startswith(
        "The Pool decides no game")


def test_a_pool_the_main_player_never_collects_is_its_play_where_another_player_does():
    """The runner's builders end a Challenge with the Pool's Gem, so between runners the Pool
    never grows; the search does not, and its Pool decides games. A report of both must not
    read the runner's empty Pool as the rules'."""
    rows = [game_row(0, g, winner=1 + g % 2) for g in range(1000)]
    rows += [game_row(1, g, winner=1 + g % 2, heuristic="search",
                      pool=(1 if g < 150 else 0, 1 if g < 300 else 0,
                            1 if g < 100 else 0, 0)) for g in range(600)]
    made = run(rows, [variant(0, H2H, heuristic="runner", swept={"heuristic": "runner"}),
                      variant(1, H2H, heuristic="search", swept={"heuristic": "search"})])
    [v] = [v for v in findings.verdicts(REPORT.analyse(made), [], {}) if v.topic == "The Pool"]
    assert v.sentence.startswith("The Pool decides no game"), v.sentence
    assert v.sentence.endswith("That is the players' doing, not the rules': it decides 25% "
                               "(22–29%) of Search's games."), v.sentence
    assert v.who.startswith("Runner and Search players"), v.who
    alone = [game_row(0, g, winner=1 + g % 2) for g in range(1000)]
    by_one = said(REPORT.analyse(run(alone, [variant(0, H2H)])), "The Pool")
    assert "players' doing" not in by_one
    # With one player on the page, the sentence still says whose habit an empty Pool is.
    assert "That is how Runner builds, not a rule" in by_one, by_one


def test_players_with_as_many_games_are_read_with_the_runs_first():
    """A run that plays runner, random and search alike (gem-runner-computer-players) reads its
    verdicts with the runner, its first player, not with random, first by name."""
    heuristics = ["runner", "random", "search"]
    rows = [game_row(i, g, players=1, heuristic=h, turns=10 * (i + 1),
                     winner=1 if g % 2 else None)
            for i, h in enumerate(heuristics) for g in range(100)]
    made = run(rows, [variant(i, {"decks": 1}, 1, heuristic=h, swept={"heuristic": h})
                      for i, h in enumerate(heuristics)], {"heuristic": heuristics})
    a = REPORT.analyse(made)
    assert findings.main_player(a) == "runner"
    [v] = [v for v in findings.verdicts(a, [], {}) if v.topic == "Length"]
    assert v.sentence.startswith("A game lasts 10 turns against the Computer"), v.sentence
    assert v.who == "Runner players", v.who


# -- Length and the players -------------------------------------------------------------------

def test_a_shorter_target_is_read_as_a_change_of_length():
    rows = [game_row(0, g, turns=20 + g % 3) for g in range(300)]
    rows += [game_row(1, g, turns=10 + g % 3) for g in range(300)]
    made = run(rows, [variant(0, {**H2H, "target": 7}), variant(1, {**H2H, "target": 5})],
               {"target": [7, 5]})
    a = REPORT.analyse(made)
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    assert [p.kind for p in pairs] == [LENGTH_KIND]
    assert "−10.0 turns" in said(a, "What changes the length", pairs)
    assert "21 turns head to head" in said(a, "Length", pairs)


def test_the_length_of_a_game_played_alone_says_one_player():
    rows = [game_row(0, g, players=1, winner=1 if g % 2 else None, turns=18 + g % 5)
            for g in range(200)]
    a = REPORT.analyse(run(rows, [variant(0, {"play": "computer"}, 1)]))
    [v] = [v for v in findings.verdicts(a, [], {}) if v.topic == "Length"]
    assert len(v.details) == 1 and ", 1 player: 20 turns" in v.details[0], v.details


def test_a_change_of_player_is_read_by_player():
    rows = [game_row(0, g, winner=1 if g < 500 else 2, heuristic="runner")
            for g in range(1000)]
    rows += [game_row(1, g, winner=1 if g < 800 else 2, heuristic="search")
             for g in range(1000)]
    made = run(rows, [variant(0, H2H, heuristic="runner", swept={"heuristic": "runner"}),
                      variant(1, H2H, heuristic="search", swept={"heuristic": "search"})])
    pairs = pairs_of([("made", compare(made.games, made.manifest))], made.manifest)
    assert [p.kind for p in pairs] == [PLAYERS_KIND]
    say = said(REPORT.analyse(made), "Verdicts by player", pairs)
    assert "the first player's wins by +30" in say and "beyond chance" in say


# -- The Pool's record on real play ----------------------------------------------------------

def test_the_pools_record_counts_what_it_says_on_real_play():
    """Random players leave Gems to the Pool and collect them; a collection by a side behind
    is counted among the Pool's, an overtaking one among those, a deciding one once."""
    records = play(prepare(KIT, H2H, ("random", "random")), range(300), check=True)
    rec = {name: records.rec[:, RECORD.index(name)] for name in RECORD}
    assert rec["pool_wins"].sum() > 0 and rec["pool_behind"].sum() > 0
    assert np.all(rec["pool_behind"] <= rec["pool_wins"])
    assert np.all(rec["pool_overtakes"] <= rec["pool_behind"])
    assert set(np.unique(rec["pool_decides"])) <= {0, 1}
    assert np.all(rec["pool_decides"] <= rec["pool_wins"])
    assert rec["pool_decides"].sum() > 0
