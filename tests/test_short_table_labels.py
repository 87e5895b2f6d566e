"""The short table after a run (reports/compare/compare_text.py, short_table) never cuts a label:
a run of many switches names each row by what differs from the baseline, whole, however long,
with the variant's value beside its difference (issue 50, 9)."""

from __future__ import annotations

import re

import pytest

from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from reports.compare import compare_text
from reports.compare.compare import compare_run

BOX = """\
[experiment]
name = "boxes"
description = "every subset of four powers"
game = "rusship"
heuristic = "racer"
players = 2
games = 20
seed = 4

[grid]
box_reroll = [false, true]
box_plus_one = [false, true]
box_one_die = [false, true]
box_move_back = [false, true]
"""


@pytest.fixture(scope="module")
def cmp(tmp_path_factory):
    root = tmp_path_factory.mktemp("boxes")
    (root / "boxes.toml").write_text(BOX, encoding="utf-8")
    run = run_experiment(load_experiment(root / "boxes.toml"), out=root / "runs", jobs=1)
    return compare_run(run.run_dir)


def test_a_long_label_is_never_cut(cmp):
    out = compare_text.short_table(cmp)
    assert "…" not in out and "box_" not in out
    joined = " ".join(line.strip() for line in out.splitlines())
    rows = [v for v in cmp.variants["variant"].to_list() if v != cmp.baseline]
    said = [cmp.words(v, differs=True) for v in rows]
    assert len(set(said)) == len(said)  # what tells the rows apart
    longest = max(said, key=len)
    assert len(longest) > compare_text.LABEL_WIDTH  # the case that used to be cut
    for words in said:
        assert words in joined, words
    # The baseline's full words once, then each row's value before its difference.
    assert f"{cmp.words(cmp.baseline)} (baseline)" in joined
    assert re.search(re.escape(longest) + r" +\d+(\.\d+)?%? +", joined)


def test_the_values_and_the_differences_each_line_up_in_a_column(cmp):
    """A column reads down as numbers do: every row's value ends where the others' end, and
    its difference starts where the others' start (they were one right-aligned string)."""
    out = compare_text.short_table(cmp)
    table = out.split("intervals):\n", 1)[1].split("\n\n", 1)[0].splitlines()
    cell = re.compile(r"(\d+(?:\.\d+)?%?)  +(no difference|[+−]|too few)")
    ends, starts = set(), set()
    for line in table[1:]:  # under the column's title
        m = cell.search(line)
        if m:
            ends.add(m.end(1))
            starts.add(m.start(2))
    assert len(ends) == 1 and len(starts) == 1, "\n".join(table)
