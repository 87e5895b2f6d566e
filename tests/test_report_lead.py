"""Issue 50, point 5: each report opens on the chart and the few numbers that answer its runs'
question, and folds the rest. The framework asks the game's report for its lead
(GameReport.lead_blocks, none in the neutral report); Gem Rush leads a Crisis run with the win
rate at every named difficulty by player count, Journeyman among them, and folds its tables of
targets; Rusship's first chart of a first-player run is the first player's wins."""

from __future__ import annotations

from types import SimpleNamespace

import polars as pl
import pytest

from balance.contract import registry
from reports.compare.compare import compare
from reports.gemrush.report import REPORT as GEMRUSH
from reports.outcomes import lead
from reports.page import game_report
from reports.page.page import build_sections
from reports.rusship.report import REPORT as RUSSHIP
from tests import test_report_outcomes as outcomes_test
from tests.games.rusship.test_report import game_row, manifest, table
from tests.report_data import synthetic_run


def _summary(run, report):
    a = report.analyse(run)
    return build_sections(a, report)[0]


def test_gemrush_opens_on_the_crisis_win_rate_by_player_count_at_every_difficulty():
    s = _summary(synthetic_run(games_per_variant=40, first_edition=False, rush=False),
                 GEMRUSH)
    lead = s.blocks[0]
    assert lead.heading == "Crisis: how often the team wins, 2nd edition"
    assert [f.name for f in lead.figures] == ["lead-crisis-2nd-edition.png"]
    assert lead.figures[0].png.startswith(b"\x89PNG")
    named = [p for p in lead.paragraphs if p.startswith(("Apprentice", "Journeyman",
                                                         "Artisan", "Expert", "Master"))]
    assert [p.split(" (")[0] for p in named] == ["Apprentice", "Journeyman", "Artisan",
                                                 "Expert", "Master"]
    assert named[1].startswith("Journeyman (45 points): won ") and "with 2 players to " in \
        named[1] and named[1].endswith("with 3 players.")
    # The verdicts follow the lead; the long tables of targets are folded.
    assert any(b.verdicts for b in s.blocks[1:])
    tables = [t for b in s.blocks for t in b.tables]
    assert tables and all(t.fold for t in tables)


@pytest.fixture
def race():
    game = registry.register(outcomes_test._game("lead_race", cooperative=False))
    yield game
    registry.unregister(game.name)


@pytest.fixture
def team():
    game = registry.register(outcomes_test._game("lead_team", cooperative=True))
    yield game
    registry.unregister(game.name)


def test_a_game_without_a_report_opens_on_each_seats_share_by_version(race):
    """A new game is born with a picture: the seats of each version against their fair
    share, in one chart, before the verdicts."""
    rows = outcomes_test._race_rows(0) + outcomes_test._race_rows(1, {1: 500, 2: 500}, 2)
    run = SimpleNamespace(games=outcomes_test._games(rows), manifest={
        "game": race.name, "experiment": "toy", "variants": [
            {"variant": 0, "players": 3, "heuristic": "bot"},
            {"variant": 1, "players": 2, "heuristic": "bot"}]})
    s = _summary(run, game_report.GameReport(race))
    lead = s.blocks[0]
    assert lead.heading == "Who wins: each seat against its fair share"
    assert [f.name for f in lead.figures] == ["lead-seats.png"]
    assert lead.figures[0].png.startswith(b"\x89PNG")
    assert lead.paragraphs[1:] == [
        "bot, 2 players: seat 1 50% ± 3%, seat 2 50% ± 3% (a fair share is 50.0%).",
        "bot, 3 players: seat 1 36% ± 3%, seat 2 27% ± 3%, seat 3 27% ± 3% (a fair share is "
        "30.0%)."]
    assert any(b.verdicts for b in s.blocks[1:])


