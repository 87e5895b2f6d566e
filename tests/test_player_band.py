"""Verdicts as a band (issue 29, item 3): every Crisis verdict names its player and shows how far
it moves across the players that played the same game, in any run the report reads; the
headline comes from the strongest player that played its full game count, and says so; a
lever's effect is given per player, or said to be one player's."""

from __future__ import annotations

from types import SimpleNamespace

import polars as pl

from balance.games.gemrush.game import GAME
from balance.stats.distributions import normal_quantile
from balance.stats.intervals import UPPER
from reports.gemrush import analysis, findings, page, players
from reports.gemrush.report import REPORT
from reports.outcomes.findings import lever_verdicts
from reports.page import merge
from reports.page.page import players_of, where_of
from reports.render.section import in_order
from reports.tables.variants import baselines_by_setting, player_and_lever
from tests.report_data import games_frame

Z = normal_quantile(UPPER)  # the band's intervals: the normal, at the project's confidence

DIFFS = {"Apprentice": 33, "Journeyman": 40}


def _scores(lead: int, games: int, shift: int = 0) -> list[int]:
    """Team scores `lead` to `lead + 6`, evenly: a mean of `lead + 3`, variance about 4."""
    return [lead + (i + shift) % 7 for i in range(games)]


def _data(parts: list[dict], runs: bool = True):
    """Games and manifest of the settings in `parts`, each a dict of: run, heuristic, knobs,
    players, scores, rules, seeds (by default every game's seed is 0, so none pair by seed).
    With `runs`, each variant names its run (a report of several)."""
    rows, variants = [], []
    for k, p in enumerate(parts):
        seeds = p.get("seeds", [0] * len(p["scores"]))
        for i, s in enumerate(p["scores"]):
            rows.append({"variant": k, "game": i, "heuristic": p["heuristic"],
                         "players": p.get("players", 3), "score_by_turn": [s - 5, s],
                         "seed": seeds[i]})
        v = {"variant": k, "edition": "2e", "content": "gemrush-2e", "mode": "crisis",
             "exhaust": True, "heuristic": p["heuristic"], "players": p.get("players", 3),
             "rules": p.get("rules", {}), "difficulties": DIFFS}
        if p.get("knobs"):
            v["knobs"] = p["knobs"]
        if runs:
            v.update(run=p["run"], from_run=p["run"], run_variant=k)
        variants.append(v)
    names = sorted({p.get("run") for p in parts if p.get("run")})
    manifest = {"variants": variants,
                "runs": [{"name": n, "source_hash": "abc"} for n in names] if runs else []}
    return games_frame(rows), manifest


def _analysed(parts: list[dict], runs: bool = True) -> analysis.Analysis:
    games, manifest = _data(parts, runs)
    return analysis.analyse(games, None, manifest)


def _verdict(a: analysis.Analysis, pairs: pl.DataFrame | None = None):
    band = a.band()
    if pairs is not None:
        band = players.Band(band.roster, band.lineup, band.curve, band.scores, pairs)
    out = findings.crisis_verdicts(a.difficulty, in_order(a.kinds, a.difficulty),
                                   players_of(a, REPORT), where_of(a), band)
    assert len(out) == 1
    return out[0]


# -- the band spans the runs that played the same game ------------------------------------------

