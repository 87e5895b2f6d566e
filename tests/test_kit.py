"""The engine kit (balance/kit/): every game on it has its goldens unchanged and its generated
loop current; the loop follows the declaration; the rules reach the engine as declared."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from balance.contract import registry
from balance.contract.game import resolve
from balance.kit.forward import copy_kit_nb, kit_turn, kit_value_nb, reseed_chance_nb
from balance.kit.generate import loop_source, sources, stale
from balance.kit.play import compiled_rules, play, prepare
from balance.kit.playthrough import golden_path, golden_text, render
from balance.kit.state import AUTOMA_WON, CHECK, OUTCOME, TEAM_WON, TRACE, TURN_EVENT, UNDECIDED
from balance.kit.view import View

KITS = [resolve(g.kit) for g in registry.games() if g.kit]
GOLDENS = [(kit, golden) for kit in KITS for golden in kit.goldens]


@pytest.mark.parametrize("kit, golden", GOLDENS,
                         ids=[f"{k.name}-{g.name}" for k, g in GOLDENS])
def test_golden_playthrough_unchanged(kit, golden):
    assert golden_text(kit, golden) == golden_path(kit, golden).read_text(), (
        f"{golden.name} of {kit.name} changed; if intended, run `python -m "
        f"balance.kit.playthrough {kit.ref}` and read the diff")


@pytest.mark.parametrize("kit", KITS, ids=lambda k: k.name)
def test_the_generated_files_are_current(kit):
    assert stale([kit]) == [], f"run python -m balance.kit.generate {kit.ref}"
    assert len(sources(kit)) >= 2  # the dispatch and the loop (and a search's rollouts)


def test_the_loop_follows_the_declaration():
    """A game without invariants is judged by nothing; the declared kinds of option are the
    ones a check accepts."""
    dice = next(k for k in KITS if k.name == "dice")
    text = loop_source(dice)
    assert "judged_nb(kit, broken_nb(state, rules), 5)" in text
    assert "offered_nb(kit, 2)" in text
    more = dataclasses.replace(dice, options=(*dice.options, dice.options[0]))
    assert "offered_nb(kit, 3)" in loop_source(more)


def test_the_rules_reach_the_engine_by_name():
    dice = next(k for k in KITS if k.name == "dice")
    rules = compiled_rules(dice, {**dice.defaults, "faces": 8}, 3)
    assert rules._asdict() == {"players": 3, "target": 30, "faces": 8, "max_turns": 200}
    broken = dataclasses.replace(dice, settings=dice.settings[:1])
    with pytest.raises(ValueError, match="field 'faces' is no setting of dice"):
        compiled_rules(broken, dice.defaults, 2)


def test_a_batch_plays_the_games_a_game_at_a_time_would():
    """Nothing of one game reaches the next: the kit resets every stream, score and tally."""
    for kit in KITS:
        setup = prepare(kit, {}, ("random", "random"))
        batch = play(setup, [4, 9, 4])
        assert (batch.out[0] == batch.out[2]).all(), kit.name
        assert (play(setup, [9]).out[0] == batch.out[1]).all(), kit.name


# The dice race played without the JIT, so that the loop's calls to the players' dispatch can
# be overheard: what a player written in Python would hear.
OVERHEARD = """
import json
import tests.games.dice.loop_nb as loop
from balance.kit.play import play, prepare
from tests.games.dice.game import KIT
heard = []
loop.turn_start_nb = lambda seats, seat: heard.append(["turn", int(seat)])
loop.seen_nb = lambda seats, decision, pick, seat: heard.append(["seen", int(seat)])
records = play(prepare(KIT, {}, ("stopper", "random", "stopper")), [5])
print(json.dumps({"heard": heard, "decisions": int(records.decisions[0])}))
"""


def test_a_python_player_hears_of_every_turn_and_every_compiled_choice():
    """A seat may decide in another's turn (Rusship's power at an attack), so each turn's
    start reaches every seat, the turn's seat first; and a search replaying a turn must
    replay every choice in it, so each pick reaches the dispatch's seen_nb."""
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", OVERHEARD], capture_output=True, text=True,
                         cwd=root, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout)
    heard, seats = got["heard"], 3
    assert sum(1 for what, _ in heard if what == "seen") == got["decisions"] > 0
    starts = [i for i, (what, _) in enumerate(heard) if what == "turn"]
    assert len(starts) % seats == 0 and starts
    for i in starts[::seats]:
        first = heard[i][1]
        assert heard[i: i + seats] == [["turn", (first + q) % seats] for q in range(seats)]
        choices = [seat for what, seat in heard[i + seats:] if what == "seen"][:1]
        assert choices in ([], [first])  # the turn's seat decides in the dice race


