"""Issue 50, point 5: each report opens on the chart and the few numbers that answer its runs'
question, and folds the rest. The framework asks the game's report for its lead
(GameReport.lead_blocks, none in the neutral report); Gem Rush leads a Crisis run with the win
rate at every named difficulty by player count, Journeyman among them, and folds its tables of
targets; Rusship's first chart of a first-player run is the first player's wins."""

from __future__ import annotations

from balance.contract import registry
from reports.compare.compare import compare
from reports.gemrush.report import REPORT as GEMRUSH
from reports.page import game_report
from reports.page.page import build_sections
from reports.rusship.report import REPORT as RUSSHIP
from tests.games.rusship.test_report import game_row, manifest, table
from tests.report_data import synthetic_run


def _summary(run, report):
    a = report.analyse(run)
    return build_sections(a, report)[0]


def test_gemrush_opens_on_the_crisis_win_rate_by_player_count_at_every_difficulty():
    s = _summary(synthetic_run(games_per_variant=40, first_edition=False, rush=False),
                 GEMRUSH)
    lead = s.blocks[0]
    assert lead.heading == "Crisis: how often the team wins, 2e"
    assert [f.name for f in lead.figures] == ["lead-crisis-2e.png"]
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


def test_the_neutral_report_has_no_lead_of_its_own():
    report = game_report.GameReport(registry.get("dice"))
    assert report.lead_blocks(None, []) == []


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