def test_a_band_spans_runs_that_played_alike_and_names_each_player_with_its_knobs():
    a = _analysed([
        {"run": "cd", "heuristic": "greedy", "players": 2, "scores": _scores(30, 406)},
        {"run": "cd", "heuristic": "greedy", "scores": _scores(30, 406)},
        {"run": "pl", "heuristic": "greedy", "scores": _scores(30, 42)},
        {"run": "pl", "heuristic": "reference", "knobs": {"budget": 64},
         "scores": _scores(34, 42)},
        {"run": "pl", "heuristic": "clairvoyant", "knobs": {"budget": 8},
         "scores": _scores(38, 42)},
    ])
    assert set(a.roster["base_setting"].to_list()) == {"2nd edition"}  # one band across both runs
    assert sorted(set(a.roster["player"].to_list())) == [
        "Clairvoyant bound (budget 8)", "Greedy", "Reference (budget 64)"]
    at3 = a.lineup.filter(pl.col("players") == 3)
    # greedy played 3 players in both runs: the run with the most games speaks for it
    assert dict(at3.select("player", "games").rows()) == {
        "Greedy": 406, "Reference (budget 64)": 42, "Clairvoyant bound (budget 8)": 42}
    assert at3.filter(pl.col("player") == "Greedy")["setting"].item() == "2nd edition, Greedy (cd)"
    # the 2-player games had greedy alone: no band there
    assert a.player_curves["players"].unique().to_list() == [3]


def test_runs_that_did_not_play_alike_are_bands_apart():
    a = _analysed([
        {"run": "cd", "heuristic": "greedy", "scores": _scores(30, 100)},
        {"run": "pl", "heuristic": "reference", "scores": _scores(34, 42)},
        {"run": "odd", "heuristic": "learned", "scores": _scores(34, 42),
         "rules": {"hand_limit": 5}},
    ])
    bands = dict(a.roster.select("setting", "base_setting").rows())
    assert bands["2nd edition, Greedy"] == bands["2nd edition, Reference"] \
        == "2nd edition (cd, pl)"
    assert bands["2nd edition, Learned"] == "2nd edition (odd)"


def test_the_tables_columns_match_what_merge_requires_less_the_player():
    alike = (*REPORT.played_alike, *merge.PLAYED_ALIKE)
    assert set(players.ALIKE) == set(alike) - {"heuristic", "seats", "knobs"}
    assert players.CODE == merge.CODE


# -- the Crisis verdict: its player and the band ------------------------------------------------

def test_the_crisis_verdict_shows_the_band_at_its_difficulty_across_runs():
    v = _verdict(_analysed([
        {"run": "cd", "heuristic": "greedy", "players": 2, "scores": _scores(30, 406)},
        {"run": "cd", "heuristic": "greedy", "scores": _scores(30, 406)},
        {"run": "pl", "heuristic": "reference", "knobs": {"budget": 64},
         "scores": _scores(32, 42)},
        {"run": "pl", "heuristic": "clairvoyant", "knobs": {"budget": 8},
         "scores": _scores(40, 42)},
    ]))
    # Apprentice (33): greedy (30-36) wins 4 games in 7, the reference (32-38) 6 in 7
    assert "won 57% of the time by Greedy (406 games a player count) with 2 to 3 players" \
        in v.sentence
    assert ("Across players with 3 players, Apprentice is won in 57% of 406 games by Greedy "
            "and 86% of 42 by Reference (budget 64) (29 percentage points apart), and in 100% "
            "of 42 by the Clairvoyant bound (budget 8), which sees the deck. At 2 players only "
            "Greedy played.") in v.sentence
    # The bound scores more still, but it is no player: only the reference is named.
    assert ("It comes from Greedy, the only player that played all 406 games a player count; "
            "Reference (budget 64) scores 2.0 points more but played 42 games.") in v.sentence
    assert v.who.endswith("cd run")
    assert any(d.startswith("3-player, Reference (budget 64): 86% (72–93%) of 42 games "
                            "(pl run)") for d in v.details)


def test_a_verdict_measured_with_one_player_says_so():
    v = _verdict(_analysed([{"heuristic": "greedy", "scores": _scores(30, 100)}], runs=False))
    assert "by Greedy" in v.sentence
    assert v.sentence.endswith("Measured with Greedy only: no other player played this "
                               "setting, so it is not checked across players.")
    assert "It comes from Greedy, the only player that played all 100 games." in v.sentence


# -- the headline's player ----------------------------------------------------------------------

