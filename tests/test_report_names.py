"""A figure's file name stays a file name: a setting named by every rule a report's runs sweep
is cut to a short part with a hash of the whole, so two long names stay apart."""

from __future__ import annotations

from reports.section import SLUG_MAX, slug


def test_a_short_name_is_kept_and_a_long_one_cut_apart():
    assert slug("Seats=['racer', 'racer']") == "seats-racer-racer"
    long_a = ", ".join(f"rule_{i}=default" for i in range(30)) + ", seats=a"
    long_b = long_a[:-1] + "b"
    assert len(slug(long_a)) <= SLUG_MAX and slug(long_a) != slug(long_b)
    assert slug(long_a).startswith("rule-0-default-rule-1")
