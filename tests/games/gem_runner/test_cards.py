"""Which cards matter (Gem Runner): the card record against a plain replay of traced games, the
report's section on a table whose answer is known, and the removal of a card (`without`,
`balance ablate --how cards`), its refusals one message each."""

from __future__ import annotations

from dataclasses import replace

import polars as pl
import pytest

from balance.errors import InputError
from balance.games.gem_runner import decks
from balance.games.gem_runner.codes import (
    BEATEN,
    BUGGED,
    DRAWN,
    DUG,
    FINISHED,
    FIXED,
    FROM_DECK,
    FROM_HAND,
    NAME,
    PLACED,
    PLAYED,
    THROWN,
)
from balance.games.gem_runner.game import KIT
from balance.kit.play import play, played_traced, prepare
from balance.running.store import read_run
from reports.gem_runner.cards import card_value
from reports.gem_runner.cards_page import cards_section
from reports.gem_runner.report import REPORT
from tests.games.gem_runner.test_report import H2H, game_row, run, variant


def replayed(setup, state, events) -> list[tuple[set, set]]:
    """Each seat's (names drawn, names played) from the events and the hands at the end: a
    seat played what it laid, dug up for its Challenge, beat with, or played as a Bug or Bug
    Fix; it drew those, what it discarded, and what it holds."""
    n = setup.rules.players
    played = [set() for _ in range(n)]
    other = [set() for _ in range(n)]
    for row in events:
        seat, code, a, b = (int(x) for x in row[1:5])
        if not 0 <= seat < n:
            continue
        if code in (PLACED, BEATEN, BUGGED, FIXED) or (
                code == FINISHED and b in (FROM_HAND, FROM_DECK)):
            played[seat].add(a)
        elif code == THROWN:
            other[seat].add(a)
        elif code == DUG:
            other[seat].update(c for c in (a, b) if c >= 0)
    names = setup.tables.card[:, NAME]
    out = []
    for q in range(n):
        drawn = played[q] | other[q] | set(state.hand[q, : state.hand_n[q]].tolist())
        out.append(({int(names[c]) for c in drawn}, {int(names[c]) for c in played[q]}))
    return out


def bits(mask) -> set[int]:
    return {b for b in range(64) if int(mask) >> b & 1}


@pytest.mark.parametrize("rules, seats", [
    (H2H, ("runner", "random")),
    ({}, ("runner",)),
    ({"decks": 3}, ("runner", "random")),
    ({**H2H, "decks": 2, "hero2": "data_dog"}, ("runner",) * 4),
], ids=["head-to-head", "alone", "pair-three-decks", "four-two-decks"])
def test_the_card_record_is_what_a_replay_of_the_game_finds(rules, seats):
    setup = prepare(KIT, rules, seats)
    for seed in range(1, 5):
        state, records, events = played_traced(setup, seed)
        for q, (drawn, played) in enumerate(replayed(setup, state, events)):
            assert bits(records.rec[0, DRAWN + q]) == drawn, (seed, q)
            assert bits(records.rec[0, PLAYED + q]) == played, (seed, q)
            assert played <= drawn and len(drawn) >= setup.rules.hand - 2


def test_a_card_taken_out_is_never_drawn_and_the_deck_is_smaller():
    whole = prepare(KIT, H2H, ("runner", "runner"))
    ruby = decks.card_names("bit_boy").index("Ruby")
    without = prepare(KIT, {**H2H, "without": "Ruby"}, ("runner", "runner"))
    assert len(without.tables.card) == len(whole.tables.card) - 1
    assert ruby not in set(without.tables.card[:, NAME].tolist())
    records = play(without, range(200), check=True)
    assert not any(ruby in bits(m) for m in records.rec[:, DRAWN: DRAWN + 2].ravel())
    records = play(whole, range(200), check=True)
    assert any(ruby in bits(m) for m in records.rec[:, DRAWN: DRAWN + 2].ravel())


def test_a_name_no_deck_in_play_holds_is_refused_naming_the_field():
    with pytest.raises(InputError) as e:
        prepare(KIT, {"without": "Rubyy"}, ("runner",))
    [p] = e.value.problems
    assert p.field == "without" and "'Rubyy'" in p.message and "Bit Boy's deck" in p.message
    # Bit Boy's Spinning Blade is no card of Giga Girl's deck.
    with pytest.raises(InputError) as e:
        prepare(KIT, {"without": "Spinning Blade", "hero1": "giga_girl"}, ("runner",))
    assert e.value.problems[0].field == "without"


