"""The report's analysis functions against small hand-made tables with known answers."""

from __future__ import annotations

import math

import polars as pl
import pytest
from scipy.stats import binomtest

from balance.stats.intervals import difference, wilson, with_wilson
from reports.gemrush import burn, crisis, frame, rooms, rush
from tests.report_data import ROOM_SCHEMA, games_frame, synthetic_run

DIFFS_2E = {"Apprentice": 35, "Journeyman": 45, "Artisan": 55, "Expert": 65, "Master": 75}


def manifest_for(games: pl.DataFrame, difficulties: dict | None = None) -> dict:
    variants = []
    for v, edition in games.select("variant", "edition").unique().sort("variant").rows():
        entry = {"variant": v, "edition": edition, "content": f"gemrush-{edition}", "rules": {}}
        if difficulties is not None:
            entry["difficulties"] = difficulties
        variants.append(entry)
    return {"variants": variants}


# --- intervals -------------------------------------------------------------------------------

@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (10, 10), (62, 100), (6200, 10000)])
def test_wilson_is_scipys_wilson_interval(k, n):
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_wilson_known_values_and_empty_sample():
    # Textbook Wilson score interval: 0 of 10 -> [0, z^2 / (n + z^2)] with z = 1.959964.
    z2 = 1.959964 ** 2
    assert wilson(0, 10) == pytest.approx((0.0, z2 / (10 + z2)), abs=1e-6)
    assert wilson(62, 100) == pytest.approx((0.5221, 0.7090), abs=1e-4)
    assert wilson(5, 0) is None


def test_with_wilson_leaves_empty_groups_null_not_nan():
    df = with_wilson(pl.DataFrame({"wins": [3, 0], "games": [4, 0]}))
    assert df["win_rate"].to_list()[0] == 0.75
    assert df.row(1) == (0, 0, None, None, None)


def test_difference_matches_newcombe_1998_method_10():
    # Newcombe (1998), Stat. Med. 17:873, example (a): 56/70 - 48/80 = 0.2, CI 0.0524 to 0.3339.
    d, lo, hi = difference(56, 70, 48, 80)
    assert d == pytest.approx(0.2)
    assert (lo, hi) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    assert difference(0, 10, 0, 20) == pytest.approx((0.0, -0.1611, 0.2775), abs=1e-4)
    assert difference(1, 0, 2, 5) is None


# --- settings and difficulties ----------------------------------------------------------------

def test_setting_label_names_swept_rules_only():
    games = games_frame([{"variant": 0, "hand_limit": 4}, {"variant": 1, "hand_limit": 5},
                         {"variant": 2, "edition": "1e", "hand_limit": 4}],
                        extra={"hand_limit": pl.Int64})
    assert frame.rule_columns(games) == ["hand_limit"]
    labels = frame.with_setting(games)["setting"].to_list()
    # in the rulebook's words, not the file's keys
    assert labels == ["2nd edition, hand limit 4", "2nd edition, hand limit 5",
                      "1st edition, hand limit 4"]
    assert frame.with_setting(games_frame([{}]))["setting"].to_list() == ["2nd edition"]


def test_difficulties_from_manifest_then_profile():
    games = games_frame([{"variant": 0}, {"variant": 1, "edition": "1e"}])
    manifest = {"variants": [{"variant": 0, "difficulties": {"Easy": 10, "Hard": 20}}]}
    d = frame.difficulties(manifest, games)
    assert d.filter(pl.col("variant") == 0).rows() == [(0, "Easy", 10), (0, "Hard", 20)]
    # Variant 1 has none in the manifest: the 1st edition's profile names them.
    assert d.filter(pl.col("variant") == 1)["target"].to_list() == [35, 40, 45, 50]


# --- Crisis difficulty -----------------------------------------------------------------------

def two_known_games() -> pl.DataFrame:
    return games_frame([{"score_by_turn": [0, 2, 5]}, {"score_by_turn": [1, 1, 3, 4]}])


