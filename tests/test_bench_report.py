"""`balance bench --report` at tiny sizes: a base run played for real, a larger run copied from
it, each report timed in its own process. The figures are not checked (they depend on the
machine), only that every size was measured on a valid run and gave a report."""

from __future__ import annotations

import re

from balance.running import store


def test_bench_report_at_tiny_sizes(tmp_path, cli):
    folder = tmp_path / "bench"
    r = cli("bench", "--report", "--base-games", "2000", "--sizes", "2000,4000",
            "--folder", folder)
    assert r.exit_code == 0, r.output
    rows = {int(m[0].replace(",", "")): (float(m[1]), float(m[2].replace(",", "")))
            for m in re.findall(r"^\s+([\d,]+)\s+([\d.]+)\s+([\d,]+)\s+[\d,]+$", r.stdout,
                                re.M)}
    assert sorted(rows) == [2000, 4000], r.stdout
    for seconds, peak in rows.values():
        assert seconds > 0 and peak > 0
    base = store.read_run(folder / "base" / "bench")
    big = store.read_run(folder / "x4000" / "bench")
    assert base.complete and base.games.height == 2000
    assert big.complete and big.games["game"].to_list() == list(range(4000))
    for n in (2000, 4000):
        page = (folder / f"report-{n}" / "report.html").read_text(encoding="utf-8")
        assert f"{n:,} ({n:,} crisis)" in page  # the run table counts every game


def test_bench_report_refuses_sizes_that_are_not_copies_of_the_base(tmp_path, cli):
    r = cli("bench", "--report", "--base-games", "2000", "--sizes", "3000",
            "--folder", tmp_path / "bench")
    assert r.exit_code == 2
    assert "--sizes" in r.stderr and "multiples of --base-games (2,000)" in r.stderr
    assert not (tmp_path / "bench").exists()


def test_bench_report_refuses_a_base_of_uneven_shards(tmp_path, cli):
    r = cli("bench", "--report", "--base-games", "2500", "--sizes", "5000",
            "--folder", tmp_path / "bench")
    assert r.exit_code == 2 and "--base-games" in r.stderr and "1,000" in r.stderr
    assert not (tmp_path / "bench").exists()
