"""A report speaks the designer's words: no `key=value` of a setting, a key a game reads itself,
the player or the seats (of any registered game) appears in the visible text of a page built
from small real runs of every shipped game (the experiment files' own text, shown as written,
and commands in code aside)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import balance
from balance.contract import registry
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from reports.page.build import build_report

RUNS = {
    "gemrush": ["""\
[experiment]
name = "gr-hands"
description = "hand limits for two players"
edition = "2e"
mode = "crisis"
games = 12
seed = 5
exhaust = true
players = 3

[grid]
heuristic = ["greedy", "random"]
hand_limit = [5, 6]
""", """\
[experiment]
name = "gr-plain"
description = "each room made plain"
edition = "2e"
mode = "crisis"
games = 6
seed = 6
players = 3
exhaust = true
ablate = "plain"
"""],
    "rusship": ["""\
[experiment]
name = "rs-comp"
description = "compensations on two boards"
game = "rusship"
heuristic = "racer"
players = 2
games = 30
seed = 7

[grid]
length = [9, 12, 15]
second_tokens = [0, 1]
""", """\
[experiment]
name = "rs-powers"
description = "each power out"
game = "rusship"
heuristic = "racer"
players = 2
games = 20
seed = 8
ablate = "powers"
""", """\
[experiment]
name = "rs-seats"
description = "two seatings"
game = "rusship"
players = 2
games = 20
seed = 9

[grid]
seats = [["racer", "racer"], ["random", "racer"]]
"""],
    "gem_mountain": ["""\
[experiment]
name = "gm-start"
description = "the quicker start and the placed arrow"
game = "gem_mountain"
heuristic = "majority"
games = 20
seed = 10

[grid]
players = [3, 4]
start_tiles = ["none", "action"]
start_arrow = ["corner", "chosen"]
""", """\
[experiment]
name = "gm-actions"
description = "each action out"
game = "gem_mountain"
heuristic = "majority"
players = 4
games = 20
seed = 11
ablate = "actions"
"""],
    "gem_runner": ["""\
[experiment]
name = "gr-ways"
description = "head to head and against the Computer, each with two heroes"
game = "gem_runner"
heuristic = "runner"
players = 2
games = 20
seed = 12

[rules]
decks = 2

[grid]
play = ["head_to_head", "computer"]
hero1 = ["bit_boy", "data_dog"]
""", """\
[experiment]
name = "gr-computer"
description = "the Computer's Gem and the Element circle"
game = "gem_runner"
heuristic = "runner"
players = 1
games = 20
seed = 13

[grid]
computer_gem = ["pool_first", "hand_first"]
stronger_beats = [false, true]
"""],
}


def visible_text(page: str) -> str:
    """What a reader sees of a page, less the experiment files (shown as written) and commands
    (which take keys: `--set hand_limit=5`)."""
    page = re.sub(r"<(script|style|pre|code)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r'data:image/png;base64,[^"]+', "", page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def keys_of(game) -> set[str]:
    """Every key of an experiment file a game's variants may sweep."""
    return {s.name for s in game.settings} | {x.key for x in game.labels} | {
        "heuristic", "seats", "ablate", "players"}


@pytest.fixture(scope="module", params=sorted(RUNS))
def report(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(request.param)
    dirs = []
    for i, text in enumerate(RUNS[request.param]):
        path = root / f"e{i}.toml"
        path.write_text(text, encoding="utf-8")
        dirs.append(run_experiment(load_experiment(path), out=root / "runs", jobs=1).run_dir)
    page = build_report(dirs, root / "report")
    return registry.get(request.param), page.read_text(encoding="utf-8")


def test_every_shipped_game_is_tried():
    shipped = {p.parent.name for p in (Path(balance.__file__).parent / "games").glob("*/game.py")}
    assert set(RUNS) >= shipped


def test_no_setting_is_written_as_its_key(report):
    _, page = report
    seen = visible_text(page)
    keys = set().union(*(keys_of(registry.get(n)) for n in registry.names()))
    keyed = sorted({m.group(0) for m in re.finditer(
        r"\b(" + "|".join(map(re.escape, sorted(keys, key=len, reverse=True)))
        + r")=\S+", seen)})
    assert not keyed, keyed[:20]
    assert "Versions of players" not in seen


def test_the_length_note_is_said_once(report):
    game, page = report
    if not game.length_note:
        return
    note = f"Game length is counted in {game.length_unit}: {game.length_note}."
    assert visible_text(page).count(note) == 1


def test_no_end_reason_is_written_as_its_name(report):
    game, page = report
    seen = visible_text(page)
    named = sorted(e for e in game.end_reasons if "_" in e and e in seen)
    assert not named, named


def test_no_seat_arrangement_is_written_as_stored(report):
    # The games table's heuristic joins the seats' players with "," (reference,racer); a
    # page says "Reference (Humanity) vs Racer".
    game, page = report
    seen = visible_text(page)
    names = list(game.player_registry())
    stored = sorted({f"{p},{q}" for p in names for q in names if f"{p},{q}" in seen})
    assert not stored, stored
