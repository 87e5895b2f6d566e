"""A setting's name stays readable and a figure's file name stays a file name: a label leaves
out the rules its run does not sweep, and a long name is cut with a hash of the whole, so two
long names stay apart."""

from __future__ import annotations

import polars as pl

from reports.render.section import SLUG_MAX, slug
from reports.tables.frame import setting_label


def test_a_short_name_is_kept_and_a_long_one_cut_apart():
    assert slug("Seats=['racer', 'racer']") == "seats-racer-racer"
    long_a = ", ".join(f"rule_{i}=default" for i in range(30)) + ", seats=a"
    long_b = long_a[:-1] + "b"
    assert len(slug(long_a)) <= SLUG_MAX and slug(long_a) != slug(long_b)
    assert slug(long_a).startswith("rule-0-default-rule-1")


def test_a_setting_label_leaves_out_what_its_run_does_not_sweep():
    games = pl.DataFrame({"heuristic": ["racer"] * 4, "length": [6, 9, None, None],
                          "ablate": [None, None, "none", "share"],
                          "run": ["board", "board", "powers", "powers"]})
    labels = games.select(setting_label(games, ["heuristic", "length", "ablate", "run"]))
    assert labels.to_series().to_list() == [
        "length=6", "length=9", "ablate=none", "ablate=share"]


def test_a_setting_label_names_its_run_only_where_two_runs_share_it():
    games = pl.DataFrame({"heuristic": ["racer"] * 4, "length": [6, 9, 6, None],
                          "run": ["board", "board", "again", "powers"]})
    labels = games.select(setting_label(games, ["heuristic", "length", "run"]))
    assert labels.to_series().to_list() == [
        "length=6 (board)", "length=9", "length=6 (again)", "racer"]


def test_a_setting_label_names_the_player_only_where_players_differ():
    """One player plays every setting: the page names it once (the summary's "Played by"),
    not at the head of every row of every chart. A setting that changes nothing else keeps
    the player's name, its only one."""
    games = pl.DataFrame({"heuristic": ["racer"] * 3, "length": [6, 9, None]})
    labels = games.select(setting_label(games, ["heuristic", "length"])).to_series()
    assert labels.to_list() == ["length=6", "length=9", "racer"]
    games = pl.DataFrame({"heuristic": ["racer", "racer", "scout"], "length": [6, 9, 6]})
    labels = games.select(setting_label(games, ["heuristic", "length"])).to_series()
    assert labels.to_list() == ["racer, length=6", "racer, length=9", "scout, length=6"]
    games = pl.DataFrame({"heuristic": ["racer"] * 2})
    assert games.select(setting_label(games, ["heuristic"])).to_series().to_list() == [
        "racer", "racer"]


def test_a_setting_label_leads_in_the_games_words():
    from balance.contract import registry
    from reports.gemrush.frame import LAYOUT

    rusship = registry.get("rusship")
    games = pl.DataFrame({"heuristic": ["racer", "reference,racer"]})
    labels = games.select(setting_label(games, ["heuristic"], game=rusship)).to_series()
    assert labels.to_list() == ["Racer", "Reference (Humanity) vs Racer"]
    games = pl.DataFrame({"edition": ["2e", "2e", "1e"], "content": ["c", "c", "c"],
                          "heuristic": ["greedy", "learned", "greedy"]})
    labels = games.select(setting_label(games, ["edition", "content", "heuristic"],
                                        LAYOUT.setting, LAYOUT.game)).to_series()
    assert labels.to_list() == ["2nd edition, Greedy", "2nd edition, Learned",
                                "1st edition, Greedy"]