def test_the_headline_comes_from_a_full_count_player_that_is_clearly_stronger():
    a = _analysed([
        {"run": "cd", "heuristic": "greedy", "scores": _scores(30, 301)},
        {"run": "cd", "heuristic": "learned", "scores": _scores(31, 301)},
        {"run": "pl", "heuristic": "reference", "knobs": {"budget": 64},
         "scores": _scores(33, 42)},
    ])
    choice = players.headline(a.band(), "2nd edition, Greedy")
    assert (choice.setting, choice.player, choice.default) == (
        "2nd edition, Learned", "Learned", "Greedy")
    assert choice.full == {3: 301}
    assert abs(choice.lead.difference - 1.0) < 1e-9 and choice.lead.clear
    assert choice.lead.how == "Welch"
    v = _verdict(a)
    assert v.sentence.startswith("Apprentice (33 points) is the difficulty closest to an even "
                                 "game, won 71% of the time by Learned")
    assert ("It comes from Learned, the strongest player that played all 301 games: +1.0 "
            "points a game against Greedy; Reference (budget 64) scores 2.0 points more but "
            "played 42 games.") in v.sentence
    assert "Learned" in v.who and "cd run" in v.who


def test_over_several_player_counts_each_other_player_is_given_as_its_gap():
    v = _verdict(_analysed([
        {"heuristic": "greedy", "players": 2, "scores": _scores(30, 301)},
        {"heuristic": "greedy", "players": 3, "scores": _scores(30, 301)},
        {"heuristic": "learned", "players": 2, "scores": _scores(31, 301)},
        {"heuristic": "learned", "players": 3, "scores": _scores(32, 301)},
        {"heuristic": "reference", "players": 3, "scores": _scores(33, 42)},
    ], runs=False))
    # learned wins Apprentice (33) in 5 of 7 games at 2 players, 6 of 7 at 3; greedy in 4
    assert "won 71% to 86% of the time by Learned (301 games a player count)" in v.sentence
    assert ("It comes from Learned, the strongest player that played all 301 games a player "
            "count: +1.5 points a game against Greedy; Reference scores 1.0 points more but "
            "played 42 games.") in v.sentence
    assert v.sentence.endswith(
        "Across players: Greedy wins it −29 to −14 percentage points against Learned with 2 "
        "and 3 players (301 games each); Reference wins it 100% of 42 games with 3 players, "
        "against 86% for Learned.")


def test_a_full_count_player_not_clearly_stronger_leaves_the_default():
    a = _analysed([
        {"heuristic": "greedy", "scores": _scores(30, 301)},
        # a mean 0.02 points higher: nowhere near clear
        {"heuristic": "learned", "scores": _scores(30, 301, shift=1)},
    ], runs=False)
    choice = players.headline(a.band(), "2nd edition, Greedy")
    assert choice.setting == "2nd edition, Greedy" and choice.lead is None
    [(who, s)] = choice.rivals
    assert who == "Learned" and s.low < 0 < s.high and not s.clear
    v = _verdict(a)
    assert "It comes from Greedy: Learned also played all 301 games but is not clearly " \
           "stronger (0.0 points a game)." in v.sentence


def test_the_clairvoyant_bound_is_never_the_headline():
    a = _analysed([
        {"heuristic": "greedy", "scores": _scores(30, 100)},
        {"heuristic": "clairvoyant", "scores": _scores(40, 100)},
    ], runs=False)
    choice = players.headline(a.band(), "2nd edition, Greedy")
    assert choice.setting == "2nd edition, Greedy" and choice.rivals == ()
    # it is drawn in the band, and named as what it is
    assert "Clairvoyant bound" in _verdict(a).sentence


