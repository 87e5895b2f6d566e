"""Rusship's report says what a designer decides from, once and in the game's words (issue
50): the first player is whoever the roll-off lets start, never seat 1; a verdict is stated
once over the players that played it, and a run too small to tell gets no verdict; options
that cannot be told apart are named together as a tie."""

from __future__ import annotations

from types import SimpleNamespace

from balance.games.rusship.game import GAME
from reports import headline
from reports.compare.compare import compare
from reports.rusship.report import REPORT
from tests.games.rusship.test_report import game_row, manifest, table


def even_sides_first_player_ahead(n: int = 200) -> SimpleNamespace:
    """One variant: the starter alternates between the sides and wins 80% of the games, so
    each side wins half (a fair share) while the first player is far above it."""
    rows = []
    for g in range(n):
        starter = 1 + g % 2
        won = g % 10 < 8
        rows.append(game_row(0, g, starter=starter,
                             winner=starter if won else 3 - starter))
    games = table(rows, {"second_tokens": [0]})
    return SimpleNamespace(games=games, manifest=manifest([{"second_tokens": 0}]))


def test_the_terminal_names_the_sides_and_the_first_player_apart():
    made = even_sides_first_player_ahead()
    said = " ".join(headline._fairness_block(made.games, made.manifest, GAME))
    assert "every seat within chance" not in said
    assert "the first player wins 80%" in said and "above its fair share" in said
    assert "Humanity and the Alien Empire each within chance" in said


def test_one_variants_headline_gives_the_first_player_beside_the_sides():
    made = even_sides_first_player_ahead()
    lines = headline.seat_lines(made.games, 2, game=GAME)
    assert any(x.strip().startswith("Humanity ") for x in lines)
    assert any(x.strip().startswith("the Alien Empire ") for x in lines)
    first = next(x for x in lines if "the first player" in x)
    assert "80%" in first and "above its fair share" in first


def test_the_summary_calls_seat_1_a_side_and_the_starter_the_first_player():
    made = even_sides_first_player_ahead()
    every = REPORT.sentences(REPORT.analyse(made))
    # the neutral outcome sentence gave seat 1's share as "the first player's"
    seat_one = [s for s in every if "fair share is" in s]
    assert seat_one and all("Humanity wins 50%" in s for s in seat_one)
    assert all("the first player wins 50%" not in s for s in every)
    assert any("the first player wins 80%" in s for s in every)


def test_the_comparison_names_the_sides():
    made = even_sides_first_player_ahead()
    games = made.games.vstack(made.games.with_columns(variant=1))
    m = manifest([{"second_tokens": 0}, {"second_tokens": 1}])
    names = set(compare(games, m).differences["name"].to_list())
    assert {"Humanity win share", "the Alien Empire win share"} <= names
    assert not any(n.startswith("seat ") for n in names)
