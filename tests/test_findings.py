"""The report opens with at most five key findings and one headline table."""

from __future__ import annotations

import re

import polars as pl

from reports.findings import MAX_FINDINGS, headline_rows, key_findings


def _difficulty(settings):
    rows = []
    for s in settings:
        for p in (2, 3):
            for name, t, rate in (("Apprentice", 35, 0.16), ("Journeyman", 45, 0.001)):
                rows.append((s, p, name, t, rate, max(rate - 0.01, 0), rate + 0.01))
    return pl.DataFrame(rows, schema=["setting", "players", "difficulty", "target", "win_rate",
                                      "ci_low", "ci_high"], orient="row")


def test_at_most_five_findings_the_player_first_and_no_repeats_per_setting():
    seats = pl.DataFrame({"setting": ["2e"] * 4, "players": [4] * 4, "seat": [1, 2, 3, 4],
                          "win_rate": [0.31, 0.24, 0.23, 0.22], "ci_low": [0.29, 0.22, 0.21, 0.2],
                          "ci_high": [0.33, 0.26, 0.25, 0.24], "fair_share": [0.25] * 4})
    out = key_findings("Played by greedy.", _difficulty(["b", "a", "c"]), pl.DataFrame(),
                       seats, [], order=["b", "a", "c"])
    assert out[0] == "Played by greedy."
    assert len(out) <= MAX_FINDINGS
    crisis = [x for x in out if "closest to an even game" in x]
    assert len(crisis) == 1 and crisis[0].startswith("b,")  # the designer's first setting
    assert any("seat 1 wins" in x for x in out)  # outside its fair share's interval


def test_the_headline_table_keeps_the_designers_order():
    headers, rows = headline_rows(_difficulty(["b", "a"]), ["b", "a"])
    assert headers == ["Setting", "Players", "Apprentice", "Journeyman"]
    assert [r[:2] for r in rows] == [["b", "2"], ["b", "3"], ["a", "2"], ["a", "3"]]
    assert all(re.search(r"\d", c) for r in rows for c in r[2:])


def test_a_rush_seat_is_a_finding_only_if_it_survives_holm():
    """Issue 26 item 7: the seat table's own test (reports/rush.py), not the interval alone:
    a seat whose 95% interval misses the fair share but that Holm over the seats does not
    keep is no finding."""
    seats = pl.DataFrame({"setting": ["2e"] * 4, "players": [4] * 4, "seat": [1, 2, 3, 4],
                          "games": [400] * 4,
                          "win_rate": [0.31, 0.24, 0.23, 0.22], "ci_low": [0.29, 0.22, 0.21, 0.2],
                          "ci_high": [0.33, 0.26, 0.25, 0.24], "fair_share": [0.25] * 4,
                          "off_fair": [False] * 4})
    out = key_findings("Played by greedy.", _difficulty(["2e"]), pl.DataFrame(), seats, [])
    assert not any("seat 1 wins" in x for x in out)
    assert any("beyond chance" in x for x in out)
    out = key_findings("Played by greedy.", _difficulty(["2e"]), pl.DataFrame(),
                       seats.with_columns(off_fair=pl.Series([True, False, False, False])), [])
    assert any("seat 1 wins" in x for x in out)
