"""Gem Mountain's shipped experiment files (experiments/gem_mountain/): each parses into the
variants its question needs, the baseline each is paired against the unchanged box."""

from __future__ import annotations

from pathlib import Path

import pytest

from balance.running.experiment import load_experiment

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = sorted((ROOT / "experiments" / "gem_mountain").glob("*.toml"))
# Each file's variant count: one question each.
WANT = {"first-seat": 4, "first-seat-compensation": 6, "map-size": 9, "action-ablation": 6,
        # majority on every seat, then the honest player (or the search) on each seat in
        # turn, and the search on every seat
        "steal-kingmaker": 5, "player-strength": 6, "colours": 3, "gem-mountain-course": 4,
        **{f"action-{a}": 3 for a in ("arrow-lock", "double", "move-arrow", "steal", "swap")},
        # each open reading against the other(s), the default first
        **{f"reading-{r}": 2 for r in ("majority-by", "none-is-least", "split", "steal-actions",
                                        "stolen-now")}, "reading-all-tie": 3,
        # each expansion against the base game, alone and all in one file
        "dark-tunnels": 2, "gemshards": 2, "golden-actions": 2, "expansions": 5,
        # majority on every seat, then the search player on each seat in turn, each expansion
        **{f"search-{x}": 5 for x in ("dark-tunnels", "gemshards", "golden-actions")},
        # majority on every seat, then the search and the clairvoyant search on each seat
        "clairvoyant-dark-tunnels": 9}


def test_the_designers_questions_each_have_a_file():
    assert sorted(p.stem for p in SHIPPED) == sorted(WANT)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_file_parses_into_its_variants(path):
    exp = load_experiment(path)
    assert exp.game.name == "gem_mountain"
    assert len(exp.variants) == WANT[path.stem]


def test_each_reading_file_plays_the_default_first():
    from balance.games.gem_mountain.rules import DEFAULTS

    for path in SHIPPED:
        if path.stem.startswith("reading-"):
            exp = load_experiment(path)
            [key] = exp.variants[0].swept
            assert exp.variants[0].swept[key] == DEFAULTS[key], path.stem


def test_the_ablation_takes_out_each_action_of_the_reconstructed_box():
    exp = load_experiment(ROOT / "experiments" / "gem_mountain" / "action-ablation.toml")
    assert [v.swept["ablate"] for v in exp.variants] == [
        "none", "move_arrow", "arrow_lock", "swap", "double", "steal"]
    assert exp.variants[0].rules == {} and exp.variants[5].rules == {"steal": 0}


def test_the_expansions_file_pairs_each_expansion_alone_and_all_three_with_the_base_game():
    exp = load_experiment(ROOT / "experiments" / "gem_mountain" / "expansions.toml")
    assert [v.rules for v in exp.variants] == [
        {}, {"dark_tunnels": True}, {"gemshards": True}, {"golden_actions": True},
        {"dark_tunnels": True, "gemshards": True, "golden_actions": True}]


def test_each_search_file_plays_its_expansion_in_every_variant():
    for x in ("dark_tunnels", "gemshards", "golden_actions"):
        exp = load_experiment(ROOT / "experiments" / "gem_mountain" /
                              f"search-{x.replace('_', '-')}.toml")
        assert all(v.rules == {x: True} for v in exp.variants), x
        assert [v.seats.index("search") if "search" in v.seats else None
                for v in exp.variants] == [None, 0, 1, 2, 3]


def test_each_expansion_file_plays_the_base_game_first():
    for stem, key in (("gemshards", "gemshards"), ("golden-actions", "golden_actions")):
        exp = load_experiment(ROOT / "experiments" / "gem_mountain" / f"{stem}.toml")
        assert [v.swept[key] for v in exp.variants] == [False, True], stem