def test_a_stronger_player_with_fewer_games_than_the_headline_is_not_chosen():
    a = _analysed([
        {"heuristic": "greedy", "scores": _scores(30, 200)},
        {"heuristic": "reference", "scores": _scores(35, 199)},
    ], runs=False)
    choice = players.headline(a.band(), "2nd edition, Greedy")
    assert choice.setting == "2nd edition, Greedy"
    assert [(p, n) for p, n, _ in choice.fewer] == [("Reference", 199)]


def test_a_paired_comparison_is_used_where_one_run_played_both():
    a = _analysed([
        {"heuristic": "greedy", "scores": _scores(30, 301)},
        {"heuristic": "learned", "scores": _scores(30, 301, shift=1)},
    ], runs=False)
    # Paired on the same games, learned's small lead is clear where Welch's is not.
    pairs = pl.DataFrame([("2nd edition, Learned", "2nd edition, Greedy", 3, 301, 0.3, 0.1, 0.5)],
                         schema=players.PAIRS, orient="row")
    band = a.band()
    welch = band.strength({3: "2nd edition, Greedy"}, {3: "2nd edition, Learned"})
    assert welch.how == "Welch" and not welch.clear
    band = players.Band(band.roster, band.lineup, band.curve, band.scores, pairs)
    s = band.strength({3: "2nd edition, Greedy"}, {3: "2nd edition, Learned"})
    assert s.how == "paired" and abs(s.difference - 0.3) < 1e-12 and s.clear
    back = band.strength({3: "2nd edition, Learned"}, {3: "2nd edition, Greedy"})
    assert abs(back.difference + 0.3) < 1e-12 and back.high < 0
    assert players.headline(band, "2nd edition, Greedy").setting == "2nd edition, Learned"


def _learned_by_seed(greedy: list[int], seeds: list[int]) -> list[int]:
    """learned's score on each of greedy's deals: one point more on every tenth."""
    return [g + (i % 10 == 0) for i, g in enumerate(greedy[:len(seeds)])]


def test_two_runs_that_dealt_the_same_seeds_are_paired_game_by_game():
    greedy, seeds = _scores(30, 301), [1000 + 7 * i for i in range(301)]
    learned = _learned_by_seed(greedy, seeds)
    a = _analysed([
        {"run": "cd", "heuristic": "greedy", "scores": greedy, "seeds": seeds},
        {"run": "cl", "heuristic": "learned", "scores": learned, "seeds": seeds},
    ])
    band = a.band()  # no comparison pairs them: they are two runs
    assert band.pairs.height == 0
    s = band.strength({3: "2nd edition, Greedy"}, {3: "2nd edition, Learned"})
    d = pl.Series(learned) - pl.Series(greedy)
    assert s.how == "paired" and abs(s.difference - d.mean()) < 1e-12
    assert abs((s.high - s.low) / 2 - Z * d.std() / 301 ** 0.5) < 1e-12
    # +0.1 a game: clear once paired, where the means alone (Welch) could not tell
    assert s.clear
    welch = band._welch(3, "2nd edition, Greedy", "2nd edition, Learned")
    assert Z * welch[1] > s.difference
    choice = players.headline(band, "2nd edition, Greedy")
    assert choice.player == "Learned" and choice.lead.how == "paired"
    # an interval this narrow is printed to the hundredth: +0.1 would hide it
    assert s.decimals == 2 and s.said().startswith(
        "+0.10 points (paired 95% interval +0.07 to +0.14, at 3 players)")
    assert ": +0.10 points a game against Greedy." in _verdict(a).sentence


def test_a_run_of_fewer_games_on_the_same_seeds_pairs_over_its_games():
    greedy, seeds = _scores(30, 301), list(range(500, 801))
    band = _analysed([
        {"run": "cd", "heuristic": "greedy", "scores": greedy, "seeds": seeds},
        {"run": "pl", "heuristic": "reference", "scores": [g + 3 for g in greedy[:42]],
         "seeds": seeds[:42]},
    ]).band()
    s = band.strength({3: "2nd edition, Greedy"}, {3: "2nd edition, Reference"})
    assert s.how == "paired" and s.difference == 3.0 and s.low == s.high == 3.0


