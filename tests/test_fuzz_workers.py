"""Issue 47 class 6: the toolkit's own refusal crosses a process. InputError did not survive
pickling, so a refusal raised in a worker became "a worker process died (BrokenProcessPool)",
exit 1, "run the same command again to resume", which could never succeed; `balance tune`
printed a traceback. Every exception class the toolkit defines must come back from pickle whole,
and a refusal raised in a loky worker must reach the user as its own message with exit 2.

The refusing game (tests/games/dice/refusing.py) raises its InputError in the shard's play hook
itself, so no parser's check can catch it first."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
from pathlib import Path

import pytest

from balance.contract import registry
from balance.errors import InputError, Problem
from tests.fuzz import Case, assert_refused_cleanly
from tests.games.dice import refusing

registry.register(refusing.GAME)

PACKAGES = ("balance", "heuristics", "reports")  # what pyproject.toml installs


def _problem(i: int = 0) -> Problem:
    return Problem("f.toml", f'card "Ruby {i}"', "east.cost", "must be a list")


def _examples() -> dict[str, BaseException]:
    """One instance of every exception class the toolkit defines, with every field set."""
    from balance.cli.guard import OutOfMemory, Terminated
    from balance.games.gemrush.ability import AbilityError
    from balance.games.gemrush.skill import SkillError
    from balance.kernels.compile_plan import PlanError
    from balance.running.runner import RunFailed
    from balance.running.store.check import _Refused, _Replaced

    many = InputError([_problem(i) for i in range(5)] + [Problem("g.toml", "", "", "bad")])
    return {"balance.errors.InputError": many,
            "balance.cli.guard.OutOfMemory": OutOfMemory("the child died (SIGKILL)"),
            "balance.cli.guard.Terminated": Terminated(),
            "balance.games.gemrush.ability.AbilityError": AbilityError("expected a count"),
            "balance.games.gemrush.skill.SkillError": SkillError("no such skill"),
            "balance.kernels.compile_plan.PlanError": PlanError("not a plan"),
            "balance.running.runner.RunFailed": RunFailed("a worker process died"),
            "balance.running.store.check._Refused": _Refused(_problem()),
            "balance.running.store.check._Replaced": _Replaced()}


def _defined() -> set[str]:
    """Every exception class defined at the top of a module of the toolkit."""
    found = set()
    for package in PACKAGES:
        root = importlib.import_module(package)
        for m in pkgutil.walk_packages(root.__path__, f"{package}."):
            if m.name.startswith("balance.docs"):
                continue
            module = importlib.import_module(m.name)
            found |= {f"{c.__module__}.{c.__qualname__}" for c in vars(module).values()
                      if inspect.isclass(c) and issubclass(c, BaseException)
                      and c.__module__ == module.__name__}
    return found


def test_every_exception_class_of_the_toolkit_survives_pickle():
    examples = _examples()
    assert _defined() == set(examples), "a new exception class: add an example above"
    for name, e in examples.items():
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e), name
        assert str(back) == str(e) and back.args == e.args, name
        assert vars(back) == vars(e), name


def test_a_refusal_keeps_every_problem_and_its_grouping_through_pickle():
    e = InputError([_problem(i) for i in range(5)])
    back = pickle.loads(pickle.dumps(e))
    assert back.problems == e.problems == [Problem("f.toml", 'card "Ruby 0" and 4 more',
                                                   "east.cost", "must be a list")]


RACE = """\
[experiment]
name = "refused"
description = "a race its game refuses in the worker"
game = "dice_refusing"
games = 40
seed = 3
shard_size = 10
players = 2

