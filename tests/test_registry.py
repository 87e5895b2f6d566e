"""Issue 49: the registry finds the games, it lists none. A folder of balance/games/ with a
game.py is a game (tests/test_layers.py adds one to a copy of the project); a package of its
own is one through the entry-point group `balance.games`, here a package and its metadata
(a dist-info folder, as pip writes it) put on the path. A broken package is one message."""

from __future__ import annotations

from pathlib import Path

import pytest

from balance.contract import registry
from balance.errors import InputError
from tests.fresh import imports_none

GAME = '''
from balance.contract.game import CORE_COLUMNS, Game, Table

GAME = Game(name="hog", title="Hog", version="1", player_counts=(2, 3, 4), cooperative=False,
            settings=(), tables=(Table("games", dict(CORE_COLUMNS)),), measures=(),
            end_reasons=("won",), words=("oink",))
NOT_A_GAME = 42
'''


def _install(site: Path, dist: str, entries: dict[str, str]) -> None:
    """A package `pig_balance` (once) and a distribution `dist` naming `entries` under
    balance.games, as an installed package's metadata does."""
    package = site / "pig_balance"
    if not package.exists():
        package.mkdir()
        (package / "__init__.py").write_text("")
        (package / "game.py").write_text(GAME)
    info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[balance.games]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()))


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("hog", "broken", "notgame", "misnamed"):
        registry._LOADED.pop(name, None)  # a game loaded from this folder goes with it


def test_the_games_are_found_without_importing_any():
    imports_none("from balance.contract import registry\n"
                 "assert {'gemrush', 'rusship'} <= set(registry.names())",
                 ("balance.games.gemrush.game", "balance.games.rusship.game", "numba",
                  "heuristics.player"))
    found = registry.found()
    assert found["rusship"].ref == "balance.games.rusship.game:GAME"
    assert found["gemrush"].in_folder and found["gemrush"].package == "balance.games.gemrush"


def test_a_package_of_its_own_is_found_through_its_entry_point(site, cli):
    _install(site, "pig-balance", {"hog": "pig_balance.game:GAME"})
    assert "hog" in registry.names()
    f = registry.found()["hog"]
    assert not f.in_folder and f.package == "pig_balance" and "pig-balance" in f.where
    assert registry.get("hog").title == "Hog"
    r = cli("games")
    assert r.exit_code == 0 and "hog: Hog, version 1, 2-4 players" in r.output, r.output


@pytest.mark.parametrize(("entry", "said"), [
    ("pig_missing.game:GAME", "cannot load pig_missing.game:GAME: ModuleNotFoundError: No "
     "module named 'pig_missing'"),
    ("pig_balance.game:NOT_A_GAME", "pig_balance.game:NOT_A_GAME is no Game "
     "(balance.contract.game.Game), it is a int"),
    ("pig_balance.game:GAME", "pig_balance.game:GAME declares the game 'hog', not 'broken'"),
])
def test_a_broken_entry_point_is_one_message(site, cli, entry, said):
    _install(site, "broken-balance", {"broken": entry})
    with pytest.raises(InputError) as e:
        registry.get("broken")
    head = "entry point 'broken' of balance.games (package broken-balance): "
    assert [str(p) for p in e.value.problems] == [head + said]
    assert registry.get("rusship").name == "rusship"  # the other games still serve
    for args in (["games"], ["--help"], ["broken", "play"]):
        r = cli(*args)
        assert r.exit_code == 2, (args, r.output)
        assert r.output.strip() == f"error: {head}{said}", (args, r.output)


def test_a_name_found_twice_is_one_message(site):
    _install(site, "pig-balance", {"rusship": "pig_balance.game:GAME"})
    with pytest.raises(InputError) as e:
        registry.names()
    assert [str(p) for p in e.value.problems] == [
        "entry point 'rusship' of balance.games (package pig-balance): the game 'rusship' is "
        "also balance/games/rusship/game.py: rename or uninstall one"]


def test_a_name_that_is_no_identifier_is_one_message(site):
    _install(site, "pig-balance", {"Pig-Game": "pig_balance.game:GAME"})
    with pytest.raises(InputError, match="'Pig-Game' of balance.games .*lower-case identifier"):
        registry.names()


def test_an_unknown_name_or_one_of_the_wrong_type_is_one_message():
    known = f"(known: {', '.join(registry.names())})"
    with pytest.raises(InputError) as e:
        registry.get("nope", "x.toml", "[experiment]", "game")
    assert str(e.value) == f"x.toml: [experiment]: field 'game': no such game 'nope' {known}"
    for name in (["rusship"], None):  # no name at all: a list from a file, or nothing
        with pytest.raises(InputError) as e:
            registry.get(name, "x.toml", "[experiment]", "game")
        assert str(e.value) == ("x.toml: [experiment]: field 'game': must be a game's name in "
                                f"quotes, got {name!r} {known}")


@pytest.mark.parametrize("written", ["gem-mountain", "Gem Mountain", " GEM_MOUNTAIN "])
def test_a_game_is_found_as_its_rulebook_writes_its_name(written):
    """The issue and a designer write "gem-mountain"; the registry's name is an identifier."""
    assert registry.get(written) is registry.get("gem_mountain")


def test_a_respelled_name_that_is_still_unknown_is_the_same_one_message():
    with pytest.raises(InputError, match="no such game 'gem-nowhere'"):
        registry.get("gem-nowhere", "--game", "", "")
