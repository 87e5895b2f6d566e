"""The learned player (heuristics/gemrush/learned.py, learned_nb.py) and its training
(balance/games/gemrush/train.py, `balance train-player`):

- with every learned weight 0 it is greedy, game for game, and so it is when only the weight
  of greedy's own choice is set (the step features read a copy of greedy's memory);
- its choice does not change when hidden information it cannot know is permuted;
- in Rush it reads no other hand;
- the labels are whole, the fit finds weights that a known model planted, and the command
  writes a knob file the players read, or refuses bad input with one message.
"""

from __future__ import annotations

import tomllib

import numpy as np
import pytest

from balance.errors import InputError
from balance.games.gemrush.capacity import MAX_OPTS
from balance.games.gemrush.engine.decisions import D_ROTATION, D_STEP
from balance.games.gemrush.engine.forward import copy_state_nb, determinize_nb
from balance.games.gemrush.engine.game_nb import R_TEAM_SCORE, play_game_nb
from balance.games.gemrush.engine.state import S_CARD_VER, S_TEAM_SCORE, new_state
from balance.games.gemrush.play import play_batch, prepare
from balance.games.gemrush.train import Fit, Labels, fit, knob_text, label
from balance.kernels.rng import seed_state
from heuristics.external import playing
from heuristics.gemrush.dispatch_nb import (
    POLICY_LEARNED,
    POLICY_PYTHON,
    copy_memories_nb,
    new_memories,
    pick_nb,
)
from heuristics.gemrush.learned import PREFIX, STEP_PREFIX, shipped_weights, weight_names
from heuristics.gemrush.learned_nb import (
    F_LATER,
    F_NEXT,
    F_NEXT_NEAR,
    F_NEXT_POINTS,
    FEATURES,
    N_FEATURES,
    STEP_FEATURES,
    rotation_features_nb,
)
from heuristics.seats import Seats

ZERO = {k: 0.0 for k in weight_names()}
# Weights that lean on what the team's hands can pay and on the worth of where a step ends:
# the features a cheat would feed.
TEAM = {**ZERO, PREFIX + "next": 2.0, PREFIX + "later": 1.5, PREFIX + "nobody": -1.0,
        PREFIX + "mine": 1.0, PREFIX + "greedy": 0.5, STEP_PREFIX + "dest_value": 1.0,
        STEP_PREFIX + "late_value": 1.0, STEP_PREFIX + "build_points": 0.3,
        STEP_PREFIX + "greedy": 0.5}


def test_with_every_weight_zero_it_is_greedy():
    seeds = np.arange(40)
    for mode, players in (("crisis", 4), ("rush", 3)):
        exhaust = mode == "crisis"
        g = play_batch(prepare("2e", mode, players, "greedy", exhaust=exhaust), seeds).out
        lz = play_batch(prepare("2e", mode, players, "learned", exhaust=exhaust, knobs=ZERO),
                        seeds).out
        assert (g == lz).all()
        lg = play_batch(prepare("2e", mode, players, "learned", exhaust=exhaust,
                                knobs={**ZERO, STEP_PREFIX + "greedy": 1.0}), seeds).out
        assert (g == lg).all()
    # ...and weights change its games.
    g = play_batch(prepare("2e", "crisis", 4, "greedy", exhaust=True), seeds).out
    lt = play_batch(prepare("2e", "crisis", 4, "learned", exhaust=True, knobs=TEAM), seeds).out
    assert (lt[:, R_TEAM_SCORE] != g[:, R_TEAM_SCORE]).any()


class _Watcher:
    """Plays the learned player's choices and, at each rotation, asks it again on a copy of
    the state whose hidden information (deck order, unseen burns, in Rush the other hands)
    was resampled."""

    def __init__(self, s, st):
        self.s, self.st = s, st
        tb, ru = s.tables, s.rules
        self.other = new_state(tb, ru)
        self.other_seats = Seats(pol=s.players.pol.copy(), w=s.players.w, rng=np.zeros(4, np.int64),
                                 mem=new_memories(tb, ru.players))
        self.same = self.changed = 0
        self.feats = np.zeros((MAX_OPTS, N_FEATURES))
        self.rush_team = 0.0
        self.kinds = set()

    def turn_start(self, p):
        pass

    def choose(self, kind, n, p):
        s = self.s
        if kind in (D_ROTATION, D_STEP) and n >= 2:
            o = self.other
            agains = []
            for k in range(3):
                copy_state_nb(o, self.st)
                o.opt[:] = self.st.opt
                determinize_nb(o, s.tables, s.rules, p, np.array([9, 8, k, n], np.int64))
                o.sc[S_CARD_VER] = self.st.sc[S_CARD_VER]
                copy_memories_nb(self.other_seats.mem, s.players.mem)
                agains.append(int(pick_nb(POLICY_LEARNED, kind, o, s.tables, s.rules,
                                          self.other_seats, n, p)))
            if kind == D_ROTATION and s.rules.mode == 1:
                rotation_features_nb(self.st, s.tables, s.rules, s.players.w[p], n, p,
                                     self.feats)
                self.rush_team += np.abs(self.feats[:n, [F_NEXT, F_NEXT_POINTS, F_LATER,
                                                         F_NEXT_NEAR]]).sum()
            mine = int(pick_nb(POLICY_LEARNED, kind, self.st, s.tables, s.rules, s.players,
                               n, p))
            self.same += sum(a == mine for a in agains)
            self.changed += sum(a != mine for a in agains)
            self.kinds.add(kind)
            return mine
        return int(pick_nb(POLICY_LEARNED, kind, self.st, s.tables, s.rules, s.players, n, p))