def test_difficulty_curve_from_known_scores():
    curve = crisis.difficulty_curve(two_known_games())
    assert curve["target"].to_list() == [1, 2, 3, 4, 5, 6]
    assert curve["wins"].to_list() == [2, 2, 2, 2, 1, 0]
    assert curve["win_rate"].to_list() == [1, 1, 1, 1, 0.5, 0]
    # First turn reaching T: game A (0, 2, 5) -> 2, 2, 3, 3, 3; game B (1, 1, 3, 4) -> 1, 3, 3, 4.
    assert curve["turn_reached"].to_list() == [1.5, 2.5, 3.0, 3.5, 3.0, None]
    assert curve["ci_low"][4] == pytest.approx(wilson(1, 2)[0])


def test_difficulty_curve_matches_brute_force_on_a_synthetic_run():
    run = synthetic_run(games_per_variant=40, rush=False, rooms=False, fixed=False)
    games = frame.with_setting(run.games)
    curve = crisis.difficulty_curve(games, max_target=80)
    for (setting, players), g in games.group_by("setting", "players"):
        scores = g["score_by_turn"].to_list()
        mine = curve.filter((pl.col("setting") == setting) & (pl.col("players") == players))
        for t in (1, 20, 35, 55, 80):
            row = mine.filter(pl.col("target") == t).row(0, named=True)
            reached = [next(i + 1 for i, s in enumerate(sbt) if s >= t) for sbt in scores
                       if max(sbt) >= t]
            assert row["wins"] == sum(max(s) >= t for s in scores)
            if reached:
                assert row["turn_reached"] == pytest.approx(sum(reached) / len(reached))
            else:
                assert row["turn_reached"] is None


def test_no_exhausted_games_gives_an_empty_curve():
    games = games_frame([{"exhaust": False, "target": 45, "won": True, "target_turn": 9}])
    assert crisis.difficulty_curve(games).height == 0


def test_fixed_target_games_count_for_their_own_target():
    games = games_frame([
        {"exhaust": False, "target": 45, "won": True, "target_turn": 10},
        {"exhaust": False, "target": 45, "won": True, "target_turn": 14},
        {"exhaust": False, "target": 45, "won": False},
        {"exhaust": False, "target": 55, "won": False},
    ])
    rates = crisis.fixed_target_rates(games)
    assert rates.select("target", "games", "wins", "turn_reached").rows() == [
        (45, 3, 2, 12.0), (55, 1, 0, None)]


def test_difficulty_table_marks_named_difficulties_from_both_sources():
    games = games_frame([
        {"score_by_turn": [10, 40, 50]}, {"score_by_turn": [30, 60]},
        {"exhaust": False, "target": 45, "won": True, "target_turn": 2, "variant": 1},
        {"exhaust": False, "target": 50, "won": False, "variant": 2},
    ])
    table = crisis.difficulty_table(games, frame.difficulties(manifest_for(games, DIFFS_2E),
                                                              games))
    got = table.select("difficulty", "target", "source", "games", "wins").rows()
    assert got == [
        ("Apprentice", 35, "to exhaustion", 2, 2),
        ("Journeyman", 45, "to exhaustion", 2, 2),
        ("Journeyman", 45, "to the target", 1, 1),
        (None, 50, "to the target", 1, 0),
        ("Artisan", 55, "to exhaustion", 2, 1),
        ("Expert", 65, "to exhaustion", 2, 0),
        ("Master", 75, "to exhaustion", 2, 0),
    ]
    assert table.filter(pl.col("target") == 45)["turn_reached"].to_list() == [2.5, 2.0]


