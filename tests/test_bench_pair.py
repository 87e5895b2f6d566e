"""`balance bench --against PATH`: two checkouts' bench players taking turns on one core. The
speed figures depend on the machine and are not checked; the statistic is, on known times,
and so is every way the option can be misused."""

from __future__ import annotations

import re

import numpy as np

from balance.bench.pair import speed_ratio
from balance.bench.speed import ROOT


def test_the_ratio_is_the_median_of_the_pairs_and_its_interval_holds_it():
    other = np.linspace(0.08, 0.12, 41)
    assert speed_ratio(other / 1.25, other) == (1.25, 1.25, 1.25)  # every pair alike
    rng = np.random.default_rng(3)
    this = other * rng.uniform(0.9, 1.0, other.size)
    ratio, lo, hi = speed_ratio(this, other)
    assert ratio == np.median(other / this)
    assert 1.0 < lo <= ratio <= hi < 1.12
    assert speed_ratio(this, other) == (ratio, lo, hi)  # seeded: the same twice


def test_a_checkout_against_itself(cli):
    r = cli("bench", "--game", "rusship", "--against", ROOT, "--seconds", "0.5")
    assert r.exit_code == 0, r.output
    rates = re.findall(r"^(?:this|other) checkout\s+([\d,]+) games/s", r.stdout, re.M)
    assert len(rates) == 2 and all(int(x.replace(",", "")) > 0 for x in rates), r.stdout
    m = re.search(r"this / other\s+([\d.]+) \(95% interval ([\d.]+) to ([\d.]+)\), (\d+) pairs",
                  r.stdout)
    assert m, r.stdout
    ratio, lo, hi, pairs = float(m[1]), float(m[2]), float(m[3]), int(m[4])
    assert lo <= ratio <= hi and pairs >= 10
    assert "the same checkout twice" in r.stdout


def test_a_folder_that_is_not_there_is_one_message(cli, tmp_path):
    r = cli("bench", "--against", tmp_path / "nowhere")
    assert r.exit_code == 2
    assert "--against" in r.stderr and "nowhere" in r.stderr and "no such folder" in r.stderr
    assert "Traceback" not in r.output


def test_a_folder_without_the_project_is_one_message(cli, tmp_path):
    r = cli("bench", "--against", tmp_path)
    assert r.exit_code == 2
    assert "--against" in r.stderr and "no balance/ package" in r.stderr


def test_a_checkout_whose_player_fails_is_one_message(cli, tmp_path):
    (tmp_path / "balance").mkdir()
    (tmp_path / "balance" / "__init__.py").write_text("raise SystemExit('broken on purpose')\n")
    r = cli("bench", "--game", "rusship", "--against", tmp_path, "--seconds", "0.5")
    assert r.exit_code == 2
    assert "the other checkout's bench player failed: broken on purpose" in r.stderr
    assert "Traceback" not in r.output


def test_against_is_a_measurement_of_its_own(cli, tmp_path):
    for other in (["--runner"], ["--scaling"], ["--compile-profile"],
                  ["--scheduler", "tcp://127.0.0.1:8786"]):
        r = cli("bench", "--against", ROOT, *other)
        assert r.exit_code == 2, other
        assert "--against" in r.stderr and "without --runner" in r.stderr
