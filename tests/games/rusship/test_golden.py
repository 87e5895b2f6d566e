"""Rusship's rule goldens (KitGame.goldens in balance/games/rusship/game.py): whole games told
turn by turn by the kit's playthrough with Rusship's view (balance/games/rusship/trace.py),
checked in, so that any change in the rules shows as a readable diff. Random players make
every choice, so a change to a fast player never rewrites them. tests/test_kit.py compares
them; after an intended change, `python -m balance.kit.playthrough
balance.games.rusship.game:KIT` rewrites them. Here: they show what a designer reads them
for."""

from balance.games.rusship.game import KIT
from balance.kit.playthrough import golden_path


def _texts() -> dict[str, str]:
    return {g.name: golden_path(KIT, g).read_text() for g in KIT.goldens}


def test_the_goldens_print_every_decision_and_the_track_after_every_turn():
    for text in _texts().values():
        lines = text.splitlines()
        asked = [x for x in lines if x.startswith("  ? ")]
        assert asked and all(" -> " in x and "0: " in x for x in asked)
        turns = [x for x in lines if x.startswith("Turn ")]
        tracks = [x for x in lines if x.startswith("  Earth ")]
        assert len(tracks) == len(turns) + 1  # the start, and each turn's end
        assert lines[-1].startswith("End: ")


def test_the_goldens_cover_the_tie_every_power_and_the_switches():
    text = _texts()
    assert "a tie, both roll again" in text["rules-default-seed9"]
    powers = text["rules-powers-seed14"]
    for what in ("takes the power reroll", "takes the power plus_one", "rerolls die",
                 "takes the power one_die", "takes the power move_back", "takes the power share",
                 "(one die)", "captures"):
        assert what in powers, what
    switched = text["rules-switches-seed10"]
    for what in ("starts with a", "pass", "has no move: the", "moves with", "moves a ship back",
                 "adds +1"):
        assert what in switched, what