def test_targets_for_win_rates():
    # Ten games with final scores 1..10: the win rate at T is (11 - T) / 10.
    games = games_frame([{"score_by_turn": [s]} for s in range(1, 11)])
    curve = crisis.difficulty_curve(games)
    out = crisis.targets_for_win_rates(curve)
    assert out["level"].to_list() == [0.9, 0.75, 0.5, 0.25, 0.1]
    assert out["target"].to_list() == [2, 3, 6, 8, 10]
    assert out["win_rate"].to_list() == pytest.approx([0.9, 0.8, 0.5, 0.3, 0.1])
    # Where the rate crosses each level, between the targets either side (balance tune's
    # interpolation): 75% lies halfway between T=3 (80%) and T=4 (70%).
    assert out["crossing"].to_list() == pytest.approx([2.0, 3.5, 6.0, 8.5, 10.0])
    # Ten games: the interval on the crossing is wide, and holds it; for 50% it runs from
    # where the upper band falls to 50% (T of about 2.9) to where the lower one does (9.1).
    for c, lo, hi in out.select("crossing", "crossing_low", "crossing_high").rows():
        assert lo <= c <= hi and hi - lo > 2
    assert out.filter(pl.col("level") == 0.5).select("crossing_low", "crossing_high").row(0) \
        == pytest.approx((2.907, 9.093), abs=1e-3)
    # The closest target, not the largest won at least that often: of two games scoring 0
    # and 1, target 1 is won half the time, closer to 90% than anything else.
    low = games_frame([{"score_by_turn": [0]}, {"score_by_turn": [1]}])
    near = crisis.targets_for_win_rates(crisis.difficulty_curve(low), (0.9,))
    assert near["target"].to_list() == [1] and near["win_rate"].to_list() == [0.5]
    # 60% lies between T=5 (60%: exact) and T=4 (70%); 65% is a tie, broken towards the
    # target won at least that often.
    out = crisis.targets_for_win_rates(curve, (0.65, 0.62))
    assert out["target"].to_list() == [4, 5]
    assert out.select("rate_low", "rate_high").rows()[0] == pytest.approx(
        curve.filter(pl.col("target") == 4).select("ci_low", "ci_high").rows()[0])


def test_targets_for_win_rates_exact_when_the_curve_steps_past_the_level():
    # 1000 games at 10 and 1000 at 20: 100% up to 10, 50% to 20, then 0%.
    games = games_frame([{"score_by_turn": [10]}] * 1000 + [{"score_by_turn": [20]}] * 1000)
    out = crisis.targets_for_win_rates(crisis.difficulty_curve(games), (0.9, 0.5, 0.25))
    # 50%: every target from 11 to 20 is won exactly half the time; the hardest is printed,
    # and the rate reaches 50% at 11. 25%: 20 (50%) and 21 (0%) are as close; 20 is won at
    # least that often.
    assert out.select("target", "crossing").rows() == [(10, pytest.approx(10.2)), (20, 11.0),
                                                       (20, 20.5)]


# --- room value ------------------------------------------------------------------------------

def room_rows(rows: list[tuple]) -> pl.DataFrame:
    """(game, room, turn, builder, points, uses, gained) -> a rooms table of variant 0."""
    return pl.DataFrame([{"experiment": "test", "variant": 0, "game": g, "room": r, "turn": t,
                          "builder": b, "points": p, "uses": u, "gained": x}
                         for g, r, t, b, p, u, x in rows], schema=ROOM_SCHEMA)


def test_room_value_by_median_build_turn():
    # Four exhausted 2e games; Journeyman (45) and Artisan (55) are each won by half of them,
    # the closest to half: the reference is the lower, Journeyman.
    games = games_frame([{"score_by_turn": [60]}, {"score_by_turn": [58]},
                         {"score_by_turn": [40]}, {"score_by_turn": [30]}])
    placed = room_rows([
        (0, "Gem Hall", 2, 1, 3, 2, 4), (1, "Gem Hall", 4, 2, 1, 0, 0),
        (1, "Gem Hall", 6, 3, 2, 1, 1), (2, "Gem Hall", 8, 1, 0, 0, 0),
        (0, "Tunnel", 3, 1, 0, 0, 0), (3, "Start", 0, -1, 0, 5, 5),
    ])
    diffs = frame.difficulties(manifest_for(games, DIFFS_2E), games)
    value = rooms.room_value(games, placed, diffs)
    hall = value.filter(pl.col("room") == "Gem Hall").row(0, named=True)
    assert hall["games"] == 4 and hall["built"] == 3 and hall["built_share"] == 0.75
    assert hall["copies"] == 1.0  # 4 tiles in 4 games
    assert hall["median_turn"] == 4.0  # first builds at 2, 4, 8
    assert hall["points_per_build"] == 1.5 and hall["uses_per_build"] == 0.75
    assert hall["gained_per_use"] == pytest.approx(5 / 3)
    # Built by turn 4 in games 0 and 1 (both won at 45); games 2 and 3 lost.
    assert (hall["early_games"], hall["early_wins"]) == (2, 2)
    assert (hall["other_games"], hall["other_wins"]) == (2, 0)
    assert hall["diff"] == 1.0
    assert (hall["diff_low"], hall["diff_high"]) == pytest.approx(
        difference(2, 2, 0, 2)[1:], abs=1e-12)
    assert hall["reference"] == "the team reaches Journeyman, 45 points"
    tunnel = value.filter(pl.col("room") == "Tunnel").row(0, named=True)
    assert tunnel["gained_per_use"] is None  # never used: no ratio, not NaN
    start = value.filter(pl.col("room") == "Start").row(0, named=True)
    assert (start["built"], start["setup"], start["uses_per_build"]) == (0, 0.25, None)
    assert start["early_games"] == 0 and start["early_rate"] is None
    ranking = rooms.room_ranking(value)
    assert ranking["room"][0] == "Gem Hall"