def test_seeds_that_do_not_cover_the_smaller_run_or_repeat_leave_welch():
    greedy, seeds = _scores(30, 301), list(range(301))
    shifted = [x + 1 for x in seeds]  # one of learned's seeds is not greedy's
    twice = seeds[:150] + seeds[:151]  # a seed played twice (two merged runs)
    for other in (shifted, twice):
        band = _analysed([
            {"run": "cd", "heuristic": "greedy", "scores": greedy, "seeds": seeds},
            {"run": "cl", "heuristic": "learned", "scores": _learned_by_seed(greedy, other),
             "seeds": other},
        ]).band()
        s = band.strength({3: "2nd edition, Greedy"}, {3: "2nd edition, Learned"})
        assert s.how == "Welch"


def test_past_the_seeded_limit_the_tally_keeps_no_games_and_the_band_compares_means(
        monkeypatch):
    from reports.gemrush import tally

    greedy, seeds = _scores(30, 301), list(range(301))
    parts = [{"run": "cd", "heuristic": "greedy", "scores": greedy, "seeds": seeds},
             {"run": "cl", "heuristic": "learned", "scores": _learned_by_seed(greedy, seeds),
              "seeds": seeds}]
    assert _analysed(parts).seeded.height == 602
    monkeypatch.setattr(tally, "SEEDED_MAX", 601)
    a = _analysed(parts)
    assert a.seeded.height == 0
    assert a.band().strength({3: "2nd edition, Greedy"},
                             {3: "2nd edition, Learned"}).how == "Welch"
    games, manifest = _data(parts)
    assert tally.count(games.drop("seed"), manifest).seeded is None


def test_the_comparisons_pairs_are_read_by_setting_and_player_count():
    games, manifest = _data([
        {"heuristic": "greedy", "scores": _scores(30, 14)},
        {"heuristic": "learned", "scores": _scores(31, 14)},
    ], runs=False)
    a = analysis.analyse(games, None, dict(manifest, experiment="pl"))
    cmp = _lever_run([("heuristic=learned", "heuristic=greedy", 1.0, 0.4, 1.6)])
    # the comparison's variants as the manifest names them
    manifest["variants"][0]["label"], manifest["variants"][1]["label"] = \
        "heuristic=greedy", "heuristic=learned"
    pairs = players.paired_scores([("pl", cmp)], a.kinds, manifest)
    assert pairs.rows() == [("2nd edition, Learned", "2nd edition, Greedy", 3, 400, 1.0, 0.4, 1.6)]


def test_welch_averages_the_player_counts_each_with_its_own_variance():
    a = _analysed([
        {"heuristic": "greedy", "players": 2, "scores": _scores(30, 100)},
        {"heuristic": "greedy", "players": 3, "scores": _scores(30, 100)},
        {"heuristic": "learned", "players": 2, "scores": _scores(32, 100)},
        {"heuristic": "learned", "players": 3, "scores": _scores(30, 100)},
    ], runs=False)
    band = a.band()
    s = band.strength(band.settings_of("2nd edition", "Greedy"),
                      band.settings_of("2nd edition", "Learned"))
    assert s.counts == (2, 3) and s.how == "Welch"
    assert s.said().endswith("the mean over 2 to 3 players)")
    assert abs(s.difference - 1.0) < 1e-12  # (+2 at 2 players, 0 at 3) / 2
    var = pl.Series(_scores(30, 100)).var()
    half = Z * (4 * var / 100) ** 0.5 / 2  # sqrt(2 x (var/n + var/n)) / 2 counts
    assert abs((s.high - s.low) / 2 - half) < 1e-9


# -- Verdicts by player: the band in the table --------------------------------------------------

