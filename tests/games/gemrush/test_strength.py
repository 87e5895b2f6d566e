"""`balance strength`: the players on the same seeds, in one table."""

from __future__ import annotations

from pathlib import Path

import numpy as np

KNOBS = (Path(__file__).resolve().parents[3] / "heuristics" / "gemrush"
         / "greedy-hand-set.knobs.toml")


def test_strength_table_pairs_every_player_with_greedy(cli):
    r = cli("strength", "--players", "2", "--games", "60", "--reference-games", "2",
            "--budgets", "4", "--knobs", KNOBS)
    assert r.exit_code == 0, r.output
    rows = [x for x in r.stdout.splitlines() if x.startswith("| ") and "---" not in x][1:]
    assert [x.split(" | ")[0] for x in rows] == ["| random", "| greedy (given knobs)",
                                                 "| greedy", "| learned", "| reference 4"]
    greedy = next(x for x in rows if x.startswith("| greedy |"))
    assert " — " in greedy  # the row the others are paired with
    random = rows[0].split(" | ")
    assert random[1] == "60" and random[4].startswith("-")  # random scores less than greedy


def test_share_is_greedy_s_mean_over_the_stronger_player_s_with_a_paired_interval():
    from balance.games.gemrush.strength import share

    ref = np.array([40.0, 30.0, 50.0, 44.0, 36.0, 42.0])
    ratio, lo, hi = share(0.9 * ref, ref)  # the same share in every game: no spread
    assert abs(ratio - 0.9) < 1e-12 and abs(lo - 0.9) < 1e-12 and abs(hi - 0.9) < 1e-12
    ratio, lo, hi = share(0.9 * ref[:5], ref[:5])  # five games: too few for an interval
    assert abs(ratio - 0.9) < 1e-12 and np.isnan(lo) and np.isnan(hi)
    rng = np.random.default_rng(5)
    ref = rng.normal(40, 6, 400)
    greedy = ref - 4 + rng.normal(0, 1, 400)  # 90% of a 40-point player, paired
    ratio, lo, hi = share(greedy, ref)
    assert lo < ratio < hi and lo < 0.9 < hi and hi - lo < 0.02
    # Paired: resampling games keeps each game's two scores together, so the interval is
    # far narrower than if the two players' games were drawn apart.
    unpaired = rng.permutation(ref)
    _, lo2, hi2 = share(greedy, unpaired)
    assert hi - lo < (hi2 - lo2) / 3
    assert share(greedy, ref) == (ratio, lo, hi)  # the same games print the same


def test_share_column_shows_only_for_players_that_outscore_greedy():
    from balance.games.gemrush.strength import Strength, table

    t = {"Apprentice": 35}
    rows = [Strength("random", np.zeros(6), 1.0, t),
            Strength("greedy", np.array([30.0, 32, 34, 36, 31, 33]), 1.0, t),
            Strength("reference 64", np.array([36.0, 38, 37, 35, 39, 40]), 1.0, t),
            Strength("reference 256", np.array([36.0, 38]), 1.0, t)]
    lines = table(rows, "greedy").splitlines()
    assert "greedy's share of it" in lines[0]
    cells = {x.split(" | ")[0]: x.split(" | ") for x in lines[2:]}
    assert cells["| random"][5] == "—" and cells["| greedy"][5] == "—"
    assert cells["| reference 64"][5].startswith("87.1% (")  # 32.67 / 37.5
    # Two games: no interval, difference or share (balance.stats.paired.MIN_PAIRS).
    assert cells["| reference 256"][2] == "37.0 (too few games)"
    assert cells["| reference 256"][4] == cells["| reference 256"][5] == \
        "too few games to compare"


def test_bad_budgets_are_refused(cli):
    r = cli("strength", "--budgets", "1,99999")
    assert r.exit_code == 2 and "--budgets" in r.output


def test_search_names_the_decisions_the_reference_searches(cli):
    r = cli("strength", "--players", "1", "--games", "20", "--reference-games", "2",
            "--budgets", "4", "--search", "rotations, steps")
    assert r.exit_code == 0, r.output
    assert "| reference 4 (rotations, steps) | 2 |" in r.stdout


