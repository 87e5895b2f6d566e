"""Skills (2nd edition): the effect language, the content, the six variants' deals, the
rulebook's two Magic Circle examples, one scenario per skill in which greedy holding it uses
it where it clearly pays, and whole games under every variant with the invariants checked."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from balance.errors import InputError
from balance.games.gemrush.content import load_content
from balance.games.gemrush.engine.decisions import OPT_SKILL
from balance.games.gemrush.engine.state import SK_SLOT0
from balance.games.gemrush.experiment import prepare_variant
from balance.games.gemrush.play import play_batch, prepare
from balance.games.gemrush.scenario import Scenario
from balance.games.gemrush.skill import SK_STEPS, SK_TURN, SkillError, parse_effect

GEMS = {"Electrum", "Fire Ruby", "Obsidian", "Permafrost", "Raw Hope", "Soulstone",
        "Star Tear", "Diamond Dust", "Echoglass", "Orichalcum", "Warpstone"}
CONTENT = Path(__file__).resolve().parents[3] / "balance/games/gemrush/data/content/gemrush-2e.toml"


# -- the language ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "extra steps 1", "hand limit +2", "draw 1 after ability", "ability again", "recover 2",
    "move to any room", "turn 1 card into Echoglass Echoglass",
    "turn 2 cards showing Echoglass into Diamond Dust", "turn 1 card into kept own",
    "turn 1 card showing own into own Diamond Dust", "turn 1 card showing Fire Ruby into kept own",
])
def test_every_form_of_the_language_reads_back_as_written(text):
    assert str(parse_effect(text, GEMS)) == text


def test_gem_names_with_spaces_are_read_whole():
    e = parse_effect("turn 1 card showing Star Tear into Fire Ruby Diamond Dust", GEMS)
    assert (e.op, e.n, e.cond, e.out) == (SK_TURN, 1, "Star Tear", ("Fire Ruby", "Diamond Dust"))
    assert parse_effect("extra steps 2", GEMS).op == SK_STEPS


@pytest.mark.parametrize("text, phrase", [
    ("", "empty"),
    ("fly 3", "unknown effect"),
    ("extra steps 0", "count from 1"),
    ("extra steps 12", "count from 1"),
    ("hand limit 2", "unknown effect"),
    ("turn 1 card into Ruby", "unknown gem 'Ruby'"),
    ("turn 1 card into kept kept", "name it once"),
    ("turn 1 card into Obsidian Obsidian Obsidian", "one or two gems"),
    ("turn 2 cards into Diamond Dust", "say what it shows"),
    ("turn 3 cards showing own into Obsidian", "'turn 1 card' or 'turn 2 cards'"),
    ("turn 1 card showing kept into Obsidian", "expected a gem or own"),
    ("turn 1 card showing Obsidian Raw Hope", "needs 'into'"),
    ("x" * 300, "at most 200"),
])
def test_a_bad_effect_says_what_is_wrong(text, phrase):
    with pytest.raises(SkillError, match=phrase):
        parse_effect(text, GEMS)


# -- the content ----------------------------------------------------------------------------
def test_the_box_has_twenty_skills_the_four_named_ones_first():
    c = load_content("gemrush-2e")
    assert len(c.skills) == 20 and sum(k.copies for k in c.skills) == 20
    assert [k.name for k in c.skills[:4]] == ["Harmonization", "Transmutation", "Evocation",
                                              "Permeation"]
    assert all("reconstructed" in k.text.lower() for k in c.skills[4:])


def _edited(tmp_path, old, new):
    text = CONTENT.read_text()
    assert old in text
    p = tmp_path / "box.toml"
    p.write_text(text.replace(old, new, 1))
    return p


@pytest.mark.parametrize("old, new, phrase", [
    ('effect = "extra steps 1"', 'effect = "extra steps many"', "skill 'Pathfinder'.*effect"),
    ('effect = "extra steps 1"', 'effect = "extra steps 1"\nuses = 0', "uses.*at least 1"),
    ('effect = "extra steps 1"', 'effect = "extra steps 1"\nbogus = 1', "unknown field"),
    ('effect = "extra steps 1"', "", "effect.*missing"),
    ("skill_cards = 20", "skill_cards = 21", "declares 21 skill cards"),
    ('name = "Sprinter"', 'name = "Pathfinder"', "duplicate skill name"),
])
def test_a_bad_skill_in_a_content_file_is_refused_by_name(tmp_path, old, new, phrase):
    with pytest.raises(InputError, match=phrase):
        load_content(_edited(tmp_path, old, new))


def test_a_designer_changes_a_skill_without_engine_code(tmp_path):
    p = _edited(tmp_path, 'effect = "extra steps 1"', 'effect = "extra steps 3"')
    s = prepare("2e", "crisis", 2, "greedy", content=str(p), rules={"skills": "shared",
                                                                     "shared_skill": "Pathfinder"})
    assert s.tables.skill_op[s.skill_names.index("Pathfinder"), 1] == 3


# -- the variants ---------------------------------------------------------------------------
@pytest.mark.parametrize("rules, phrase", [
    ({"skills": "shared", "shared_skill": "Levitation"}, "shared_skill.*Levitation"),
    ({"skills": "choice", "skill_choice": 5}, "deals 35 skill cards to 7 players"),
    ({"skills": "sometimes"}, "must be one of normal, choice"),
])
def test_a_variant_that_cannot_be_dealt_is_refused(rules, phrase):
    with pytest.raises(InputError, match=phrase):
        prepare("2e", "crisis", 7, "greedy", rules=rules)


def test_a_box_without_skills_cannot_play_a_skill_variant():
    with pytest.raises(InputError, match="no skill cards"):
        prepare("1e", "crisis", 3, "greedy", rules={"skills": "normal"})


def _deal(rules, players=4, games=30, heuristic="greedy"):
    s = prepare("2e", "crisis", players, heuristic, exhaust=True, rules=rules)
    b = play_batch(s, np.arange(games), check=True)
    assert (b.out[:, 11] == 0).all(), "an invariant was broken"  # R_VIOLATION
    return b.skills, b


def test_normal_deals_one_different_skill_to_each_seat():
    sk, _ = _deal({"skills": "normal"})
    assert (sk[:, :, 1] == -1).all() and (sk[:, :, 0] >= 0).all()
    assert all(len(set(g[:, 0])) == 4 for g in sk)
    assert len({tuple(g[:, 0]) for g in sk}) > 20  # dealt at random


def test_shared_gives_everyone_the_named_skill_or_one_dealt():
    sk, _ = _deal({"skills": "shared", "shared_skill": "Encore"})
    assert (sk[:, :, 0] == 9).all() and (sk[:, :, 1] == -1).all()
    sk, _ = _deal({"skills": "shared"})
    assert all(len(set(g[:, 0])) == 1 for g in sk) and len(set(sk[:, 0, 0])) > 5


def test_magic_circle_gives_each_seat_the_cards_on_either_side():
    sk, _ = _deal({"skills": "circle"})
    for g in sk:
        for q in range(4):
            assert g[q, 1] == g[(q - 1) % 4, 0]  # the card shared with the right-hand seat
        assert len(set(g[:, 0])) == 4


def test_choice_keeps_one_of_the_dealt_skills_and_none_deals_nothing():
    sk, _ = _deal({"skills": "choice", "skill_choice": 3})
    assert (sk[:, :, 0] >= 0).all() and all(len(set(g[:, 0])) == 4 for g in sk)
    sk, _ = _deal({"skills": "none"})
    assert (sk == -1).all()


def _trace(rules, players=4, seed=3):
    from balance.games.gemrush.play import play_traced
    from balance.games.gemrush.trace import format_game

    s = prepare("2e", "crisis", players, "greedy", exhaust=True, rules=rules)
    st, ev = play_traced(s, seed)
    return format_game(s, st, ev)


def test_chaos_magic_redraws_skills_during_the_game():
    t = _trace({"skills": "chaos"})
    assert "draws a new skill" in t and "holds the skill" in t
    assert "draws a new skill" not in _trace({"skills": "normal"})


@pytest.mark.parametrize("variant", ["normal", "choice", "shared", "chaos", "circle"])
@pytest.mark.parametrize("players", [1, 4, 7])
def test_whole_games_keep_every_invariant_under_every_variant(variant, players):
    _deal({"skills": variant}, players=players, games=12)


def test_random_players_keep_the_invariants_with_skills_too():
    _deal({"skills": "circle"}, players=3, games=25, heuristic="random")
    _deal({"skills": "chaos"}, players=2, games=25, heuristic="random")


def test_skills_never_move_the_shuffles_of_the_game():
    """The skill deal draws from its own stream: the same seed deals the same gem cards and
    room tiles whatever the skill variant, so variants pair on common seeds."""
    from balance.games.gemrush.engine.game_nb import reset_nb, setup_nb
    from balance.games.gemrush.engine.state import new_state
    from balance.kernels.rng import seed_state

    states = []
    for variant in ("none", "normal", "circle"):
        s = prepare("2e", "crisis", 4, "greedy", exhaust=True, rules={"skills": variant})
        st = new_state(s.tables, s.rules)
        reset_nb(st, s.tables, s.rules, s.players, seed_state(5), 0, 1)
        setup_nb(st, s.tables, s.rules, s.players)
        states.append(st)
    none, normal, circle = states
    for st in (normal, circle):
        assert (st.hand == none.hand).all() and (st.deck == none.deck).all()
        assert (st.tiles == none.tiles).all() and (st.rng == none.rng).all()
    assert (none.sk[:, SK_SLOT0] == -1).all() and (normal.sk[:, SK_SLOT0] >= 0).all()


# -- the rulebook's Magic Circle examples ---------------------------------------------------
def _skill_rows(sc, p=0):
    return [r for r in sc.steps(p) if r[0] == OPT_SKILL]


def test_harmonization_echoglass_cannot_be_transmuted():
    sc = Scenario("2e", players=1, heuristic="scripted")
    vein = sc.place("Obsidian Vein", 0, 0)
    plain, echo1, echo2 = sc.hand(0, ["Obsidian", "Star Tear"], ["Echoglass", "Fire Ruby"],
                                  ["Echoglass", "Raw Hope"])
    sc.stand(0, vein)
    sc.skills(0, "Harmonization", "Transmutation")
    from balance.games.gemrush.engine.skills_nb import use_skill_step_nb

    use_skill_step_nb(sc.st, sc.tb, sc.ru, 0, 0, 0, -1)  # Harmonization on the plain card
    assert sc.face(plain) == ("Echoglass", "Echoglass")
    transmute = [r for r in _skill_rows(sc) if r[1] == 1]
    # Two Echoglass cards can be transmuted (either one turned), but never with the card
    # Harmonization made Echoglass: its printed gems are Obsidian and Star Tear.
    pairs = {(r[2] % 64, r[2] // 64) for r in transmute}
    assert pairs == {(1, 2), (2, 1)}


def test_evocation_does_not_open_permeation_to_a_card_without_the_colour():
    sc = Scenario("2e", players=1, heuristic="scripted")  # seat 1 plays the Electrum dwarf
    vein = sc.place("Obsidian Vein", 0, 0)
    other, own = sc.hand(0, ["Obsidian", "Star Tear"], ["Electrum", "Raw Hope"])
    sc.stand(0, vein)
    sc.skills(0, "Evocation", "Permeation")
    from balance.games.gemrush.engine.skills_nb import use_skill_step_nb

    use_skill_step_nb(sc.st, sc.tb, sc.ru, 0, 0, 0, 0)  # Evocation: Obsidian and Electrum
    assert sc.face(other) == ("Obsidian", "Electrum")
    perm = {r[2] for r in _skill_rows(sc) if r[1] == 1}
    assert perm == {1}  # only the card printed with Electrum
    use_skill_step_nb(sc.st, sc.tb, sc.ru, 0, 1, 1, -1)  # both skills may meet on that card
    assert sc.face(own) == ("Electrum", "Diamond Dust")
    assert sc.skill_uses(0) == [1, 1]


def test_a_turned_card_shows_its_printed_gems_once_it_leaves_the_hand_or_the_turn_ends():
    sc = Scenario("2e", players=1, heuristic="scripted")
    vein = sc.place("Obsidian Vein", 0, 0)
    card, = sc.hand(0, ["Obsidian", "Star Tear"])
    sc.stand(0, vein)
    sc.skills(0, "Lodestone")
    from balance.games.gemrush.engine.skills_nb import restore_faces_nb, use_skill_step_nb

    use_skill_step_nb(sc.st, sc.tb, sc.ru, 0, 0, 0, -1)
    assert sc.face(card) == ("Electrum", "Electrum")
    restore_faces_nb(sc.st, sc.tb)
    assert sc.face(card) == ("Obsidian", "Star Tear")


# -- one scenario per skill: greedy uses it where it clearly pays -----------------------------
def _build_turn(skill, hand, room="Obsidian Vein", seat=0, rules=None, discards=()):
    """Seat `seat` stands in `room` with `hand` and plays its movement step; returns its
    score and its skill's uses."""
    sc = Scenario("2e", players=seat + 1, heuristic="greedy", rules=rules)
    r = sc.place(room, 0, 0)
    sc.hand(seat, *hand)
    if discards:
        sc.discards(*discards)
    sc.tiles("Great Cavern", "Great Cavern", "Great Cavern")
    sc.stand(seat, r)
    if skill:
        sc.skills(seat, skill)
    sc.movement(seat)
    return sc.score(seat), sc.skill_uses(seat)[0], sc


