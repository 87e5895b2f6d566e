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
from reports.gem_runner.cards import CARD_SCHEMA, card_value, pooled
from reports.gem_runner.cards_page import cards_section
from reports.gem_runner.levers import pairs_of
from reports.gem_runner.report import REPORT
from reports.page.build import comparisons_of
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

def card_rows(n: int = 400, variants=((0, H2H),), swept=None):
    """Head to head on Bit Boy's deck, seat 1 winning the even games: every card is drawn by
    half a seat's wins and half its losses (no association), but Ruby is drawn by the winner
    alone and Glitch by the loser alone; the winner plays every card it drew (so that each
    card played goes with wins), the loser none."""
    names = decks.card_names("bit_boy")
    ruby, glitch = 1 << names.index("Ruby"), 1 << names.index("Glitch")
    plain = [b for b, c in enumerate(names) if c not in ("Ruby", "Glitch")]
    rows, infos = [], []
    for i, rules in variants:
        infos.append(variant(i, rules, swept=swept[i] if swept else None))
        for g in range(n):
            row = game_row(i, g, winner=1 if g % 2 == 0 else 2)
            hand = sum(1 << b for b in plain if (g // 2 + b) % 2 == 0)
            won = [g % 2 == 0, g % 2 == 1]
            row["cards_drawn"] = [hand | (ruby if w else glitch) for w in won]
            row["cards_played"] = [d if w else 0
                                   for d, w in zip(row["cards_drawn"], won, strict=True)]
            rows.append(row)
    return run(rows, infos, {k: [sw[k] for sw in swept] for k in swept[0]} if swept else None)


def test_the_section_names_the_cards_that_stand_out_from_the_decks_typical_card():
    a = REPORT.analyse(card_rows())
    c = a.cards.filter((pl.col("card") == "Ruby") & (pl.col("seat") == 1)).row(0, named=True)
    assert (c["seats"], c["drew"], c["drew_wins"], c["played"]) == (400, 200, 200, 200)
    s = cards_section(a, [])
    [b] = s.blocks
    assert b.heading == "Bit Boy's deck"
    drawn, played = b.paragraphs[:2]
    # Played: every card goes with wins (the winner plays), Ruby more than the typical one.
    assert played.startswith("Played: the seats that played Bit Boy's Ruby (+")
    assert "Emerald" not in played and "won less" not in played
    assert drawn.startswith("Drawn: the seats that drew Bit Boy's Ruby (+100 pp against the "
                            "deck's typical card")
    assert "Glitch (−100 pp" in drawn and "won less often" in drawn
    assert "Emerald" not in drawn and drawn.endswith("(an association, not a cause).")
    rows = b.tables[0].rows
    assert [r[0] for r in rows[:1] + rows[-1:]] == ["Ruby", "Glitch"]
    assert rows[0][1] == "Gem" and rows[0][4].endswith("*") and not rows[1][4].endswith("*")
    assert len(rows) == len(decks.card_names("bit_boy"))


def test_a_deck_is_one_block_pooled_over_its_settings_each_seat_within_its_own():
    # Two settings that differ by the target: the same cards, the same deck, one block.
    swept = [{"target": 7}, {"target": 5}]
    made = card_rows(200, [(0, {**H2H, "target": 7}), (1, {**H2H, "target": 5})], swept)
    s = cards_section(REPORT.analyse(made), [])
    assert [b.heading for b in s.blocks] == ["Bit Boy's deck"]
    b = s.blocks[0]
    assert b.paragraphs[2].startswith("Pooled over 2 settings that play the deck whole, 800 seats")
    assert [len(t.rows) for t in b.tables] == [len(decks.card_names("bit_boy")), 2]


def test_a_card_drawn_more_where_seats_win_more_is_not_taken_for_a_good_card():
    # Setting A: seats win 80% and draw X 90%; setting B: 20% and 10%. Within each, X is
    # drawn alike by winners and losers: pooled raw, X would go with +51 pp.
    counts = pl.DataFrame(
        [("A", 1, 1, "bit_boy", "X", "Gem", 1000, 800, 900, 720, 0, 0),
         ("B", 1, 1, "bit_boy", "X", "Gem", 1000, 200, 100, 20, 0, 0)],
        schema=CARD_SCHEMA, orient="row")
    r = pooled(counts).row(0, named=True)
    assert r["drew_diff"] == pytest.approx(0, abs=1e-12) and r["drew_low"] < 0 < r["drew_high"]
    assert r["drew_share"] == 0.5 and r["played_diff"] is None


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
    # The report's section leads with the removal (a cause), then the deck, read on the full
    # decks' games alone.
    folder = tmp_path / "runs" / "gr-base-ablate-cards"
    cmps = comparisons_of([folder], [got.manifest])
    s = cards_section(REPORT.analyse(got), pairs_of(cmps, got.manifest))
    assert [b.heading for b in s.blocks] == ["Each card taken out of the decks", "Bit Boy's deck"]
    assert "the Computer's wins" in s.blocks[0].paragraphs[0]
    assert len(s.blocks[0].tables[0].rows) == len(decks.card_names("bit_boy"))
    assert "Pooled over 1 setting that plays the deck whole, 30 seats" in s.blocks[1].paragraphs[2]


def test_ablate_refuses_a_card_name_no_deck_holds_in_one_message(cli, tmp_path):
    f = tmp_path / "base.toml"
    f.write_text(BASE + '[rules]\nwithout = "Rubyy"\n', encoding="utf-8")
    r = cli("ablate", f, "--how", "cards", "--out", tmp_path / "runs")
    assert r.exit_code == 2 and r.stderr.count("error:") == 1, r.stderr
    assert "without" in r.stderr and "'Rubyy'" in r.stderr and "Traceback" not in r.output
    assert not (tmp_path / "runs").exists()
