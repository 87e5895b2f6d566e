"""Issue 25, the input classes (items 5, 8, 18, 19, 23, 24, 25): values of the wrong type in
experiment files, patches and the Python API; two content files of one name; long and empty
names; one mistake repeated in many places; ablations of a patched box; many variants.

CASES are refused cleanly (tests/fuzz.py: exit 2, one message naming the file, the field and
the problem, nothing written). The tests below them pin what is accepted, and how."""

from __future__ import annotations

import json
import shutil
import tomllib

import pytest

import balance
from balance.errors import InputError, Problem, grouped
from balance.running.experiment import MAX_NAME, load_experiment
from balance.running.runner import run_experiment
from tests.conftest import PLAYABLE_TOML
from tests.fuzz import EXPERIMENT, Case, assert_refused_cleanly, cli_args, exp

# A patch that every variant applies; [grid] makes the variants.
PATCH = '[patches.p]\nselect = { rooms = "*" }\n'


def _patched(op: str, select: str = 'rooms = "*"', grid: str = "") -> Case:
    return exp(append=f"[patches.p]\nselect = {{ {select} }}\n{op}\n" + grid)


def _same_name_boxes(tmp):
    """A run of two content files named box.toml (a/ and b/), then a/box.toml edited: the
    rerun must see the edit."""
    for folder, copies in (("a", 10), ("b", 9)):
        (tmp / folder).mkdir()
        text = PLAYABLE_TOML.replace("copies = 10", f"copies = {copies}") \
            .replace("gem_cards = 14", f"gem_cards = {copies + 4}")
        (tmp / folder / "box.toml").write_text(text, encoding="utf-8")
    path = tmp / "fz.toml"
    path.write_text(EXPERIMENT.replace("players = 2", 'players = 2\n\n[grid]\ncontent = '
                                       '["a/box.toml", "b/box.toml"]'), encoding="utf-8")
    run_experiment(load_experiment(path), tmp / "runs", jobs=1)
    (tmp / "runs" / "fz" / ".lock").unlink()
    box = tmp / "a" / "box.toml"
    box.write_text(box.read_text(encoding="utf-8").replace("Minimal test content", "edited"),
                   encoding="utf-8")
    return ["run", str(path), "--out", str(tmp / "runs"), "--jobs", "1"]


def _ablate_long_name(tmp):
    name = "a" * 245  # a folder name the file system takes; with "-ablate-out" it would not
    path = tmp / "fz.toml"
    path.write_text(EXPERIMENT.replace('name = "fz"', f'name = "{name}"'), encoding="utf-8")
    return ["ablate", str(path), "--out", str(tmp / "runs"), "--jobs", "1"]


ABLATE_LINES = 'players = 2\ncontent = "mini.toml"\nablate = "out"'
GONE = '\n[patches.gone]\nselect = { rooms = "Ruby Shaft" }\ncopies = 0\n'