# Obsidian Vein's north door pays Obsidian, Permafrost and Electrum for 2 points; Permafrost
# Vein's south door Obsidian twice and Star Tear; Prism Shaft's north door Electrum twice and
# Obsidian. Seat 1 plays the Electrum dwarf, seat 2 Fire Ruby.
PAYS = [
    ("Harmonization", "Permafrost Vein", [["Obsidian", "Star Tear"], ["Raw Hope", "Soulstone"]],
     None),
    ("Transmutation", "Obsidian Vein", [["Obsidian", "Permafrost"], ["Echoglass", "Fire Ruby"],
                                        ["Echoglass", "Raw Hope"]], None),
    ("Evocation", "Obsidian Vein", [["Obsidian", "Permafrost"], ["Raw Hope", "Star Tear"]], None),
    ("Permeation", "Obsidian Vein", [["Obsidian", "Raw Hope"], ["Electrum", "Star Tear"]], None),
    ("Stonecutter", "Prism Shaft", [["Obsidian", "Soulstone"], ["Electrum", "Fire Ruby"]], None),
    ("Lodestone", "Prism Shaft", [["Obsidian", "Soulstone"], ["Fire Ruby", "Permafrost"]], None),
    ("Orichalcum Smith", "Obsidian Vein", [["Obsidian", "Permafrost"],
                                           ["Orichalcum", "Raw Hope"]], None),
    ("Mirror Mind", "Obsidian Vein", [["Obsidian", "Permafrost"], ["Echoglass", "Raw Hope"]],
     None),
    ("Dust Splitter", "Obsidian Vein", [["Obsidian", "Raw Hope"], ["Diamond Dust"]], None),
    ("Prism", "Obsidian Vein", [["Obsidian", "Raw Hope"], ["Electrum", "Star Tear"],
                                ["Electrum", "Soulstone"]], None),
    ("Warpwalker", "Obsidian Vein", [["Obsidian", "Permafrost"], ["Electrum", "Star Tear"],
                                     ["Raw Hope", "Soulstone"]], {"steps": 0}),
    ("Pathfinder", "Obsidian Vein", [["Obsidian", "Permafrost"], ["Electrum", "Star Tear"]],
     {"steps": 0}),
    ("Sprinter", "Obsidian Vein", [["Obsidian", "Permafrost"], ["Electrum", "Star Tear"]],
     {"steps": 0}),
]