def test_bad_search_and_set_are_refused(cli):
    r = cli("strength", "--search", "steps,walking")
    assert r.exit_code == 2 and "--search" in r.output and "'walking'" in r.output
    assert "Traceback" not in r.output
    r = cli("strength", "--search", ",")
    assert r.exit_code == 2 and "--search" in r.output
    r = cli("strength", "--set", "hand_limit=lots")
    assert r.exit_code == 2 and "hand_limit" in r.output


def test_set_reaches_the_command_s_games(cli):
    def greedy_mean(*extra):
        r = cli("strength", "--players", "1", "--games", "40", "--reference-games", "2",
                "--budgets", "2", *extra)
        assert r.exit_code == 0, r.output
        row = next(x for x in r.stdout.splitlines() if x.startswith("| greedy |"))
        return float(row.split(" | ")[2].split(" ")[0])

    assert greedy_mean("--set", "hand_limit=1") < greedy_mean() - 3


def test_strength_plays_the_rules_and_content_it_is_given():
    """--set and --content reach the games: a hand limit of 1 costs greedy points, and the
    1st-edition box plays under its own edition."""
    from balance.games.gemrush.strength import play

    base = play("greedy", "2e", 2, "greedy", 60, 7000)
    tight = play("greedy", "2e", 2, "greedy", 60, 7000, rules={"hand_limit": 1})
    assert tight.scores.mean() < base.scores.mean() - 3
    first = play("greedy", None, 3, "greedy", 30, 7000, content="gemrush-1e")
    assert set(first.targets) != set(base.targets)  # the 1st edition names its own levels


def test_chunks_do_not_change_the_games():
    """The games are played in chunks (for the progress bar): the same seeds give the same
    scores as one call."""
    import numpy as np

    from balance.games.gemrush.engine.game_nb import R_TEAM_SCORE
    from balance.games.gemrush.play import play_batch, prepare
    from balance.games.gemrush.strength import play

    ticks = []
    s = play("greedy", "2e", 3, "greedy", 1_100, 7000, progress=ticks.append)
    assert ticks == [500, 500, 100]
    one = play_batch(prepare("2e", "crisis", 3, "greedy", exhaust=True, rules={}),
                     np.arange(7000, 8100)).out[:, R_TEAM_SCORE]
    assert (s.scores == one).all()


def test_the_searched_knob_limits_the_search(monkeypatch):
    """The reference searches only the decision kinds its `searched` knob names; greedy takes
    the rest. A seat of another player searches nothing."""
    from balance.games.gemrush.engine.decisions import D_PAYMENT, D_ROTATION, D_STEP
    from balance.games.gemrush.engine.forward import FORWARD
    from balance.games.gemrush.play import play_batch, prepare
    from heuristics.search import Search, searched_mask, searched_names

    kinds = FORWARD.searchable
    assert searched_names(kinds, searched_mask(kinds, ["rotations", "steps"])) == \
        ["steps", "rotations"]
    searched = []
    choose = Search.choose

    def spy(self, kind, n, p):
        before = self.rollouts
        k = choose(self, kind, n, p)
        if self.rollouts > before:
            searched.append((p, kind))
        return k

    monkeypatch.setattr(Search, "choose", spy)
    knobs = {"budget": 4, "searched": searched_mask(kinds, ["rotations"])}
    play_batch(prepare("2e", "crisis", 2, "reference", exhaust=True, knobs=knobs), [3])
    assert searched and {k for _p, k in searched} == {D_ROTATION}
    searched.clear()
    play_batch(prepare("2e", "crisis", 2, "greedy", exhaust=True, rules={}, knobs={"budget": 4},
                       seats=["greedy", "reference"]), [3])
    kinds = {k for _p, k in searched}
    assert {p for p, _k in searched} == {1} and {D_STEP, D_PAYMENT, D_ROTATION} <= kinds