def test_room_value_in_rush_compares_seats():
    games = games_frame([
        {"mode": "rush", "players": 2, "scores": [20, 10], "winner": 1, "score": 20,
         "exhaust": False, "target": 20, "end_reason": "rush_target"},
        {"mode": "rush", "players": 2, "scores": [5, 21], "winner": 2, "score": 21,
         "exhaust": False, "target": 20, "end_reason": "rush_target"},
    ])
    placed = room_rows([(0, "Gem Hall", 1, 1, 2, 0, 0), (1, "Gem Hall", 2, 2, 2, 0, 0)])
    value = rooms.room_value(games, placed, frame.difficulties({}, games))
    hall = value.row(0, named=True)
    # Four seat units; (game 0, seat 1) built it at turn 1 and (game 1, seat 2) at turn 2, so
    # the median is 1.5 and only the first built it early; it won, as did (game 1, seat 2).
    assert hall["median_turn"] == 1.5
    assert (hall["early_games"], hall["early_wins"]) == (1, 1)
    assert (hall["other_games"], hall["other_wins"]) == (3, 1)
    assert hall["reference"] == "the seat wins the game"


def test_room_names_add_rooms_never_built():
    games = frame.with_setting(games_frame([{"score_by_turn": [40]}]))
    placed = room_rows([(0, "Gem Hall", 2, 1, 1, 0, 0)])
    names = pl.DataFrame({"setting": ["2nd edition"], "room": ["Hidden Grotto"]})
    value = rooms.room_value(games, placed, frame.difficulties({}, games), room_names=names)
    grotto = value.filter(pl.col("room") == "Hidden Grotto").row(0, named=True)
    assert grotto["built"] == 0 and grotto["points_per_build"] is None


# --- deck burn timing ------------------------------------------------------------------------

def test_deck_out_reshuffles_and_clock_end():
    games = games_frame([
        {"deck_out_turn": 8, "reshuffles": 1, "score_by_turn": [1] * 20},
        {"deck_out_turn": 10, "reshuffles": 2, "score_by_turn": [1] * 22},
        {"deck_out_turn": None, "reshuffles": 0, "score_by_turn": [1] * 24},
        {"deck_out_turn": 12, "reshuffles": 1, "score_by_turn": [1] * 24},
    ])
    out = burn.deck_out(games).row(0, named=True)
    assert (out["games"], out["n"], out["missing"]) == (4, 3, 0.25)
    assert (out["min"], out["q50"], out["max"], out["mean"]) == (8, 10, 12, 10)
    assert out["source"] == crisis.TO_EXHAUSTION
    shuffles = burn.reshuffles(games)
    assert shuffles.select("reshuffles", "games", "share").rows() == [
        (0, 1, 0.25), (1, 2, 0.5), (2, 1, 0.25)]
    end = burn.clock_end(games).row(0, named=True)
    assert (end["min"], end["q50"], end["max"]) == (20, 23, 24)


def test_burn_falls_back_on_fixed_target_games():
    games = games_frame([{"exhaust": False, "target": 45, "won": True, "deck_out_turn": 7,
                          "score_by_turn": [50], "end_reason": "target"}])
    assert burn.deck_out(games)["source"].to_list() == [crisis.TO_TARGET]
    assert burn.clock_end(games).height == 0  # a game won at its target never ran the clock


