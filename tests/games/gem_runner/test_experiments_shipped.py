"""Gem Runner's shipped experiment files (experiments/gem_runner/): each parses into the variants
its question needs, named apart from every other game's files."""

from __future__ import annotations

from pathlib import Path

import pytest

from balance.running.experiment import load_experiment

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = sorted((ROOT / "experiments" / "gem_runner").glob("*.toml"))
HEROES = ["bit_boy", "giga_girl", "cache_cat", "data_dog"]
# Each file's variant count: one question each.
WANT = {"gem-runner-computer": 4, "gem-runner-computer-players": 6,
        "gem-runner-computer-heroes": 8, "gem-runner-decks": 16,
        "gem-runner-first-player": 3, "gem-runner-deck-counts": 27, "gem-runner-target": 9,
        # how it plays (issue 53): runners head to head at 2 to 4 players; the ladder's setting
        "gem-runner-course": 3, "gem-runner-ladder": 1,
        # which cards matter: the full deck, then each of Bit Boy's 46 card names taken out
        "gem-runner-cards": 47,
        # what evens the first player, the Computer tuned, the answers with the search
        "gem-runner-head-to-head": 1, "gem-runner-first-player-fix": 12,
        "gem-runner-computer-tune": 1, "gem-runner-computer-hand": 3,
        "gem-runner-first-player-search": 8, "gem-runner-decks-search": 8,
        # what evens the first player at 3 and 4: seat 1's Gem with up to two extra cards;
        # Gems at the start graded by seat at 4 players
        "gem-runner-first-player-even": 18, "gem-runner-first-player-seats": 7}


def test_the_designers_questions_each_have_a_file():
    assert sorted(p.stem for p in SHIPPED) == sorted(WANT)


def test_the_names_are_distinct_across_games():
    others = [p.stem for p in (ROOT / "experiments").rglob("*.toml")
              if p.parent.name != "gem_runner"]
    assert not set(WANT) & set(others)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_file_parses_into_its_variants(path):
    exp = load_experiment(path)
    assert exp.game.name == "gem_runner"
    assert len(exp.variants) == WANT[path.stem]


def test_the_deck_matrix_plays_every_pair_both_ways_round_head_to_head():
    exp = load_experiment(ROOT / "experiments" / "gem_runner" / "gem-runner-decks.toml")
    pairs = {(v.swept["hero1"], v.swept["hero2"]) for v in exp.variants}
    assert pairs == {(a, b) for a in HEROES for b in HEROES}
    assert all(v.rules["play"] == "head_to_head" and v.rules["decks"] == 2
               for v in exp.variants)


def test_the_length_sweeps_pair_each_lever_with_the_rulebooks_values_first():
    from balance.games.gem_runner.rules import DEFAULTS

    for stem in ("gem-runner-deck-counts", "gem-runner-target"):
        exp = load_experiment(ROOT / "experiments" / "gem_runner" / f"{stem}.toml")
        first = exp.variants[0].swept
        assert first and all(first[k] == DEFAULTS[k] for k in first), stem