def test_a_cooperative_game_without_a_report_opens_on_the_teams_win_rate(team):
    rows = [{"players": p, "won": i % 4 != 0, "score": 20, "scores": [3] * p}
            for p in (2, 3) for i in range(200)]
    run = SimpleNamespace(games=outcomes_test._games(rows), manifest={
        "game": team.name, "experiment": "toy", "variants": [{"variant": 0, "players": 2}]})
    lead = _summary(run, game_report.GameReport(team)).blocks[0]
    assert lead.heading == "How often the team wins"
    assert sum("the team wins 75%" in p for p in lead.paragraphs) == 2
    assert lead.figures[0].name == "lead-team.png"


def test_a_lead_of_many_rows_says_seat_1s_range_and_the_farthest_seat():
    seats = pl.DataFrame({
        "setting": ["a"] * 9, "players": [2, 2, 3, 3, 3, 4, 4, 4, 4],
        "seat": [1, 2, 1, 2, 3, 1, 2, 3, 4], "games": [400] * 9,
        "win_rate": [0.52, 0.48, 0.30, 0.36, 0.34, 0.27, 0.25, 0.18, 0.30],
        "fair_share": [0.5, 0.5, 1 / 3, 1 / 3, 1 / 3, 0.25, 0.25, 0.25, 0.25]}).with_columns(
        ci_low=pl.col("win_rate") - 0.04, ci_high=pl.col("win_rate") + 0.04)
    b = lead.seat_lead(seats, ["a"], "Seats")
    assert b.paragraphs[1] == ("Seat 1 wins 27% to 52% of the games, against fair shares of "
                               "25.0% to 50.0%: −3 to +2 points from its fair share.")
    assert b.paragraphs[2] == ("The seat farthest from its fair share: seat 3 of 4, 18% ± 4% "
                               "against 25.0%.")


def test_gemrush_leads_a_rush_run_with_its_seats_and_states_them_once():
    run = synthetic_run(games_per_variant=40, first_edition=False)
    s = _summary(run, GEMRUSH)
    headings = [b.heading for b in s.blocks if b.heading]
    assert headings[:2] == ["Crisis: how often the team wins, 2nd edition",
                            "Rush: each seat against its fair share, by player count"]
    rush = s.blocks[1]
    assert rush.figures[0].name == "lead-seats-rush.png"
    verdicts = [v for b in s.blocks for v in b.verdicts]
    assert [v.topic for v in verdicts].count("Rush seats") == 1


def _rusship(swept: dict[str, list]):
    rows = [game_row(v, g, winner=1 if g < 30 - 10 * v else 2, turns=10 + v)
            for v in (0, 1) for g in range(40)]
    rules = [{k: vals[v] for k, vals in swept.items()} for v in (0, 1)]
    return table(rows, swept), manifest(rules)


def test_rusship_leads_a_first_player_run_with_the_first_players_wins():
    games, m = _rusship({"second_tokens": [0, 1]})
    cmp = compare(games, m)
    quantities = RUSSHIP.forest_quantities(cmp)
    assert quantities[0][0] == "starter"
    assert "length:mean" in [q for q, _ in quantities]  # the others follow
    # A run of another question keeps the neutral order.
    games, m = _rusship({"board_length": [10, 12]})
    cmp = compare(games, m)
    assert RUSSHIP.forest_quantities(cmp)[0][0] != "starter"
    assert RUSSHIP.forest_quantities(cmp) == game_report.GameReport.forest_quantities(
        RUSSHIP, cmp)


def test_the_first_players_wins_lead_the_first_player_run_in_the_comparison():
    from reports.compare.comparison_page import comparison_section

    games, m = _rusship({"second_tokens": [0, 1]})
    cmp = compare(games, m)
    a = RUSSHIP.analyse(type("D", (), {"games": games, "manifest": m})())
    s = comparison_section([("made", cmp)], a, RUSSHIP)
    first = s.blocks[0].figures[0]
    assert first.name == "compare-forest-starter-made.png"


def _rusship_lead(swept: dict[str, list]):
    games, m = _rusship(swept)
    cmp = compare(games, m)
    a = RUSSHIP.analyse(SimpleNamespace(games=games, manifest=m))
    return RUSSHIP.lead_blocks(a, [("made", cmp)])