def test_the_band_table_gives_each_players_target_and_the_band_without_the_bound():
    a = _analysed([
        {"run": "cd", "heuristic": "greedy", "scores": _scores(30, 406)},
        {"run": "pl", "heuristic": "reference", "knobs": {"budget": 64},
         "scores": _scores(33, 42)},
        {"run": "pl", "heuristic": "clairvoyant", "knobs": {"budget": 8},
         "scores": _scores(40, 42)},
    ])
    t = page.band_table(a.player_targets.filter(pl.col("base_setting") == "2nd edition"),
                        {"2nd edition, Greedy": "cd run",
                         "2nd edition, Reference": "pl run"})
    assert t.headers == ["Players", "Wins wanted", "Greedy", "Reference (budget 64)",
                         "Clairvoyant bound (budget 8)", "Band", "Moves by (points)"]
    half = next(r for r in t.rows if r[1] == "50%")
    assert half == ["3", "50%", "33", "36", "43", "33–36", "3"]
    assert "Greedy, 406 games (cd run), Reference (budget 64), 42 games (pl run)" in t.note
    assert "The band leaves the bound out" in t.note
    [v] = findings.player_verdicts(a.player_targets, {}, {})
    assert v.sentence == (
        "The player moves the verdict: the target won 90% of the time with 3 players is Greedy "
        "31, Reference (budget 64) 34 (31 to 34, 3 points apart, on 42 games or more each); "
        "the Clairvoyant bound (budget 8), which sees the deck, 41.")


# -- a lever's effect, per player ---------------------------------------------------------------

def _swept(label: str) -> dict:
    """The swept keys of a label written "heuristic=greedy, hand_limit=6"."""
    parts = dict(p.split("=", 1) for p in label.split(", "))
    return {k: int(x) if x.isdigit() else x for k, x in parts.items()}


def _lever_run(rows: list[tuple[str, str, float, float, float]]):
    """A comparison whose every row is (label, its baseline's label, difference, low, high),
    each variant's player and lever in Gem Rush's words, from what it sweeps, as
    reports/compare/compare.py records them."""
    labels = list(dict.fromkeys([b for _, b, *_ in rows] + [lb for lb, *_ in rows]))
    number = {lb: i for i, lb in enumerate(labels)}
    d = pl.DataFrame([{
        "variant": number[lb], "against": number[b], "label": lb, "quantity": "score:mean",
        "name": "mean team score", "kind": "mean", "pairs": 400, "difference": x,
        "ci_low": lo, "ci_high": hi, "holm": lo > 0 or hi < 0, "found": lo > 0 or hi < 0}
        for lb, b, x, lo, hi in rows])
    manifest = {"variants": [{"variant": i, "swept": _swept(lb)} for i, lb in enumerate(labels)]}
    split = player_and_lever(manifest, GAME)
    variants = pl.DataFrame({"variant": list(range(len(labels))), "label": labels,
                             "player": [split[i][0] for i in range(len(labels))],
                             "lever": [split[i][1] for i in range(len(labels))]},
                            schema={"variant": pl.Int64, "label": pl.Utf8, "player": pl.Utf8,
                                    "lever": pl.Utf8})
    return SimpleNamespace(differences=d, variants=variants, baseline=0, family=len(rows),
                           label=lambda v: variants["label"][v],
                           swept={v["variant"]: v["swept"] for v in manifest["variants"]})


def test_a_lever_swept_with_the_player_gives_each_players_effect():
    cmp = _lever_run([
        ("heuristic=greedy, hand_limit=6", "heuristic=greedy, hand_limit=5", 1.0, 0.5, 1.5),
        ("heuristic=reference, hand_limit=6", "heuristic=reference, hand_limit=5", 2.1, 1.2,
         3.0),
    ])
    [v] = lever_verdicts([("hands", cmp)], {"hands": ["Greedy", "reference"]})
    # Read from what each variant sweeps, in the game's words: no label is split.
    assert v.sentence == ("hand limit 6 raises the mean team score by 2.1 points against "
                          "hand limit 5, with Reference; by player: Greedy +1.0, Reference "
                          "+2.1 (1.1 points apart).")
    assert v.topic == "Versions compared"
    assert len(v.details) == 3 and v.details[0].startswith(
        "heuristic=greedy, hand_limit=6 against heuristic=greedy, hand_limit=5")