@pytest.mark.parametrize("skill, room, hand, rules", PAYS, ids=[p[0] for p in PAYS])
def test_greedy_uses_a_skill_that_pays_for_a_better_door(skill, room, hand, rules):
    without, _, _ = _build_turn(None, hand, room, rules=rules)
    score, uses, _ = _build_turn(skill, hand, room, rules=rules)
    assert uses == 1
    assert score > without


def test_greedy_leaves_a_skill_alone_where_it_does_not_pay():
    hand = [["Obsidian", "Permafrost"], ["Electrum", "Star Tear"]]  # pays the 2-point door
    for skill in ("Evocation", "Lodestone", "Harmonization"):
        score, uses, _ = _build_turn(skill, hand)
        assert uses == 0 and score == 2


def test_greedy_blinks_to_a_room_whose_door_it_can_pay():
    sc = Scenario("2e", players=1, heuristic="greedy", rules={"steps": 1})
    here = sc.place("Dead-end Grotto", 0, 0, rot=2)  # its one door leads nowhere it can pay
    there = sc.place("Obsidian Vein", 6, 6)
    sc.hand(0, ["Obsidian", "Permafrost"], ["Electrum", "Star Tear"])
    sc.tiles("Great Cavern", "Great Cavern")
    sc.stand(0, here)
    sc.skills(0, "Blink")
    sc.movement(0)
    assert sc.skill_uses(0)[0] == 1 and sc.score(0) == 2 and sc.st.pos[0] != here
    assert there >= 0


