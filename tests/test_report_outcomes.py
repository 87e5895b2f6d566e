"""The neutral report of a game that declares no report of its own, on synthetic games tables of
the core columns only: a competitive three-seat race whose first seat has a built-in edge (the
seats section must find it, and only it), and a cooperative game (the team's win rate, no
seats). Nothing here plays a game or names Gem Rush."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest
from scipy import stats

from balance.contract import registry
from balance.contract.game import CORE_COLUMNS, Game, Measure, Table
from balance.stats import measures
from reports import headline
from reports.compare.compare import compare
from reports.outcomes import outcomes
from reports.page import game_report
from reports.page.build import write_report
from reports.tables import tally

TYPES = {"string": pl.Utf8, "int8": pl.Int8, "int16": pl.Int16, "int32": pl.Int32,
         "int64": pl.Int64, "bool": pl.Boolean, "list<int16>": pl.List(pl.Int16)}


def _game(name: str, cooperative: bool) -> Game:
    return Game(
        name=name, title=name.replace("_", " ").capitalize(), version="1",
        player_counts=(1, 2, 3, 4), cooperative=cooperative, settings=(),
        tables=(Table("games", {**CORE_COLUMNS, "rolls": "int16"}),),
        measures=(Measure("rolls", "Rolls", "mean", "rolls", "dice rolled in a game"),),
        end_reasons=("finish", "timeout"))


@pytest.fixture
def race():
    game = registry.register(_game("toy_race", cooperative=False))
    yield game
    registry.unregister(game.name)


@pytest.fixture
def team():
    game = registry.register(_game("toy_team", cooperative=True))
    yield game
    registry.unregister(game.name)


def _games(rows: list[dict]) -> pl.DataFrame:
    schema = {c: TYPES[t] for c, t in {**CORE_COLUMNS, "rolls": "int16"}.items()}
    defaults = {"experiment": "toy", "variant": 0, "seed": 0, "players": 3,
                "heuristic": "bot", "went_first": 1, "won": None, "winner": None, "score": 0,
                "scores": [], "turns": 10, "end_reason": "finish", "engine_version": "1",
                "source_hash": "x", "rolls": 5}
    return pl.DataFrame([{**defaults, "game": i, **r} for i, r in enumerate(rows)],
                        schema=schema)


# Seat 1 of 3 wins 360 of 1,000 games, seats 2 and 3 270 each; 100 are tied. Of the 900 games
# one seat won, seat 1's 360 are far past 300 (exact binomial p < 0.0001); 270 is within
# chance of it once Holm's correction counts the three seats tested.
EDGE = {1: 360, 2: 270, 3: 270, -1: 100}


def _race_rows(variant: int = 0, edge: dict = EDGE, players: int = 3) -> list[dict]:
    rng = np.random.default_rng(variant)
    rows = []
    for winner, n in edge.items():
        for _ in range(n):
            scores = [int(x) for x in rng.integers(5, 15, players)]
            top = max(scores) + (0 if winner == -1 else 3)
            if winner == -1:
                scores[:2] = [top, top]
            else:
                scores[winner - 1] = top
            rows.append({"variant": variant, "players": players, "winner": winner,
                         "scores": scores, "score": top, "turns": int(rng.integers(20, 40)),
                         "end_reason": "finish" if rng.random() < 0.9 else "timeout",
                         "rolls": int(rng.integers(3, 9))})
    return rows


def _manifest(name: str, variants: list[dict]) -> dict:
    return {"game": name, "experiment": "toy", "variants": variants}


def test_the_seats_section_finds_the_first_seat_s_edge_and_only_it(race):
    games = _games(_race_rows())
    seats = outcomes.seat_wins(tally.count(games, {"game": race.name}))
    assert seats["seat"].to_list() == [1, 2, 3]
    assert seats["wins"].to_list() == [360, 270, 270]
    assert seats["fair_share"].to_list() == pytest.approx([0.3] * 3)  # 900 untied of 1,000
    p = [stats.binomtest(k, 900, 1 / 3).pvalue for k in (360, 270, 270)]
    assert seats["p_fair"].to_list() == pytest.approx(p)
    assert seats["off_fair"].to_list() == [True, False, False]
    # A fair race: no seat is called off its share.
    fair = outcomes.seat_wins(tally.count(_games(_race_rows(edge={1: 300, 2: 300, 3: 300,
                                                                  -1: 100})),
                                          {"game": race.name}))
    assert not any(fair["off_fair"].to_list())


def test_a_competitive_game_s_report_is_the_neutral_one(race, tmp_path):
    games = _games(_race_rows())
    manifest = _manifest(race.name, [{"variant": 0, "players": 3, "heuristic": "bot"}])
    page = write_report(SimpleNamespace(games=games, manifest=manifest), tmp_path)
    html = page.read_text(encoding="utf-8")
    assert "<title>Toy race balance report: toy</title>" in html
    assert '<section id="outcomes">' in html and "Win rate by seat" in html
    # The verdict names the first seat's edge against its fair share.
    assert ("Not every seat wins its fair share: seat 1 of 3 wins 36.0% of the games against "
            "a fair share of 30.0%." in html)
    assert "The winner&#39;s score" in html and "Every seat&#39;s score" in html
    # One player in every seat: no table by player, which could only repeat the fair share.
    assert "Scores and wins by player" not in html
    for absent in ("Crisis", "Rush", "Room value", "Skills", "The team&#39;s win rate"):
        assert absent not in html
    assert (tmp_path / "figures" / "outcomes-seats-bot.png").is_file()


def test_the_player_who_wins_more_is_found_over_the_seats_it_sat_in(race, tmp_path):
    # "strong,weak": the listed players alternate seat 1 (went_first), and strong wins 70%.
    rows = []
    for i in range(400):
        first = 1 + i % 2
        strong_seat = (1 - first) % 2 + 1  # listed player 1 sits in seat (1 - first) % 2 + 1
        won = strong_seat if i % 10 < 7 else 3 - strong_seat
        rows.append({"players": 2, "heuristic": "strong,weak", "went_first": first,
                     "winner": won, "scores": [10 + (won == 1), 10 + (won == 2)],
                     "score": 11})
    by = outcomes.by_player(tally.count(_games(rows), {"game": race.name}))
    got = {r["player"]: r for r in by.iter_rows(named=True)}
    assert got["strong"]["seats"] == got["weak"]["seats"] == 400
    assert got["strong"]["wins"] == 280 and got["weak"]["wins"] == 120
    assert got["strong"]["fair_share"] == pytest.approx(0.5)
    assert got["strong"]["mean"] == pytest.approx(10.7)
    manifest = {"game": race.name, "variants": [{"variant": 0, "players": 2}]}
    html = write_report(SimpleNamespace(games=_games(rows), manifest=manifest),
                        tmp_path).read_text(encoding="utf-8")
    assert "Scores and wins by player" in html


def test_a_cooperative_game_gets_the_team_s_win_rate_not_seats(team, tmp_path):
    rows = [{"players": p, "won": i % 4 != 0, "score": 20 + i % 7, "scores": [3] * p}
            for p in (2, 3) for i in range(200)]
    games = _games(rows)
    t = tally.count(games, {"game": team.name})
    won = outcomes.team_wins(t)
    assert won.select("players", "games", "wins").rows() == [(2, 200, 150), (3, 200, 150)]
    assert outcomes.seat_wins(t).height == 0
    manifest = _manifest(team.name, [{"variant": 0, "players": 2}])
    html = write_report(SimpleNamespace(games=games, manifest=manifest),
                        tmp_path).read_text(encoding="utf-8")
    assert "The team&#39;s win rate" in html and "Win rate by seat" not in html
    assert "<strong>Team wins.</strong> The team wins 75% of its games with 2 to 3 players" \
        in html
    lines = headline.team_lines(games)
    assert lines[0].startswith("The team wins 75%") and lines[-1].startswith("Length:")


def test_a_race_s_headline_gives_each_seat_its_share_and_the_length_in_its_unit(race):
    games = _games(_race_rows())
    lines = headline.seat_lines(games, 3, unit="turns")
    assert lines[0].endswith("1,000 games; a fair share is 30.0%):")
    assert lines[1].startswith("  seat 1   36% ± 3%") and lines[1].endswith(
        "above its fair share")
    assert not lines[2].endswith("fair share") and "  ties     10.0%" in lines
    median = float(np.median(games["turns"].to_numpy()))
    assert lines[-1].startswith(f"Length: {median:g} turns (median")


def test_the_headline_rates_are_the_seats_or_the_team(race, team):
    games = _games(_race_rows())
    manifest = _manifest(race.name, [{"variant": 0, "players": 3}])
    rates = measures.headline_rates(games, manifest)
    assert rates["measure"].to_list() == ["seat 1 wins", "seat 2 wins", "seat 3 wins"]
    assert rates["wins"].to_list() == [360, 270, 270]
    every = measures.aggregate(games, manifest)
    rolls = every.filter(pl.col("key") == "rolls").row(0, named=True)
    assert rolls["kind"] == "mean" and rolls["n"] == 1000
    assert rolls["value"] == pytest.approx(games["rolls"].cast(pl.Float64).mean())
    coop = _games([{"won": i % 2 == 0} for i in range(10)])
    rates = measures.headline_rates(coop, _manifest(team.name, [{"variant": 0}]))
    assert rates.select("measure", "wins", "games").rows() == [("won", 5, 10)]


def test_a_neutral_comparison_compares_length_margin_seats_and_measures(race):
    rows = _race_rows(0) + [{**r, "variant": 1, "rolls": r["rolls"] + 1}
                            for r in _race_rows(0)]
    games = _games(rows).with_columns(pl.Series("game", list(range(1000)) * 2))
    manifest = _manifest(race.name, [{"variant": 0, "players": 3, "label": "dice=6"},
                                     {"variant": 1, "players": 3, "label": "dice=8"}])
    cmp = compare(games, manifest)
    assert cmp.kind == "Toy race" and cmp.head == {"game": "toy_race"}
    got = dict(zip(cmp.differences["quantity"], cmp.differences["difference"], strict=True))
    assert set(got) == {"length:mean", "length:median", "margin:mean", "seat:1", "seat:2",
                        "seat:3", "rolls"}
    assert got["rolls"] == pytest.approx(1.0) and got["seat:1"] == 0
    assert cmp.to_dict()["game"] == "toy_race"


def test_the_neutral_report_is_the_one_a_game_without_its_own_gets(race):
    assert type(game_report.of(race)) is game_report.GameReport
    assert game_report.of_manifest({"game": race.name}).game is race


def _two_settings(rows_of) -> pl.DataFrame:
    """The games of two variants, told apart by their player ("bot" and "bot2")."""
    return _games([{**r, "variant": v, "heuristic": h, "game": i}
                   for v, h in ((0, "bot"), (1, "bot2"))
                   for i, r in enumerate(rows_of(v))])


def _figures(folder) -> set[str]:
    return {p.name for p in (folder / "figures").glob("*.png")}


def _outcomes(html: str) -> str:
    section = html[html.index('<section id="outcomes">'):]
    return section[:section.index("</section>")]


def test_more_settings_than_a_few_are_one_chart_and_a_fold_each(race, tmp_path, monkeypatch):
    """Past MANY_SETTINGS, one chart holds every setting's seats: a sweep of 25 versions drew
    50 charts here. Each setting keeps every table, folded under its name."""
    from reports.outcomes import outcome_page  # its threshold, lowered to what two settings pass

    games = _two_settings(lambda v: _race_rows(variant=v, edge={1: 60, 2: 40, 3: 40, -1: 10}))
    manifest = _manifest(race.name, [{"variant": 0, "players": 3, "heuristic": "bot"},
                                     {"variant": 1, "players": 3, "heuristic": "bot2"}])
    apart = tmp_path / "apart"
    html = write_report(SimpleNamespace(games=games, manifest=manifest),
                        apart).read_text(encoding="utf-8")
    assert {"outcomes-seats-bot.png", "outcomes-seats-bot2.png", "outcomes-length-bot.png",
            "outcomes-length-bot2.png"} <= _figures(apart)
    assert "Every setting" not in html
    monkeypatch.setattr(outcome_page, "MANY_SETTINGS", 1)
    one = tmp_path / "one"
    html = write_report(SimpleNamespace(games=games, manifest=manifest),
                        one).read_text(encoding="utf-8")
    outcome_figures = {f for f in _figures(one) if f.startswith("outcomes-")}
    assert outcome_figures == {"outcomes-seats-every-setting.png"}
    section = _outcomes(html)
    assert "<h3>Every setting</h3>" in section and "2 settings" in section
    for setting in ("bot", "bot2"):
        assert f"<summary>More on {setting}: every seat&#39;s share" in section
    assert section.count("Win rate by seat (seat 1 plays first)") == 2
    assert section.count("Game length (turns)") == 2
    # Past SETTINGS_PER_CHART settings, a chart per so many (one chart's height is bounded).
    monkeypatch.setattr(outcome_page, "SETTINGS_PER_CHART", 1)
    parts = tmp_path / "parts"
    html = write_report(SimpleNamespace(games=games, manifest=manifest),
                        parts).read_text(encoding="utf-8")
    assert {f for f in _figures(parts) if f.startswith("outcomes-")} == \
        {"outcomes-seats-every-setting-1.png", "outcomes-seats-every-setting-2.png"}
    assert "is in 2 charts here" in _outcomes(html)


def test_one_player_settings_past_a_few_have_no_empty_overview(race, tmp_path, monkeypatch):
    """One seat to a game: no seat chart to draw, no block that promises one, and each
    setting keeps its own length chart."""
    from reports.outcomes import outcome_page  # its threshold, lowered to what two settings pass

    monkeypatch.setattr(outcome_page, "MANY_SETTINGS", 1)
    games = _two_settings(lambda v: _race_rows(variant=v, edge={1: 30}, players=1))
    manifest = _manifest(race.name, [{"variant": 0, "players": 1, "heuristic": "bot"},
                                     {"variant": 1, "players": 1, "heuristic": "bot2"}])
    html = write_report(SimpleNamespace(games=games, manifest=manifest),
                        tmp_path).read_text(encoding="utf-8")
    section = _outcomes(html)
    assert "Every setting" not in section and "<summary>More on bot2:" in section
    assert {f for f in _figures(tmp_path) if f.startswith("outcomes-")} == \
        {"outcomes-length-bot.png", "outcomes-length-bot2.png"}


def test_a_team_s_settings_past_a_few_are_one_chart(team, tmp_path, monkeypatch):
    from reports.outcomes import outcome_page  # its threshold, lowered to what two settings pass

    monkeypatch.setattr(outcome_page, "MANY_SETTINGS", 1)
    games = _two_settings(lambda v: [{"players": 2, "won": i % (3 + v) != 0, "score": 20,
                                      "scores": [3, 3]} for i in range(60)])
    manifest = _manifest(team.name, [{"variant": 0, "players": 2, "heuristic": "bot"},
                                     {"variant": 1, "players": 2, "heuristic": "bot2"}])
    html = write_report(SimpleNamespace(games=games, manifest=manifest),
                        tmp_path).read_text(encoding="utf-8")
    assert {f for f in _figures(tmp_path) if f.startswith("outcomes-")} == \
        {"outcomes-team-every-setting.png"}
    # The team's win rate stays in sight under each setting's name; the rest is folded.
    section = _outcomes(html)
    assert section.count("<caption>The team&#39;s win rate</caption>") == 2
    assert "<h3>bot</h3>" in section and "<h3>bot2</h3>" in section


def test_a_lead_of_one_is_one_of_the_game_s_own_unit(race):
    """Issue 50: "the winner leads by 1 points" in a game whose score counts attacks."""
    from reports.outcomes import outcome_page
    from reports.tables import frame

    rows = [{"winner": 1, "scores": [3, 2], "score": 3, "players": 2} for _ in range(40)]
    t = tally.count(frame.with_setting(_games(rows)), {"game": race.name})
    said = outcome_page.sentences(outcomes.outcomes(t),
                                  outcome_page.Words(score_unit="attacks"))
    assert "the winner leads by 1 attack (median)" in said[0]
    rows = [dict(r, scores=[5, 2], score=5) for r in rows]
    t = tally.count(frame.with_setting(_games(rows)), {"game": race.name})
    assert "leads by 3 points (median)" in outcome_page.sentences(outcomes.outcomes(t))[0]