def test_the_turn_knobs_limit_the_search(monkeypatch):
    """The reference searches only from `first_turn` to `last_turn` (counted from 1); the
    turns outside are greedy's, and a reference searching no turn plays greedy's game."""
    from balance.games.gemrush.engine.game_nb import R_TEAM_SCORE
    from balance.games.gemrush.engine.state import S_TURN
    from balance.games.gemrush.play import play_batch, prepare
    from heuristics.search import Search

    turns = set()
    choose = Search.choose

    def spy(self, kind, n, p):
        before = self.rollouts
        k = choose(self, kind, n, p)
        if self.rollouts > before:
            turns.add(int(self.st.sc[S_TURN]) + 1)
        return k

    monkeypatch.setattr(Search, "choose", spy)
    knobs = {"budget": 4, "first_turn": 20, "last_turn": 22}
    play_batch(prepare("2e", "crisis", 2, "reference", exhaust=True, rules={}, knobs=knobs), [3])
    assert turns and turns <= {20, 21, 22}
    turns.clear()
    late = {"budget": 4, "first_turn": 99, "last_turn": 99}  # past the 25th turn
    ref = play_batch(prepare("2e", "crisis", 2, "reference", exhaust=True, rules={}, knobs=late),
                     [3, 4]).out[:, R_TEAM_SCORE]
    greedy = play_batch(prepare("2e", "crisis", 2, "greedy", exhaust=True, rules={}), [3, 4])
    assert not turns and (ref == greedy.out[:, R_TEAM_SCORE]).all()


def test_turns_label_the_row_and_bad_turns_are_refused(cli):
    r = cli("strength", "--players", "1", "--games", "20", "--reference-games", "2",
            "--budgets", "4", "--search", "steps", "--turns", "20-25")
    assert r.exit_code == 0, r.output
    assert "| reference 4 (steps; turns 20–25) | 2 |" in r.stdout
    for bad in ("25-20", "0-3", "late", "3-"):
        r = cli("strength", "--turns", bad)
        assert r.exit_code == 2 and "--turns" in r.output and repr(bad) in r.output, bad
        assert "Traceback" not in r.output


def test_clairvoyant_rows_and_the_cost_of_hidden_information(cli):
    r = cli("strength", "--players", "2", "--games", "20", "--reference-games", "6",
            "--budgets", "4", "--clairvoyant", "4")
    assert r.exit_code == 0, r.output
    rows = [x.split(" | ")[0] for x in r.stdout.splitlines() if x.startswith("| ")][1:]
    assert rows == ["| random", "| greedy", "| learned", "| reference 4", "| clairvoyant 4"]
    cost = r.stdout.split("What the hidden information costs")[1]
    assert "budget 4: the clairvoyant bound scores" in cost and "paired on 6 games" in cost


def test_bad_clairvoyant_budgets_are_refused(cli):
    r = cli("strength", "--clairvoyant", "64,x")
    assert r.exit_code == 2 and "--clairvoyant" in r.output and "Traceback" not in r.output


def test_the_clairvoyant_s_rollouts_play_the_true_world(monkeypatch):
    """The reference's rollouts of one option differ (each resamples the deck and the room
    tiles); the clairvoyant's play the true ones, and greedy plays them alike: every rollout
    of an option ends the same."""
    from balance.games.gemrush.play import play_batch, prepare
    from heuristics.search import Search

    spreads: dict[str, list[float]] = {"reference": [], "clairvoyant": []}
    init = Search.__init__

    def spy(self, *args, clairvoyant=False, **kw):
        init(self, *args, clairvoyant=clairvoyant, **kw)
        kernel = self._search_nb
        who = "clairvoyant" if clairvoyant else "reference"

        def search_nb(ws, tb, ru, rng, m, opts, per, p, seeds, vals, resample):
            kernel(ws, tb, ru, rng, m, opts, per, p, seeds, vals, resample)
            spreads[who].extend(np.ptp(vals, axis=1).tolist())

        self._search_nb = search_nb

    monkeypatch.setattr(Search, "__init__", spy)
    for who in spreads:
        play_batch(prepare("2e", "crisis", 2, who, exhaust=True, knobs={"budget": 8}), [5])
    assert len(spreads["clairvoyant"]) > 10 and max(spreads["clairvoyant"]) == 0
    assert max(spreads["reference"]) > 0