# -- The report's section ---------------------------------------------------------------------

def card_rows(n: int = 400):
    """Head to head on Bit Boy's deck: seat 1 plays Ruby in the first half of the games and
    wins them all; in the rest neither seat plays it and seat 2 wins. Both draw Emerald in
    every game: no comparison for it."""
    ruby = 1 << decks.card_names("bit_boy").index("Ruby")
    emerald = 1 << decks.card_names("bit_boy").index("Emerald")
    rows = []
    for g in range(n):
        first = g < n // 2
        row = game_row(0, g, winner=1 if first else 2)
        row["cards_drawn"] = [emerald | ruby, emerald]
        row["cards_played"] = [ruby if first else 0, 0]
        rows.append(row)
    return run(rows, [variant(0, H2H)])


def test_the_section_names_the_card_that_goes_with_wins_as_an_association():
    a = REPORT.analyse(card_rows())
    c = a.cards.filter(pl.col("card") == "Ruby").row(0, named=True)
    assert (c["seats"], c["played"], c["played_wins"], c["drew"]) == (800, 200, 200, 400)
    assert c["played_rate"] == 1.0 and c["played_not_rate"] == pytest.approx(200 / 600)
    assert c["played_diff_low"] > 0.5
    emerald = a.cards.filter(pl.col("card") == "Emerald").row(0, named=True)
    assert emerald["drew_share"] == 1.0 and emerald["drew_diff"] is None
    s = cards_section(a, [])
    said = s.blocks[0].paragraphs[0]
    assert said.startswith("The seats that played Bit Boy's Ruby (+67 pp")
    assert "won more often" in said and "an association, not a cause" in said
    rows = s.blocks[0].tables[0].rows
    assert rows[0][:2] == ["Ruby", "Gem"]
    assert len(rows) == len(decks.card_names("bit_boy"))


def test_a_table_without_the_card_record_says_so():
    made = card_rows(10)
    a = REPORT.analyse(made)
    old = made.games.drop("cards_drawn", "cards_played")
    assert card_value(old, made.manifest, a.kinds).height == 0
    s = cards_section(replace(a, cards=card_value(old, made.manifest, a.kinds)), [])
    assert "no card record" in s.missing[0] and not s.blocks


# -- Removal: balance ablate --how cards ------------------------------------------------------

BASE = """\
[experiment]
name = "gr-base"
description = "a runner against the Computer"
game = "gem_runner"
heuristic = "runner"
players = 1
games = 30
seed = 5
"""


def test_ablate_takes_each_card_of_the_deck_out_on_common_seeds(cli, tmp_path):
    f = tmp_path / "base.toml"
    f.write_text(BASE, encoding="utf-8")
    r = cli("ablate", f, "--how", "cards", "--out", tmp_path / "runs", "--jobs", 1)
    assert r.exit_code == 0, r.output
    got = read_run(tmp_path / "runs" / "gr-base-ablate-cards", lazy_tables=False)
    games = got.games if isinstance(got.games, pl.DataFrame) else got.games.collect()
    assert games["ablate"].unique(maintain_order=True).to_list() == [
        "none", *decks.card_names("bit_boy")]
    seeds = games.group_by("ablate").agg(pl.col("seed").sort())
    assert len({tuple(s) for s in seeds["seed"]}) == 1
    ruby = decks.card_names("bit_boy").index("Ruby")
    drew = games.filter(pl.col("ablate") == "Ruby")["cards_drawn"].explode()
    assert not any(ruby in bits(m) for m in drew.to_list())


def test_ablate_refuses_a_card_name_no_deck_holds_in_one_message(cli, tmp_path):
    f = tmp_path / "base.toml"
    f.write_text(BASE + '[rules]\nwithout = "Rubyy"\n', encoding="utf-8")
    r = cli("ablate", f, "--how", "cards", "--out", tmp_path / "runs")
    assert r.exit_code == 2 and r.stderr.count("error:") == 1, r.stderr
    assert "without" in r.stderr and "'Rubyy'" in r.stderr and "Traceback" not in r.output
    assert not (tmp_path / "runs").exists()