def _blink_to_ability(cavern_at):
    """Seat 1 stands in the Warped Mirror (its ability does nothing alone) holding Blink, with
    a Great Cavern (draw 2) at `cavern_at`, and a hand that pays no door of either."""
    sc = Scenario("2e", players=1, heuristic="greedy", rules={"steps": 1})
    here = sc.place("Warped Mirror", 0, 0)
    cavern = sc.place("Great Cavern", *cavern_at)
    sc.hand(0, ["Obsidian", "Star Tear"])  # pays no door of either room
    sc.tiles("Great Cavern", "Great Cavern")
    sc.stand(0, here)
    sc.skills(0, "Blink")
    sc.movement(0)
    return sc, here, cavern


def test_greedy_blinks_to_a_room_whose_ability_beats_any_it_can_walk_to():
    sc, _here, cavern = _blink_to_ability((6, 6))
    assert sc.skill_uses(0)[0] == 1 and sc.st.pos[0] == cavern


def test_greedy_walks_rather_than_blinks_to_an_ability_within_its_steps():
    sc, _here, cavern = _blink_to_ability((1, 0))  # through the Mirror's east door
    assert sc.skill_uses(0)[0] == 0 and sc.st.pos[0] == cavern


@pytest.mark.parametrize("skill, taken", [("Scavenger", 1), ("Magpie", 2)])
def test_greedy_recovers_the_top_of_the_discard_pile(skill, taken):
    _, uses, sc = _build_turn(skill, [["Fire Ruby", "Raw Hope"]],
                              discards=(["Soulstone", "Star Tear"], ["Obsidian", "Raw Hope"]))
    assert uses == taken


