"""Gem Mountain's scoring: the rulebook's three-player example (rebuilt from its words: its
picture is not in the text we hold), every reading switch, and the compiled scoring against a
plain-Python brute force written from the rulebook's sentences on thousands of end positions."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.gem_mountain.rules_nb import VALUES, gain_nb, scores_nb
from tests.games.gem_mountain.scenario import game, gem

RUBY, SAPPHIRE = 0, 1


def dealt(st, hands: list[list[int]]) -> None:
    """Each seat's collection set to `hands` (tile codes), nothing else held."""
    st.hand[:] = 0
    st.cnt[:] = 0
    st.vsum[:] = 0
    for q, codes in enumerate(hands):
        for code in codes:
            gain_nb(st, q, code, 1)


def scored(rules: dict, hands: list[list[int]], least: bool = True) -> list[int]:
    s = game(rules, players=len(hands))
    st = s.state
    dealt(st, hands)
    out = np.zeros(len(hands), np.int64)
    scores_nb(st, s.rules, out, least)
    return out.tolist()


# Three players: A holds rubies of 1, 1 and 3 and a sapphire of 2; B a ruby of 2 and sapphires
# of 1 and 3; C no ruby and sapphires of 2 and 2.
EXAMPLE = [[gem(RUBY, 1), gem(RUBY, 1), gem(RUBY, 3), gem(SAPPHIRE, 2)],
           [gem(RUBY, 2), gem(SAPPHIRE, 1), gem(SAPPHIRE, 3)],
           [gem(SAPPHIRE, 2), gem(SAPPHIRE, 2)]]


def test_three_players_most_adds_least_subtracts_ties_both_ways():
    # Ruby: A has the most (+5), B the least of those holding it (-2). Sapphire: B and C share
    # the most (+4 each), A has the least (-2).
    assert scored({}, EXAMPLE) == [5 - 2, -2 + 4, 4]


def test_holding_none_counts_as_the_least_when_the_rules_say():
    # Ruby: C's none is the least and costs nothing; B is no longer the least.
    assert scored({"none_is_least": True}, EXAMPLE) == [5 - 2, 4, 4]


def test_most_and_least_by_value():
    # By value: ruby A 5, B 2; sapphire A 2, B 4, C 4: the same places here.
    assert scored({"majority_by": "value"}, EXAMPLE) == [3, 2, 4]
    # Two rubies of 1 against one of 3: by tiles A has the most, by value B.
    hands = [[gem(RUBY, 1), gem(RUBY, 1)], [gem(RUBY, 3)]]
    assert scored({}, hands) == [2, -3]
    assert scored({"majority_by": "value"}, hands) == [-2, 3]


@pytest.mark.parametrize("all_tie, points", [("most", [3, 3]), ("neither", [0, 0]),
                                             ("both", [0, 0])])
def test_every_player_level_on_a_colour(all_tie, points):
    hands = [[gem(RUBY, 3)], [gem(RUBY, 3)]]
    assert scored({"all_tie": all_tie}, hands) == points


def test_a_lone_holder_has_the_most():
    assert scored({}, [[gem(RUBY, 2)], [], []]) == [2, 0, 0]
    assert scored({"all_tie": "neither"}, [[gem(RUBY, 2)], [], []]) == [0, 0, 0]
    assert scored({"none_is_least": True}, [[gem(RUBY, 2)], [], []]) == [2, 0, 0]


def brute(hands: list[list[int]], colours: int, by_value: bool, none_least: bool,
          all_tie: str, least: bool = True) -> list[int]:
    """The rulebook's sentences, plainly: per colour, who has the most adds the values of
    their tiles of it, who has the least subtracts them, ties allowed both ways."""
    n = len(hands)
    total = [0] * n
    for k in range(colours):
        mine = [[c % VALUES + 1 for c in h if c // VALUES == k] for h in hands]
        measure = [sum(v) if by_value else len(v) for v in mine]
        if not any(measure):
            continue
        counted = [q for q in range(n) if measure[q] > 0 or none_least]
        most = {q for q in range(n) if measure[q] == max(measure)}
        fewest = {q for q in counted if measure[q] == min(measure[p] for p in counted)}
        if len({measure[q] for q in counted}) == 1:  # every counted player level
            most = most if all_tie in ("most", "both") else set()
            fewest = fewest if all_tie == "both" else set()
        for q in range(n):
            total[q] += sum(mine[q]) * ((q in most) - (least and q in fewest))
    return total


def test_the_compiled_scoring_agrees_with_the_brute_force_on_thousands_of_end_positions():
    rng = np.random.default_rng(51)
    checked = 0
    for by in ("tiles", "value"):
        for none_least in (False, True):
            for all_tie in ("most", "neither", "both"):
                for n in (2, 3, 4, 5):
                    s = game({"majority_by": by, "none_is_least": none_least,
                              "all_tie": all_tie}, players=n)
                    st = s.state
                    out = np.zeros(n, np.int64)
                    for _ in range(60):
                        hands = [[int(c) for c in rng.integers(0, 5 * VALUES,
                                                               rng.integers(0, 9))]
                                 for _ in range(n)]
                        dealt(st, hands)
                        for least in (True, False):
                            scores_nb(st, s.rules, out, least)
                            assert out.tolist() == brute(hands, 5, by == "value", none_least,
                                                         all_tie, least), hands
                            checked += 1
    assert checked >= 5000


def test_wildcards_joined_to_their_piles_score_as_the_brute_force_reads_them():
    """Gemshards' Wildcard, joined through the rules (join_nb) to a pile its holder has: the
    reading is that it becomes a gem of that colour worth `wild_value`, one tile more of it
    for the most and the least, its value added or subtracted with the pile."""
    from balance.games.gem_mountain.codes import WILD
    from balance.games.gem_mountain.shards_nb import gain_nb, join_nb

    rng = np.random.default_rng(52)
    checked = 0
    for wild_value in (1, 2, 3):
        for by in ("tiles", "value"):
            for n in (2, 3, 4):
                s = game({"gemshards": True, "wild_value": wild_value, "majority_by": by},
                         players=n)
                st = s.state
                out = np.zeros(n, np.int64)
                for _ in range(80):
                    hands = [[int(c) for c in rng.integers(0, 5 * VALUES, rng.integers(0, 7))]
                             for _ in range(n)]
                    dealt(st, hands)
                    read = [list(h) for h in hands]
                    for q in range(n):
                        piles = sorted({c // VALUES for c in hands[q]})
                        for _ in range(rng.integers(0, 3) if piles else 0):
                            k = int(rng.choice(piles))
                            gain_nb(st, q, WILD, 1)  # grabbed: it waits for its pile
                            join_nb(st, q, k, k * VALUES + wild_value - 1)
                            read[q].append(k * VALUES + wild_value - 1)
                    assert st.hand[:, WILD].sum() == 0
                    scores_nb(st, s.rules, out, True)
                    assert out.tolist() == brute(read, 5, by == "value", False, "most"), read
                    checked += 1
    assert checked >= 1000