@pytest.mark.parametrize("mode, players", [("crisis", 4), ("crisis", 2), ("rush", 3)])
def test_its_choice_does_not_depend_on_hidden_information(mode, players):
    s = prepare("2e", mode, players, "learned", exhaust=mode == "crisis", knobs=TEAM)
    real = play_batch(s, [3, 4]).out[:, R_TEAM_SCORE]
    s.players.pol[:] = POLICY_PYTHON
    st = new_state(s.tables, s.rules)
    w = _Watcher(s, st)
    scores = []
    with playing(w):
        for seed in (3, 4):
            play_game_nb(st, s.tables, s.rules, s.players, seed_state(seed), 0, 1)
            scores.append(int(st.sc[S_TEAM_SCORE]))
    assert scores == list(real)  # the watcher played the learned player's games
    assert w.same > 20 and w.changed == 0 and w.kinds == {D_ROTATION, D_STEP}
    assert w.rush_team == 0  # in Rush no feature reads another hand


def test_labels_are_whole():
    s = prepare("2e", "crisis", 3, "greedy", exhaust=True)
    labels = label(s, [11, 12], rollouts=4)
    assert set(labels) == {"rotations", "steps"}
    for name, width in (("rotations", N_FEATURES), ("steps", len(STEP_FEATURES))):
        lab = labels[name]
        assert lab.games == 2 and lab.decisions > 10, name
        assert lab.x.shape == (len(lab.game), width)
        for d in range(lab.decisions):
            rows = lab.decision == d
            assert rows.sum() >= 2 and lab.chosen[rows].sum() == 1  # one pick of 2 or more
            assert len(set(lab.game[rows])) == 1
        assert set(lab.game) == {11, 12}
        assert np.isfinite(lab.y_fit).all() and np.isfinite(lab.y_check).all()