def test_slack_on_the_clock():
    # 2e burns 3 cards a turn; 24 turns burn 72 cards.
    games = games_frame([
        {"score_by_turn": [10] * 9 + [60] * 15, "cards_burned": 72},  # 35, 45, 55 at turn 10
        {"score_by_turn": [20] * 19 + [36] * 5, "cards_burned": 72},          # 35 at turn 20
    ])
    diffs = frame.difficulties(manifest_for(games, DIFFS_2E), games)
    per_game = burn.slack_games(games, diffs, {})
    assert per_game.select("difficulty", "reached_turn", "slack_turns", "cards_left").rows() == [
        ("Apprentice", 10, 14, 42), ("Apprentice", 20, 4, 12),
        ("Journeyman", 10, 14, 42), ("Artisan", 10, 14, 42)]
    table = burn.slack(games, diffs, {})
    assert table["difficulty"].to_list() == ["Apprentice", "Journeyman", "Artisan"]
    assert table["q50"].to_list() == [9.0, 14.0, 14.0]
    assert table["cards_median"].to_list() == [27.0, 42.0, 42.0]


def test_slack_uses_a_swept_burn_rate():
    games = games_frame([{"score_by_turn": [40] * 10, "cards_burned": 40, "burn_per_turn": 4}],
                        extra={"burn_per_turn": pl.Int64})
    per_game = burn.slack_games(games, frame.difficulties({}, games), {})
    assert per_game.filter(pl.col("target") == 35)["cards_left"].to_list() == [36]


# --- Rush ------------------------------------------------------------------------------------

def rush_games() -> pl.DataFrame:
    base = {"mode": "rush", "players": 3, "exhaust": False, "target": 20}
    return games_frame([
        {**base, "turns": 30, "scores": [21, 10, 5], "winner": 1, "end_reason": "rush_target"},
        {**base, "turns": 31, "scores": [20, 20, 3], "winner": -1, "end_reason": "rush_target"},
        {**base, "turns": 12, "scores": [4, 22, 8], "winner": 2, "end_reason": "rush_target"},
        {**base, "turns": 300, "scores": [9, 8, 7], "winner": 1, "end_reason": "turn_cap"},
    ])


def test_rush_seat_wins_and_fair_share():
    seats = rush.seat_wins(rush_games())
    assert seats.select("seat", "games", "wins").rows() == [(1, 4, 2), (2, 4, 1), (3, 4, 0)]
    assert seats["ties"].to_list() == [0.25] * 3
    assert seats["fair_share"].to_list() == pytest.approx([0.25] * 3)
    assert seats["ci_high"][0] == pytest.approx(wilson(2, 4)[1])


def test_rush_rounds_margin_and_turn_cap():
    g = rush_games()
    r = rush.rounds(g).row(0, named=True)
    assert (r["min"], r["max"]) == (4, 100)  # 12 turns / 3 players; 300 / 3
    assert rush.margins(g)["margin"].to_list() == [11, 0, 14, 1]
    m = rush.score_margin(g).row(0, named=True)
    assert m["q50"] == 6.0 and m["mean"] == 6.5
    cap = rush.turn_cap(g).row(0, named=True)
    assert (cap["games"], cap["wins"], cap["win_rate"]) == (4, 1, 0.25)


def test_rush_endings_count_every_reason_including_those_that_never_happened():
    g = rush_games()
    base = {"mode": "rush", "players": 3, "exhaust": False, "target": 20}
    g = pl.concat([g, games_frame([
        {**base, "turns": 40, "scores": [9, 6, 2], "winner": 1, "end_reason": "sealed"}])],
        how="vertical_relaxed")
    ends = {r["end_reason"]: r for r in rush.endings(g).iter_rows(named=True)}
    assert set(ends) == set(rush.RUSH_ENDINGS)
    assert {e: (r["games"], r["wins"]) for e, r in ends.items()} == {
        "rush_target": (5, 3), "sealed": (5, 1), "rooms_out": (5, 0), "turn_cap": (5, 1)}
    assert ends["sealed"]["ci_high"] == pytest.approx(wilson(1, 5)[1])


def test_rush_functions_on_a_run_without_rush():
    g = games_frame([{"score_by_turn": [3]}])
    for table in (rush.seat_wins(g), rush.rounds(g), rush.score_margin(g), rush.turn_cap(g),
                  rush.endings(g)):
        assert table.height == 0