@pytest.mark.parametrize("cards, kept", [(6, 6), (7, 6), (5, 5)])
def test_greedy_keeps_its_cards_with_a_larger_hand_limit(cards, kept):
    sc = Scenario("2e", players=1, heuristic="greedy")
    r = sc.place("Obsidian Vein", 0, 0)
    pairs = [["Electrum", "Fire Ruby"], ["Obsidian", "Raw Hope"], ["Soulstone", "Star Tear"],
             ["Permafrost", "Fire Ruby"], ["Electrum", "Soulstone"], ["Raw Hope", "Star Tear"],
             ["Fire Ruby", "Obsidian"]]
    sc.hand(0, *pairs[:cards])
    sc.stand(0, r)
    sc.skills(0, "Deep Pockets")
    sc.discard_to_limit(0)
    assert sc.st.hand_n[0] == kept and sc.skill_uses(0)[0] == 1


@pytest.mark.parametrize("skill, drawn", [("Prospector", 3), ("Deep Delver", 4),
                                          ("Encore", 4)])
def test_greedy_draws_more_after_its_ability(skill, drawn):
    sc = Scenario("2e", players=1, heuristic="greedy")
    r = sc.place("Dead-end Grotto", 0, 0)  # draw 2
    sc.deck(*[["Electrum", "Fire Ruby"], ["Obsidian", "Raw Hope"], ["Soulstone", "Star Tear"],
              ["Permafrost", "Fire Ruby"], ["Electrum", "Soulstone"], ["Raw Hope", "Star Tear"]])
    sc.stand(0, r)
    sc.skills(0, skill)
    sc.action(0)
    assert sc.st.hand_n[0] == drawn and sc.skill_uses(0)[0] == 1