def test_rusship_leads_a_compensation_run_with_the_first_players_wins_under_each():
    blocks = _rusship_lead({"second_tokens": [0, 1]})
    assert [b.heading for b in blocks] == [
        "First player: its wins under each compensation (made)"]
    b = blocks[0]
    assert [f.name for f in b.figures] == ["lead-first-player-made.png"]
    assert b.figures[0].png.startswith(b"\x89PNG")
    assert "closest to 50%" in b.paragraphs[0] or b.paragraphs[0].startswith(
        ("A tie", "None of the compensations"))


def test_rusship_leads_a_board_length_run_with_the_turns_against_the_length():
    blocks = _rusship_lead({"length": [10, 12]})
    assert len(blocks) == 1
    assert blocks[0].heading.startswith("Length: the turns against the board's length (")
    assert blocks[0].paragraphs[0].startswith("The turns grow as length^")
    assert blocks[0].figures[0].name.startswith("lead-length-")


def test_rusship_leads_a_box_run_with_each_powers_effect():
    blocks = _rusship_lead({"box_plus_one": [True, False]})
    assert [b.heading for b in blocks] == ["Powers: what each adds to the comebacks (made)"]
    assert blocks[0].figures[0].name == "lead-powers-made.png"
    assert blocks[0].paragraphs[0].endswith("the first is the strongest catch-up.")


def test_a_box_run_that_tells_no_power_apart_names_no_strongest_in_its_lead():
    """The same 40 games with and without +1 (comebacks 50% both): the lead says no power
    clearly adds to them, as the verdict beneath it does, not a tie for the strongest."""
    rows = [game_row(v, g, winner=1 if g % 2 else 2, first_hit=1 if g % 4 < 2 else 2)
            for v in (0, 1) for g in range(40)]
    swept = {"box_plus_one": [True, False]}
    games = table(rows, swept)
    m = manifest([{"box_plus_one": True}, {"box_plus_one": False}])
    b = RUSSHIP.lead_blocks(RUSSHIP.analyse(SimpleNamespace(games=games, manifest=m)),
                            [("made", compare(games, m))])[0]
    assert "no power clearly adds to them on these games" in b.paragraphs[0]
    assert "strongest" not in b.paragraphs[0]


def test_a_run_of_no_lever_leads_with_the_first_players_wins():
    blocks = _rusship_lead({"second_tokens": [0, 0]})
    assert [b.heading for b in blocks] == ["First player: its wins per setting"]


def test_a_tie_of_many_compensations_is_counted_not_listed():
    rows = [game_row(v, g, starter=1, winner=1 if g < 20 + v else 2)
            for v in range(5) for g in range(40)]
    games = table(rows, {"second_tokens": [0, 1, 2, 0, 1], "second_bonus": [0, 0, 0, 1, 1]})
    m = manifest([{}, {"second_tokens": 1}, {"second_tokens": 2}, {"second_bonus": 1},
                  {"second_tokens": 1, "second_bonus": 1}])
    blocks = RUSSHIP.lead_blocks(RUSSHIP.analyse(SimpleNamespace(games=games, manifest=m)),
                                 [("made", compare(games, m))])
    said = blocks[0].paragraphs[0]
    assert said.startswith("A tie among 4 options, the unchanged rules among them (50.0% to "
                           "57.5%)")
    assert "head-start" not in said


def test_rusship_states_a_length_fit_once_on_its_first_screen():
    games, m = _rusship({"length": [10, 12]})
    s = _summary(SimpleNamespace(games=games, manifest=m), RUSSHIP)
    said = [p for b in s.blocks for p in b.paragraphs] + [
        v.sentence for b in s.blocks for v in b.verdicts]
    fits = [p for p in said if "The turns grow as length^" in p]
    assert len(fits) == 1, fits
    assert "(Racer" in s.blocks[0].heading  # the players in the game's words
