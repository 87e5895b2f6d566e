"""`python -m balance.kit.playthrough`: rewrites a kit game's goldens, or shows them with
--show (writing nothing); a reference that names no game on the kit is one message, exit 2."""

from __future__ import annotations

import pytest

from balance.kit import playthrough
from tests.games.dice.game import KIT


def _goldens() -> dict:
    return {p: p.stat().st_mtime_ns for p in KIT.golden_folder().glob("*.txt")}


def test_show_prints_every_golden_and_writes_nothing(capsys):
    before = _goldens()
    assert playthrough.main(["--show", "tests.games.dice.game:KIT"]) == 0
    out = capsys.readouterr().out
    for golden in KIT.goldens:
        assert f"== {golden.name} ==\n{playthrough.golden_text(KIT, golden)}" in out
    assert _goldens() == before


@pytest.mark.parametrize("ref, says", [
    ("no.such.module:KIT", "ModuleNotFoundError"),
    ("tests.games.dice.game:NOPE", "AttributeError"),
    ("tests.games.dice.game:GAME", "is a Game, not a KitGame"),
])
def test_a_reference_to_no_kit_game_is_one_message(capsys, ref, says):
    before = _goldens()
    assert playthrough.main([ref]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: MODULE:KIT: ") and says in err[0]
    assert _goldens() == before