def test_every_skill_of_the_box_has_a_scenario_here():
    tested = {p[0] for p in PAYS} | {"Blink", "Scavenger", "Magpie", "Deep Pockets",
                                      "Prospector", "Deep Delver", "Encore"}
    assert tested == {k.name for k in load_content("gemrush-2e").skills}


def test_the_reference_player_searches_and_uses_skills():
    """The reference searches the skill uses of the movement step (they are step options) and
    the D_SKILL decisions; with a skill that always pays it uses it."""
    from balance.games.gemrush.engine import events as E
    from balance.games.gemrush.engine.decisions import D_SKILL, D_STEP
    from balance.games.gemrush.engine.forward import FORWARD
    from balance.games.gemrush.engine.state import S_VIOLATION
    from balance.games.gemrush.play import play_traced

    assert {D_SKILL, D_STEP} <= {kind for _name, kind in FORWARD.searchable}
    s = prepare("2e", "crisis", 1, "reference", exhaust=True,
                rules={"skills": "shared", "shared_skill": "Magpie"}, knobs={"budget": 8})
    st, ev = play_traced(s, 2, check=True)
    assert (ev[:, 2] == E.EV_SKILL).sum() > 5
    assert int(st.sc[S_VIOLATION]) == 0


# -- skills as levers -----------------------------------------------------------------------
PATCHED = """\
[experiment]
name = "longer-strides"
description = "Pathfinder's numbers as levers"
edition = "2e"
mode = "crisis"
games = 10
seed = 1
players = 2
exhaust = true
{rest}
"""


def _experiment(tmp_path, rest):
    from balance.running.experiment import load_experiment

    p = tmp_path / "e.toml"
    p.write_text(PATCHED.format(rest=rest))
    return load_experiment(p)


def test_a_patch_and_a_grid_reach_a_skills_numbers_and_copies(tmp_path):
    e = _experiment(tmp_path, """
[rules]
skills = "shared"
shared_skill = "Pathfinder"

[patches.stride]
select = { skills = "Pathfinder" }
effect = "extra steps 1"

[patches.more]
select = { skills = "Sprinter" }
copies = 3

[grid]
"stride.effect" = ["extra steps 1", "extra steps 3"]
"stride.uses" = [1, 2]
""")
    assert len(e.variants) == 4
    ops = []
    for v in e.variants:
        s = prepare_variant(v)
        k = s.skill_names.index("Pathfinder")
        ops.append((int(s.tables.skill_op[k, 1]), int(s.tables.skill_op[k, 5])))
        assert (s.tables.skill_deck == s.skill_names.index("Sprinter")).sum() == 3
    assert ops == [(1, 1), (1, 2), (3, 1), (3, 2)]


def test_amount_sets_the_number_in_a_skills_effect_and_sweeps(tmp_path):
    """Issue 26 item 6: the effect's number is a lever of its own (`balance tune` can seek
    it), where before only whole effect texts could be swept."""
    e = _experiment(tmp_path, """
[rules]
skills = "shared"
shared_skill = "Magpie"

[patches.nerf]
select = { skills = ["Magpie", "Deep Pockets", "Pathfinder"] }
amount = 1

[grid]
"nerf.amount" = [1, 2, 3]
""")
    effects = []
    for v in e.variants:
        s = prepare_variant(v)
        effects.append([int(s.tables.skill_op[s.skill_names.index(n), 1])
                        for n in ("Magpie", "Deep Pockets", "Pathfinder")])
        assert v.swept == {"nerf.amount": v.index + 1}
    assert effects == [[1, 1, 1], [2, 2, 2], [3, 3, 3]]
    # After an effect given in the same patch: the amount sets its number.
    e = _experiment(tmp_path, '[patches.p]\nselect = { skills = "Magpie" }\n'
                    'effect = "extra steps 1"\namount = 4\n')
    s = prepare_variant(e.variants[0])
    k = s.skill_names.index("Magpie")
    assert int(s.tables.skill_op[k, 1]) == 4


