"""Issue 26 items 6 and 7 (skill balance, the control arm): the new inputs refused cleanly.
The harness is tests/fuzz.py."""

from __future__ import annotations

import pytest

from tests.fuzz import Case, assert_refused_cleanly, exp, make_base_runs


@pytest.fixture(scope="module", autouse=True)
def base_runs(tmp_path_factory):
    make_base_runs(tmp_path_factory.mktemp("fuzz-base"))


def control(value: str = "true", append: str = "") -> Case:
    return exp("exhaust = true\n", f"exhaust = true\ncontrol = {value}\n", append)


MAGPIE = '[patches.nerf]\nselect = { skills = "Magpie" }\nuses = 2\n'

CASES: dict[str, Case] = {
    "control-not-a-switch": Case("experiment", control("1", '[grid]\nhand_limit = [4, 5]\n'),
                                 ("fz.toml", "[experiment]", "'control'", "true or false")),
    "control-beside-nothing": Case("experiment", control(),
                                   ("fz.toml", "'control'", "nothing to stand beside")),
    "control-with-players-swept": Case(
        "experiment", lambda tmp: exp("players = 2\n", "control = true\n",
                                      "[grid]\nplayers = [2, 3]\n")(tmp),
        ("fz.toml", "[grid]", "'players'", "one value of players")),
    "control-with-each-skill": Case(
        "experiment", lambda tmp: exp("exhaust = true\n",
                                      "exhaust = true\ncontrol = true\neach_skill = true\n")(tmp),
        ("fz.toml", "'control'", "each_skill makes its own baseline")),
    "control-with-ablate": Case(
        "experiment", lambda tmp: exp("exhaust = true\n",
                                      "exhaust = true\ncontrol = true\nablate = \"out\"\n")(tmp),
        ("fz.toml", "'control'", "ablate makes its own baseline")),
    "tune-with-control": Case(
        "experiment", lambda tmp: ["tune", *exp("exhaust = true\n", "exhaust = true\ncontrol = "
                                               "true\n", MAGPIE)(tmp)[1:2], "--lever",
                                   "nerf.uses", "--range", "1:2", "--goal", "score=40"],
        ("fz.toml", "'control'", "leave control out")),
    "amount-of-an-effect-without-a-number": Case(
        "experiment", exp(append='[patches.nerf]\nselect = { skills = "Blink" }\namount = 2\n'),
        ("fz.toml", "[patches.nerf]", "'amount'", "'Blink' (move to any room)",
         "no number to set")),
    "amount-out-of-range": Case(
        "experiment", exp(append='[patches.nerf]\nselect = { skills = "Magpie" }\n'
                          'amount = 10\n'), ("fz.toml", "'amount'", "from 1 to 9", "got 10")),
    "amount-swept-as-text": Case(
        "experiment", exp(append='[patches.nerf]\nselect = { skills = "Magpie" }\namount = 1\n'
                          '[grid]\n"nerf.amount" = [1, "2"]\n'),
        ("fz.toml", "[grid]", "'nerf.amount'", "whole number")),
}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_input_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)