class RaceView(View):
    """The dice race with its scores drawn at each turn, a line opening each turn, and its
    decisions in words of its own: what a game that draws its board asks of a view."""

    def __init__(self, setup):
        super().__init__(setup)
        self.scores = [0] * len(setup.seats)

    def header(self):
        return f"a race to {self.setup.values['target']}"

    def event(self, row):
        turn, seat, code = int(row[0]), int(row[1]), int(row[2])
        if code == TURN_EVENT:
            return f"turn {turn + 1}: seat {seat + 1}"
        if code == 1:  # bust (score)
            self.scores[seat] = int(row[3])
        elif code == 2:  # banked (total, score)
            self.scores[seat] = int(row[4])
        return None

    def option(self, seat, decision, row):
        return f"{seat + 1} stops" if int(row[0]) == 0 else "go on"

    def decision(self, seat, decision, shown, pick):
        return f"  ? {seat + 1}: {shown} -> {pick}"

    def text(self):
        return "  scores " + " ".join(map(str, self.scores))


def test_a_view_draws_the_state_at_each_turn_and_words_what_depends_on_it():
    dice = next(k for k in KITS if k.name == "dice")
    viewed = dataclasses.replace(dice, view="tests.test_kit:RaceView", show_decisions=True)
    lines = render(prepare(viewed, {}, ("stopper", "stopper")), 3).splitlines()
    assert lines[0] == "a race to 30"
    turns = [i for i, x in enumerate(lines) if x.startswith("turn ") and ": seat " in x]
    drawn = [i for i, x in enumerate(lines) if x.startswith("  scores ")]
    assert turns and drawn == [i - 1 for i in turns] + [len(lines) - 2]
    assert lines[drawn[0]] == "  scores 0 0"
    assert lines[-1].startswith("end: ")  # the closing, after the last state drawn
    final = lines[-1].split("scores ")[1].split("]")[0].strip("[").replace(",", "")
    assert lines[drawn[-1]] == f"  scores {final}"
    asked = [x for x in lines if x.startswith("  ? ")]
    assert asked and all(x.endswith(("-> 0", "-> 1")) and f"0: {x[4]} stops | 1: go on" in x
                         for x in asked)
    # The race's own lines are still its declaration's, between the view's.
    assert any(": banks " in x for x in lines)
    assert render(prepare(dice, {}, ("stopper", "stopper")), 3).splitlines()[0].startswith(
        "dice race, seed 3")


def wide_die(values, seats):
    """The dice race's rules compiled the game's own way: a die of twice the faces set."""
    dice = next(k for k in KITS if k.name == "dice")
    return dice.module().Rules(players=seats, target=int(values["target"]),
                               faces=2 * int(values["faces"]),
                               max_turns=int(values["max_turns"]))


def test_a_game_may_compile_its_rules_its_own_way():
    """Rusship's Rules are not its settings one by one (power_choice is power_now)."""
    dice = next(k for k in KITS if k.name == "dice")
    own = dataclasses.replace(dice, compile="tests.test_kit:wide_die")
    assert compiled_rules(own, {**dice.defaults, "faces": 4}, 3).faces == 8
    assert prepare(own, {"faces": 5}, ("random", "random")).rules.faces == 10
    assert prepare(dice, {"faces": 5}, ("random", "random")).rules.faces == 5


def test_a_game_on_the_kit_may_keep_hooks_of_its_own():
    dice = dataclasses.replace(next(k for k in KITS if k.name == "dice"))
    game = dice.declare(title="Dice race", version="1", player_counts=(2,), cooperative=False,
                        measures=(), default_player="stopper",
                        variants="tests.games.dice.game:own_variants")
    assert game.variants == "tests.games.dice.game:own_variants"
    assert game.play == f"{dice.ref}.play_shard" and game.kit == dice.ref


def test_the_kits_forward_hooks_copies_a_game_and_scores_its_end():
    dice = next(k for k in KITS if k.name == "dice")
    setup = prepare(dice, {}, ("stopper", "stopper"))
    records = play(setup, [3], check=True)
    src, dst = setup.state.kit, setup.new_state().kit
    copy_kit_nb(dst, src)
    for name in ("chance", "score", "tally", "rec", "opt", "lead"):
        assert (getattr(dst, name) == getattr(src, name)).all(), name
    assert src.sc[CHECK] == 1 and dst.sc[CHECK] == 0 and dst.sc[TRACE] == 0
    rest = [i for i in range(len(src.sc)) if i not in (CHECK, TRACE)]
    assert (dst.sc[rest] == src.sc[rest]).all()
    assert kit_turn(setup.state) == records.turns[0] - 1
    winner = int(records.winner[0])
    assert kit_value_nb(src, winner) == 1.0 and kit_value_nb(src, 1 - winner) == 0.0
    for outcome, worth in ((UNDECIDED, 0.5), (TEAM_WON, 1.0), (AUTOMA_WON, 0.0)):
        src.sc[OUTCOME] = outcome
        assert kit_value_nb(src, winner) == worth
    rng = np.array([1, 2, 3, 4], np.int64)
    again = rng.copy()
    reseed_chance_nb(src, rng)
    reseed_chance_nb(dst, again)
    assert (src.chance == dst.chance).all() and (src.chance != 0).all()
    reseed_chance_nb(dst, again)  # the stream moved on: other dice to come
    assert (src.chance != dst.chance).any()
