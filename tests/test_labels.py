"""The designer's words (balance/contract/labels.py): every registered game gives each setting,
player and ablated part words of its own, a game that gives none still reports by the names,
and a variant reads in those words, whole numbers whole."""

from __future__ import annotations

import dataclasses

import pytest

from balance.contract import registry
from balance.contract.game import Setting
from balance.contract.labels import UNCHANGED, number, value_words, variant_words

GAMES = registry.names()


@pytest.mark.parametrize("name", GAMES)
def test_every_setting_and_player_of_a_game_has_words(name):
    game = registry.get(name)
    unlabelled = [s.name for s in game.settings if not s.label]
    assert not unlabelled, f"{name}: settings without a label: {unlabelled}"
    for s in game.settings:
        words = [w for _, w in s.values]
        assert len(set(words)) == len(words), f"{name}.{s.name}: two values read alike"
    players = game.player_registry()
    untitled = [p for p in players if not getattr(players[p], "title", "")]
    assert not untitled, f"{name}: players without a title: {untitled}"
    titles = [players[p].title for p in players]
    assert len(set(titles)) == len(titles), f"{name}: two players read alike"


@pytest.mark.parametrize("name", GAMES)
def test_a_variant_of_a_game_reads_in_its_words_not_its_keys(name):
    game = registry.get(name)
    for s in game.settings:
        value = {int: int(s.lo or 0), bool: True, str: (s.choices or ("x",))[0],
                 float: float(s.lo or 0)}[s.kind]
        said = value_words(game, s.name, value)
        assert s.name not in said or s.name in s.label, (name, s.name, said)
    players = game.player_registry()
    for p in players:
        assert value_words(game, "heuristic", p) == players[p].title


def test_a_setting_without_words_falls_back_to_its_name():
    game = registry.get("dice")
    bare = dataclasses.replace(game, settings=(Setting("faces", int, "faces", 2, 20),))
    assert value_words(bare, "faces", 8) == "faces 8"
    assert value_words(bare, "no_such_key", 3) == "no_such_key 3"


def test_whole_numbers_print_whole():
    assert number(15.0) == "15" and number(0.25) == "0.25" and number(True) == "yes"
    game = registry.get("pig")
    assert value_words(game, "knob.hold_at", 15.0) == "holds at 15"


def test_rusship_reads_as_its_rulebook():
    game = registry.get("rusship")
    assert value_words(game, "ablate", "none") == UNCHANGED
    assert value_words(game, "ablate", "plus_one") == "without the +1 power"
    assert value_words(game, "seats", "reference,racer") == "Reference (Humanity) vs Racer"
    assert value_words(game, "heuristic", "reference") == "Reference"
    assert value_words(game, "box_plus_one", False) == "no +1 power"


def test_a_variant_against_its_baseline_names_only_what_differs():
    game = registry.get("rusship")
    keys = ("box_reroll", "box_plus_one", "box_one_die", "box_move_back", "box_share")
    base = {"variant": 0, "swept": dict.fromkeys(keys, False)}
    one = {"variant": 2, "swept": {**dict.fromkeys(keys, False), "box_plus_one": True}}
    assert variant_words(game, one, base) == "+1 power"
    assert variant_words(game, one) == ("no reroll power, +1 power, no one-die power, "
                                        "no move-back power, no shared-space power")
    assert variant_words(game, {"variant": 0, "label": "control", "control": True,
                                "swept": dict.fromkeys(keys)}) == UNCHANGED


def test_rows_compared_with_baselines_of_their_own_say_what_tells_them_apart():
    # Pig at 2 and 3 players, to 50 and to 100: each player count has its own baseline, so
    # "play to 100" alone names two rows; the player count tells them apart.
    from reports.tables import variants

    game = registry.get("pig")
    grid = [(p, g) for p in (2, 3) for g in (50, 100)]
    manifest = {"variants": [{"variant": i, "label": f"players={p}, goal={g}", "players": p,
                              "swept": {"players": p, "goal": g}}
                             for i, (p, g) in enumerate(grid)]}
    against = variants.baselines_by_setting(manifest, 0)
    said = variants.words(manifest, game, against)
    assert said[1] == "2 players, play to 100" and said[3] == "3 players, play to 100"
    assert len(set(said)) == len(said)
    # One player count: what differs from the baseline is enough.
    one = {"variants": manifest["variants"][:2]}
    assert variants.words(one, game, variants.baselines_by_setting(one, 0))[1] == "play to 100"


def test_an_end_reason_reads_in_the_games_words():
    from reports.headline import undecided_text

    rusship = registry.get("rusship")
    assert undecided_text(3, 10, rusship.undecided_ends, rusship) == (
        "3 of 10 games stopped undecided (turn cap reached)")
    bare = dataclasses.replace(rusship, end_words=())
    assert bare.end_word("turn_cap") == "turn cap"  # a reason given no words: its name
    with pytest.raises(ValueError, match="end_words"):
        dataclasses.replace(rusship, end_words=(("no_such_end", "x"),))