def test_the_fit_finds_planted_weights_and_checks_on_held_out_rollouts():
    rng = np.random.default_rng(0)
    n_dec, k = 3000, 3
    x = rng.normal(size=(n_dec * k, N_FEATURES))
    true = np.zeros(N_FEATURES)
    true[[0, 3, 6]] = [1.0, -2.0, 0.5]
    value = x @ true
    lab = Labels(game=np.repeat(np.arange(n_dec) // 10, k), decision=np.repeat(np.arange(n_dec), k),
                 x=x, y_fit=value + rng.normal(scale=0.5, size=len(x)),
                 y_check=value + rng.normal(scale=0.5, size=len(x)),
                 chosen=np.tile([True, False, False], n_dec), games=n_dec // 10)
    f = fit(lab, network=False)
    w = np.array([f.weights[name] for name, _doc in FEATURES])
    assert np.allclose(w, true, atol=0.05)
    ceiling, linear = f.checks
    # The planted model picks well; the first half's own best is noisier than the model.
    assert linear.per_decision > 1.0 and linear.low > 0
    assert linear.per_decision >= ceiling.per_decision - 0.05


def test_train_player_writes_a_knob_file_the_players_read(cli, tmp_path):
    out = tmp_path / "w.knobs.toml"
    r = cli("train-player", "--out", out, "--players", "2", "--games", "8", "--rollouts", "4",
            "--jobs", "1")
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert text.startswith("# The learned player's weights") and 'player = "learned"' in text
    assert all(f"{PREFIX}{name} = " in text for name, _doc in FEATURES)
    assert "linear (ridge)" in text and "rotations: 8 games" in text and "steps: 8 games" in text
    assert all(f"{STEP_PREFIX}{name} = " in text for name, _doc in STEP_FEATURES)
    r = cli("play", "--players", "2", "--heuristic", "learned", "--knobs", out)
    assert r.exit_code == 0, r.output
    r = cli("strength", "--players", "2", "--games", "12", "--reference-games", "2",
            "--budgets", "4", "--knobs", out)
    assert r.exit_code == 0, r.output
    assert "| learned (given knobs) |" in r.stdout and "| learned |" in r.stdout


@pytest.mark.parametrize("args, says", [
    (("--rollout", "bob"), "--rollout"),
    (("--set", "no_such_rule=1"), "no_such_rule"),
    (("--decisions", "rotations,payments"), "--decisions"),
])
def test_train_player_refuses_bad_input(cli, tmp_path, args, says):
    out = tmp_path / "w.toml"
    r = cli("train-player", "--out", out, "--games", "8", *args)
    assert r.exit_code == 2 and says in r.output and "Traceback" not in r.output
    assert not out.exists()


def test_train_player_never_overwrites(cli, tmp_path):
    out = tmp_path / "w.toml"
    out.write_text("mine")
    r = cli("train-player", "--out", out, "--games", "8")
    assert r.exit_code == 2 and "already exists" in r.output
    assert out.read_text() == "mine"


def test_a_model_that_loses_on_held_out_decisions_is_not_shipped():
    rng = np.random.default_rng(1)
    n_dec, k = 2000, 3
    x = rng.normal(size=(n_dec * k, N_FEATURES))
    true = np.zeros(N_FEATURES)
    true[2] = 1.0
    # The first half of the rollouts says one thing, the held-out half the opposite.
    lab = Labels(game=np.repeat(np.arange(n_dec) // 10, k),
                 decision=np.repeat(np.arange(n_dec), k), x=x, y_fit=x @ true,
                 y_check=-(x @ true), chosen=np.tile([True, False, False], n_dec),
                 games=n_dec // 10)
    f = fit(lab, network=False)
    assert not f.kept and set(f.weights.values()) == {0.0}
    assert f.checks[1].per_decision < 0


def _lost_fit() -> tuple[Fit, Labels]:
    lab = Labels(game=np.zeros(2, np.int64), decision=np.zeros(2, np.int64),
                 x=np.zeros((2, N_FEATURES)), y_fit=np.zeros(2), y_check=np.zeros(2),
                 chosen=np.array([True, False]), games=1)
    return Fit(dict.fromkeys((name for name, _doc in FEATURES), 0.0), kept=False), lab


def test_a_round_of_expert_iteration_that_loses_keeps_the_rollout_player_s_weights():
    """With learned's rollouts, a new rotation model that loses to learned's picks must not
    write 0 (greedy's rotations, which the last round beat): learned's own weights stay, and
    so do those of a kind not fitted."""
    own = dict.fromkeys(weight_names(), 0.0) | {f"{PREFIX}points": 0.5,
                                                f"{STEP_PREFIX}{STEP_FEATURES[0][0]}": 0.25}
    text = knob_text({"rotations": _lost_fit()}, "how", 8, "learned", own)
    got = tomllib.loads(text)
    assert got[f"{PREFIX}points"] == 0.5 and got[f"{STEP_PREFIX}{STEP_FEATURES[0][0]}"] == 0.25
    assert "the rollout player's weights are kept here" in text
    assert "steps: not fitted; the rollout player's weights are kept" in text
    # With greedy's rollouts there is nothing to keep: the lost kind reads 0, greedy's choices.
    text = knob_text({"rotations": _lost_fit()}, "how", 8, "greedy")
    assert tomllib.loads(text)[f"{PREFIX}points"] == 0.0 and "takes greedy's choices" in text
    # ... and so does the kind not fitted, written out: left out, it would read the shipped
    # weights (its knobs' defaults) where the file is played.
    got = tomllib.loads(text)
    assert all(got[f"{STEP_PREFIX}{name}"] == 0.0 for name, _doc in STEP_FEATURES)
    assert "steps: not fitted; its weights are 0" in text


def test_train_player_with_learned_rollouts_keeps_the_weights_it_did_not_fit(cli, tmp_path):
    knobs = tmp_path / "round1.knobs.toml"
    # steps by greedy's pick alone (its column): greedy's games, with a weight to find again
    step = f"{STEP_PREFIX}greedy"
    # A model's weights go together (heuristics/knob_file.py): the other steps' weights 0.
    knobs.write_text('player = "learned"\n' + "".join(
        f"{STEP_PREFIX}{name} = {0.375 if STEP_PREFIX + name == step else 0.0}\n"
        for name, _doc in STEP_FEATURES))
    out = tmp_path / "round2.knobs.toml"
    r = cli("train-player", "--out", out, "--players", "2", "--games", "8", "--rollouts", "4",
            "--jobs", "1", "--decisions", "rotations", "--rollout", "learned", "--knobs", knobs)
    assert r.exit_code == 0, r.output
    assert tomllib.loads(out.read_text())[step] == 0.375


def test_missing_weights_are_an_error_and_missing_names_are_0(tmp_path):
    """A broken install (the shipped weights file gone) must not play learned as greedy
    without a word; a file of some weights leaves the rest at 0."""
    missing = tmp_path / "learned.knobs.toml"
    with pytest.raises(InputError, match="learned.knobs.toml"):
        shipped_weights(missing)
    name = weight_names()[0]
    missing.write_text(f'player = "learned"\n{name} = 0.5\n')
    got = shipped_weights(missing)
    assert got[name] == 0.5 and all(v == 0.0 for k, v in got.items() if k != name)