[rules]
target = {target}
"""


def _race(tmp: Path, target: int) -> Path:
    path = tmp / "refusing.toml"
    path.write_text(RACE.format(target=target), encoding="utf-8")
    return path


def _says_the_refusal(r, target: int) -> None:
    assert isinstance(r.exception, SystemExit), f"traceback: {r.exception!r}"
    assert r.exit_code == 2, (r.exit_code, r.stderr[-800:])
    errors = [x for x in r.stderr.splitlines() if x.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith("error: refusing.toml: game "), r.stderr
    assert errors[0].endswith(f"field 'target': {target} is refused by the game in its "
                              "worker"), r.stderr
    assert "worker process died" not in r.stderr and "resume" not in r.stderr


@pytest.mark.parametrize("target", [refusing.EVERY_SHARD, refusing.IN_THE_POOL])
def test_a_refusal_in_a_worker_of_a_run_is_its_own_message(target, tmp_path, cli):
    """EVERY_SHARD refuses in the worker's first (warming) game, IN_THE_POOL in a shard
    of the pool: both were "a worker process died", exit 1."""
    r = cli("run", _race(tmp_path, target), "--out", tmp_path / "runs", "--jobs", "2")
    _says_the_refusal(r, target)


def test_a_refusal_in_a_worker_reaches_execute_whole(tmp_path):
    from balance.running.experiment import load_experiment
    from balance.running.runner import execute, jobs_for
    from balance.running.store.layout import plan

    exp = load_experiment(_race(tmp_path, refusing.IN_THE_POOL))
    with pytest.raises(InputError) as e:
        list(execute(jobs_for(exp, plan(1, 40, 10)), 2))
    [p] = e.value.problems
    assert (p.file, p.field) == ("refusing.toml", "target") and p.where.startswith("game ")


def _tune(tmp: Path, target: int, lever: str = "faces", span: str = "2:6") -> list[str]:
    return ["tune", str(_race(tmp, target)), "--lever", lever, "--range", span, "--goal",
            "first=50%", "--first", "20", "--games", "40", "--jobs", "2"]


CASES: dict[str, Case] = {
    # `balance tune` plays in a loky pool: the refusal was a BrokenProcessPool traceback.
    "tune-refused-in-the-first-game": Case(
        "cli", lambda tmp: _tune(tmp, refusing.EVERY_SHARD),
        ("refusing.toml", "field 'target'", "77 is refused by the game in its worker")),
    "tune-refused-in-the-pool": Case(
        "cli", lambda tmp: _tune(tmp, refusing.IN_THE_POOL, "max_turns", "100:200"),
        ("refusing.toml", "field 'target'", "78 is refused by the game in its worker")),
    # The example: Rusship's knob out of range, refused in the worker that played it
    # (or, once the parser builds every variant, before any game: exit 2 either way).
    "rusship-tune-knob-out-of-range": Case("cli", lambda tmp: [
        "tune", str(_rusship(tmp)), "--lever", "knob.risk", "--range", "0:99", "--goal",
        "starter=50%", "--first", "20", "--games", "40", "--jobs", "2"], ("risk", "99")),
}


RUSSHIP = """\
[experiment]
name = "rus"
description = "Rusship at its defaults"
game = "rusship"
players = 2
games = 20
seed = 1
shard_size = 10
"""


def _rusship(tmp: Path, append: str = "") -> Path:
    path = tmp / "rus.toml"
    path.write_text(RUSSHIP + append, encoding="utf-8")
    return path


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_input_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)


def test_rusship_run_with_a_bad_knob_on_two_jobs_is_refused(tmp_path, cli):
    """The issue's example: `balance run --jobs 2` with a bad knob said "a worker process
    died", exit 1, and told the designer to run the same command again."""
    r = cli("run", _rusship(tmp_path, "\n[knobs]\nrisk = 99\n"), "--out", tmp_path / "runs",
            "--jobs", "2")
    assert isinstance(r.exception, SystemExit), f"traceback: {r.exception!r}"
    assert r.exit_code == 2, r.stderr
    errors = [x for x in r.stderr.splitlines() if x.startswith("error:")]
    assert len(errors) == 1 and "risk" in errors[0] and "99" in errors[0], r.stderr
    assert "worker process died" not in r.stderr and "resume" not in r.stderr


def test_a_worker_lost_while_tuning_is_one_message(tmp_path, cli, monkeypatch):
    """A worker that really dies (killed for memory, say) is no refusal: `balance tune` says
    so in one line, exit 1, where it printed BrokenProcessPool's traceback."""
    from concurrent.futures.process import BrokenProcessPool

    from balance.running import runner

    def dies(jobs, n_jobs=1, scheduler=None, warm=None, dask_workers=None):
        raise BrokenProcessPool("a worker was killed")
        yield

    monkeypatch.setattr(runner, "execute", dies)
    r = cli(*_tune(tmp_path, 30))
    assert isinstance(r.exception, SystemExit), f"traceback: {r.exception!r}"
    assert r.exit_code == 1 and "Traceback" not in r.stderr
    assert r.stderr.splitlines() == [
        f"error: {tmp_path / 'refusing.toml'}: the search failed: a worker process died "
        "(BrokenProcessPool: a worker was killed). It writes nothing; run the same command "
        "again"], r.stderr