CASES: dict[str, Case] = {
    # -- item 18: a value of the wrong type in an experiment file --------------------------
    "exp-heuristic-list": Case("experiment", exp("players = 2", 'players = 2\nheuristic = '
                                                 '["greedy"]'),
                               ("[experiment]", "'heuristic'", "a player's name")),
    "exp-heuristic-table": Case("experiment", exp("players = 2", "players = 2\nheuristic = "
                                                  "{ a = 1 }"),
                                ("[experiment]", "'heuristic'", "a player's name")),
    "exp-heuristic-empty-list": Case("experiment", exp("players = 2", "players = 2\n"
                                                       "heuristic = []"),
                                     ("[experiment]", "'heuristic'", "a player's name")),
    "exp-seats-nested": Case("experiment", exp("players = 2", 'players = 2\nseats = '
                                               '[["greedy"], ["greedy"]]'),
                             ("[experiment]", "'seats'", "a list of players")),
    "grid-seats-nested": Case("experiment", exp(append='\n[grid]\nseats = [[["greedy"], '
                                                '"greedy"]]\n'),
                              ("[grid]", "'seats'", "a list of players")),
    "grid-knob-text": Case("experiment", exp(append='\n[grid]\n"knob.nope" = ["x", "y"]\n'),
                           ("[grid]", "'knob.nope'", "must be numbers")),
    "exp-content-empty": Case("experiment", exp("players = 2", 'players = 2\ncontent = ""'),
                              ("[experiment]", "'content'", "is empty")),
    # -- item 8: a patch value of the wrong shape -----------------------------------------
    "patch-set-cost-number": Case("experiment", _patched("set_cost = 5"),
                                  ("[patches.p]", "'set_cost'", "a list of gems' names",
                                   "got 5")),
    "patch-set-cost-table": Case("experiment", _patched("set_cost = { gem = \"Obsidian\" }"),
                                 ("[patches.p]", "'set_cost'", "a list of gems' names")),
    "patch-select-points-text": Case("experiment", _patched("add_points = 1",
                                                            'points = [1, "x"]'),
                                     ("[patches.p]", "'select.points'", "[low, high]")),
    "patch-select-points-bool": Case("experiment", _patched("add_points = 1",
                                                            "points = true"),
                                     ("[patches.p]", "'select.points'", "got True")),
    "patch-select-rooms-numbers": Case("experiment", _patched("add_points = 1",
                                                              "rooms = [1, 2]"),
                                       ("[patches.p]", "'select.rooms'", "a room name")),
    "patch-select-skills-nested": Case("experiment", _patched("uses = 2",
                                                              'skills = [["Pathfinder"]]'),
                                       ("[patches.p]", "'select.skills'", "a skill name")),
    "patch-select-kind-list": Case("experiment", _patched("add_points = 1",
                                                          'kind = ["action"]'),
                                   ("[patches.p]", "'select.kind'", "a room kind")),
    "patch-select-rooms-number": Case("experiment", _patched("add_points = 1", "rooms = 5"),
                                      ("[patches.p]", "'select.rooms'", "got 5")),
    "patch-select-cards-text": Case("experiment", _patched("copies = 2",
                                                           'cards = "Obsidian"'),
                                    ("[patches.p]", "'select.cards'", "the gems a card")),
    # -- item 23: one patch mistake in every door, in every variant: one line ---------------
    "patch-kind-every-room": Case("experiment", _patched(
        'kind = "minecart"', 'rooms = "* Vein"', '\n[grid]\nhand_limit = [4, 5, 6]\n'),
        ("[patches.p] in variant 0 (hand_limit=4), room", "more", "makes the content "
         "invalid")),
    # -- item 24: names too long for the file system, or empty ---------------------------
    "exp-name-300": Case("experiment", exp('name = "fz"', f'name = "{"a" * 300}"'),
                         ("[experiment]", "'name'", "300 characters", f"more than {MAX_NAME}")),
    "cli-empty-experiment": Case("cli", cli_args("run", "", "--out", "TMP/runs"),
                                 ("EXPERIMENT", "is empty")),
    "cli-ablate-empty-experiment": Case("cli", cli_args("ablate", "", "--out", "TMP/runs"),
                                        ("EXPERIMENT", "is empty")),
    "cli-content-empty-experiment": Case("cli", cli_args("content", ""),
                                         ("EXPERIMENT", "is empty")),
    "grid-content-long-name": Case("experiment", exp(append=f'\n[grid]\ncontent = '
                                                     f'["{"c" * 300}.toml"]\n'),
                                   ("[grid]", "'content'", "cccc")),
    "cli-long-experiment-path": Case("cli", cli_args("run", "TMP/" + "b" * 300, "--out",
                                                     "TMP/runs"),
                                     ("bbbb", "300 characters", "more than a file name")),
    "exp-content-long-name": Case("experiment", exp("players = 2", 'players = 2\ncontent = '
                                                    f'"{"c" * 300}.toml"'),
                                  ("[experiment]", "'content'", "cccc")),
    "ablate-long-name": Case("cli", _ablate_long_name,
                             ("[experiment]", "'name'", "245 characters")),
    # -- item 5: two content files of one name are two inputs ----------------------------
    "resume-same-name-box-edited": Case("run folder", _same_name_boxes,
                                        ("fz", "content/a/box.toml changed")),
    # -- item 25: an ablation says what it cannot do in its own words ------------------------
    "ablate-last-room": Case("experiment", exp("players = 2", ABLATE_LINES, append=GONE),
                             ("variant 1 (ablate=Electrum Vein)", "'ablate'",
                              "room 'Electrum Vein' cannot be taken out of the box")),
}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_input_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)


# -- item 25: an ablation says what it cannot do in its own words ------------------------


# A third action room, so that either of the others can go.
SPARE = PLAYABLE_TOML.replace("room_tiles = 5", "room_tiles = 6") + """
[[rooms]]
name = "Spare Room"
copies = 1
kind = "action"
ability = "draw 1"
north = { cost = ["Electrum"], points = 1 }
east = "wall"
south = "door"
west = "wall"
"""


