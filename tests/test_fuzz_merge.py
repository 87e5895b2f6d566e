"""Issue 47 class 4: `balance report --merge` pooled runs that played the same seeds. Game i of
any variant is dealt from its run's seed and i alone, so two runs of one setting and one seed
under two names hold the same games: merged, "53% ± 5% of 400 games" from 200 distinct games.
Runs played alike (reports/page/merge.py) with the same seed and a game number in common are
refused, naming both runs, the seed and the first shared game; other seeds still merge."""

from __future__ import annotations

import pytest

from balance.errors import InputError
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from reports.page.build import PAGE, write_report
from tests.fuzz import EXPERIMENT, Case, assert_refused_cleanly, copy_run, make_base_runs
from tests.report_data import synthetic_run


@pytest.fixture(scope="module", autouse=True)
def base_runs(tmp_path_factory):
    make_base_runs(tmp_path_factory.mktemp("fuzz-merge-base"))


def _other(tmp, name: str, seed: int = 3, edit=lambda text: text):
    """A run of the base experiment renamed `name`, of seed `seed`, edited by `edit`."""
    path = tmp / f"{name}.toml"
    path.write_text(edit(EXPERIMENT.replace('name = "fz"', f'name = "{name}"')
                         .replace("seed = 3", f"seed = {seed}")), encoding="utf-8")
    other = run_experiment(load_experiment(path), tmp / "other", jobs=1).run_dir
    (other / ".lock").unlink(missing_ok=True)
    return other


def merged_with(name: str, edit=lambda text: text, seed: int = 3, merge: bool = True):
    """`balance report` of the base run (2e Crisis at 2 players, seed 3) and another run."""
    def make(tmp):
        run = copy_run(tmp)
        other = _other(tmp, name, seed, edit)
        return ["report", str(run), str(other), *(["--merge"] if merge else []), "--out",
                str(tmp / "report")]
    return make


SAME = ("--merge", "of fz ", "same seed (3)", "game 0", "count twice")

CASES: dict[str, Case] = {
    # The example: one setting and one seed under two names.
    "merge-same-seed-another-name": Case("cli", merged_with("fz-again"), ("fz-again", *SAME)),
    # A grid over players: its 2-player variant plays the base run's 2-player games.
    "merge-same-seed-a-players-grid": Case("cli", merged_with(
        "fz-grid", lambda t: t.replace("players = 2\n", "") + "[grid]\nplayers = [3, 2]\n"),
        ("fz-grid", "its variant 1", *SAME)),
    # More games of the same seed: its first 10 are the base run's 10.
    "merge-same-seed-more-games": Case("cli", merged_with(
        "fz-more", lambda t: t.replace("games = 10", "games = 15")), ("fz-more", *SAME)),
    # Another name and description: the same games all the same.
    "merge-same-seed-another-description": Case("cli", merged_with(
        "fz-described", lambda t: t.replace("fuzz base", "the base again")),
        ("fz-described", *SAME)),
}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_input_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)


def _reported(r, tmp_path) -> str:
    assert r.exit_code == 0, r.stderr
    return (tmp_path / "report" / PAGE).read_text(encoding="utf-8")


def test_runs_of_other_seeds_still_merge(tmp_path, cli):
    page = _reported(cli(*merged_with("fz-four", seed=4)(tmp_path)), tmp_path)
    assert "10 games of fz and 10 games of fz-four are counted together (--merge)." in page


def test_runs_of_one_seed_are_still_reported_apart(tmp_path, cli):
    """Kept apart, each run's games are counted once, under its own name."""
    page = _reported(cli(*merged_with("fz-again", merge=False)(tmp_path)), tmp_path)
    assert "counted together" not in page


def test_hand_made_runs_of_one_seed_are_refused_merged(tmp_path):
    """Runs held in memory (the Python API): their games tables number the games."""
    from reports.tables.combine import combine

    first = synthetic_run(games_per_variant=20, rush=False, fixed=False)
    second = synthetic_run(games_per_variant=30, rush=False, fixed=False)
    second.manifest = dict(second.manifest, experiment="second")
    with pytest.raises(InputError, match=r"same seed \(1\): both played game 0") as e:
        write_report(combine([first, second], ["runs/synthetic", "runs/second"], merge=True),
                     tmp_path)
    assert e.value.problems[0].file == "second" and e.value.problems[0].where == "--merge"
    assert not (tmp_path / PAGE).exists()