def test_balance_tune_seeks_a_skills_amount(tmp_path):
    from balance.running import goal_seek as gs
    e = _experiment(tmp_path, """
[rules]
skills = "shared"
shared_skill = "Magpie"

[patches.nerf]
select = { skills = "Magpie" }
amount = 1
""")
    goal = gs.parse_goal("score=40", e.game)
    evaluate, check = gs.experiment_evaluator(e, "nerf.amount", goal)
    scores = [float(evaluate(n, 0, 30).mean()) for n in (1, 3)]
    assert scores[1] > scores[0]  # recovering 3 cards a use is worth more than 1
    with pytest.raises(InputError, match="nerf.amount = 12: .*from 1 to 9"):
        check(12)


@pytest.mark.parametrize("rest, phrase", [
    ('[patches.p]\nselect = { skills = "Blink" }\namount = 2\n', "no number to set"),
    ('[patches.p]\nselect = { skills = "Lodestone" }\namount = 2\n', "no number to set"),
    ('[patches.p]\nselect = { skills = "Magpie" }\namount = 0\n', "from 1 to 9"),
    ('[patches.p]\nselect = { skills = "Magpie" }\namount = "2"\n', "whole number"),
    ('[patches.p]\nselect = { rooms = "* Vein" }\namount = 2\n', "select skills"),
    ('[patches.p]\nselect = { skills = "Pathfinder" }\ndoor_cost = -1\n', "skills alone"),
    ('[patches.p]\nselect = { rooms = "* Vein" }\nuses = 2\n', "select skills"),
    ('[patches.p]\nselect = { skills = "Levitation" }\nuses = 2\n', "selects no skill"),
    ('[patches.p]\nselect = { skills = "Pathfinder" }\neffect = "fly"\n', "unknown effect"),
    ('[patches.p]\nselect = { skills = "Pathfinder" }\neffect = 3\n', "effect in words"),
])
def test_a_bad_skill_patch_is_refused_by_name(tmp_path, rest, phrase):
    with pytest.raises(InputError, match=phrase):
        _experiment(tmp_path, rest)


def _greedy_pick(sc, kind, rows, p=0):
    from balance.games.gemrush.engine.options_nb import offer_nb
    from heuristics.gemrush.dispatch_nb import POLICY_GREEDY, pick_nb

    for i, r in enumerate(rows):
        offer_nb(sc.st, i, *r)
    return int(pick_nb(POLICY_GREEDY, kind, sc.st, sc.tb, sc.ru, sc.setup.players, len(rows),
                       p))


def test_greedy_chooses_the_skill_that_gives_cards_and_redraws_a_weak_one():
    from balance.games.gemrush.engine.decisions import D_SKILL, D_SKILL_PICK

    sc = Scenario("2e", players=1, heuristic="greedy")
    ids = {n: sc.setup.skill_names.index(n) for n in sc.setup.skill_names}
    pick = [("Pathfinder", "Scavenger"), ("Lodestone", "Stonecutter"), ("Magpie", "Scavenger"),
            ("Deep Pockets", "Encore", "Sprinter")]
    want = ["Scavenger", "Lodestone", "Magpie", "Encore"]
    for offered, best in zip(pick, want, strict=True):
        k = _greedy_pick(sc, D_SKILL_PICK, [(ids[n], 0, 0, 0) for n in offered])
        assert offered[k] == best
    # Chaos Magic, a skill not used this turn: (-1, -1) keeps it, (0, skill, 1) redraws it.
    for held, redraw in (("Pathfinder", 1), ("Deep Pockets", 1), ("Magpie", 0), ("Encore", 0)):
        assert _greedy_pick(sc, D_SKILL, [(-1, -1, 0, 0), (0, ids[held], 1, 0)]) == redraw