def _ablation(tmp_path, patch: str, how: str = "out"):
    (tmp_path / "spare.toml").write_text(SPARE, encoding="utf-8")
    path = tmp_path / "fz.toml"
    path.write_text(EXPERIMENT.replace("players = 2", f'players = 2\ncontent = "spare.toml"\n'
                                       f'ablate = "{how}"') + patch, encoding="utf-8")
    return path


def test_a_room_the_designers_patch_takes_out_is_not_ablated(tmp_path):
    exp_ = load_experiment(_ablation(tmp_path, GONE))
    assert [v.swept["ablate"] for v in exp_.variants] == [
        "none", "Electrum Vein", "Straight Tunnel", "Spare Room"]


def test_balance_ablate_names_the_patch_that_took_a_room_out(tmp_path, cli):
    path = _ablation(tmp_path, GONE)
    path.write_text(path.read_text(encoding="utf-8").replace('ablate = "out"', ""),
                    encoding="utf-8")
    r = cli("ablate", path, "--out", tmp_path / "runs", "--jobs", 1)
    assert r.exit_code == 0, r.output
    assert "Ruby Shaft: not ablated; the experiment's patch 'gone' takes it out" in r.stdout
    assert "ablate" not in r.stderr


# -- item 8: a room a patch adds is ablated too --------------------------------------------

def test_a_room_a_patch_adds_is_ablated(tmp_path):
    added = ('\n[patches.new]\nadd_room = { name = "New Room", kind = "action", ability = '
             '"draw 1", copies = 1, north = { cost = ["Fire Ruby"], points = 1 }, east = '
             '"wall", south = "door", west = "wall" }\n')
    exp_ = load_experiment(_ablation(tmp_path, added))
    assert [v.swept["ablate"] for v in exp_.variants][-1] == "New Room"
    last = tomllib.loads(exp_.variants[-1].carry["content_text"])
    assert "New Room" not in [r["name"] for r in last["rooms"]]
    first = tomllib.loads(exp_.variants[0].carry["content_text"])
    assert "New Room" in [r["name"] for r in first["rooms"]]


# -- item 18: the Python API raises the toolkit's InputError, in the CLI's words -----------

@pytest.mark.parametrize("kwargs, field, phrase", [
    ({"heuristic": ["greedy"]}, "heuristic", "must be a player's name in quotes"),
    ({"heuristic": {"a": 1}}, "heuristic", "must be a player's name in quotes"),
    ({"rules": "hand_limit=5"}, "rules", "must be a table of rule overrides"),
    ({"rules": 0}, "rules", "must be a table of rule overrides"),
    ({"content": ""}, "content", "is empty"),
    ({"jobs": 0}, "jobs", "must be from 1 to"),
    ({"jobs": -1}, "jobs", "must be from 1 to"),
    ({"jobs": 10**30}, "jobs", "must be from 1 to"),
    ({"jobs": "2"}, "jobs", "must be a whole number of worker processes"),
    ({"jobs": True}, "jobs", "must be a whole number of worker processes"),
    ({"jobs": 1.5}, "jobs", "must be a whole number of worker processes"),
])
def test_simulate_refuses_a_wrong_argument_with_an_input_error(kwargs, field, phrase):
    with pytest.raises(InputError) as e:
        balance.simulate(games=2, players=2, exhaust=True, **kwargs)
    assert str(e.value).startswith(f"balance.simulate: field '{field}': {phrase}"), str(e.value)


def test_simulate_and_run_say_the_same_of_the_same_mistake(tmp_path):
    with pytest.raises(InputError) as api:
        balance.simulate(games=2, players=2, exhaust=True, heuristic=["greedy"])
    path = tmp_path / "fz.toml"
    path.write_text(EXPERIMENT.replace("players = 2", 'players = 2\nheuristic = ["greedy"]'),
                    encoding="utf-8")
    with pytest.raises(InputError) as run:
        load_experiment(path)
    (a,), (b,) = api.value.problems, run.value.problems
    assert (a.field, a.message) == (b.field, b.message)


# -- item 23: a problem repeated in many places is one line with the count ----------------

def test_repeated_problems_are_grouped_with_a_count_of_places():
    rooms = [Problem("x.toml", f'room "{n}"', "ability", "unknown gem 'Nothing'")
             for n in "ABC"]
    other = Problem("x.toml", "[box]", "ability", "unknown gem 'Nothing'")
    assert [str(p) for p in grouped([*rooms, other])] == [
        "x.toml: room \"A\" and 2 more: field 'ability': unknown gem 'Nothing'",
        "x.toml: [box]: field 'ability': unknown gem 'Nothing'"]
    # grouped again (the same mistake in 4 variants): the places add up, nothing is repeated
    again = [Problem("x.toml", f"variant {i}, {p.where}", p.field, p.message)
             for i in range(4) for p in grouped(rooms)]
    (p,) = InputError(again).problems
    assert p.where == 'variant 0, room "A" and 11 more'


