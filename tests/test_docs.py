"""The guide and the README: what they name exists, and what they say is current."""

from __future__ import annotations


def test_validate_says_skills_are_played():
    """`balance validate gemrush-2e` once said the box's skills were "not yet played by the
    engine" long after they were (issue 26 item 5)."""
    from balance.content import load_content
    from balance.summary import content_summary, format_summary

    text = format_summary(content_summary(load_content("gemrush-2e")))
    line = next(x for x in text.splitlines() if x.strip().startswith("skills"))
    assert "not yet" not in line
    assert "20" in line and "`skills` field" in line
