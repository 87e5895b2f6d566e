"""The bench's timed child processes: they find the project and whatever the caller's
PYTHONPATH holds, and a failed child is one clear message, not a traceback."""

import os

import pytest

from balance.bench import speed
from balance.errors import InputError


def test_the_child_path_puts_the_project_first_and_keeps_the_callers(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", "/opt/site-packages-by-path")
    parts = speed.python_path().split(os.pathsep)
    assert parts == [str(speed.ROOT), "/opt/site-packages-by-path"]


def test_without_a_callers_path_the_child_path_is_the_project(monkeypatch):
    monkeypatch.delenv("PYTHONPATH", raising=False)
    assert speed.python_path() == str(speed.ROOT)


def test_a_child_that_fails_is_reported_with_its_last_line():
    with pytest.raises(InputError) as e:
        speed._python("raise SystemExit('no engine here')", {})
    assert "no engine here" in str(e.value)