# -- item 5: every input keyed by its path, relative to the experiment file ----------------

def _two_boxes(folder):
    for sub, copies in (("a", 10), ("b", 9)):
        (folder / sub).mkdir(parents=True)
        (folder / sub / "box.toml").write_text(
            PLAYABLE_TOML.replace("copies = 10", f"copies = {copies}").replace(
                "gem_cards = 14", f"gem_cards = {copies + 4}"), encoding="utf-8")
    path = folder / "fz.toml"
    path.write_text(EXPERIMENT.replace("players = 2", 'players = 2\n\n[grid]\ncontent = '
                                       '["a/box.toml", "b/box.toml"]'), encoding="utf-8")
    return path


def test_two_content_files_of_one_name_are_two_inputs_and_a_moved_folder_keeps_them(tmp_path):
    exp_ = load_experiment(_two_boxes(tmp_path / "project"))
    assert sorted(exp_.inputs) == ["content/a/box.toml", "content/b/box.toml",
                                   "profiles/2e.toml"]
    assert exp_.inputs["content/a/box.toml"] != exp_.inputs["content/b/box.toml"]
    shutil.move(tmp_path / "project", tmp_path / "moved")
    assert load_experiment(tmp_path / "moved" / "fz.toml").inputs == exp_.inputs


def test_a_run_whose_manifest_keys_inputs_by_name_is_read_but_not_resumed(tmp_path, cli):
    from balance.running.store import read_run

    path = _two_boxes(tmp_path)
    run_experiment(load_experiment(path), tmp_path / "runs", jobs=1)
    manifest = tmp_path / "runs" / "fz" / "manifest.json"
    m = json.loads(manifest.read_text(encoding="utf-8"))
    m["inputs"] = {"content/box.toml": m["inputs"]["content/b/box.toml"],
                   "profiles/2e.toml": m["inputs"]["profiles/2e.toml"]}  # as runs once wrote
    manifest.write_text(json.dumps(m), encoding="utf-8")
    assert read_run(tmp_path / "runs" / "fz").games.height == 20
    r = cli("run", path, "--out", tmp_path / "runs", "--jobs", 1)
    assert r.exit_code == 2 and "content/a/box.toml" in r.stderr, r.output


# -- item 19: a variant costs the manifest little -----------------------------------------

def test_the_manifest_records_each_patched_box_once(tmp_path):
    path = tmp_path / "fz.toml"
    path.write_text(EXPERIMENT.replace("players = 2", "") + PATCH + "add_points = 0\n\n[grid]\n"
                    '"p.add_points" = [0, 1, 2]\nplayers = [1, 2]\nhand_limit = [4, 5]\n',
                    encoding="utf-8")
    described = [v.describe() for v in load_experiment(path).variants]
    assert len(described) == 12
    holders = [d for d in described if "content_toml" in d]  # the first variant of each box
    assert [d["variant"] for d in holders] == [0, 4, 8]
    assert {d["content_sha256"] for d in described} == {d["content_sha256"] for d in holders}


def test_too_many_variants_for_a_report_are_refused_saying_why(tmp_path):
    path = tmp_path / "fz.toml"
    path.write_text(EXPERIMENT.replace("players = 2", "") + "\n[grid]\nplayers = [1, 2, 3]\n"
                    f"hand_limit = {list(range(7))}\nsteps = {list(range(1, 20))}\n"
                    f"deal = {[4, 5, 6]}\n", encoding="utf-8")
    with pytest.raises(InputError, match="makes 1,197 variants, more than 500: a report"):
        load_experiment(path)


@pytest.mark.parametrize("kwargs, field", [
    ({"rules": "hand_limit=5"}, "rules"), ({"heuristic": ["greedy"]}, "heuristic"),
    ({"content": 5}, "content"), ({"seats": 5}, "seats"), ({"knobs": "x"}, "knobs"),
    ({"exhaust": None}, "exhaust"), ({"players": "2"}, "players"),
])
def test_prepare_refuses_a_wrong_argument_with_an_input_error(kwargs, field):
    from balance.games.gemrush.play import prepare

    with pytest.raises(InputError) as e:
        prepare(**{"players": 2, **kwargs})
    assert str(e.value).startswith(f"arguments: field '{field}': must be "), str(e.value)
