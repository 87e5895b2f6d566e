"""The guide's Rusship page states every setting and its default as the defaults file has it,
so a reading a designer can switch is never undocumented."""

from __future__ import annotations

import re
from pathlib import Path

from balance.games.rusship.rules import DEFAULTS, SETTINGS

PAGE = Path(__file__).resolve().parents[3] / "balance/docs/guide/games/rusship.md"


def _shown(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_every_setting_is_in_the_rulings_page_with_its_default():
    text = PAGE.read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3:
            for name in re.findall(r"`(\w+)`", cells[0]):
                rows[name] = cells[1]
    for s in SETTINGS:
        assert s.name in rows, f"{s.name} is not in the settings table of {PAGE.name}"
        assert rows[s.name].strip("`").split(" ")[0] == _shown(DEFAULTS[s.name]), s.name


def test_the_board_is_marked_reconstructed():
    assert "RECONSTRUCTED" in (PAGE.parents[3] / "games/rusship/data/rules.toml").read_text()
    assert "reconstructed" in PAGE.read_text(encoding="utf-8")