def test_no_nan_in_any_analysis_of_a_synthetic_run():
    run = synthetic_run(games_per_variant=30)
    games = frame.with_variant_info(run.games, run.manifest)
    diffs = frame.difficulties(run.manifest, games)
    tables = [crisis.difficulty_curve(games), crisis.difficulty_table(games, diffs),
              rooms.room_value(games, run.rooms, diffs), burn.deck_out(games),
              burn.slack(games, diffs, run.manifest), burn.clock_end(games),
              rush.seat_wins(games), rush.rounds(games), rush.score_margin(games)]
    for t in tables:
        assert t.height > 0
        for name, dtype in t.schema.items():
            if dtype == pl.Float64:
                assert not any(isinstance(x, float) and math.isnan(x) for x in t[name]), name


def test_room_value_counts_wins_at_a_target_that_tells_games_apart():
    # No named difficulty is won 10-90% of the time (scores 20-29 against 35+): the median
    # team score is the reference instead, so building early can still show its association.
    games = games_frame([{"score_by_turn": [20 + g % 10]} for g in range(40)])
    refs = rooms.reference_targets(games, frame.difficulties(manifest_for(games, DIFFS_2E),
                                                             games))
    assert refs["target"].to_list() == [24]
    assert "median team score" in refs["label"][0]


# --- Verdicts by player ----------------------------------------------------------------------

def test_players_of_one_setting_are_compared_and_the_target_spread_measured():
    from reports.gemrush import players
    rows = ([{"variant": 0, "heuristic": "greedy", "score_by_turn": [10, 30]}] * 50
            + [{"variant": 0, "heuristic": "greedy", "score_by_turn": [10, 20]}] * 50
            + [{"variant": 1, "heuristic": "reference", "score_by_turn": [10, 40]}] * 80
            + [{"variant": 1, "heuristic": "reference", "score_by_turn": [10, 20]}] * 20)
    g = frame.with_setting(games_frame(rows))
    curve = crisis.difficulty_curve(g)
    roster = players.roster(g, None)
    lineup = players.lineup(roster, curve)
    keys = players.settings_by_player(roster, lineup)
    assert keys["heuristic"].to_list() == ["greedy", "reference"]
    assert keys["base_setting"].unique().to_list() == ["2nd edition"]
    curves = players.curves_by_player(curve, lineup)
    at30 = curves.filter(pl.col("target") == 30).sort("player")
    assert at30["win_rate"].to_list() == [0.5, 0.8]
    spread = players.target_spread(crisis.targets_for_win_rates(curve), lineup)
    half = spread.filter(pl.col("level") == 0.5).sort("player")
    assert half["target"].to_list() == [30, 40]  # greedy wins half at 30, the reference at 40
    assert half["spread"].to_list() == [10, 10]
    assert (half["low"].to_list(), half["high"].to_list()) == ([30, 30], [40, 40])


def test_one_player_runs_have_no_player_comparison():
    from reports.gemrush import players
    g = frame.with_setting(games_frame([{"score_by_turn": [3]}] * 5))
    roster = players.roster(g, None)
    assert players.settings_by_player(roster, players.lineup(
        roster, crisis.difficulty_curve(g))).height == 0


def test_a_rush_first_build_is_given_in_rounds_a_crisis_one_in_turns_from_one():
    from reports.gemrush.page import room_table
    from reports.gemrush.rooms import first_build_when

    # The rooms table counts turns from 0, every seat's: turn 19 of a 4-player Rush game is
    # in its 5th round, turn 3 of a Crisis its 4th turn.
    assert first_build_when(19.0, 4, "rush") == (5.0, "round")
    assert first_build_when(20.0, 4, "rush") == (6.0, "round")
    assert first_build_when(3.0, 4, "crisis") == (4.0, "turn")
    row = {"room": "Great Cavern", "built_share": 0.5, "copies": 1.0, "median_turn": 19.0,
           "points_per_build": 2.0, "uses_per_build": 1.0, "gained_per_use": 1.0,
           "early_rate": 0.5, "early_low": 0.4, "early_high": 0.6, "other_rate": 0.5,
           "other_low": 0.4, "other_high": 0.6, "diff": 0.0, "diff_low": -0.1,
           "diff_high": 0.1, "games": 100}
    t = room_table(pl.DataFrame([{**row, "mode": "rush"}]), 4)
    assert t.headers[3] == "Median first-build round" and t.rows[0][3] == "5"
    t = room_table(pl.DataFrame([{**row, "mode": "crisis"}]), 4)
    assert t.headers[3] == "Median first-build turn" and t.rows[0][3] == "20"