def test_a_run_that_compares_players_is_not_split_by_player():
    cmp = _lever_run([("heuristic=reference", "heuristic=greedy", 2.7, 1.9, 3.5)])
    [v] = lever_verdicts([("players", cmp)], {"players": ["Greedy", "reference"]})
    assert v.sentence == ("heuristic=reference raises the mean team score by 2.7 points "
                          "against heuristic=greedy.")
    assert v.topic == "Players compared"


def test_beside_a_lever_the_player_is_a_setting_of_the_comparison():
    m = {"variants": [{"variant": i, "swept": s} for i, s in enumerate([
        {"heuristic": "greedy", "hand_limit": 5}, {"heuristic": "greedy", "hand_limit": 6},
        {"heuristic": "reference", "hand_limit": 5},
        {"heuristic": "reference", "hand_limit": 6}])]}
    assert baselines_by_setting(m, 0) == {0: 0, 1: 0, 2: 2, 3: 2}
    # swept alone, the player is the lever: every player against the baseline's
    alone = {"variants": [{"variant": i, "swept": {"heuristic": h}}
                          for i, h in enumerate(["Greedy", "Learned", "reference"])]}
    assert baselines_by_setting(alone, 0) == {0: 0, 1: 0, 2: 0}


def test_the_bound_is_never_a_lever_verdict():
    cmp = _lever_run([("heuristic=clairvoyant", "heuristic=greedy", 11.1, 10.0, 12.2),
                      ("heuristic=reference", "heuristic=greedy", 2.7, 1.9, 3.5)])
    who = {"players": ["clairvoyant", "Greedy", "reference"]}
    [v] = lever_verdicts([("players", cmp)], who, leave_out=("heuristic=clairvoyant",))
    assert v.sentence == ("heuristic=reference raises the mean team score by 2.7 points "
                          "against heuristic=greedy.")
    [v] = lever_verdicts([("players", cmp)], who)  # without leave_out, the bound leads
    assert v.sentence.startswith("heuristic=clairvoyant raises")
    only = _lever_run([("heuristic=clairvoyant", "heuristic=greedy", 11.1, 10.0, 12.2)])
    assert lever_verdicts([("players", only)], who, leave_out=("heuristic=clairvoyant",)) == []
    # the Gem Rush report leaves the bound out
    difficulty = pl.DataFrame(schema={"difficulty": pl.Utf8, "win_rate": pl.Float64})
    seats = pl.DataFrame(schema={"players": pl.Int64, "setting": pl.Utf8})
    [v] = findings.verdicts(difficulty, seats, pl.DataFrame(), [("players", cmp)], [], who)
    assert v.sentence.startswith("heuristic=reference raises")


def test_the_targets_to_print_start_with_the_headline_player_s_rows():
    parts = [{"run": "cd", "heuristic": "greedy", "scores": _scores(30, 301)},
             {"run": "cd", "heuristic": "learned", "scores": _scores(31, 301)}]
    a = _analysed(parts)
    [block] = REPORT.summary_blocks(a, players_of(a, REPORT))
    first = block.tables[0].rows[0][0]
    assert first.startswith("2nd edition, Learned"), first  # learned is clearly stronger
    parts[1]["scores"] = _scores(30, 301, shift=1)  # the same scores: greedy stays first
    a = _analysed(parts)
    [block] = REPORT.summary_blocks(a, players_of(a, REPORT))
    assert block.tables[0].rows[0][0].startswith("2nd edition, Greedy")
