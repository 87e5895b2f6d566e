"""`balance strength`: the players on the same seeds, in one table."""

from __future__ import annotations

from pathlib import Path

KNOBS = Path(__file__).resolve().parents[1] / "heuristics" / "greedy-hand-set.knobs.toml"


def test_strength_table_pairs_every_player_with_greedy(cli):
    r = cli("strength", "--players", "2", "--games", "60", "--reference-games", "2",
            "--budgets", "4", "--knobs", KNOBS)
    assert r.exit_code == 0, r.output
    rows = [x for x in r.stdout.splitlines() if x.startswith("| ") and "---" not in x][1:]
    assert [x.split(" | ")[0] for x in rows] == ["| random", "| greedy (given knobs)",
                                                 "| greedy", "| reference 4"]
    greedy = next(x for x in rows if x.startswith("| greedy |"))
    assert " — " in greedy  # the row the others are paired with
    random = rows[0].split(" | ")
    assert random[1] == "60" and random[4].startswith("-")  # random scores less than greedy


def test_bad_budgets_are_refused(cli):
    r = cli("strength", "--budgets", "1,99999")
    assert r.exit_code == 2 and "--budgets" in r.output
