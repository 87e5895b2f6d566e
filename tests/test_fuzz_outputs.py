"""Issue 47 class 5: a long command's outputs are checked, and held, before its work, and its
finished result is never thrown away (balance/outputs.py). `balance train-player --out X
--labels X` wrote the labels to X, then refused the weights; two `train-player` or
`tune-player` commands to one `--out` both worked in full, and the second was refused at the
end without its result.

The training's labelling (minutes of rollouts) is replaced here by labels made up in an
instant: what is tested is what the command does with its outputs around the work."""

from __future__ import annotations

import errno
import os
import tempfile

import numpy as np
import pytest

from balance import files
from balance.games.gemrush import train
from balance.outputs import Outputs
from balance.running import tune_player as tuner
from tests.fuzz import Case, assert_refused_cleanly


def _labels(kinds) -> dict:
    """Labels of 40 decisions of 3 options for each kind: enough to fit (20 decisions)."""
    rng = np.random.default_rng(0)
    out = {}
    for name in kinds:
        width = len(train.BY_NAME[name].features)
        n = 40
        x = rng.normal(size=(3 * n, width))
        out[name] = train.Labels(game=np.repeat(np.arange(n) // 4, 3),
                                 decision=np.repeat(np.arange(n), 3), x=x, y_fit=x[:, 0],
                                 y_check=x[:, 0], chosen=np.tile([True, False, False], n),
                                 games=n // 4)
    return out


@pytest.fixture(autouse=True)
def quick_training(monkeypatch):
    """`train.label_parallel` without its rollouts; `during` runs in the middle of the
    work, as another command or person would act while it trains."""
    calls = []

    def label_parallel(edition, players, seeds, rollouts, rollout, jobs, rules=None,
                       content=None, knobs=None, kinds=("rotations", "steps"), progress=None):
        calls.append(seeds)
        for act in quick_training.during:
            act()
        return _labels(kinds)

    quick_training.during = []
    quick_training.calls = calls
    monkeypatch.setattr(train, "label_parallel", label_parallel)
    return quick_training


TRAIN = ["train-player", "--players", "2", "--games", "8", "--rollouts", "4", "--jobs", "1"]
TUNE = ["tune-player", "--game", "dice", "--games", "20", "--evaluations", "4"]


def _train(*args: str):
    return lambda tmp: [*TRAIN, *(a.replace("TMP", str(tmp)) for a in args)]


def _held(name: str, argv):
    """A file another command holds (its placeholder), then the command."""
    def make(tmp):
        Outputs({"--out": tmp / name}).claim()
        return argv(tmp)
    return make


CASES: dict[str, Case] = {
    # The example: the labels were written to X, then the weights refused.
    "train-player-out-is-labels": Case("cli", _train("--out", "TMP/x", "--labels", "TMP/x"),
                                       ("x: field '--labels'", "is also the file of --out")),
    "train-player-out-is-labels-by-another-path": Case(
        "cli", lambda tmp: (os.mkdir(tmp / "d"), _train(
            "--out", "TMP/d/../x.toml", "--labels", "TMP/x.toml")(tmp))[1],
        ("x.toml: field '--labels'", "is also the file of --out")),
    "train-player-labels-in-no-folder": Case(
        "cli", _train("--out", "TMP/w.toml", "--labels", "TMP/nowhere/l.npz"),
        ("l.npz: field '--labels'", "does not exist")),
    # A result another command is writing: refused at once, and the placeholder said to be.
    "train-player-out-held": Case("cli", _held("w.toml", _train("--out", "TMP/w.toml")), (
        "w.toml: field '--out'", "already exists", "another command holds it")),
    "train-player-labels-held": Case(
        "cli", _held("l.npz", _train("--out", "TMP/w.toml", "--labels", "TMP/l.npz")),
        ("l.npz: field '--labels'", "already exists", "another command holds it")),
    "tune-player-out-held": Case(
        "cli", _held("k.toml", lambda tmp: [*TUNE, "--out", str(tmp / "k.toml")]),
        ("k.toml: field '--out'", "already exists", "another command holds it")),
}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_input_is_refused_cleanly(case_id, tmp_path, cli, quick_training):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)
    assert quick_training.calls == [], "refused only after the work"


# -- two commands to one --out --------------------------------------------------------------

def test_a_second_train_player_to_one_out_is_refused_before_it_trains(tmp_path, cli,
                                                                      quick_training):
    out, labels = tmp_path / "w.toml", tmp_path / "l.npz"
    second = []
    quick_training.during = [lambda: second.append(cli(*TRAIN, "--out", out))
                             if not second else None]
    r = cli(*TRAIN, "--out", out, "--labels", labels)
    assert r.exit_code == 0, r.stderr
    [refused] = second
    assert refused.exit_code == 2 and "already exists" in refused.stderr, refused.stderr
    assert len(quick_training.calls) == 1, "the second command trained too"
    assert out.read_text() in r.stdout
    assert set(np.load(labels)) >= {"rotations_x", "steps_x"}


def test_a_second_tune_player_to_one_out_is_refused_before_it_tunes(tmp_path, cli,
                                                                    monkeypatch):
    out = tmp_path / "k.toml"
    real, tunings, second = tuner.tune_player, [], []

    def tune(*args, **kw):
        tunings.append(args)
        if len(tunings) == 1:
            second.append(cli(*TUNE, "--out", out))
        return real(*args, **kw)

    monkeypatch.setattr(tuner, "tune_player", tune)
    r = cli(*TUNE, "--out", out)
    assert r.exit_code == 0, r.stderr
    [refused] = second
    assert refused.exit_code == 2 and "already exists" in refused.stderr, refused.stderr
    assert len(tunings) == 1, "the second command tuned too"
    assert "stop_at = " in out.read_text()


# -- a finished result is never lost ---------------------------------------------------------

def _taken(path, text: bytes = b"someone else's"):
    """The placeholder deleted and another file put in its place, during the work."""
    def act():
        path.unlink()
        path.write_bytes(text)
    return act


def test_train_player_keeps_its_weights_when_another_file_took_its_out(tmp_path, cli,
                                                                       quick_training):
    out, labels = tmp_path / "w.toml", tmp_path / "l.npz"
    quick_training.during = [_taken(out), _taken(labels)]
    r = cli(*TRAIN, "--out", out, "--labels", labels)
    assert r.exit_code == 2 and "Traceback" not in r.stderr
    assert out.read_bytes() == b"someone else's" and labels.read_bytes() == b"someone else's"
    errors = r.stderr.splitlines()
    assert len(errors) == 2 and all("another file took its name" in e for e in errors)
    saved = {p.name: p for p in tmp_path.iterdir() if ".saved-" in p.name}
    [weights] = [p for n, p in saved.items() if n.startswith("w.saved-") and n.endswith(".toml")]
    [kept] = [p for n, p in saved.items() if n.startswith("l.saved-") and n.endswith(".npz")]
    assert f"the result is in {weights} instead" in r.stderr
    assert f"the result is in {kept} instead" in r.stderr
    assert weights.read_text() in r.stdout  # printed too
    assert set(np.load(kept)) >= {"rotations_x", "steps_x"}


def test_tune_player_prints_its_knobs_when_they_cannot_be_written(tmp_path, cli, monkeypatch):
    """A full disk at the end: the knobs go beside --out, else to the temporary folder, and
    are printed as a knob file whatever happens."""
    out, elsewhere = tmp_path / "k.toml", tmp_path / "elsewhere"
    elsewhere.mkdir()
    real_beside = files.write_beside

    def full(path, *args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(files, "write_claimed", full)
    monkeypatch.setattr(files, "write_beside", lambda path, data: full(path) if
                        path.parent == tmp_path else real_beside(path, data))
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(elsewhere))
    r = cli(*TUNE, "--out", out)
    assert r.exit_code == 2 and "Traceback" not in r.stderr
    [saved] = elsewhere.iterdir()
    assert r.stderr.splitlines() == [f"error: {out}: field '--out': could not be written (No "
                                     f"space left on device); the result is in {saved} "
                                     "instead"]
    assert not out.exists()  # the placeholder is gone with the failed write
    assert "stop_at = " in saved.read_text() and saved.read_text() in r.stdout


def test_with_nowhere_to_write_the_knobs_are_printed(tmp_path, cli, monkeypatch):
    out = tmp_path / "k.toml"

    def full(path, *args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(files, "write_claimed", full)
    monkeypatch.setattr(files, "write_beside", full)
    r = cli(*TUNE, "--out", out)
    assert r.exit_code == 2 and "Traceback" not in r.stderr
    assert r.stderr.splitlines() == [f"error: {out}: field '--out': could not be written (No "
                                     "space left on device), nor beside it, nor in the "
                                     "temporary folder"]
    assert list(tmp_path.iterdir()) == []
    text = r.stdout[r.stdout.index("# Knobs of 'stopper'"):]
    assert "stop_at = " in text and text.count("\n") >= 3


# -- placeholders never outlive their command -------------------------------------------------

def test_an_interrupted_command_leaves_no_placeholder(tmp_path, cli, quick_training):
    out, labels = tmp_path / "w.toml", tmp_path / "l.npz"

    def interrupt():
        assert out.exists() and labels.exists()  # held while it works
        raise KeyboardInterrupt

    quick_training.during = [interrupt]
    r = cli(*TRAIN, "--out", out, "--labels", labels)
    assert r.exit_code == 130, r.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_placeholder_another_file_replaced_is_not_removed(tmp_path):
    path = tmp_path / "k.toml"
    outputs = Outputs({"--out": path}).claim()
    path.unlink()
    path.write_bytes(b"")  # on the same inode, most often
    outputs.release()
    assert path.exists()


def test_a_claim_refuses_a_link_and_leaves_it(tmp_path):
    from balance.errors import InputError

    (tmp_path / "target").write_text("mine")
    os.symlink(tmp_path / "target", tmp_path / "k.toml")
    with pytest.raises(InputError, match="already exists"):
        Outputs({"--out": tmp_path / "k.toml", "--labels": tmp_path / "l.npz"}).claim()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.toml", "target"]
    assert (tmp_path / "target").read_text() == "mine"
